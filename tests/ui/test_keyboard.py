"""The window without a mouse, and what it looks like to someone who needs contrast: the Tools tab at the default
size, the dark theme's check boxes and icons (measured from grabs), the keyboard path to every action on a
message, the Tab order, accessible names and the shortcuts list."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QLineEdit, QListWidget, QPlainTextEdit,
                               QProgressBar, QPushButton, QStyle, QStyleOptionButton, QStyleOptionViewItem,
                               QTableWidget, QWidget)

from hermes_desktop.ui.chat.items import BannerItem, MessageItem, ToolCardItem
from tests.support.model_server import CallScript, error_reply, text_reply, tool_call_reply


# ------------------------------------------------------------------------------------------------ helpers
def luminance(colour: QColor) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) + 0.0722 * channel(colour.blue())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG 2 contrast ratio."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ring_contrast(image: QImage, rect: QRect, background: QColor) -> float:
    """The best contrast against `background` on the indicator's outline (its outer two pixels): WCAG 1.4.11 asks
    the boundary of a control, not just its tick, to stand out."""
    best = 0.0
    for x in range(rect.left(), rect.right() + 1):
        for y in range(rect.top(), rect.bottom() + 1):
            edge = min(x - rect.left(), rect.right() - x, y - rect.top(), rect.bottom() - y)
            if edge <= 1 and 0 <= x < image.width() and 0 <= y < image.height():
                best = max(best, contrast(image.pixelColor(x, y), background))
    return best


def inner_contrast(image: QImage, rect: QRect) -> float:
    """Inside a checked indicator: the best contrast between the tick and the box's fill (its corner colour)."""
    inner = rect.adjusted(3, 3, -3, -3)
    fill = image.pixelColor(inner.left(), inner.top())
    return max(contrast(image.pixelColor(x, y), fill) for x in range(inner.left(), inner.right() + 1)
               for y in range(inner.top(), inner.bottom() + 1))


def grabbed(widget: QWidget) -> QImage:
    image = widget.grab().toImage()
    ratio = image.devicePixelRatio()
    if ratio != 1:
        image = image.scaled(int(image.width() / ratio), int(image.height() / ratio))
    return image


def checkbox_indicator(box: QCheckBox) -> QRect:
    option = QStyleOptionButton()
    option.initFrom(box)
    option.text = box.text()
    option.rect = box.rect()
    return box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)


def tree_indicator(tree, item) -> QRect:
    """Where the style puts the item's check box, in viewport coordinates."""
    index = tree.indexFromItem(item, 0)
    option = QStyleOptionViewItem()
    option.initFrom(tree)
    option.rect = tree.visualRect(index)
    option.features = (QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
                       | QStyleOptionViewItem.ViewItemFeature.HasDisplay)
    option.text = item.text(0)
    option.checkState = item.checkState(0)
    option.font = tree.font()
    return tree.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, option, tree)


def icon_cluster_contrast(image: QImage) -> float:
    """A button's icon (the leftmost drawn shape, left of its text) against the button's own background."""
    counts: dict[int, int] = {}
    for x in range(4, image.width() - 4):  # inside the frame: the button's own fill
        for y in range(4, image.height() - 4):
            counts[image.pixel(x, y)] = counts.get(image.pixel(x, y), 0) + 1
    background = QColor.fromRgba(max(counts, key=counts.get))
    inner = range(4, image.height() - 4)

    def drawn(x: int) -> bool:
        return any(contrast(image.pixelColor(x, y), background) > 1.3 for y in inner)

    columns = [x for x in range(4, image.width() - 4) if drawn(x)]
    assert columns, "nothing drawn on the button"
    first = columns[0]
    cluster = [first]
    for x in columns[1:]:
        if x - cluster[-1] > 2:
            break
        cluster.append(x)
    assert len(cluster) < image.width() / 3, "the first shape is the icon, not the whole label"
    return max(contrast(image.pixelColor(x, y), background) for x in cluster for y in inner)


