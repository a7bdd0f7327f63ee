"""Keyboard reach for the parts of the window that are painted, not built from widgets.

- The transcript (chat/view.py) paints its links and buttons, so Tab cannot reach them. The message under
  focus (the view's current index; arrows move it, focusing the view picks the newest) has an actions
  menu: the Menu key, Shift+F10 or a right-click open it, listing exactly the clickable parts of that row's
  layout (Copy, Edit, Fork, Regenerate, the Arguments/Result toggles, Show all, Retry, the inline
  Deny/Allow choices, versions, attachments, code-block Copy, links), and, menu only, "Save as skill…" for a
  reply whose turn used tools (issue 27). Choosing an entry does what a click does.
- The Tools tab: each tool's Approval combo is an item widget; left in the Tab chain, Tab walked through
  every one of them before leaving the list. The combos take focus only on click; the list is one Tab stop,
  arrows move inside it, Space toggles the tool, and F4 / Alt+Down / Enter open the current tool's rule.
- `fit_tool_columns` sizes the Approval column to its widest combo, so at the default window the
  combos keep their arrows and the name column takes what is left (no horizontal scroll bar).
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QObject, QPersistentModelIndex, QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QMenu, QTreeWidget

from hermes_desktop.ui.chat.items import MessageItem, thinking_state
from hermes_desktop.ui.chat.model import ITEM_ROLE


def is_menu_key(event: QKeyEvent) -> bool:
    """The Menu key, or Shift+F10 (the usual keyboard way to a context menu)."""
    return event.key() == Qt.Key.Key_Menu or (
        event.key() == Qt.Key.Key_F10 and event.modifiers() & Qt.KeyboardModifier.ShiftModifier)


# ---------------------------------------------------------------------------------------------- tools tab
def fit_tool_columns(tree: QTreeWidget) -> None:
    """Approval column as wide as its widest combo; combos out of the Tab chain (the list is one stop)."""
    combos = [c for c in tree.findChildren(QComboBox) if c.objectName().startswith("rule:")]
    for combo in combos:
        combo.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
    if combos:
        tree.header().resizeSection(2, max(c.sizeHint().width() for c in combos) + 4)


def rule_combo_of(tree: QTreeWidget) -> QComboBox | None:
    item = tree.currentItem()
    widget = tree.itemWidget(item, 2) if item is not None else None
    return widget if isinstance(widget, QComboBox) else None


class _ToolKeys(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and isinstance(watched, QTreeWidget):
            key, mods = event.key(), event.modifiers()
            opens = key == Qt.Key.Key_F4 or (key == Qt.Key.Key_Down and mods & Qt.KeyboardModifier.AltModifier) \
                or key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            combo = rule_combo_of(watched) if opens else None
            if combo is not None:
                combo.setFocus(Qt.FocusReason.OtherFocusReason)
                combo.showPopup()
                return True
        return False


def install_tool_keys(tree: QTreeWidget) -> None:
    keys = _ToolKeys(tree)
    tree.installEventFilter(keys)
    tree.setProperty("hermesToolKeys", True)


# ---------------------------------------------------------------------------------------------- transcript
def message_actions(view: Any, index: QModelIndex) -> list[tuple[str, str, Any]]:
    """(label, action, payload) for every clickable part of the row at `index`, in reading order."""
    item = index.data(ITEM_ROLE) if index.isValid() else None
    if item is None:
        return []
    delegate = view.delegate
    layout = delegate.row_layout(item, delegate.content_width(max(200, view.viewport().width())))
    labels = {(t.rect.x(), t.rect.y()): t.text for t in layout.texts + layout.hover_texts}
    entries: list[tuple[str, str, Any]] = []
    for hit in sorted(layout.hits, key=lambda h: (h.hover_only, h.rect.y(), h.rect.x())):
        text = labels.get((hit.rect.x(), hit.rect.y()), "").lstrip("▾▸ ").strip()
        if hit.action == "version":
            current = item.versions.index(item.message_id) if isinstance(item, MessageItem) and \
                item.message_id in item.versions else 0
            target = item.versions.index(hit.payload) if hit.payload in item.versions else 0
            text = (QCoreApplication.translate("MessageActions", "Previous version") if target < current
                    else QCoreApplication.translate("MessageActions", "Next version"))
        elif hit.action == "open_attachment":
            text = QCoreApplication.translate("MessageActions", "Open {0}").format(getattr(hit.payload, "name", ""))
        elif hit.action == "toggle_thinking":
            text = (QCoreApplication.translate("MessageActions", "Hide thinking") if thinking_state(item) == "open"
                    else QCoreApplication.translate("MessageActions", "Show thinking"))
        entries.append((text or hit.action, hit.action, hit.payload))
    for url in _links(layout)[:20]:
        entries.append((QCoreApplication.translate("MessageActions", "Open link {0}").format(url), "link", url))
    code_blocks = [part.code for part in layout.docs if part.code]
    for number, code in enumerate(code_blocks, 1):
        label = (QCoreApplication.translate("MessageActions", "Copy code") if len(code_blocks) == 1
                 else QCoreApplication.translate("MessageActions", "Copy code block {0}").format(number))
        entries.append((label, "copy_code", code))
    entries += _turn_entries(view, index)
    return entries


def _turn_entries(view: Any, index: QModelIndex) -> list[tuple[str, str, Any]]:
    """Menu-only entries for the reply's turn (no footer link: they would crowd every reply). "Save as skill…"
    for a turn that used tools, with its user message id: the window runs what Activity's turn menu runs. The
    text is learning_actions' own (context "Learning"), so the catalog gains no new string."""
    from hermes_desktop.ui.chat.turns import reply_turn

    rows = view.model().items() if hasattr(view.model(), "items") else []
    turn = reply_turn(rows, index.row())
    if turn is None or turn.tool_calls == 0:
        return []
    return [(QCoreApplication.translate("Learning", "Save as skill…"), "save_as_skill", turn.user_message_id)]


