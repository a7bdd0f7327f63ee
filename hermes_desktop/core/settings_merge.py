"""Saving settings by field: a process writes what it changed, never a stale copy of everything else.

The window, `ask` and other commands each hold the settings they loaded at start. Saving that whole copy undid
what another process had saved meanwhile: `ask` learning a provider's reasoning echo, or an "always allow" rule
given in a terminal, vanished when the window next saved its theme. Now `SettingsStore.save(new)` works out what
changed between the copy this store last loaded or saved (`base`) and `new`, and applies only that to the file
as it is on disk now, under an OS lock on `settings.json.lock` (core/file_lock.py) so two saves never interleave
between read and write.

How a change is applied (`merge(disk, base, new)`, all three JSON-shaped):
- objects (the settings, `limits`, `tool_rules`, a profile, `extra_params`): key by key; a key this writer
  removed is removed, one it added or changed is set; keys it did not touch keep the disk's value, including
  keys this version does not know.
- lists of objects with an `id` (`profiles`): by id; a profile this writer removed is removed, one it added is
  appended, one it changed is merged field by field; profiles another process added stay.
- lists of plain values (`disabled_tools`, `models`, hosts): as sets; what this writer added is added and what
  it removed is removed, so two processes disabling two tools both stick.
- anything else: this writer's value.
A value both processes changed ends as the later save's, which is what the user did last.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hermes_desktop.core.settings import Settings

log = logging.getLogger(__name__)
_MISSING = object()
# A save holds the lock only to read, merge and replace the file (milliseconds); a holder dies with its lock. So
# this is only reached when another process hangs inside its save (a stuck network folder): the save fails then.
LOCK_TIMEOUT_S = 10.0


def plain(value: Any) -> Any:
    """`value` as JSON would give it back (tuples as lists, enums as strings)."""
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


def merge(disk: Any, base: Any, new: Any) -> Any:
    """`disk` with the changes from `base` to `new` applied (see the module docstring)."""
    if base == new:
        return disk
    if isinstance(base, dict) and isinstance(new, dict):
        merged = dict(disk) if isinstance(disk, dict) else dict(base)
        for key in list(base) + [k for k in new if k not in base]:
            if key not in new:
                merged.pop(key, None)
            elif key not in base or base[key] != new[key]:
                merged[key] = merge(merged.get(key, _MISSING), base.get(key, _MISSING), new[key])
        return merged
    if _keyed(base) and _keyed(new):
        return _merge_keyed(disk if _keyed(disk) else base, base, new)
    if _scalars(base) and _scalars(new):
        current = disk if _scalars(disk) else base
        removed = [item for item in base if item not in new]
        added = [item for item in new if item not in base]
        return [item for item in current if item not in removed] + [item for item in added if item not in current]
    return new


def _keyed(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) and isinstance(item.get("id"), str) for item in value)


def _scalars(value: Any) -> bool:
    return isinstance(value, list) and all(not isinstance(item, (dict, list)) for item in value)


def _merge_keyed(disk: list[dict[str, Any]], base: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[Any]:
    base_by = {item["id"]: item for item in base}
    new_by = {item["id"]: item for item in new}
    merged: list[Any] = []
    for item in disk:
        key = item["id"]
        if key in base_by and key not in new_by:
            continue  # this writer removed it
        if key in new_by:
            item = merge(item, base_by.get(key, item), new_by[key])
        merged.append(item)
    on_disk = {item["id"] for item in disk}
    merged += [item for key, item in new_by.items() if key not in base_by and key not in on_disk]
    return merged


def save_merged(path: Path, new: "Settings", base: dict[str, Any] | None) -> tuple["Settings", dict[str, Any]]:
    """Apply `new`'s changes since `base` (None: since what the file holds now) to settings.json under its lock.
    Returns (the settings as saved, other processes' changes included; the new base for this writer)."""
    from hermes_desktop.core.file_lock import locked
    from hermes_desktop.core.settings import SETTINGS_VERSION, write_atomically
    from hermes_desktop.core.settings_validation import read_valid

    wanted = plain(new.to_json())
    with locked(path.with_name(path.name + ".lock"), LOCK_TIMEOUT_S):  # TimeoutError (an OSError) past it
        disk = _read_disk(path)
        if base is None:
            base = plain(read_valid(disk)[0].to_json())
        merged = merge(disk, base, wanted)
        merged["version"] = SETTINGS_VERSION
        write_atomically(path, json.dumps(merged, indent=2, ensure_ascii=False))
    # This writer's own copy is the base of its next save: a caller that keeps using `new` (and not the merged
    # result) never undoes, on its next save, what another process changed.
    return read_valid(merged)[0], wanted


def _read_disk(path: Path) -> dict[str, Any]:
    """settings.json as it is now; {} when missing, or unreadable (then this writer's settings are all there is)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.warning("settings.json could not be read before saving (%s): it is written from this process's settings",
                    exc)
        return {}
    return data if isinstance(data, dict) else {}