def rows(window) -> list:
    return window.chat.model.items()


def first_exchange(h, model_server, question: str, answer: str) -> None:
    """The session's first question sent and its answer finished: two rows, neither streaming."""
    model_server.enqueue(text_reply(answer))
    h.send(question)
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session or "") and len(rows(h.window)) == 2
                 and not rows(h.window)[1].streaming, what="the reply")


def open_menu_with(h, key: Qt.Key, modifier=Qt.KeyboardModifier.NoModifier):
    view = h.window.chat.view
    view.actions_menu = None
    h.do(lambda: QTest.keyClick(view, key, modifier))
    menu = h.wait_until(lambda: getattr(view, "actions_menu", None), what="the message's actions menu")
    entries = {a.text(): a for a in menu.actions()}
    return menu, entries


def focus_row(h, item) -> None:
    view = h.window.chat.view
    h.do(lambda: (view.setFocus(), view.setCurrentIndex(view.model().index(rows(h.window).index(item), 0))))


# ------------------------------------------------------------------------------------------------ Tools tab
def test_the_tools_tab_fits_at_the_default_window_size(make_window) -> None:
    h = make_window()
    window = h.window
    h.do(lambda: window.resize(1340, 840))
    h.do(lambda: window.inspector.setCurrentWidget(window.inspector.tools))
    h.settle(0.2)
    tree = window.inspector.tools
    assert window.width() == 1340
    assert tree.header().length() <= tree.viewport().width(), "the columns are wider than the list"
    assert tree.horizontalScrollBar().maximum() == 0 and not tree.horizontalScrollBar().isVisible()
    combos = [c for c in tree.findChildren(QComboBox) if c.objectName().startswith("rule:")]
    assert len(combos) >= 13
    for combo in combos:
        assert combo.isVisible() and combo.width() >= combo.sizeHint().width(), combo.objectName()
        assert combo.geometry().right() <= tree.viewport().width(), "the combo (and its arrow) is inside the list"
    item = window.inspector.tool_item("get_current_time")
    name_room = tree.visualRect(tree.indexFromItem(item, 0)).width()
    assert name_room >= tree.fontMetrics().horizontalAdvance("get_current_time") + 24, "built-in names are not cut"


