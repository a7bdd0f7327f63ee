"""The window's icons: small stroke SVGs in resources/icons/ui/, drawn in the theme's colours.

Each SVG is written with `stroke="currentColor"` (24 px grid, 2 px strokes, round caps: the Feather/Lucide style,
drawn for this project). `icon(name)` substitutes the current theme's text colour (the muted colour for the
Disabled mode, the accent or white where asked) and renders it with QSvgRenderer (QtSvg ships with
PySide6-Essentials) at the sizes a button or menu asks for. Icons are cached per (name, colour, …), so a theme
switch makes one new set and a repaint never renders an SVG. Widgets that hold an icon refresh it on a palette
change (`refresh_on_theme`).

Sizes: 16 px (menus, buttons) and the size a widget asks for (`set_icon(..., size=)`), and twice each only when a
screen draws at more than 1x. Rendering a 32 px set for every icon on a 1x screen was half of the icon work before
the window's first paint (ui/launch.py), for pixmaps Qt never used there."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from PySide6.QtCore import QByteArray, QEvent, QObject, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

from hermes_desktop.core.paths import resources_dir
from hermes_desktop.ui import theme as themes

NAMES = ("new-session", "search", "send", "stop", "attach", "settings", "copy", "edit", "fork", "regenerate",
         "delete", "pin", "export", "rename", "sidebar", "inspector", "chat", "skills", "server", "activity",
         "sparkle", "plus", "folder", "calculator")
_SMALL = 16  # menus and buttons (design.ICON)


@lru_cache(maxsize=None)
def _source(name: str) -> str:
    return (resources_dir() / "icons" / "ui" / f"{name}.svg").read_text(encoding="utf-8")


def pixmap(name: str, colour: str, side: int, *, ratio: float = 1.0) -> QPixmap:
    """The icon drawn in `colour` on a transparent square of `side` logical pixels."""
    return _pixmap(name, QColor(colour).name(QColor.NameFormat.HexArgb), side, ratio)


@lru_cache(maxsize=512)
def _pixmap(name: str, colour: str, side: int, ratio: float) -> QPixmap:
    qcolour = QColor(colour)
    svg = _source(name).replace("currentColor", qcolour.name(QColor.NameFormat.HexRgb))
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    physical = max(1, round(side * ratio))
    image = QPixmap(physical, physical)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, physical, physical))
    if qcolour.alpha() < 255:  # the renderer ignores the painter's opacity: scale the drawn alpha instead
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_DestinationIn)
        painter.fillRect(image.rect(), QColor(0, 0, 0, qcolour.alpha()))
    painter.end()
    image.setDevicePixelRatio(ratio)
    return image


def _sides(size: int | None) -> tuple[int, ...]:
    """The pixmap sizes an icon gets: 16 px and the widget's own size, doubled too on a high-density screen."""
    sides = {_SMALL, size or _SMALL}
    if any(screen.devicePixelRatio() > 1 for screen in QGuiApplication.screens()):
        sides |= {2 * side for side in sides}
    return tuple(sorted(sides))


@lru_cache(maxsize=256)
def _icon(name: str, normal: str, disabled: str, sides: tuple[int, ...]) -> QIcon:
    result = QIcon()
    for side in sides:
        result.addPixmap(_pixmap(name, normal, side, 1.0), QIcon.Mode.Normal)
        result.addPixmap(_pixmap(name, normal, side, 1.0), QIcon.Mode.Active)
        result.addPixmap(_pixmap(name, normal, side, 1.0), QIcon.Mode.Selected)
        result.addPixmap(_pixmap(name, disabled, side, 1.0), QIcon.Mode.Disabled)
    return result


def icon(name: str, colour: str | None = None, size: int | None = None) -> QIcon:
    """`name` in `colour` (default: the current theme's text colour; disabled: its muted colour at half opacity),
    sharp at 16 px and at `size`."""
    theme = themes.current()
    normal = QColor(colour or theme.text).name(QColor.NameFormat.HexArgb)
    muted = QColor(theme.muted)
    muted.setAlphaF(0.6)
    return _icon(name, normal, muted.name(QColor.NameFormat.HexArgb), _sides(size))


class _Refresher(QObject):
    """Sets a widget's icon again when the palette changes (the theme switched)."""

    def __init__(self, widget: QObject, apply: Callable[[], None]) -> None:
        super().__init__(widget)
        self._apply = apply
        widget.installEventFilter(self)
        apply()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply()
        return False


def set_icon(widget: QObject, name: str, colour: Callable[[], str | None] = lambda: None,
             size: int | None = None) -> None:
    """Give a button (anything with setIcon) the icon, and keep it in the theme's colour."""
    if size is not None and hasattr(widget, "setIconSize"):
        widget.setIconSize(QSize(size, size))
    _Refresher(widget, lambda: widget.setIcon(icon(name, colour(), size)))


def set_action_icons(owner: QObject, actions: dict[object, str]) -> None:
    """Icons for QActions (menus), refreshed when `owner` (a widget) sees a palette change."""
    def apply() -> None:
        for action, name in actions.items():
            action.setIcon(icon(name))

    _Refresher(owner, apply)
