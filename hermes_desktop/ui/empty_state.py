"""Empty states that say what to do next: an icon, a title, one line, and an action where there is one.

`EmptyState` is the widget (objectName given by the caller, e.g. `skillsEmptyState`). `overlay_when_empty`
lays one over a list's viewport while the list shows only its placeholder row (the row stays, with its text, for
screen readers, keyboard search and the tests that read it; the overlay, painted on the view's base colour,
is what the eye sees); it is built the first time it is needed on screen. `Welcome` is a new session's chat: a short greeting and three example prompts that fill
the message box when clicked.
"""

from __future__ import annotations

from typing import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget
from shiboken6 import isValid

from hermes_desktop.ui import design, icons
from hermes_desktop.ui import theme as themes


class EmptyState(QWidget):
    """Centred: icon, title (TITLE size), one line (muted), optional buttons."""

    MAX_WIDTH = 480

    def __init__(self, icon: str, title: str, line: str, actions: Sequence[tuple[str, str, Callable[[], object]]] = (),
                 object_name: str = "emptyState", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self._icon_name = icon
        self.picture = QLabel()
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title = QLabel(title)
        self.title.setObjectName("emptyStateTitle")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setWordWrap(True)
        self.title.setFont(design.title(self.font()))
        self.line = QLabel(line)
        self.line.setObjectName("emptyStateLine")
        self.line.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.line.setWordWrap(True)
        self.buttons: list[QPushButton] = []
        # The content is a column at most MAX_WIDTH wide, centred: wrapped lines stay short enough to read.
        self.content = QWidget(self)
        self.content.setMaximumWidth(self.MAX_WIDTH)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(design.L, design.XL, design.L, design.XL)
        outer.addWidget(self.content)
        column = QVBoxLayout(self.content)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(design.S)
        column.addStretch(1)
        column.addWidget(self.picture)
        column.addSpacing(design.XS)
        column.addWidget(self.title)
        column.addWidget(self.line)
        if actions:
            column.addSpacing(design.S)
            row = QHBoxLayout()
            row.setSpacing(design.S)
            row.addStretch(1)
            for label, name, on_click in actions:
                button = QPushButton(label)
                button.setObjectName(name)
                button.clicked.connect(lambda _checked=False, f=on_click: f())
                row.addWidget(button)
                self.buttons.append(button)
            row.addStretch(1)
            column.addLayout(row)
        column.addStretch(2)
        self.setAccessibleName(title)
        self.setAccessibleDescription(line)
        self._recolour()

    def _recolour(self) -> None:
        theme = themes.current()
        self.picture.setPixmap(icons.pixmap(self._icon_name, theme.muted, design.ICON_LARGE,
                                            ratio=self.devicePixelRatioF() or 1.0))
        palette = self.line.palette()
        palette.setColor(QPalette.ColorRole.WindowText, palette.color(QPalette.ColorRole.PlaceholderText))
        self.line.setPalette(palette)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.PaletteChange:
            self._recolour()
        super().changeEvent(event)


class _Overlay(QObject):
    """Keeps an EmptyState over a view's viewport, shown while `is_empty()`.

    The state is made the first time it is needed on screen (an inspector tab nobody opened costs nothing at
    start-up): when the view is empty and visible, or when `state` is asked for."""

    def __init__(self, view: QAbstractItemView, make: Callable[[], EmptyState], is_empty: Callable[[], bool]) -> None:
        super().__init__(view)
        self.view, self._make, self.is_empty = view, make, is_empty
        self._state: EmptyState | None = None
        view.viewport().installEventFilter(self)
        model = view.model()
        for signal in (model.rowsInserted, model.rowsRemoved, model.modelReset, model.layoutChanged):
            signal.connect(self.update)

    @property
    def state(self) -> EmptyState:
        if self._state is None:
            state = self._state = self._make()
            state.setParent(self.view.viewport())
            state.setAutoFillBackground(True)
            state.setBackgroundRole(QPalette.ColorRole.Base)
            state.setGeometry(self.view.viewport().rect())
            state.setVisible(bool(self.is_empty()))
        return self._state

    def update(self, *_args: object) -> None:
        if not isValid(self.view) or (self._state is not None and not isValid(self._state)):
            return  # the rows changed while the view was being destroyed
        empty = bool(self.is_empty())
        if self._state is None and not (empty and self.view.isVisible()):
            return  # nothing to show yet, or not on screen: made when it is
        state = self.state
        state.setGeometry(self.view.viewport().rect())
        state.setVisible(empty)
        if empty:
            state.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Show:
            self.update()
        elif event.type() == QEvent.Type.Resize and self._state is not None:
            self._state.setGeometry(self.view.viewport().rect())
        return False


def overlay_when_empty(view: QAbstractItemView, make: Callable[[], EmptyState], is_empty: Callable[[], bool]) -> _Overlay:
    """Show the EmptyState `make()` builds over `view` while `is_empty()` (checked whenever the view's rows change
    and when it is shown); `.state` is the widget (built on first use)."""
    overlay = _Overlay(view, make, is_empty)
    overlays = getattr(view, "empty_overlays", [])
    overlays.append(overlay)  # kept with the view (a view can have several, e.g. sessions and no match)
    view.empty_overlays = overlays  # type: ignore[attr-defined]
    return overlay


def only_placeholder(view: QAbstractItemView) -> bool:
    """The view shows one row that cannot be selected or used: the panels' "nothing here" row."""
    model = view.model()
    if model.rowCount() != 1:
        return False
    return model.flags(model.index(0, 0)) == Qt.ItemFlag.NoItemFlags


class Welcome(EmptyState):
    """A new session: what Hermes does, and three prompts to start with (a click puts one in the box)."""

    sig_prompt = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("sparkle", self.tr("What shall we do?"),
                         self.tr("Hermes can calculate, read and organise files in your workspace, keep notes and read "
                                 "web pages — and asks before it changes anything."), object_name="emptyState",
                         parent=parent)
        self.title.setObjectName("welcomeTitle")
        self.prompts: list[QPushButton] = []
        examples = (self.tr("List the files in my workspace"),
                    self.tr("Write notes.txt with three ideas for the weekend"),
                    self.tr("Calculate 2340 * 0.15"))
        box = QVBoxLayout()
        box.setSpacing(design.S)
        for n, (text, picture) in enumerate(zip(examples, ("folder", "edit", "calculator"))):
            button = QPushButton(text)
            button.setObjectName(f"welcomePrompt{n}")
            icons.set_icon(button, picture, lambda: themes.current().muted, size=design.ICON)
            button.setMinimumHeight(design.XL + design.M)
            button.setToolTip(self.tr("Put this in the message box"))
            button.clicked.connect(lambda _checked=False, t=text: self.sig_prompt.emit(t))
            box.addWidget(button)
            self.prompts.append(button)
        self._box = box
        self.starters: list[QPushButton] = []  # an assistant's starter prompts (show_assistant)
        self._defaults = (self.title.text(), self.line.text(), examples)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addLayout(box)
        row.addStretch(1)
        column = self.content.layout()
        column.insertSpacing(column.count() - 1, design.L)
        column.insertLayout(column.count() - 1, row)

    def show_assistant(self, title: str | None, line: str = "", starters: Sequence[str] = ()) -> None:
        """A chat with an assistant: its name, what it does and its starter prompts (at most four, in buttons of
        their own: Hermes' examples keep their icons) instead of Hermes' greeting; None: Hermes' own
        (ui/assistant_actions.py)."""
        default_title, default_line, _examples = self._defaults
        texts = list(starters)[:4] if title is not None else []
        self.title.setText(title if title is not None else default_title)
        self.line.setText(line if title is not None else default_line)
        while len(self.starters) < len(texts):
            button = QPushButton()
            button.setObjectName(f"starterPrompt{len(self.starters)}")
            button.setMinimumHeight(design.XL + design.M)
            button.setToolTip(self.tr("Put this in the message box"))
            button.clicked.connect(lambda _checked=False, b=button: self.sig_prompt.emit(b.text()))
            self._box.addWidget(button)
            self.starters.append(button)
        for n, button in enumerate(self.starters):
            button.setVisible(n < len(texts))
            if n < len(texts):
                button.setText(texts[n])
        for button in self.prompts:
            button.setVisible(title is None)