# ------------------------------------------------------------------------------------------------ contrast
def test_dark_theme_check_boxes_and_icons_have_3_to_1_contrast(make_window) -> None:
    h = make_window()
    window = h.window
    h.do(lambda: window.set_theme("dark"))
    h.do(lambda: window.inspector.setCurrentWidget(window.inspector.tools))
    h.settle(0.2)
    theme = window.theme_manager.theme
    assert theme.dark
    tree = window.inspector.tools
    image = grabbed(tree.viewport())
    checked = window.inspector.tool_item("calculate")
    h.do(lambda: window.inspector.tool_item("fetch_url").setCheckState(0, Qt.CheckState.Unchecked))
    image = grabbed(tree.viewport())
    for item in (checked, window.inspector.tool_item("fetch_url")):
        rect = tree_indicator(tree, item)
        assert rect.width() >= 10
        background = image.pixelColor(rect.right() + 3, rect.center().y())
        assert contrast(background, QColor(theme.base)) < 1.2, "sampled the list's background"
        assert ring_contrast(image, rect, background) >= 3.0, f"{item.text(0)}: its box is not visible"
    assert inner_contrast(image, tree_indicator(tree, checked)) >= 3.0, "the tick stands out from its box"
    row = tree.visualRect(tree.indexFromItem(checked, 0))
    branch = QRect(row.left() - tree.indentation(), row.top(), tree.indentation(), row.height())
    base = QColor(theme.base)
    assert max(contrast(image.pixelColor(x, y), base) for x in range(branch.left(), branch.right() + 1)
               for y in range(branch.top(), branch.bottom() + 1)) >= 3.0, "the expand arrow is visible"

    for box in (window.dry_run,):
        shot = grabbed(box)
        rect = checkbox_indicator(box)
        background = shot.pixelColor(rect.left() - 1 if rect.left() > 1 else rect.right() + 2, rect.center().y())
        assert ring_contrast(shot, rect, background) >= 3.0, "Dry run's box is visible"

    h.do(window.open_settings)
    dialog = h.wait_until(lambda: getattr(window, "settings_dialog", None), what="the settings dialog")
    h.do(lambda: dialog.tabs.setCurrentIndex(1))
    h.settle(0.1)
    skills = dialog.findChild(QCheckBox, "agentsSkillsCheck")
    for state in (False, True):
        h.do(lambda: (skills.blockSignals(True), skills.setChecked(state), skills.blockSignals(False)))
        shot = grabbed(skills)
        rect = checkbox_indicator(skills)
        background = shot.pixelColor(rect.right() + 2, 1)
        assert ring_contrast(shot, rect, background) >= 3.0, "the Skills setting's box is visible"
        if state:
            assert inner_contrast(shot, rect) >= 3.0
    close = next(b for b in dialog.findChildren(QPushButton) if b.text().replace("&", "") == "Close")
    if close.icon().isNull():  # the offscreen platform shows no icons on dialog buttons; X11 desktops do
        h.do(lambda: close.setIcon(close.style().standardIcon(QStyle.StandardPixmap.SP_DialogCloseButton)))
    assert not close.icon().isNull()
    assert icon_cluster_contrast(grabbed(close)) >= 3.0, "the Close button's icon is light on dark"
    h.do(dialog.reject)


# ------------------------------------------------------------------------------------------------ keyboard
def test_every_action_on_a_reply_and_a_user_message_is_reachable_from_the_keyboard(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(text_reply("The answer is forty-two.\n\n```\nprint(42)\n```"))
    h.send("what is the answer")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session or "") and any(
        isinstance(i, MessageItem) and i.role == "assistant" and not i.streaming and i.text for i in rows(h.window)),
                 what="the reply")
    view = h.window.chat.view
    h.do(lambda: (view.clearFocus(), view.setCurrentIndex(view.model().index(-1, 0))))
    h.do(lambda: view.setFocus(Qt.FocusReason.TabFocusReason))
    h.wait_until(lambda: view.currentIndex().isValid(), what="a current message")
    reply = rows(h.window)[view.currentIndex().row()]
    assert isinstance(reply, MessageItem) and reply.role == "assistant", "focus lands on the newest message"
    menu, entries = open_menu_with(h, Qt.Key.Key_Menu)
    assert {"Copy", "Regenerate", "Fork", "Copy code"} <= set(entries)
    h.do(lambda: entries["Copy"].trigger())
    assert QApplication.clipboard().text() == reply.text
    h.do(menu.close)
    menu, entries = open_menu_with(h, Qt.Key.Key_Menu)
    h.do(lambda: entries["Copy code"].trigger())
    assert QApplication.clipboard().text() == "print(42)"

    # Up to the user's message; Shift+F10 opens its menu; Edit puts it in the box.
    h.do(lambda: QTest.keyClick(view, Qt.Key.Key_Up))
    user = rows(h.window)[view.currentIndex().row()]
    assert isinstance(user, MessageItem) and user.role == "user"
    menu, entries = open_menu_with(h, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    assert {"Copy", "Edit", "Fork"} <= set(entries)
    h.do(lambda: entries["Edit"].trigger())
    assert h.window.chat.input.toPlainText() == "what is the answer"
    h.do(h.window.chat.cancel_editing)

    # Regenerate and Fork from the keyboard reach the controller.
    focus_row(h, reply)
    model_server.enqueue(text_reply("A second answer."))
    menu, entries = open_menu_with(h, Qt.Key.Key_Menu)
    h.do(lambda: entries["Regenerate"].trigger())
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.text == "A second answer." for i in rows(h.window)),
                 what="the regenerated reply")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    before = {s.id for s in h.controller.store.list_sessions()}
    h.run(h.window.open_session(h.window.current_session, None))
    latest = next(i for i in reversed(rows(h.window)) if isinstance(i, MessageItem) and i.role == "assistant")
    focus_row(h, latest)
    menu, entries = open_menu_with(h, Qt.Key.Key_Menu)
    assert {"Previous version"} <= set(entries), "the versions are reachable too"
    h.do(lambda: entries["Fork"].trigger())
    h.wait_until(lambda: {s.id for s in h.controller.store.list_sessions()} - before, what="the forked session")


