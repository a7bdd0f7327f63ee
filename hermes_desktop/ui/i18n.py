"""Which language the window speaks: English (the source strings) or Simplified Chinese.

The `language` setting is "system" (follow the OS locale), "en" or "zh_CN"; it applies at the next start,
because Qt widgets take their text when they are built. Our strings come from
`resources/translations/hermes_zh_CN.qm` (source: the .ts next to it, `make translations` refreshes both);
Qt's own (standard buttons, file dialogs) from the Qt installation (PySide6's translations folder), with
`qtbase_extra_<language>.qm` for the few of Qt's words that catalogue lacks. The engine's reports (impacts, errors,
notices, the Activity trace) arrive as codes and are worded by ui/words.py; model replies are the model's own.
"""

from __future__ import annotations

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from hermes_desktop.core.paths import resources_dir

LANGUAGES = ("system", "en", "zh_CN")
_INSTALLED: list[QTranslator] = []


def effective_language(setting: str, system_locale: str | None = None) -> str:
    """"en" or "zh_CN" for a setting; any Chinese locale gets Simplified Chinese, the only translation so far."""
    wanted = (system_locale or QLocale.system().name()) if setting not in ("en", "zh_CN") else setting
    return "zh_CN" if wanted.lower().startswith("zh") else "en"


def active_language() -> str:
    """The language the window speaks now: "zh_CN" when its translation is installed, else "en"."""
    return "zh_CN" if _INSTALLED else "en"


def install_translations(app: QApplication, setting: str) -> str:
    """Install (or remove) the translators for the setting; returns the language now in use."""
    for translator in _INSTALLED:
        app.removeTranslator(translator)
    _INSTALLED.clear()
    language = effective_language(setting)
    # Qt's own formats and names follow the window's language too: the file dialog's dates and its file types
    # ("SQLite3 数据库", from Qt's MIME database) were English-only or in the system's format beside Chinese words.
    system = QLocale.system()
    QLocale.setDefault(QLocale("zh_CN") if language == "zh_CN" else
                       QLocale("en_US") if system.name().lower().startswith("zh") else system)
    if language == "en":
        return language
    ours = QTranslator(app)
    if ours.load(str(resources_dir() / "translations" / f"hermes_{language}.qm")):
        app.installTranslator(ours)
        _INSTALLED.append(ours)
    qt = QTranslator(app)
    if qt.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _INSTALLED.append(qt)
    # Qt's words its own catalogue has not caught up with (the file dialog's "&Look in:"): installed last, so
    # looked up first (translators are searched newest first).
    extra = QTranslator(app)
    if extra.load(str(resources_dir() / "translations" / f"qtbase_extra_{language}.qm")):
        app.installTranslator(extra)
        _INSTALLED.append(extra)
    return language if _INSTALLED else "en"
