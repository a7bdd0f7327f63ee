"""The language the Qt-free side speaks (the command line, exported files): Python's gettext.

The window translates through Qt (resources/translations/hermes_zh_CN.ts → .qm), which the core may not import;
the command line and the core's own sentences use the standard library's `gettext` with the catalog
`resources/translations/locale/<language>/LC_MESSAGES/hermes-desktop.mo`. Both follow one glossary,
docs/glossary.md (tests/core/test_glossary.py checks the .ts and the .po against it).

Decisions:
- The .po is the source, kept in the repository; the compiled .mo is shipped beside it, like the .qm. Python has
  no compiler for it at run time, `pip install -e .` and the PyInstaller bundle run no build step, and a
  machine without GNU gettext must still speak Chinese. `make translations` compiles it (polib, a test extra);
  tests/core/test_cli_chinese.py fails when the shipped .mo says something other than the .po.
- Which language: the app's `language` setting ("system", "en", "zh_CN"; Settings › General), for "system" the
  environment's LANGUAGE / LC_ALL / LC_MESSAGES / LANG, as gettext itself reads them. Any Chinese locale gets
  Simplified Chinese, the only translation so far, as the window does (ui/i18n.py).
- Placeholders are `{0}` / `{name}` filled by `str.format` after the lookup, as in the .ts, so a translation can
  put them in its own order. A sentence is one message; pieces of sentences are never joined.
- argparse words its own parts ("usage:", "options", "the following arguments are required") through gettext's
  global domain, which reads only the environment; `translate_argparse` points it at our catalog so `--help` and
  usage errors follow the setting too. Those few msgids are in our .po.
"""

from __future__ import annotations

import gettext
import os
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from hermes_desktop.core.paths import resources_dir

DOMAIN = "hermes-desktop"
LANGUAGES = ("en", "zh_CN")
_ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def locale_dir() -> Path:
    return resources_dir() / "translations" / "locale"


def resolve_language(setting: str | None) -> str:
    """ "zh_CN" or "en": the setting, or for "system" (and None) the environment's locale."""
    if setting and setting != "system":
        return "zh_CN" if setting.lower().startswith("zh") else "en"
    for name in _ENVIRONMENT:
        value = os.environ.get(name, "")
        if value:
            return "zh_CN" if value.split(":")[0].lower().startswith("zh") else "en"
    return "en"


@lru_cache(maxsize=4)
def catalog(language: str) -> gettext.NullTranslations:
    """The translations for "en" or "zh_CN"; English (the msgids themselves) when there is no catalog."""
    if language == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, str(locale_dir()), languages=[language], fallback=True)


_active: gettext.NullTranslations = gettext.NullTranslations()
_active_language = "en"


def use_language(setting: str | None) -> str:
    """Speak the language of `setting` from now on (this process); returns "en" or "zh_CN"."""
    global _active, _active_language
    _active_language = resolve_language(setting)
    _active = catalog(_active_language)
    return _active_language


def active_language() -> str:
    return _active_language


def _(message: str) -> str:
    """`message` in the active language (English when it has no translation)."""
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _active.ngettext(singular, plural, n)


def translate_argparse() -> None:
    """argparse's own words ("usage:", "options", its errors) in the active language."""
    import argparse

    # argparse bound gettext's functions by name when it was imported; they read the environment's domain only.
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def reworded(text: str, table: "Iterable[tuple[str, str]]") -> str | None:
    """`text` (an English refusal from the core that has no code yet) in the active language: the first pattern of
    `table` that matches it whole gives the translated sentence, its one group put into `{0}`; None when none does.
    A stopgap where the core raises plain sentences (commands/knowledge.py, commands/assistants.py): errors that
    carry a code are worded by the code instead (core/error_words.py)."""
    import re

    for english, worded in table:
        found = re.fullmatch(english, text, re.S)
        if found:
            return worded.format(*found.groups())
    return None