def test_tool_card_toggles_and_inline_approval_from_the_keyboard(make_window, model_server, workspace_dir) -> None:
    h = make_window()
    long_text = "\n".join(f"line {n}" for n in range(40))
    (workspace_dir / "long.txt").write_text(long_text)
    model_server.enqueue(tool_call_reply(CallScript("read_file", {"path": "long.txt"})), text_reply("Read it."))
    h.send("read long.txt")
    card = h.wait_until(lambda: next((i for i in rows(h.window) if isinstance(i, ToolCardItem) and i.status == "done"),
                                     None), what="the read card")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    focus_row(h, card)
    menu, entries = open_menu_with(h, Qt.Key.Key_Menu)
    assert "Arguments" in entries and any(t.startswith("Result") for t in entries)
    h.do(lambda: entries["Arguments"].trigger())
    assert card.args_open
    h.do(lambda: next(a for t, a in entries.items() if t.startswith("Result")).trigger())
    assert card.result_open
    menu, entries = open_menu_with(h, Qt.Key.Key_Menu)
    show_all = next(a for t, a in entries.items() if t.startswith("Show all"))
    h.do(show_all.trigger)
    assert card.show_all

    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "a.txt", "content": "x"})),
                         text_reply("Not written."))
    h.send("write a.txt")
    h.wait_until(lambda: h.window.approver.dialog, what="the approval dialog")
    waiting = h.wait_until(lambda: next((i for i in rows(h.window) if isinstance(i, ToolCardItem)
                                         and i.status == "waiting"), None), what="the waiting card")
    focus_row(h, waiting)
    menu, entries = open_menu_with(h, Qt.Key.Key_Menu)
    assert {"Deny", "Allow once", "Allow for this session"} <= set(entries)
    h.do(lambda: entries["Deny"].trigger())
    h.wait_until(lambda: waiting.status == "denied", what="the denied card")
    assert not (workspace_dir / "a.txt").exists()


def test_retry_on_an_error_banner_from_the_keyboard(make_window, model_server) -> None:
    h = make_window()
    model_server.enqueue(error_reply(500, "the server fell over"), error_reply(500, "the server fell over"),
                         error_reply(500, "the server fell over"))
    h.send("hello")
    banner = h.wait_until(lambda: next((i for i in rows(h.window) if isinstance(i, BannerItem)), None), what="banner")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    assert "retry" in banner.actions
    sent = len(model_server.chat_requests)
    model_server.enqueue(text_reply("Back again."))
    focus_row(h, banner)
    menu, entries = open_menu_with(h, Qt.Key.Key_Menu)
    h.do(lambda: entries["Retry"].trigger())
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.text == "Back again." for i in rows(h.window)),
                 what="the retried reply")
    assert len(model_server.chat_requests) > sent


