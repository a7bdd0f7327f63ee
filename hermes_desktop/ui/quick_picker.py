"""A keyboard-first picker: a search box over a list, in a small popup (objectName `quickPicker`).

Used for `/` at the start of the message box (saved prompts, assistants, skills), for the session header's
assistant button, and for File › New session with assistant… (Ctrl+Shift+N). Typing filters (any words, any case,
names in both languages); Up/Down (and Page Up/Down) move; Enter chooses; Esc closes without choosing. The focus
stays in the search box the whole time, so the user never needs the mouse.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QLabel, QLineEdit, QListWidgetItem, QVBoxLayout, QWidget

from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.rich_list import HTML_ROLE, rich_list

CHOICE_ROLE = Qt.ItemDataRole.UserRole + 1
MAX_SHOWN = 200


@dataclass(frozen=True, slots=True)
class Choice:
    kind: str  # prompt | assistant | skill
    key: str  # the prompt's, assistant's or skill's id / name
    label: str  # shown, e.g. "📅 周报"
    detail: str = ""  # one muted line
    section: str = ""  # shown after the label, e.g. "Prompt"
    search: str = ""  # more words that match (the other language's name)

    def matches(self, words: list[str]) -> bool:
        haystack = f"{self.label} {self.detail} {self.section} {self.search} {self.key}".casefold()
        return all(word in haystack for word in words)


class QuickPicker(QFrame):
    sig_chosen = Signal(object)
    """Enter (or a click) on a choice: the Choice."""
    sig_closed = Signal(bool)
    """The popup closed: True when something was chosen, False on Esc or a click elsewhere."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("quickPicker")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(self.tr("Quick picker"))
        self.search = QLineEdit()
        self.search.setObjectName("quickPickerSearch")
        self.search.setClearButtonEnabled(True)
        self.list = rich_list("quickPickerList", self.tr("Choices"))
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keyboard stays in the search box
        self.hint = QLabel(self.tr("↑↓ to move · Enter to choose · Esc to close"))
        self.hint.setObjectName("quickPickerHint")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.search)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.hint)
        self._choices: list[Choice] = []
        self._chose = False
        self.search.textChanged.connect(lambda _text: self._fill())
        self.search.installEventFilter(self)
        self.list.itemClicked.connect(lambda item: self._choose(item))
        self.resize(460, 380)

    def open_with(self, choices: list[Choice], *, at: QPoint, placeholder: str, text: str = "") -> None:
        self._choices = list(choices)
        self._chose = False
        self.search.setPlaceholderText(placeholder)
        self.search.setText(text)
        self._fill()
        self.move(at)
        self.show()
        self.raise_()
        self.activateWindow()
        self.search.setFocus()

    def visible_choices(self) -> list[Choice]:
        return [self.list.item(i).data(CHOICE_ROLE) for i in range(self.list.count())
                if self.list.item(i).data(CHOICE_ROLE) is not None]

    def _fill(self) -> None:
        words = self.search.text().casefold().split()
        theme = themes.current()
        self.list.clear()
        shown = [c for c in self._choices if c.matches(words)][:MAX_SHOWN]
        for choice in shown:
            item = QListWidgetItem(f"{choice.label} — {choice.section}: {choice.detail}")
            item.setData(CHOICE_ROLE, choice)
            section = f" <span style='color:{theme.muted}'>· {escape(choice.section)}</span>" if choice.section else ""
            detail = f"<br><span style='color:{theme.muted}'>{escape(choice.detail[:160])}</span>" if choice.detail else ""
            item.setData(HTML_ROLE, f"<b>{escape(choice.label)}</b>{section}{detail}")
            self.list.addItem(item)
        if not shown:
            empty = QListWidgetItem(self.tr("Nothing matches “{0}”.").format(self.search.text()))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(empty)
        else:
            self.list.setCurrentRow(0)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.search and event.type() == QEvent.Type.KeyPress:
            key = event.key() if isinstance(event, QKeyEvent) else None
            steps = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: 8, Qt.Key.Key_PageUp: -8}
            if key in steps:
                self._move(steps[key])
                return True
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                item = self.list.currentItem()
                if item is not None and item.data(CHOICE_ROLE) is not None:
                    self._choose(item)
                return True
            if key == Qt.Key.Key_Escape:
                self.close()
                return True
        return super().eventFilter(watched, event)

    def _move(self, step: int) -> None:
        count = len(self.visible_choices())
        if count:
            self.list.setCurrentRow(max(0, min(count - 1, self.list.currentRow() + step)))

    def _choose(self, item: QListWidgetItem) -> None:
        choice = item.data(CHOICE_ROLE)
        if choice is None:
            return
        self._chose = True
        self.close()
        self.sig_chosen.emit(choice)

    def closeEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        super().closeEvent(event)
        self.sig_closed.emit(self._chose)
