"""The designed look (ui/design.py, ui/icons.py, ui/empty_state.py): icons for the main actions in the theme's
colours, empty states with working actions, welcome prompts that fill the box, and one column grid in the chat."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import QAbstractButton, QPlainTextEdit, QPushButton, QWidget

from hermes_desktop.ui import design, icons
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.chat.items import BannerItem, MessageItem, RememberedItem, SummaryItem, ToolCardItem
from hermes_desktop.ui.chat.layout import RowLayouter


def ink(pixmap, min_alpha: int = 200) -> list[QColor]:
    """The icon's opaque pixels (its strokes, without the anti-aliased edges)."""
    image = pixmap.toImage()
    return [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())
            if image.pixelColor(x, y).alpha() > min_alpha]


def close_to(colour: QColor, expected: str, tolerance: int = 24) -> bool:
    want = QColor(expected)
    return all(abs(a - b) <= tolerance for a, b in ((colour.red(), want.red()), (colour.green(), want.green()),
                                                    (colour.blue(), want.blue())))


def assert_drawn_in(icon: QIcon, colour: str, mode: QIcon.Mode = QIcon.Mode.Normal, side: int = 24) -> None:
    pixmap = icon.pixmap(side, side, mode)
    assert not pixmap.isNull() and pixmap.width() == side, f"no {side} px pixmap"
    # At 16 px a 2 px stroke is mostly anti-aliased edge: count the half-opaque pixels there.
    strokes = ink(pixmap) if side >= 24 else ink(pixmap, min_alpha=110)
    assert len(strokes) >= (20 if side >= 24 else 10), "an icon with hardly any visible stroke"
    off = [c.name() for c in strokes if not close_to(c, colour)]
    assert not off, f"{len(off)} of {len(strokes)} pixels are not {colour}: {off[:5]}"


@pytest.mark.parametrize("theme", [themes.LIGHT_THEME, themes.DARK_THEME], ids=["light", "dark"])
def test_every_action_icon_loads_in_the_themes_text_colour(qapp, theme) -> None:
    previous = themes.current()
    themes.set_current(theme)
    try:
        for name in icons.NAMES:
            assert_drawn_in(icons.icon(name, size=24), theme.text)
            assert_drawn_in(icons.icon(name), theme.text, side=16)  # menus and buttons: 16 px, drawn at 16 px
        # Disabled: the muted colour (drawn at lower opacity, so only the hue is compared on the strongest pixels)
        disabled = icons.icon("send", size=24).pixmap(24, 24, QIcon.Mode.Disabled).toImage()
        alphas = [disabled.pixelColor(x, y) for x in range(24) for y in range(24) if disabled.pixelColor(x, y).alpha()]
        assert alphas and max(c.alpha() for c in alphas) < 200
        strongest = max(alphas, key=lambda c: c.alpha())
        assert close_to(strongest, theme.muted, 30), strongest.name()
    finally:
        themes.set_current(previous)


def test_the_main_buttons_have_icons_that_follow_a_theme_switch(make_window) -> None:
    h = make_window()
    names = ("stopButton", "attachButton", "newSessionButton")
    buttons = {name: h.window.findChild(QAbstractButton, name) for name in names}
    send = h.window.findChild(QAbstractButton, "sendButton")
    h.do(lambda: h.window.set_theme("light"))
    for name, button in buttons.items():
        assert not button.icon().isNull(), name
        assert_drawn_in(button.icon(), themes.LIGHT_THEME.text, side=button.iconSize().width())  # sharp at its size
    assert_drawn_in(send.icon(), design.on_accent(themes.LIGHT_THEME), side=16)  # Send is the accent-filled button
    h.do(lambda: h.window.set_theme("dark"))
    h.settle(0.05)
    for name, button in buttons.items():
        assert_drawn_in(button.icon(), themes.DARK_THEME.text, side=button.iconSize().width())
    assert_drawn_in(send.icon(), design.on_accent(themes.DARK_THEME), side=16)
    assert send.palette().color(send.palette().ColorRole.Button) == QColor(themes.DARK_THEME.accent)
    assert_drawn_in(h.window.new_action.icon(), themes.DARK_THEME.text, side=16)  # menu actions follow too
    assert_drawn_in(h.window.settings_action.icon(), themes.DARK_THEME.text, side=16)
    h.do(lambda: h.window.set_theme("light"))
    h.settle(0.05)
    assert_drawn_in(h.window.settings_action.icon(), themes.LIGHT_THEME.text, side=16)