def test_tab_goes_sidebar_then_chat_then_inspector_and_the_tools_list_is_one_stop(make_window, model_server) -> None:
    h = make_window()
    window = h.window
    model_server.enqueue(text_reply("ok"))
    h.send("hi")
    h.wait_until(lambda: not h.controller.is_busy(window.current_session or "") and len(rows(window)) >= 2, what="idle")
    h.do(lambda: window.inspector.setCurrentWidget(window.inspector.tools))
    h.do(lambda: (window.activateWindow(), window.sidebar.search.setFocus(Qt.FocusReason.TabFocusReason)))
    h.wait_until(lambda: QApplication.focusWidget() is window.sidebar.search, what="focus in the search box")
    seen: list[QWidget] = []
    for _ in range(40):
        widget = QApplication.focusWidget()
        seen.append(widget)
        h.do(lambda w=widget: QTest.keyClick(w, Qt.Key.Key_Tab))
        if QApplication.focusWidget() is window.inspector.tools:
            seen.append(window.inspector.tools)
            break

    def where(widget: QWidget) -> str:
        for name, area in (("sidebar", window.sidebar), ("chat", window.chat), ("inspector", window.inspector)):
            if widget is area or area.isAncestorOf(widget):
                return name
        return "other"

    areas = [where(w) for w in seen]
    assert areas[-1] == "inspector", f"Tab reached the tools list: {areas}"
    order = [a for i, a in enumerate(areas) if i == 0 or areas[i - 1] != a]
    assert order == ["sidebar", "chat", "inspector"], order
    assert window.chat.view in seen and window.sidebar.list in seen and window.chat.input in seen
    # Inside the list: Tab leaves it at once (no walk through the rule combos), arrows move, F4 opens a rule.
    tree = window.inspector.tools
    h.do(lambda: tree.setCurrentItem(window.inspector.tool_item("calculate")))
    h.do(lambda: QTest.keyClick(tree, Qt.Key.Key_Down))
    h.do(lambda: QTest.keyClick(tree, Qt.Key.Key_Down))
    assert tree.currentItem() is not window.inspector.tool_item("calculate")
    h.do(lambda: QTest.keyClick(tree, Qt.Key.Key_Tab))
    after = QApplication.focusWidget()
    assert not (isinstance(after, QComboBox) and after.objectName().startswith("rule:")), "Tab left the list"
    h.do(lambda: tree.setCurrentItem(window.inspector.tool_item("write_file")))
    h.do(lambda: tree.setFocus())
    h.do(lambda: QTest.keyClick(tree, Qt.Key.Key_F4))
    combo = tree.itemWidget(window.inspector.tool_item("write_file"), 2)
    h.wait_until(lambda: combo.view().isVisible(), what="the rule's list")
    h.do(lambda: (QTest.keyClick(combo.view(), Qt.Key.Key_Down), QTest.keyClick(combo.view(), Qt.Key.Key_Return)))
    h.wait_until(lambda: combo.currentData() == "always_allow", what="the rule chosen from the keyboard")
    h.wait_until(lambda: h.controller.rules.get(combo.objectName().removeprefix("rule:")) == "always_allow",
                 what="the rule saved")


def test_controls_have_accessible_names(make_window, model_server) -> None:
    h = make_window()
    window = h.window
    combos = [c for c in window.inspector.tools.findChildren(QComboBox) if c.objectName().startswith("rule:")]
    names = {c.accessibleName() for c in combos}
    assert len(names) == len(combos), "each rule combo is named after its own tool"
    write = window.inspector.tools.itemWidget(window.inspector.tool_item("write_file"), 2)
    assert "write_file" in write.accessibleName()
    assert window.mode_switch.accessibleName() and window.findChild(QProgressBar, "contextMeter").accessibleName()
    h.do(window.open_settings)
    dialog = h.wait_until(lambda: getattr(window, "settings_dialog", None), what="the settings dialog")
    for name in ("profileList", "ruleList"):
        assert dialog.findChild(QListWidget, name).accessibleName(), name
    assert dialog.findChild(QLineEdit, "workspaceEdit").accessibleName()
    fields = [e for e in dialog.findChildren(QLineEdit) if e.isReadOnly()]
    opens = [b for b in dialog.findChildren(QPushButton) if b.text() == "Open"]
    assert len(fields) == len(opens) == 4
    assert len({f.accessibleName() for f in fields}) == 4 and all(f.accessibleName() for f in fields)
    assert len({b.accessibleName() for b in opens}) == 4
    for field, button in zip(fields, opens):
        assert field.accessibleName() in button.accessibleName(), "an Open button is named after its field"
    h.do(dialog.reject)
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "b.txt", "content": "y"})), text_reply("no"))
    h.send("write b.txt")
    approval = h.wait_until(lambda: window.approver.dialog, what="the approval dialog")
    assert approval.findChild(QPlainTextEdit, "argsView").accessibleName()
    h.do(lambda: approval.findChild(QPushButton, "denyButton").click())
    h.wait_until(lambda: not h.controller.is_busy(window.current_session), what="idle")


