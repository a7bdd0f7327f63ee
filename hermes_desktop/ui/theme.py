"""Light and dark themes: Fusion with explicit palettes, following the system unless the user chose one.

Everything the delegates paint takes its colours from `current()`, so a theme switch
is a palette change plus a repaint, never a restart.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

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
        app.setStyle("Fusion")
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
        self.sig_theme_changed.emit(self.theme)


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


_current: Theme = LIGHT_THEME


def current() -> Theme:
    return _current


def set_current(theme: Theme) -> None:
    global _current
    _current = theme