def test_empty_states_show_with_working_actions(make_window) -> None:
    h = make_window()
    sessions = h.window.findChild(QWidget, "sessionsEmptyState")
    assert sessions is not None and not sessions.isHidden()
    assert sessions.title.text() == "No conversations yet"
    inspector = h.window.inspector
    # The inspector's empty states are made when their tab is first shown (nothing at start-up).
    assert h.window.findChild(QWidget, "mcpEmptyState") is None
    h.do(lambda: inspector.setCurrentWidget(inspector.activity))
    activity = h.window.findChild(QWidget, "activityEmptyState")
    assert activity is not None and activity.isVisible()
    h.do(lambda: inspector.setCurrentWidget(inspector.mcp))
    mcp = h.window.findChild(QWidget, "mcpEmptyState")
    assert mcp is not None and mcp.isVisible()
    add = mcp.findChild(QPushButton, "emptyAddMcpServerButton")
    h.do(add.click)
    form = h.wait_until(lambda: h.window.mcp.server_dialog, what="the server form from the empty state's button")
    assert form.isVisible()
    h.do(form.reject)

    # A message: the sessions and activity empty states go.
    h.send("hello")
    h.wait_until(lambda: sessions.isHidden(), what="the sessions empty state to go once a session exists")
    h.wait_until(lambda: activity.isHidden(), what="the activity empty state to go once a turn ran")


def test_no_skills_shows_the_skills_empty_state_and_its_buttons_work(qapp) -> None:
    from hermes_desktop.ui.inspector import Inspector

    inspector = Inspector()
    actions: list[tuple[str, str]] = []
    inspector.sig_skill_action.connect(lambda action, name: actions.append((action, name)))
    inspector.show_skills([], [])
    state = inspector.skills_empty.state  # made on first use (the tab is not on screen here)
    assert state.objectName() == "skillsEmptyState" and not state.isHidden()
    state.findChild(QPushButton, "emptyOpenSkillsFolderButton").click()
    state.findChild(QPushButton, "emptyReloadSkillsButton").click()
    assert actions == [("open_folder", ""), ("reload", "")]
    inspector.show_skills([], [("/skills/broken", "no SKILL.md")])  # a folder that failed is not "no skills"
    assert state.isHidden()
    inspector.deleteLater()


def test_a_welcome_prompt_fills_the_message_box(make_window) -> None:
    h = make_window()
    welcome = h.window.chat.empty
    assert not welcome.isHidden() and len(welcome.prompts) == 3
    box = h.window.findChild(QPlainTextEdit, "chatInput")
    h.do(welcome.prompts[1].click)
    assert box.toPlainText() == welcome.prompts[1].text()
    assert box.hasFocus() or h.window.focusWidget() is box
    assert h.window.chat.model.rowCount() == 0  # filled, not sent


def test_bubbles_and_cards_line_up_on_one_column_grid(qapp) -> None:
    from PySide6.QtGui import QFont

    layouter = RowLayouter(QFont())
    width = 700
    rows = {
        "user": MessageItem("user", "Please write hello.txt"),
        "card": ToolCardItem("c1", "write_file", '{"path": "hello.txt"}', risk="write", status="done", result="ok"),
        "summary": SummaryItem("Earlier we discussed tea.", covered_to=3, covered_messages=4, tokens=12),
        "remembered": RememberedItem((1,), ("I prefer tea",)),
        "banner": BannerItem("The model did not answer.", ("retry",)),
    }
    layouts = {kind: layouter.layout(item, width) for kind, item in rows.items()}
    right = width - design.CHAT_MARGIN
    for kind, layout in layouts.items():
        box = layout.background
        assert box is not None, kind
        assert box.right() == pytest.approx(right), f"{kind} ends at {box.right()}, not {right}"
        if kind != "user":  # the user's bubble is right-aligned; every other box starts on the left margin
            assert box.left() == pytest.approx(design.CHAT_MARGIN), kind
        first = min(layout.docs, key=lambda d: (d.origin.y(), d.origin.x())) if layout.docs else None
        texts = [t.rect for t in layout.texts if t.role in ("link", "badge")]
        inner_left = min([d.origin.x() for d in layout.docs] + [r.left() for r in texts])
        assert inner_left - box.left() == pytest.approx(design.BOX_PAD), f"{kind} text inset {inner_left - box.left()}"
        assert first is None or first.origin.y() - box.top() >= design.BOX_PAD - 2, kind
    reply = layouter.layout(MessageItem("assistant", "Done: created hello.txt."), width)
    assert reply.background is None  # the assistant's text has no box: it starts where the boxes start
    assert min(d.origin.x() for d in reply.docs) == pytest.approx(design.CHAT_MARGIN)
    header = next(t for t in reply.texts if t.role == "header")
    assert header.rect.left() == pytest.approx(design.CHAT_MARGIN)