def test_the_shortcuts_list_is_complete(make_window) -> None:
    h = make_window()
    h.do(lambda: __import__("hermes_desktop.ui.tasks", fromlist=["spawn"]).spawn(h.window.show_shortcuts()))
    dialog = h.wait_until(lambda: h.window.findChild(QWidget, "shortcutsDialog"), what="the shortcuts dialog")
    table = dialog.findChild(QTableWidget)
    keys = " | ".join(table.item(r, 0).text() for r in range(table.rowCount()))
    for needed in ("Ctrl+Q", "F2", "Menu key", "Shift+F10", "Ctrl+N", "Ctrl+K", "F4"):
        assert needed in keys, needed
    # Readable as it opens: no sideways scrolling, the actions' column wide, every row tall enough for its text.
    h.settle(0.1)
    assert not table.horizontalScrollBar().isVisible()
    assert table.columnWidth(1) >= 300 and table.columnViewportPosition(1) + table.columnWidth(1) <= \
        table.viewport().width() + 1
    metrics = table.fontMetrics()
    for row in range(table.rowCount()):
        for column in (0, 1):
            needed = metrics.boundingRect(0, 0, table.columnWidth(column) - 8, 10_000, Qt.TextFlag.TextWordWrap,
                                          table.item(row, column).text()).height()
            assert table.rowHeight(row) >= needed, (row, column, table.item(row, column).text())
    h.do(dialog.reject)


