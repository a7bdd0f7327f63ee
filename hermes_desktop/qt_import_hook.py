"""Keep PySide6's import hook from breaking the import of other libraries.

Once PySide6 is imported, shiboken inspects every module imported afterwards
(`shibokensupport.feature.feature_imported`) by reading its source with
`inspect.getsource`, which asks the module for `__wrapped__`. pydantic's modules
answer unknown attributes through a module `__getattr__` that imports more of
pydantic; when that happens while one of those modules is still half imported,
the inspection raises ImportError ("cannot import name 'import_string' from
partially initialized module 'pydantic._internal._validators'"), and shiboken
lets it escape into the import of openai or mcp. A new user's walk saw the window
die at start in 2 of 12 starts this way. The guard makes an inspection that fails
count as "does not use PySide" (the answer shiboken gives for a module it cannot
read), so the import itself goes on.

Call `guard()` right after importing PySide6 (the window and the image helpers do).
"""

from __future__ import annotations

import logging
import sys
from types import ModuleType
from typing import Callable

log = logging.getLogger(__name__)
_GUARDED = "__hermes_guarded__"


def guard() -> bool:
    """Wrap shiboken's module inspection so that an exception in it cannot fail an import. Returns whether the
    hook was found (absent in other PySide6 versions: nothing to do then)."""
    feature = sys.modules.get("shibokensupport.feature")
    inspect_module: Callable[[ModuleType], bool] | None = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or inspect_module is None:
        return False
    if getattr(inspect_module, _GUARDED, False):
        return True

    def uses_pyside(module: ModuleType) -> bool:
        try:
            return inspect_module(module)
        except Exception as exc:  # an ImportError from a lazy module __getattr__, or anything else it ran
            log.debug("PySide6's import hook could not inspect %s: %r", getattr(module, "__name__", module), exc)
            return False

    setattr(uses_pyside, _GUARDED, True)
    feature._mod_uses_pyside = uses_pyside  # type: ignore[attr-defined]
    return True
