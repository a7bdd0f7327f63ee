"""Close icons stay visible on the dark theme (issue 24). A field's clear button and a dialog's Close button got
their cross once, in the theme of the moment: after a switch to the dark theme in Settings, the sidebar search's
cross and the Settings dialog's own Close cross stayed dark on dark. A closable tab's cross was Fusion's fixed grey
bitmap. Measured from grabs of the real widgets: the brightest mark against what it sits on, 3:1 or more (WCAG
1.4.11 for a control's graphics)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QLineEdit, QTabBar, QToolButton

from hermes_desktop.ui import theme as themes
from tests.ui.test_keyboard import contrast


def best_contrast(image: QImage, background: QColor) -> float:
    return max(contrast(image.pixelColor(x, y), background)
               for x in range(image.width()) for y in range(image.height()))


def icon_contrast(icon, background: QColor) -> float:
    image = icon.pixmap(16, 16).toImage()
    best = 0.0
    for x in range(image.width()):
        for y in range(image.height()):
            colour = image.pixelColor(x, y)
            if colour.alpha() > 200:
                best = max(best, contrast(colour, background))
    return best


def test_after_switching_to_dark_in_settings_the_close_crosses_are_light(make_window) -> None:
    h = make_window()
    h.do(lambda: h.window.set_theme("light"))
    search = h.window.findChild(QLineEdit, "sessionSearch")
    h.do(lambda: search.setText("anything"))
    h.do(h.window.open_settings)
    dialog = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings dialog")
    close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    combo = dialog.findChild(QComboBox, "themeCombo")
    h.do(lambda: combo.setCurrentIndex(combo.findData("dark")))  # the user's own way to the dark theme
    assert themes.current().dark
    h.settle(0.1)
    dark = themes.DARK_THEME
    if not close.icon().isNull():  # the style shows icons on dialog buttons (Fusion on Linux does)
        assert icon_contrast(close.icon(), QColor(dark.alt_base)) >= 3.0, "the Close button's cross"
    clear = next(b for b in search.findChildren(QToolButton) if b.isVisible())
    assert best_contrast(clear.grab().toImage(), QColor(dark.base)) >= 3.0, "the search field's clear cross"
    h.do(dialog.reject)
    h.do(lambda: h.window.set_theme("light"))
    assert best_contrast(clear.grab().toImage(), QColor(themes.LIGHT_THEME.base)) >= 3.0, "and back on light"


def test_a_closable_tabs_cross_is_visible_on_the_dark_theme(make_window) -> None:
    h = make_window()
    h.do(lambda: h.window.set_theme("dark"))
    bar = QTabBar()  # no tab bar of the window closes its tabs yet: one made as any panel would make it
    bar.setTabsClosable(True)
    bar.addTab("Notes")
    bar.addTab("Usage")
    bar.resize(bar.sizeHint())
    bar.show()
    h.settle(0.05)
    button = bar.tabButton(1, QTabBar.ButtonPosition.RightSide)
    assert button is not None and button.isVisible()
    # The bar's own grab of the button's place: the cross as the bar paints it with its children, in the theme's
    # colours (the muted one on a tab that is not current; Fusion's own is a grey box bitmap in any theme).
    image = bar.grab(button.geometry()).toImage()
    assert best_contrast(image, QColor(themes.DARK_THEME.window)) >= 3.0
    colours = {image.pixelColor(x, y).name() for x in range(image.width()) for y in range(image.height())}
    assert themes.DARK_THEME.muted in colours, sorted(colours)[:12]
    bar.close()
    bar.deleteLater()
    h.do(lambda: h.window.set_theme("light"))
