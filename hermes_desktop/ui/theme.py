"""Light and dark themes: Fusion with explicit palettes, following the system unless the user chose one.

Everything the delegates paint takes its colours from `current()`, so a theme switch
is a palette change plus a repaint, never a restart.

`HermesStyle` is Fusion with a few parts drawn from the theme instead of Fusion's fixed greys, which were
nearly invisible on the dark palette (measured from grabs in tests/ui/test_keyboard.py and
test_window_actions.py): check box indicators (in forms and in item views) get a 1.5 px outline in the
muted colour (>= 3:1 against base and window in both themes) and, when checked, an accent fill with a
white tick; the focus frame, and buttons, line edits and combo boxes with the keyboard focus, get a 2 px
accent ring (Fusion's own cue, a 1 px tint, was hard to find); menus get a visible frame; and the standard dialog-button / line-edit-clear icons
are drawn in the current text colour, so a Close button's icon is light on dark. No style sheet: an
app-wide one would turn every widget into a QStyleSheetStyle widget and cost start-up time.

Those standard icons are handed out once: a field's clear button (the sidebar's search, the Memory tab's) and a
dialog's Close button keep the icon they got when they were made, so after a switch to the dark theme (in the
Settings dialog, whose own Close button is one of them) the cross stayed dark on dark (issue 24). A theme change
gives every live one its icon again (`_refresh_standard_icons`). A closable tab's cross (PE_IndicatorTabClose) is
Qt's own grey bitmap on Fusion; it is drawn here in the theme's colours too.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPainterPath, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget

from hermes_desktop.ui.chat.markdown_render import DARK, LIGHT, Palette


@dataclass(frozen=True, slots=True)
class Theme:
    name: str  # "light" | "dark"
    markdown: Palette
    window: str
    base: str
    alt_base: str
    text: str
    muted: str
    accent: str
    user_bubble: str
    card: str
    card_border: str
    error_bg: str
    error_border: str
    notice_bg: str
    risk_read: str
    risk_write: str
    risk_destructive: str
    selection: str

    @property
    def dark(self) -> bool:
        return self.name == "dark"

    def risk_colour(self, risk: str) -> str:
        return {"read": self.risk_read, "write": self.risk_write}.get(risk, self.risk_destructive)


LIGHT_THEME = Theme("light", LIGHT, window="#f6f7f9", base="#ffffff", alt_base="#f3f4f6", text="#1f2328",
                    muted="#656d76", accent="#2f6feb", user_bubble="#e8f0fe", card="#f8f9fb", card_border="#d8dee4",
                    error_bg="#fff1f0", error_border="#f5a19a", notice_bg="#f1f3f5", risk_read="#1a7f37",
                    risk_write="#9a6700", risk_destructive="#cf222e", selection="#cfe0fc")
DARK_THEME = Theme("dark", DARK, window="#16181c", base="#0f1115", alt_base="#1b1e24", text="#e6edf3",
                   muted="#8d96a0", accent="#4493f8", user_bubble="#1e2a3f", card="#161b22", card_border="#30363d",
                   error_bg="#3a1d1d", error_border="#8e3b36", notice_bg="#1c2128", risk_read="#3fb950",
                   risk_write="#d29922", risk_destructive="#f85149", selection="#1f3a66")


class ThemeManager(QObject):
    sig_theme_changed = Signal(object)
    """Fires after the palette changed; carries the new Theme."""

    def __init__(self, app: QApplication, preference: str = "system") -> None:
        super().__init__(app)
        self._app = app
        self._preference = preference
        self.theme = LIGHT_THEME
        # One style for the app's life (a second window, as in tests, reuses it; the app owns it).
        style = app.style()
        self.style = style if isinstance(style, HermesStyle) else HermesStyle()
        if style is not self.style:
            app.setStyle(self.style)
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(lambda _scheme: self.apply())
        self.apply()

    @property
    def preference(self) -> str:
        return self._preference

    def set_preference(self, preference: str) -> None:
        self._preference = preference
        self.apply()

    def _system_is_dark(self) -> bool:
        hints = QGuiApplication.styleHints()
        scheme = getattr(hints, "colorScheme", lambda: Qt.ColorScheme.Unknown)()
        return scheme == Qt.ColorScheme.Dark

    def apply(self) -> None:
        dark = self._preference == "dark" or (self._preference == "system" and self._system_is_dark())
        self.theme = DARK_THEME if dark else LIGHT_THEME
        set_current(self.theme)
        self._app.setPalette(_palette(self.theme))
        _refresh_standard_icons(self._app, self.style)
        self.sig_theme_changed.emit(self.theme)


# A dialog button's standard icon, as QDialogButtonBox picks it (qdialogbuttonbox.cpp).
_BUTTON_ICONS = {
    "Ok": QStyle.StandardPixmap.SP_DialogOkButton, "Save": QStyle.StandardPixmap.SP_DialogSaveButton,
    "Open": QStyle.StandardPixmap.SP_DialogOpenButton, "Cancel": QStyle.StandardPixmap.SP_DialogCancelButton,
    "Close": QStyle.StandardPixmap.SP_DialogCloseButton, "Apply": QStyle.StandardPixmap.SP_DialogApplyButton,
    "Reset": QStyle.StandardPixmap.SP_DialogResetButton, "Help": QStyle.StandardPixmap.SP_DialogHelpButton,
    "Discard": QStyle.StandardPixmap.SP_DialogDiscardButton, "Yes": QStyle.StandardPixmap.SP_DialogYesButton,
    "No": QStyle.StandardPixmap.SP_DialogNoButton,
}
CLEAR_ACTION = "_q_qlineeditclearaction"  # the QAction QLineEdit makes for its clear button (qlineedit_p.cpp)


def _refresh_standard_icons(app: QApplication, style: QStyle) -> None:
    """Give live clear buttons and dialog buttons their standard icon in the new theme's colours (module docstring)."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QDialogButtonBox, QLineEdit

    for widget in app.allWidgets():
        if isinstance(widget, QLineEdit) and widget.isClearButtonEnabled():
            action = widget.findChild(QAction, CLEAR_ACTION)
            if action is not None:
                action.setIcon(style.standardIcon(QStyle.StandardPixmap.SP_LineEditClearButton, None, widget))
        elif isinstance(widget, QDialogButtonBox):
            for button in widget.buttons():
                name = widget.standardButton(button).name
                if name in _BUTTON_ICONS and not button.icon().isNull():  # the style shows icons on buttons
                    button.setIcon(style.standardIcon(_BUTTON_ICONS[name], None, button))


