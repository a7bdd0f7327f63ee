"""The window's spacing and type scales: every margin, gap, radius and font size comes from here.

Spacing is a 4 px grid (XS 4, S 8, M 12, L 16, XL 24); type is four steps relative to the system font, so the
user's font size setting still scales everything: BODY (the system size), SMALL (secondary text: headers, links,
tool cards, timestamps; 0.86x), TITLE (an empty state's heading; 1.25x, semi-bold) and SECTION (a group heading in
a list; 0.9x, bold). One corner radius for the chat's boxes (the user bubble, tool cards, banners, the summary card
and "Remembered" rows) and a smaller one for badges and buttons drawn inside them.

Reference points, from their public screenshots: Claude Desktop, Cherry Studio and Jan all use one accent colour,
muted secondary text, generous margins and one radius for message boxes; the assistant's text sits without a
bubble on the same column as its tool cards. Hermes does the same: every chat row's box starts at CHAT_MARGIN
from the left and ends CHAT_MARGIN from the right (the user bubble ends there too), and text inside a box is
inset by BOX_PAD on every side.
"""

from __future__ import annotations

from PySide6.QtGui import QFont

# --- spacing (px) ---------------------------------------------------------------------------------------------
XS = 4
S = 8
M = 12
L = 16
XL = 24

# --- the chat's column grid -----------------------------------------------------------------------------------
CHAT_MARGIN = float(L)  # left and right edge of every row's box (bubble, card, banner, summary, remembered)
ROW_GAP = float(S)  # vertical space around a row
BOX_PAD = float(M)  # inside every box, all sides
BLOCK_GAP = float(S) - 2  # between Markdown blocks of a reply (tighter than the grid: paragraphs have their own leading)
RADIUS = 8.0  # the chat's boxes
RADIUS_SMALL = 5.0  # badges, inline buttons, thumbnails
LINK_GAP = float(M)  # between footer links (Copy · Edit · Fork)
READING_WIDTH = 820  # a wider transcript is laid out at this width, centred: lines stay short enough to read

# --- type scale (factors of the system font's point size) ----------------------------------------------------
BODY = 1.0
SMALL = 0.86
SECTION = 0.9
TITLE = 1.25

# --- icons ------------------------------------------------------------------------------------------------------
ICON = 16  # in buttons and menus
ICON_LARGE = 40  # an empty state's picture


def scaled(base: QFont, factor: float, *, bold: bool = False, weight: QFont.Weight | None = None) -> QFont:
    """`base` at one step of the type scale (never below 7 pt)."""
    font = QFont(base)
    if factor != 1.0:
        size = base.pointSizeF()
        if size > 0:
            font.setPointSizeF(max(7.0, size * factor))
        else:  # a pixel-sized font
            font.setPixelSize(max(9, round(base.pixelSize() * factor)))
    if weight is not None:
        font.setWeight(weight)
    elif bold:
        font.setBold(True)
    return font


def small(base: QFont) -> QFont:
    return scaled(base, SMALL)


def title(base: QFont) -> QFont:
    return scaled(base, TITLE, weight=QFont.Weight.DemiBold)


def section(base: QFont) -> QFont:
    return scaled(base, SECTION, bold=True)


def on_accent(theme: object) -> str:
    """Text and icons on an accent fill: white on the light theme's accent (4.6:1), the base colour on the dark
    theme's lighter accent (white there would be 3.1:1, under WCAG's 4.5:1 for text)."""
    return str(getattr(theme, "base")) if getattr(theme, "dark") else "#ffffff"


def make_primary(button: object, icon_name: str) -> None:
    """The one accent-filled button of a view (Send): accent fill, on-accent text and icon, muted when disabled;
    kept in the theme's colours on a theme switch. Its focus ring is drawn in the text colour (ui/theme.py)."""
    from PySide6.QtGui import QColor, QPalette

    from hermes_desktop.ui import icons
    from hermes_desktop.ui import theme as themes

    button.setProperty("primary", True)  # type: ignore[attr-defined]

    def apply() -> None:
        theme = themes.current()
        palette = button.palette()  # type: ignore[attr-defined]
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            palette.setColor(group, QPalette.ColorRole.Button, QColor(theme.accent))
            palette.setColor(group, QPalette.ColorRole.ButtonText, QColor(on_accent(theme)))
        palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Button, QColor(theme.alt_base))
        palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(theme.muted))
        if palette != button.palette():  # type: ignore[attr-defined]  # (setting it sends another PaletteChange)
            button.setPalette(palette)  # type: ignore[attr-defined]
        button.setIcon(icons.icon(icon_name, on_accent(theme)))  # type: ignore[attr-defined]

    icons._Refresher(button, apply)  # type: ignore[arg-type]