def _links(layout: Any) -> list[str]:
    """The web and mail links in the row's text, in order, each once (what a click on them opens)."""
    found: list[str] = []
    for part in layout.docs:
        block = part.doc.begin()
        while block.isValid():
            iterator = block.begin()
            while not iterator.atEnd():
                fragment = iterator.fragment()
                href = fragment.charFormat().anchorHref() if fragment.isValid() else ""
                if href and href.split(":", 1)[0] in ("http", "https", "mailto") and href not in found:
                    found.append(href)
                iterator += 1
            block = block.next()
    return found


def trigger(view: Any, index: QModelIndex | QPersistentModelIndex, action: str, payload: Any) -> None:
    """Do what a click on that part of the row does (delegate.editorEvent)."""
    from PySide6.QtGui import QGuiApplication

    item = index.data(ITEM_ROLE)
    delegate = view.delegate
    if item is None:
        return
    if action == "link":
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        QDesktopServices.openUrl(QUrl(payload))
        return
    if action == "copy_code":
        QGuiApplication.clipboard().setText(payload or "")
        delegate.sig_action.emit("copied", item, payload)
        return
    if action == "toggle_thinking" and isinstance(item, MessageItem):
        item.reasoning_open = thinking_state(item) != "open"
        view.model().changed(item)
    delegate.sig_action.emit(action, item, payload)