def _palette(theme: Theme) -> QPalette:
    palette = QPalette()
    colours = {
        QPalette.ColorRole.Window: theme.window, QPalette.ColorRole.WindowText: theme.text,
        QPalette.ColorRole.Base: theme.base, QPalette.ColorRole.AlternateBase: theme.alt_base,
        QPalette.ColorRole.Text: theme.text, QPalette.ColorRole.Button: theme.alt_base,
        QPalette.ColorRole.ButtonText: theme.text, QPalette.ColorRole.Highlight: theme.accent,
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: theme.base,
        QPalette.ColorRole.ToolTipText: theme.text, QPalette.ColorRole.PlaceholderText: theme.muted,
        QPalette.ColorRole.Link: theme.accent, QPalette.ColorRole.Mid: theme.card_border,
    }
    for role, value in colours.items():
        palette.setColor(role, QColor(value))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(theme.muted))
    return palette


class HermesStyle(QProxyStyle):
    """Fusion, with check indicators, focus rings and a few standard icons drawn in the theme's colours."""

    _DRAWN_ICONS = {
        QStyle.StandardPixmap.SP_DialogCloseButton: "cross", QStyle.StandardPixmap.SP_DialogCancelButton: "cross",
        QStyle.StandardPixmap.SP_DialogNoButton: "cross", QStyle.StandardPixmap.SP_DialogDiscardButton: "cross",
        QStyle.StandardPixmap.SP_LineEditClearButton: "cross", QStyle.StandardPixmap.SP_TitleBarCloseButton: "cross",
        QStyle.StandardPixmap.SP_DialogOkButton: "tick", QStyle.StandardPixmap.SP_DialogYesButton: "tick",
        QStyle.StandardPixmap.SP_DialogApplyButton: "tick", QStyle.StandardPixmap.SP_DialogSaveButton: "tick",
        QStyle.StandardPixmap.SP_DialogResetButton: "cross",
    }

    # Panels that get an accent ring when they have the keyboard focus (Fusion's own cue is a 1 px tint).
    # Buttons and combos show it after keyboard navigation only (not after a click); fields always, since typing
    # goes there.
    _RINGED = (QStyle.PrimitiveElement.PE_PanelButtonCommand, QStyle.PrimitiveElement.PE_FrameLineEdit,
               QStyle.PrimitiveElement.PE_PanelButtonTool)
    _TYPED = QStyle.PrimitiveElement.PE_FrameLineEdit
    _EDGED = (QStyle.PrimitiveElement.PE_FrameLineEdit, QStyle.PrimitiveElement.PE_Frame)

    def __init__(self) -> None:
        super().__init__("Fusion")
        self.icons: dict[tuple[str, str], QIcon] = {}

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter,
                      widget: QWidget | None = None) -> None:  # noqa: N802 (Qt's name)
        if element in (QStyle.PrimitiveElement.PE_IndicatorCheckBox,
                       QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck):
            _draw_check(painter, option, current())
            return
        if element == QStyle.PrimitiveElement.PE_IndicatorTabClose:
            _draw_tab_close(painter, option, current())
            return
        if element == QStyle.PrimitiveElement.PE_FrameFocusRect:
            theme = current()
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(QColor(theme.accent), 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(option.rect).adjusted(1, 1, -1, -1), 3, 3)
            painter.restore()
            return
        if element == QStyle.PrimitiveElement.PE_PanelButtonCommand and widget is not None \
                and bool(widget.property("primary")):
            _draw_primary(painter, option, current())  # Fusion would lighten the accent (white text at 2.2:1)
            if _keyboard_focus(option, always=False):
                _focus_ring(painter, option.rect, current(), current().text)
            return
        super().drawPrimitive(element, option, painter, widget)
        if element in (QStyle.PrimitiveElement.PE_FrameMenu, QStyle.PrimitiveElement.PE_PanelMenu):
            painter.save()  # Fusion's menu outline is the window colour darkened: invisible on the dark theme
            painter.setPen(QColor(current().muted))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(option.rect.adjusted(0, 0, -1, -1))
            painter.restore()
        if element in self._RINGED and _keyboard_focus(option, always=element == self._TYPED):
            _focus_ring(painter, option.rect, current())
        elif element in self._EDGED and current().dark and (element == self._TYPED or _is_text_box(widget)):
            # Fusion's field outline is the window colour darkened: invisible on the dark palette (the Memory
            # tab's search field, the approval dialog's arguments had no visible edge). A 1 px edge at 3:1
            # against the dark base and window, for line edits and multi-line text boxes.
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(QColor(DARK_FIELD_EDGE), 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5), 2, 2)
            painter.restore()

    def drawComplexControl(self, control: QStyle.ComplexControl, option: QStyleOption, painter: QPainter,
                           widget: QWidget | None = None) -> None:  # noqa: N802 (Qt's name)
        super().drawComplexControl(control, option, painter, widget)
        if control in (QStyle.ComplexControl.CC_ComboBox, QStyle.ComplexControl.CC_SpinBox) \
                and _keyboard_focus(option, always=control == QStyle.ComplexControl.CC_SpinBox):
            _focus_ring(painter, option.rect, current())

    def standardIcon(self, icon: QStyle.StandardPixmap, option: QStyleOption | None = None,
                     widget: QWidget | None = None) -> QIcon:  # noqa: N802 (Qt's name)
        shape = self._DRAWN_ICONS.get(icon)
        if shape is None:
            return super().standardIcon(icon, option, widget)
        colour = current().text
        key = (shape, colour)
        if key not in self.icons:
            self.icons[key] = _drawn_icon(shape, QColor(colour))
        return self.icons[key]