def test_focus_rings_show_in_both_themes(make_window) -> None:
    """A button, the search box and a combo reached with Tab carry an accent ring at 3:1 or more against the window,
    light and dark; without the focus there is none, and a button clicked with the mouse shows none."""
    h = make_window()
    window = h.window
    h.do(window.activateWindow)

    def tab_to(widget: QWidget) -> None:
        before = widget.previousInFocusChain()
        while not (before.focusPolicy() & Qt.FocusPolicy.TabFocus and before.isVisible() and before.isEnabled()):
            before = before.previousInFocusChain()
        h.do(lambda: before.setFocus(Qt.FocusReason.OtherFocusReason))
        h.do(lambda: QTest.keyClick(before, Qt.Key.Key_Tab))
        h.wait_until(lambda: widget.hasFocus(), what=f"Tab to {widget.objectName()}")

    def has_ring(image: QImage, accent: QColor) -> list[QColor]:
        centre = QPoint(image.width() // 2, image.height() // 2)
        edge = [image.pixelColor(x, centre.y()) for x in (1, 2)] + [image.pixelColor(centre.x(), y) for y in (1, 2)]
        return [c for c in edge if contrast(c, accent) < 1.3]

    for preference in ("light", "dark"):
        h.do(lambda p=preference: window.set_theme(p))
        theme = window.theme_manager.theme
        accent = QColor(theme.accent)
        for widget in (window.sidebar.new_button, window.sidebar.search, window.mode_switch):
            h.do(lambda: window.chat.input.setFocus(Qt.FocusReason.OtherFocusReason))
            assert not has_ring(grabbed(widget), accent), "no ring without the focus"
            tab_to(widget)
            ring = has_ring(grabbed(widget), accent)
            assert ring, f"{widget.objectName()}: no accent ring ({preference})"
            assert all(contrast(c, QColor(theme.window)) >= 3.0 for c in ring), "the ring stands out from the window"
    h.do(lambda: window.inspector.setCurrentIndex(1))
    button = window.findChild(QPushButton, "reloadSkillsButton")
    h.do(lambda: QTest.mouseClick(button, Qt.MouseButton.LeftButton))
    h.wait_until(lambda: button.hasFocus(), what="the clicked button to hold the focus")
    assert not has_ring(grabbed(button), QColor(window.theme_manager.theme.accent)), "a click draws no ring"

def test_right_click_opens_the_clicked_message_menu_and_the_menu_key_opens_one_menu(make_window, model_server) -> None:
    from PySide6.QtGui import QContextMenuEvent

    h = make_window()
    first_exchange(h, model_server, "short question", "Short answer.")
    view = h.window.chat.view
    user_rect = view.visualRect(view.model().index(0, 0))
    point = QPoint(user_rect.right() - 40, user_rect.top() + 20)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point, view.viewport().mapToGlobal(point))
    h.do(lambda: QApplication.sendEvent(view.viewport(), event))
    menu = h.wait_until(lambda: getattr(view, "actions_menu", None), what="the menu")
    assert "Edit" in [a.text() for a in menu.actions()], "the menu of the row under the mouse (the user's message)"
    assert view.currentIndex().row() == 0
    h.do(menu.close)
    menu, _entries = open_menu_with(h, Qt.Key.Key_Menu)
    release = QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(5, 5), view.mapToGlobal(QPoint(5, 5)))
    h.do(lambda: QApplication.sendEvent(view, release))
    assert view.actions_menu is menu, "a context-menu event after the Menu key does not open a second menu"
    h.do(menu.close)


def test_links_in_a_reply_open_from_its_menu(make_window, model_server) -> None:
    from tests.support.opened_urls import opened_urls

    h = make_window()
    first_exchange(h, model_server, "where do I start", "Read [the guide](https://example.com/guide) first.")
    focus_row(h, rows(h.window)[1])
    menu, entries = open_menu_with(h, Qt.Key.Key_Menu)
    label = next(t for t in entries if "https://example.com/guide" in t)
    with opened_urls("https") as opened:  # instead of a browser
        h.do(entries[label].trigger)
    assert [url.toString() for url in opened] == ["https://example.com/guide"]


def test_the_focused_message_has_a_ring_for_the_keyboard_not_after_a_click(make_window, model_server) -> None:
    h = make_window()
    h.do(lambda: h.window.set_theme("dark"))
    first_exchange(h, model_server, "look", "A reply to look at.")
    view = h.window.chat.view
    accent = QColor(h.window.theme_manager.theme.accent)

    def ring_on(row: int) -> bool:
        h.settle(0.05)
        image = grabbed(view.viewport())
        rect = view.visualRect(view.model().index(row, 0))
        y = rect.center().y()
        return any(contrast(image.pixelColor(x, y), accent) < 1.15 for x in range(rect.left() + 2, rect.left() + 6))

    h.do(lambda: (h.window.activateWindow(), h.window.chat.input.setFocus()))
    h.do(lambda: QTest.keyClick(h.window.chat.input, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
         if QApplication.focusWidget() is h.window.chat.input else None)
    h.wait_until(lambda: view.hasFocus(), what="the chat view to take the focus from Shift+Tab")
    assert view.currentIndex().row() == 1 and ring_on(1), "the newest message has the keyboard's ring"
    h.do(lambda: QTest.keyClick(view, Qt.Key.Key_Up))
    assert ring_on(0) and not ring_on(1), "the ring follows the arrows"
    point = view.visualRect(view.model().index(1, 0)).center()
    h.do(lambda: QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point))
    assert not ring_on(0) and not ring_on(1), "a mouse click draws no ring"