class _MessageKeys(QObject):
    def __init__(self, view: Any) -> None:
        super().__init__(view)
        self.view = view

    def _keyboard(self, on: bool) -> None:
        if bool(self.view.property("keyboardFocus")) != on:
            self.view.setProperty("keyboardFocus", on)
            self.view.viewport().update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        view = self.view
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress:
            self._keyboard(False)  # the focus ring is for keyboard users: a click does not draw one
        elif kind == QEvent.Type.FocusIn and watched is view:
            reason = event.reason() if isinstance(event, QFocusEvent) else None
            self._keyboard(reason in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason,
                                      Qt.FocusReason.ShortcutFocusReason))
            if not view.currentIndex().isValid() and view.model().rowCount():
                view.setCurrentIndex(view.model().index(view.model().rowCount() - 1, 0))
        elif kind == QEvent.Type.KeyPress and watched is view and isinstance(event, QKeyEvent):
            self._keyboard(True)
            if is_menu_key(event):
                open_actions_menu(view, view.currentIndex())
                return True
        elif kind == QEvent.Type.ContextMenu and isinstance(event, QContextMenuEvent):
            shown = getattr(view, "actions_menu", None)
            if shown is not None and _alive(shown) and shown.isVisible():
                return True  # the Menu key's press opened it already (some platforms send this on release)
            if event.reason() == QContextMenuEvent.Reason.Mouse:
                index = view.indexAt(view.viewport().mapFrom(watched, event.pos()) if watched is not view.viewport()
                                     else event.pos())
                if index.isValid():
                    view.setCurrentIndex(index)
            else:
                index = view.currentIndex()
            open_actions_menu(view, index, event.globalPos() if event.reason() == QContextMenuEvent.Reason.Mouse
                              else None)
            return True
        return False


def _alive(widget: QObject) -> bool:
    from shiboken6 import isValid

    return isValid(widget)


_ACTION_ICONS = {"copy": "copy", "edit": "edit", "fork": "fork", "regenerate": "regenerate", "copy_code": "copy"}


def open_actions_menu(view: Any, index: QModelIndex, where: QPoint | None = None) -> QMenu | None:
    """The row's actions as a menu (kept on `view.actions_menu` for tests and automation)."""
    entries = message_actions(view, index)
    if not entries:
        return None
    menu = QMenu(view)
    menu.setObjectName("messageActionsMenu")
    menu.setAccessibleName(QCoreApplication.translate("MessageActions", "Message actions"))
    for label, action, payload in entries:
        entry = menu.addAction(label)
        if action in _ACTION_ICONS:
            from hermes_desktop.ui.icons import icon

            entry.setIcon(icon(_ACTION_ICONS[action]))
        entry.setData(action)
        entry.triggered.connect(lambda _checked=False, a=action, p=payload, i=QPersistentModelIndex(index):
                              trigger(view, i, a, p))
    menu.aboutToHide.connect(menu.deleteLater)
    view.actions_menu = menu
    if where is None:
        rect = view.visualRect(index)
        where = view.viewport().mapToGlobal(QPoint(rect.left() + 24, min(rect.bottom(), view.viewport().height()) - 8
                                                   if rect.height() > 40 else rect.center().y()))
    menu.popup(where)
    return menu


def install_message_keys(view: QAbstractItemView) -> None:
    """Menu key / Shift+F10 / right-click: the focused message's actions; focus lands on the newest message."""
    keys = _MessageKeys(view)
    view.installEventFilter(keys)
    view.viewport().installEventFilter(keys)
    view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


# ---------------------------------------------------------------------------------------------- lists with menus
class _ListMenuKeys(QObject):
    def __init__(self, view: QAbstractItemView, on_delete: Callable[[QModelIndex], bool] | None) -> None:
        super().__init__(view)
        self.on_delete = on_delete

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent):
            return False
        view = watched
        index = view.currentIndex()  # type: ignore[attr-defined]
        if not index.isValid():
            return False
        if is_menu_key(event):
            rect = view.visualRect(index)  # type: ignore[attr-defined]
            view.customContextMenuRequested.emit(rect.center())  # type: ignore[attr-defined]
            return True
        if event.key() == Qt.Key.Key_Delete and not event.modifiers() and self.on_delete is not None:
            return self.on_delete(index)
        return False


def install_list_menu_keys(view: QAbstractItemView, on_delete: Callable[[QModelIndex], bool] | None = None) -> None:
    """A list with a custom context menu (the sessions): the Menu key and Shift+F10 open it for the current row
    (the platform's own keyboard menu event carries no row); Delete calls `on_delete` (True: handled)."""
    view.installEventFilter(_ListMenuKeys(view, on_delete))