def _is_text_box(widget: QWidget | None) -> bool:
    """A multi-line text box (its frame is a plain PE_Frame, like a list's)."""
    from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

    return isinstance(widget, (QPlainTextEdit, QTextEdit))


def _draw_check(painter: QPainter, option: QStyleOption, theme: Theme) -> None:
    """A square box: muted outline on the base colour; checked, an accent square with a white tick; partly
    checked, an accent bar. Disabled: the same at lower opacity."""
    state = option.state
    size = min(option.rect.width(), option.rect.height(), 16)
    box = QRectF(0, 0, size - 1, size - 1)
    box.moveCenter(QRectF(option.rect).center())
    on = bool(state & QStyle.StateFlag.State_On)
    partial = bool(state & QStyle.StateFlag.State_NoChange)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if not state & QStyle.StateFlag.State_Enabled:
        painter.setOpacity(0.5)
    accent = QColor(theme.accent)
    if on:
        painter.setPen(QPen(accent, 1.5))
        painter.setBrush(accent)
    else:
        painter.setPen(QPen(QColor(theme.accent if state & QStyle.StateFlag.State_HasFocus else theme.muted), 1.5))
        painter.setBrush(QColor(theme.base))
    painter.drawRoundedRect(box.adjusted(0.75, 0.75, -0.75, -0.75), 3, 3)
    if on:
        painter.setPen(QPen(QColor("#ffffff"), max(1.6, size / 8), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                            Qt.PenJoinStyle.RoundJoin))
        path = QPainterPath(QPointF(box.left() + size * 0.24, box.top() + size * 0.52))
        path.lineTo(box.left() + size * 0.42, box.top() + size * 0.70)
        path.lineTo(box.left() + size * 0.76, box.top() + size * 0.30)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
    elif partial:
        painter.fillRect(QRectF(box.left() + size * 0.25, box.center().y() - 1, size * 0.5, 2), accent)
    painter.restore()


