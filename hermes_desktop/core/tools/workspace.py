"""The workspace folder: the only place file tools may touch.

Every path from the model goes through `Workspace.resolve()`: relative paths are
taken from the workspace root; `..` that climbs out, absolute paths outside, and
symlinks whose target lies outside are refused. Credential locations are refused
even inside the workspace (an `.env` file, an `.ssh` folder), because no approval
should be able to hand a key to the model.

`broad_workspace_reason()` says why a folder is too broad to be a workspace (`/`, the
home folder itself, a system folder): the window asks before using one and the CLI
refuses it unless `--allow-broad-workspace` is passed, because a model with a broad
workspace reads system files and whole home folders without asking.
"""

from __future__ import annotations

import os
import re
import tempfile
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


# System folders (and everything under them) that a workspace must not be. Compared
# case-insensitively on their resolved form; `/lib*` (lib, lib32, lib64, libx32, libexec) by pattern.
_POSIX_SYSTEM_DIRS = (
    "/usr", "/etc", "/bin", "/sbin", "/var", "/boot", "/dev", "/proc", "/sys", "/opt",
    "/root", "/System", "/Applications", "/Library", "/private/etc", "/private/var",
)
_POSIX_LIB_DIR = re.compile(r"lib(32|64|x32|exec)?", re.I)
_WINDOWS_SYSTEM_DIRS = ("windows", "program files", "program files (x86)", "programdata")


def broad_workspace_reason(path: Path, *, home: Path | None = None) -> str | None:
    """A one-line reason why `path` is too broad to be a workspace, or None when it is fine.

    Broad means: a filesystem root (`/`, `C:\\`), the user's home folder itself (not a
    folder inside it), or a system folder or anything inside one (/usr, /etc, /bin,
    /sbin, /lib*, /var, /boot, /dev, /proc, /sys, /opt, /root when it is not the home,
    macOS /System, /Applications, /Library, Windows C:\\Windows, C:\\Program Files...).
    The path and the home are resolved first, so a symlink to `/` counts as `/`.
    Pure: nothing is created or changed.
    """
    resolved = Path(os.path.realpath(Path(path).expanduser()))
    home_resolved = Path(os.path.realpath(home if home is not None else Path.home()))
    if resolved.parent == resolved:
        return f"{resolved} is the root of the filesystem: the model could read every file on this computer"
    if _same_path(resolved, home_resolved):
        return f"{resolved} is your whole home folder: choose a project folder inside it instead"
    system = _system_folder(resolved, home_resolved)
    if system is None:
        return None
    where = "a system folder" if _same_path(resolved, Path(system)) else f"inside the system folder {system}"
    return f"{resolved} is {where}: choose a project folder instead"


def _system_folder(resolved: Path, home: Path) -> str | None:
    """The system folder that contains `resolved`, or None. A home folder that itself lives
    under one (a root user's /root) is not treated as system for paths inside it."""
    if _is_within(resolved, home) or any(_is_within(resolved, t) for t in _temporary_dirs()):
        return None
    parts = resolved.parts
    if len(parts) >= 2 and re.fullmatch(r"[A-Za-z]:\\?", parts[0]):  # Windows drive
        if parts[1].lower() in _WINDOWS_SYSTEM_DIRS:
            return str(Path(parts[0]) / parts[1])
        return None
    if len(parts) >= 2 and parts[0] == "/" and _POSIX_LIB_DIR.fullmatch(parts[1]):
        return "/" + parts[1]
    text = str(PurePosixPath(*parts)) if parts else ""
    for folder in _POSIX_SYSTEM_DIRS:
        if _is_within(Path(text.lower()), Path(folder.lower())):
            return folder
    return None


def _temporary_dirs() -> list[Path]:
    """Temporary folders are not system folders even under /var (macOS puts them in
    /private/var/folders, Linux has /var/tmp)."""
    return [Path(os.path.realpath(tempfile.gettempdir())), Path("/var/tmp"), Path("/private/var/tmp")]


def _same_path(a: Path, b: Path) -> bool:
    return os.path.normcase(str(a)) == os.path.normcase(str(b))


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
