"""Where credentials live, for every reader of the user's files: the file tools (core/tools/workspace.py) and
attachments (core/attachments.py) refuse the same places by the same rule.

Two kinds of place:
- names that hold credentials wherever they appear (`.ssh`, `.aws`, `.gnupg`, `.env`, `keyrings`, `id_rsa`,
  `*.pem`...), matched against every component of a path;
- folders under the home folder whose own names say nothing (`~/.password-store`, `~/.config/gcloud`,
  `~/.config/gh`, `~/.azure`, browsers' profile folders with their saved passwords and cookies, ...), matched by
  where they are.

Callers resolve the path first (`os.path.realpath`), so a link named `notes.txt` that points into `~/.ssh` is
judged by where it points. Pure: nothing is read.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

# Names that hold credentials wherever they appear. Matched against every path component.
CREDENTIAL_NAMES = re.compile(
    r"^(\.env(\..*)?|\.ssh|\.aws|\.gnupg|\.gpg|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.docker|\.kube|"
    r"\.git-credentials|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|.*\.(pem|key|p12|pfx|keychain|keychain-db|kdbx)|"
    r"keyrings?|credentials(\.json)?|secrets?\.(json|ya?ml|toml))$",
    re.I,
)

# Folders under the home folder that hold credentials although their names do not say so.
HOME_CREDENTIAL_DIRS: tuple[str, ...] = (
    ".password-store", ".azure", ".config/gcloud", ".config/gh", ".config/hub", ".config/op", ".config/rclone",
    ".local/share/keyrings", ".local/share/kwalletd", ".mozilla", ".thunderbird", ".config/google-chrome",
    ".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge", ".vault-token", ".terraform.d",
    ".config/Bitwarden", ".config/1Password", "Library/Keychains", "Library/Cookies",
)


def credential_part(path: Path, *, home: Path | None = None, within: Path | None = None) -> str | None:
    """What makes `path` (already resolved) a credential location, or None: the component with a credential
    name, or the home folder's credential folder it is in. `within`: only components below this folder count
    by name (a workspace's own name, say `keys.pem`, is not inside a credential location)."""
    parts = path.relative_to(within).parts if within is not None and _is_within(path, within) else path.parts
    for part in parts:
        if CREDENTIAL_NAMES.match(part):
            return part
    home_resolved = Path(os.path.realpath(home if home is not None else Path.home()))
    for folder in HOME_CREDENTIAL_DIRS:
        place = Path(os.path.normpath(home_resolved / folder))
        if _is_within(path, place):
            return f"~/{place.relative_to(home_resolved).as_posix()}"
    return None


def _is_within(path: Path, root: Path) -> bool:
    p, r = os.path.normcase(str(path)), os.path.normcase(str(root))
    try:
        return os.path.commonpath([p, r]) == r
    except ValueError:  # different drives
        return False