def _draw_tab_close(painter: QPainter, option: QStyleOption, theme: Theme) -> None:
    """A closable tab's cross in the muted colour (the text colour under the mouse, on a faint round), like the
    other crosses this style draws; Fusion's is a fixed grey bitmap that vanished on the dark theme."""
    state = option.state
    rect = QRectF(option.rect)
    side = min(rect.width(), rect.height())
    box = QRectF(0, 0, side, side)
    box.moveCenter(rect.center())
    hovered = bool(state & QStyle.StateFlag.State_MouseOver) and bool(state & QStyle.StateFlag.State_Enabled)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if hovered or state & QStyle.StateFlag.State_Sunken:
        round_fill = QColor(theme.text)
        round_fill.setAlpha(40)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(round_fill)
        painter.drawEllipse(box)
    colour = QColor(theme.text if hovered or state & QStyle.StateFlag.State_Selected else theme.muted)
    painter.setPen(QPen(colour, max(1.5, side / 9), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    inset = side * 0.3
    painter.drawLine(QPointF(box.left() + inset, box.top() + inset), QPointF(box.right() - inset, box.bottom() - inset))
    painter.drawLine(QPointF(box.right() - inset, box.top() + inset), QPointF(box.left() + inset, box.bottom() - inset))
    painter.restore()


def _keyboard_focus(option: QStyleOption, *, always: bool) -> bool:
    state = option.state
    return bool(state & QStyle.StateFlag.State_HasFocus and state & QStyle.StateFlag.State_Enabled
                and (always or state & QStyle.StateFlag.State_KeyboardFocusChange))


def _draw_primary(painter: QPainter, option: QStyleOption, theme: Theme) -> None:
    """The accent-filled button (ui/design.make_primary, e.g. Send): a flat accent fill (a little darker pressed or
    under the mouse on the light theme, lighter on the dark one); disabled, the plain button colour with an outline.
    Its focus ring is drawn in the text colour, since an accent ring would vanish on the fill."""
    state = option.state
    rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if not state & QStyle.StateFlag.State_Enabled:
        painter.setPen(QPen(QColor(theme.card_border), 1))
        painter.setBrush(QColor(theme.alt_base))
    else:
        fill = QColor(theme.accent)
        if state & (QStyle.StateFlag.State_Sunken | QStyle.StateFlag.State_MouseOver):
            fill = fill.lighter(112) if theme.dark else fill.darker(112)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
    painter.drawRoundedRect(rect, 4, 4)
    painter.restore()


def _focus_ring(painter: QPainter, rect: object, theme: Theme, colour: str | None = None) -> None:
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(QColor(colour or theme.accent), 2))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRoundedRect(QRectF(rect).adjusted(1, 1, -1, -1), 3, 3)
    painter.restore()


def _drawn_icon(shape: str, colour: QColor) -> QIcon:
    icon = QIcon()
    for side in (16, 32):
        pixmap = QPixmap(side, side)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colour, side / 8, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                            Qt.PenJoinStyle.RoundJoin))
        s = side
        if shape == "cross":
            painter.drawLine(QPointF(s * 0.25, s * 0.25), QPointF(s * 0.75, s * 0.75))
            painter.drawLine(QPointF(s * 0.75, s * 0.25), QPointF(s * 0.25, s * 0.75))
        else:
            path = QPainterPath(QPointF(s * 0.2, s * 0.52))
            path.lineTo(s * 0.42, s * 0.74)
            path.lineTo(s * 0.8, s * 0.28)
            painter.drawPath(path)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


_current: Theme = LIGHT_THEME
DARK_FIELD_EDGE = "#606874"  # >= 3:1 against DARK_THEME's base and window (tests/ui/test_dark_fields.py)


def current() -> Theme:
    return _current


def set_current(theme: Theme) -> None:
    global _current
    _current = theme
