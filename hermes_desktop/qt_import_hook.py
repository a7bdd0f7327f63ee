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
            return _mentions_pyside(module)
        except Exception as exc:  # an ImportError from a lazy module __getattr__, or anything else it ran
            log.debug("PySide6's import hook could not inspect %s: %r", getattr(module, "__name__", module), exc)
            return False

    setattr(uses_pyside, _GUARDED, True)
    feature._mod_uses_pyside = uses_pyside  # type: ignore[attr-defined]
    return True


def _mentions_pyside(module: ModuleType) -> bool:
    """shiboken's own test (does the module's source contain "PySide6"?), answered from the file's bytes.

    `inspect.getsource` reads the file through linecache, splits it into lines and asks the module for
    `__wrapped__`; for the ~150 modules the window imports before its first paint, and the ~700 of openai
    imported while the engine loads, that cost more than everything else the hook does. A module without a
    `.py` file (built-in, extension, frozen, in an archive) has no source for getsource either: False."""
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) if spec is not None else None
    origin = origin or getattr(module, "__file__", None)
    if not isinstance(origin, str) or not origin.endswith(".py"):
        return False
    with open(origin, "rb") as handle:
        return b"PySide6" in handle.read()
