"""The skill collections catalog (issue 27): known public collections to browse, search and install from.

The app ships a short list (`known.json` beside this file: well-known public collections, each a git URL that
`skills install` / Install from URL accepts); the user extends it with `skill_collections.json` in the config
folder, in the same format (`{"collections": [{"name", "url", "description", "description_zh_CN"}]}`). A user entry with the URL of a
shipped one replaces it. The file is the user's, so a broken one is reported and skipped, never fatal, and only
https URLs are listed (installing still goes through the private-network guard and the review before install).
Being listed is not trust: whatever is installed from a collection is shown before it is installed and its code
stays untrusted until the user trusts it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hermes_desktop.core.skills.catalog import tokens

KNOWN = Path(__file__).with_name("known.json")
USER_FILE_NAME = "skill_collections.json"
MAX_FILE_BYTES = 1_000_000
MAX_FIELD = 500


@dataclass(frozen=True, slots=True)
class Problem:
    """What was wrong with a catalog file; `kind` is a code the window words in the user's language:
    too_large, unreadable (detail: the error), no_list, not_object (entry), incomplete (entry)."""
    kind: str
    file: str
    entry: int = 0
    detail: str = ""

    def __str__(self) -> str:  # the CLI's and the log's wording
        return {"too_large": f"{self.file} is larger than {MAX_FILE_BYTES:,} bytes: skipped",
                "unreadable": f"{self.file} could not be read ({self.detail}): skipped",
                "no_list": f"{self.file} has no \"collections\" list: skipped",
                "not_object": f"{self.file}: entry {self.entry} is not an object: skipped",
                "incomplete": f"{self.file}: entry {self.entry} needs a name and an https URL: skipped",
                }.get(self.kind, f"{self.file}: {self.kind}")


@dataclass(frozen=True, slots=True)
class Collection:
    name: str
    url: str
    description: str
    origin: str  # "shipped" or "user"


def _entries(path: Path, origin: str, problems: list[Problem], language: str = "") -> list[Collection]:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            problems.append(Problem("too_large", str(path)))
            return []
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as exc:
        problems.append(Problem("unreadable", str(path), detail=str(exc)))
        return []
    rows = data.get("collections") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        problems.append(Problem("no_list", str(path)))
        return []
    found = []
    for n, row in enumerate(rows, 1):
        if not isinstance(row, dict):
            problems.append(Problem("not_object", str(path), n))
            continue
        name, url = str(row.get("name") or "").strip(), str(row.get("url") or "").strip()
        if not name or not url.startswith("https://") or any(c.isspace() for c in url):
            problems.append(Problem("incomplete", str(path), n))
            continue
        described = row.get(f"description_{language}") or row.get("description") or ""
        found.append(Collection(name[:MAX_FIELD], url[:2000], str(described).strip()[:MAX_FIELD], origin))
    return found


def load(config_dir: Path | None, language: str = "") -> tuple[list[Collection], list[Problem]]:
    """The shipped collections with the user's added (or replacing ones with the same URL), and what was wrong.
    `language` (e.g. zh_CN) picks an entry's `description_<language>` where it has one."""
    problems: list[Problem] = []
    by_url = {c.url.rstrip("/").lower(): c for c in _entries(KNOWN, "shipped", problems, language)}
    if config_dir is not None:
        for entry in _entries(config_dir / USER_FILE_NAME, "user", problems, language):
            by_url[entry.url.rstrip("/").lower()] = entry
    return sorted(by_url.values(), key=lambda c: c.name.lower()), problems


def search(collections: list[Collection], query: str) -> list[Collection]:
    """Collections matching `query` (the share of its words in name, description and URL; the skills catalog's
    words, so Chinese matches by character pairs), best first; all when it is empty. A catalog of a few dozen
    entries needs no index."""
    wanted = set(tokens(query))
    if not wanted:
        return list(collections)
    scored = []
    for collection in collections:
        held = set(tokens(f"{collection.name} {collection.name} {collection.description} {collection.url}"))
        hits = len(wanted & held)
        if hits:
            scored.append((-hits, collection.name.lower(), collection))
    return [entry for *_, entry in sorted(scored, key=lambda row: row[:2])]