def test_the_type_scale_is_relative_to_the_system_font(qapp) -> None:
    from PySide6.QtGui import QFont

    base = QFont()
    base.setPointSizeF(10.0)
    assert design.small(base).pointSizeF() == pytest.approx(8.6)
    assert design.title(base).pointSizeF() == pytest.approx(12.5)
    assert design.section(base).bold() and design.section(base).pointSizeF() == pytest.approx(9.0)
    layouter = RowLayouter(base)
    assert layouter.small.pointSizeF() == pytest.approx(design.small(base).pointSizeF())


def test_footer_links_carry_their_icons_and_make_room_for_them(qapp) -> None:
    from PySide6.QtGui import QFont, QFontMetricsF

    from hermes_desktop.ui.chat.layout import LINK_ICON

    layouter = RowLayouter(QFont())
    reply = layouter.layout(MessageItem("assistant", "Done."), 700)
    links = {t.text: t for t in reply.hover_texts if t.role == "link"}
    assert [t.icon for t in links.values()] == ["copy", "regenerate", "fork"]
    metrics = QFontMetricsF(layouter.small)
    for text, part in links.items():
        assert part.rect.width() == pytest.approx(metrics.horizontalAdvance(text) + LINK_ICON + design.XS)
    user = layouter.layout(MessageItem("user", "Hi"), 700)
    assert [t.icon for t in user.hover_texts if t.role == "link"] == ["copy", "edit", "fork"]


def test_empty_state_pictures_follow_a_theme_switch(make_window) -> None:
    h = make_window()
    states = [h.window.findChild(QWidget, name) for name in ("sessionsEmptyState", "emptyState")]
    for theme_name, theme in (("dark", themes.DARK_THEME), ("light", themes.LIGHT_THEME)):
        h.do(lambda n=theme_name: h.window.set_theme(n))
        h.settle(0.05)
        for state in states:
            picture = state.picture.pixmap()
            assert not picture.isNull()
            strokes = ink(picture)
            assert strokes and all(close_to(c, theme.muted) for c in strokes), (state.objectName(), theme_name)


def test_a_search_with_no_match_says_so_and_clearing_it_brings_the_list_back(make_window) -> None:
    h = make_window()
    h.send("hello")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="the reply")
    sidebar = h.window.sidebar
    h.do(lambda: sidebar.search.setText("zzqxjv"))
    no_match = h.wait_until(lambda: h.window.findChild(QWidget, "searchEmptyState"), what="the no-match state")
    h.wait_until(lambda: no_match.isVisible(), what="the no-match state on screen")
    assert h.window.findChild(QWidget, "sessionsEmptyState").isHidden()
    h.do(lambda: sidebar.search.setText(""))
    h.wait_until(lambda: no_match.isHidden() and sidebar.list.count() > 1, what="the session list again")


