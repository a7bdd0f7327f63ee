"""The workspace folder: the only place file tools may touch.

Every path from the model goes through `Workspace.resolve()`: relative paths are
taken from the workspace root; `..` that climbs out, absolute paths outside, and
symlinks whose target lies outside are refused. Credential locations are refused
even inside the workspace (an `.env` file, an `.ssh` folder), because no approval
should be able to hand a key to the model.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath

from hermes_desktop.core.tools.spec import ToolError

# Names that hold credentials wherever they appear. Matched against every path component.
_CREDENTIAL_NAMES = re.compile(
    r"^(\.env(\..*)?|\.ssh|\.aws|\.gnupg|\.gpg|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.docker|\.kube|"
    r"\.git-credentials|id_(rsa|dsa|ecdsa|ed25519)(\.pub)?|.*\.(pem|key|p12|pfx|keychain|keychain-db|kdbx)|"
    r"keyrings?|credentials(\.json)?|secrets?\.(json|ya?ml|toml))$",
    re.I,
)


class WorkspaceError(ToolError):
    pass


class Workspace:
    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.realpath(root.expanduser()))

    def ensure_exists(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)

    def resolve(self, path: str | None) -> Path:
        """The real path for `path`, guaranteed inside the workspace and not a credential location."""
        text = (path or ".").strip() or "."
        if "\x00" in text:
            raise WorkspaceError("the path contains a NUL character")
        candidate = Path(text).expanduser()
        if not candidate.is_absolute():
            candidate = self.root / candidate
        resolved = Path(os.path.realpath(candidate))
        if not _is_within(resolved, self.root):
            lexical = Path(os.path.normpath(candidate))
            reason = "a symlink that points" if _is_within(lexical, self.root) else "a path"
            raise WorkspaceError(
                f"refused: {path!r} is {reason} outside the workspace ({self.root}). "
                "File tools can only use the workspace folder."
            )
        self._refuse_credentials(resolved, path)
        return resolved

    def resolve_entry(self, path: str | None) -> Path:
        """Like `resolve`, but a final symlink is the link itself (so delete/move act on the link,
        never on what it points to). The parent must resolve inside the workspace."""
        text = (path or "").strip()
        if not text or text in (".", "./"):
            return self.root
        candidate = Path(text).expanduser()
        if not candidate.is_absolute():
            candidate = self.root / candidate
        candidate = Path(os.path.normpath(candidate))
        parent = self.resolve(str(candidate.parent))
        entry = parent / candidate.name
        if not _is_within(entry, self.root):
            raise WorkspaceError(f"refused: {path!r} is outside the workspace ({self.root})")
        if not entry.is_symlink():
            return self.resolve(str(entry))
        self._refuse_credentials(entry, path)
        return entry

    def relative(self, path: Path) -> str:
        """How a resolved path is shown to the model and the user."""
        rel = path.relative_to(self.root)
        return str(PurePosixPath(*rel.parts)) if rel.parts else "."

    def _refuse_credentials(self, resolved: Path, shown: str | None) -> None:
        for part in resolved.relative_to(self.root).parts:
            if _CREDENTIAL_NAMES.match(part):
                raise WorkspaceError(
                    f"refused: {shown!r} is a credential location ({part}); Hermes never reads or writes those."
                )


def _is_within(path: Path, root: Path) -> bool:
    # normcase: on Windows C:\Work and c:\work are the same folder.
    p, r = os.path.normcase(str(path)), os.path.normcase(str(root))
    try:
        return os.path.commonpath([p, r]) == r
    except ValueError:  # different drives
        return False