def test_a_wide_transcript_is_a_centred_reading_column_and_clicks_land_on_it(qapp) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    from hermes_desktop.ui.chat.pane import ChatPane

    pane = ChatPane()
    pane.resize(1500, 700)
    card = ToolCardItem("c1", "write_file", '{"path": "a.txt"}', risk="write", status="done", result="ok")
    pane.model.reset([MessageItem("user", "write a.txt"), card], first=0, end=2, total=2)
    pane.show()
    QTest.qWaitForWindowExposed(pane)
    view = pane.view
    full = view.viewport().width()
    assert full > design.READING_WIDTH
    delegate = view.delegate
    assert delegate.content_width(full) == design.READING_WIDTH
    layout = delegate.row_layout(card, design.READING_WIDTH)
    assert layout.background.width() == pytest.approx(design.READING_WIDTH - 2 * design.CHAT_MARGIN)
    actions: list[str] = []
    delegate.sig_action.connect(lambda action, item, payload: actions.append(action))
    toggle = next(hit for hit in layout.hits if hit.action == "toggle_args")
    row = view.visualRect(pane.model.index(1, 0))
    assert row.width() == full  # the row spans the view; its column is centred in it
    dx = (full - design.READING_WIDTH) // 2
    where = QPoint(row.left() + dx + int(toggle.rect.center().x()), row.top() + int(toggle.rect.center().y()))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert actions == ["toggle_args"]
    # Without the shift the same point (left of the column) is not the toggle.
    actions.clear()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(row.left() + int(toggle.rect.center().x()), where.y()))
    assert actions == []
    # Double-click a message: the text view for selecting covers its column.
    user_row = view.visualRect(pane.model.index(0, 0))
    view.edit(pane.model.index(0, 0))
    editor = view.findChild(QWidget, "messageTextView")
    assert editor is not None
    assert editor.geometry().left() >= user_row.left() + dx and editor.geometry().right() <= user_row.right() - dx
    pane.deleteLater()


def _luminance(colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    q = QColor(colour)
    return 0.2126 * channel(q.red()) + 0.7152 * channel(q.green()) + 0.0722 * channel(q.blue())


@pytest.mark.parametrize("theme", [themes.LIGHT_THEME, themes.DARK_THEME], ids=["light", "dark"])
def test_the_primary_button_reads_and_shows_its_focus_ring(make_window, theme) -> None:
    from PySide6.QtCore import Qt

    fill, ink_colour = _luminance(theme.accent), _luminance(design.on_accent(theme))
    assert (max(fill, ink_colour) + 0.05) / (min(fill, ink_colour) + 0.05) >= 4.5  # WCAG AA for its label
    h = make_window()
    h.do(lambda: h.window.set_theme(theme.name))
    h.settle(0.05)
    send = h.window.findChild(QAbstractButton, "sendButton")
    from PySide6.QtTest import QTest

    plain = send.grab().toImage()  # filled with the accent itself (Fusion's own button would lighten it)
    assert close_to(plain.pixelColor(plain.width() // 2, 4), theme.accent, 8), plain.pixelColor(plain.width() // 2, 4).name()
    h.do(h.window.activateWindow)
    before = h.window.findChild(QAbstractButton, "knowledgePicker")  # the composer's button before Send
    h.do(lambda: before.setFocus(Qt.FocusReason.OtherFocusReason))
    h.do(lambda: QTest.keyClick(before, Qt.Key.Key_Tab))  # reached with Tab, as a keyboard user would
    h.wait_until(lambda: send.hasFocus(), what="Tab to Send")
    h.settle(0.05)
    image = send.grab().toImage()
    mid_x, mid_y = image.width() // 2, image.height() // 2
    edge = [image.pixelColor(x, mid_y) for x in (1, 2)] + [image.pixelColor(mid_x, y) for y in (1, 2)]
    assert any(close_to(c, theme.text, 60) for c in edge), f"a text-coloured ring on the accent fill: {edge}"
    assert _luminance(theme.text) != _luminance(theme.accent)
    h.do(lambda: h.window.set_theme("light"))


def test_icons_get_double_size_pixmaps_only_on_a_high_density_screen(tmp_path) -> None:
    """1x screens get 16 px (and the widget's size) only; at 2x each size is drawn twice as large, so icons stay
    sharp. QT_SCALE_FACTOR=2 makes the offscreen screen a 2x one; a child process, as the scale is fixed at start."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = ("from PySide6.QtWidgets import QApplication; app = QApplication([]);"
              "from hermes_desktop.ui import icons;"
              "print(sorted(s.width() for s in icons.icon('send', size=18).availableSizes()))")
    root = Path(__file__).resolve().parents[2]
    sizes = {}
    for scale in ("1", "2"):
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_SCALE_FACTOR": scale, "PYTHONPATH": str(root)}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        sizes[scale] = done.stdout.strip().splitlines()[-1]
    assert sizes == {"1": "[16, 18]", "2": "[16, 18, 32, 36]"}
