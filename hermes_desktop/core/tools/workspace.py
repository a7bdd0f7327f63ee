"""The workspace folder: the only place file tools may touch.

Every path from the model goes through `Workspace.resolve()`: relative paths are
taken from the workspace root; `..` that climbs out, absolute paths outside, and
symlinks whose target lies outside are refused. Credential locations are refused
even inside the workspace (an `.env` file, an `.ssh` folder), because no approval
should be able to hand a key to the model.

Writes are immune to a folder swapped for a symlink between the check and the use:
`Workspace.folder()` gives a `ConfinedDir`, a directory reached from the workspace root
one component at a time with `O_NOFOLLOW` and held open as a file descriptor; writes,
renames and deletes then name only a final component relative to that descriptor
(`dir_fd=`), so a symlink swapped in later is refused (ELOOP), never followed. Where the
OS has no `dir_fd` (Windows), each operation re-resolves the folder right before it runs
and refuses when it no longer is the checked one. Reads open only regular files
(`open_regular_file`): FIFOs, sockets and devices are refused before they are opened
(and an `O_NONBLOCK` open plus `fstat` catches one swapped in after the check), so no
read can block a thread forever.

`broad_workspace_reason()` says why a folder is too broad to be a workspace (`/`, the
home folder itself, a system folder): the window asks before using one and the CLI
refuses it unless `--allow-broad-workspace` is passed, because a model with a broad
workspace reads system files and whole home folders without asking.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import stat
import tempfile
from pathlib import Path, PurePosixPath

from hermes_desktop.core.tools.credentials import credential_part
from hermes_desktop.core.tools.spec import ToolError



class WorkspaceError(ToolError):
    pass


_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# Directory descriptors need dir_fd support for every call a ConfinedDir makes (not on Windows).
DIR_FDS = bool(_O_DIRECTORY and _O_NOFOLLOW) and all(
    f in os.supports_dir_fd for f in (os.open, os.mkdir, os.rename, os.unlink, os.rmdir, os.stat))


def describe_file_type(mode: int) -> str:
    """What a non-regular file is, in words for a refusal."""
    for test, name in ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a folder"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"


def _refuse_special(shown: str, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise WorkspaceError(f"refused: {shown} is {describe_file_type(mode)}, not a regular file; "
                             "file tools only open regular files")


def open_regular_file(path: Path, shown: str | None = None) -> int:
    """A read-only descriptor of the regular file at `path` (not following a final symlink).

    FIFOs, sockets and devices are refused before opening (a FIFO would block the
    thread until a writer appears); the open itself is non-blocking and checked with
    fstat, so one swapped in after the check is refused too. The caller closes the fd.
    """
    label = shown or path.name
    try:
        _refuse_special(label, os.stat(path).st_mode)
        fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_NOFOLLOW | _O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise WorkspaceError(f"refused: {label} was replaced by a link while being opened") from exc
        raise
    try:
        _refuse_special(label, os.fstat(fd).st_mode)
        if _O_NONBLOCK and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


class ConfinedDir:
    """A folder inside the workspace, pinned against symlink swaps (see the module docstring).

    Use as a context manager; names passed to its methods are single path components.
    """

    def __init__(self, workspace: "Workspace", path: Path, *, create: bool) -> None:
        self.workspace = workspace
        self.path = path
        self.fd: int | None = None
        self._create = create

    def __enter__(self) -> "ConfinedDir":
        if DIR_FDS:
            self.fd = self._open_chain()
        else:
            if self._create:
                self.path.mkdir(parents=True, exist_ok=True)
            self._recheck()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    # ---------------------------------------------------------------- opening
    def _open_chain(self) -> int:
        fd = os.open(self.workspace.root, os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
        try:
            for part in self.path.relative_to(self.workspace.root).parts:
                child = self._open_child(fd, part)
                os.close(fd)
                fd = child
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _open_child(self, parent: int, name: str) -> int:
        flags = os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC
        for _ in range(3):
            try:
                return os.open(name, flags, dir_fd=parent)
            except FileNotFoundError:
                if not self._create:
                    raise WorkspaceError(f"{self.workspace.relative(self.path)} does not exist") from None
                try:
                    os.mkdir(name, dir_fd=parent)
                except FileExistsError:
                    pass  # made meanwhile: open it on the next round
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                    raise self._swapped(name) from exc
                raise
        raise self._swapped(name)

    def _swapped(self, name: str) -> WorkspaceError:
        return WorkspaceError(f"refused: {name!r} in {self.workspace.relative(self.path)} is not a plain folder "
                              "(it is a file or a link, or was replaced by one while in use); nothing was written")

    def _recheck(self) -> None:
        """Without dir fds: the folder must still resolve to itself, inside the workspace."""
        if Path(os.path.realpath(self.path)) != self.path or not _is_within(self.path, self.workspace.root):
            raise self._swapped(self.path.name)

    def _at(self, name: str) -> str:
        if self.fd is not None:
            return name
        self._recheck()
        return str(self.path / name)

    # ---------------------------------------------------------------- operations
    def lstat(self, name: str) -> os.stat_result | None:
        try:
            if self.fd is not None:
                return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
            return os.lstat(self._at(name))
        except FileNotFoundError:
            return None

    def write_atomic(self, name: str, data: bytes) -> None:
        """Write `name` whole (a temporary file in this folder, then a rename over it).
        An existing regular file keeps its permissions."""
        old = self.lstat(name)
        temp = f".{name[:100]}.{secrets.token_hex(6)}.part"
        keep_mode = stat.S_IMODE(old.st_mode) if old is not None and stat.S_ISREG(old.st_mode) else None
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC | getattr(os, "O_BINARY", 0)
        # A new file gets 0o666 minus the umask, as any program's would.
        fd = os.open(temp, flags, 0o666, dir_fd=self.fd) if self.fd is not None else os.open(self._at(temp), flags, 0o666)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                if keep_mode is not None and hasattr(os, "fchmod"):
                    os.fchmod(handle.fileno(), keep_mode)
            self.rename(temp, self, name)
        except BaseException:
            self.remove_file(temp, missing_ok=True)
            raise

    def rename(self, name: str, target: "ConfinedDir", target_name: str) -> None:
        """Rename within the workspace, replacing a file at the target (the caller checks folders)."""
        if self.fd is not None and target.fd is not None:
            os.replace(name, target_name, src_dir_fd=self.fd, dst_dir_fd=target.fd)
        else:
            os.replace(self._at(name), target._at(target_name))

    def remove_file(self, name: str, *, missing_ok: bool = False) -> None:
        try:
            if self.fd is not None:
                os.unlink(name, dir_fd=self.fd)
            else:
                os.unlink(self._at(name))
        except FileNotFoundError:
            if not missing_ok:
                raise

    def remove_tree(self, name: str) -> None:
        """Delete the folder `name` and everything in it, never following a symlink."""
        if self.fd is not None:
            shutil.rmtree(name, dir_fd=self.fd)  # fd-based walk; refuses a symlink at the top
        else:
            shutil.rmtree(self._at(name))

    def make_folder(self, name: str) -> bool:
        """Create the folder `name`; False when it already existed."""
        try:
            if self.fd is not None:
                os.mkdir(name, dir_fd=self.fd)
            else:
                os.mkdir(self._at(name))
            return True
        except FileExistsError:
            return False


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
    folder inside it) or any folder that contains it (its parent, /home), a folder of disks or homes
    (/mnt, /media, /srv, /Volumes...), a whole disk (a mount point), a credential location, or a system folder or anything inside one (/usr, /etc, /bin,
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
    if _is_within(home_resolved, resolved):  # /home, the home's parent, a disk holding it: the home and more
        return f"{resolved} contains your whole home folder ({home_resolved}): choose a project folder instead"
    if any(_same_path(resolved, Path(folder)) for folder in _DISK_FOLDERS):
        return f"{resolved} holds whole disks or home folders: choose a project folder instead"
    system = _system_folder(resolved, home_resolved)
    if system is not None:
        where = "a system folder" if _same_path(resolved, Path(system)) else f"inside the system folder {system}"
        return f"{resolved} is {where}: choose a project folder instead"
    if _is_mount_point(resolved) and not _is_within(resolved, home_resolved):
        return f"{resolved} is a whole disk (a mount point): choose a project folder on it instead"
    part = credential_part(resolved, home=home_resolved)
    if part is not None:
        return f"{resolved} is a credential location ({part}): choose a project folder instead"
    return None


# Folders whose children are disks or other people's home folders.
_DISK_FOLDERS = ("/home", "/Users", "/mnt", "/media", "/run/media", "/srv", "/Volumes", "/net", "/afs")


def _is_mount_point(path: Path) -> bool:
    """Whether `path` is where a filesystem is mounted (a whole disk or partition). A temporary folder is not
    counted (a tmpfs /tmp holds nobody's data)."""
    if any(_same_path(path, t) for t in _temporary_dirs()):
        return False
    try:
        return os.path.ismount(path)
    except OSError:
        return False


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

    def folder(self, path: Path, *, create: bool = False) -> ConfinedDir:
        """The resolved folder `path` (inside the workspace), pinned for writing; `create` makes it
        and its parents like `mkdir -p`, each step refusing a symlink."""
        if not _is_within(path, self.root):
            raise WorkspaceError(f"refused: {path} is outside the workspace ({self.root})")
        return ConfinedDir(self, path, create=create)

    def relative(self, path: Path) -> str:
        """How a resolved path is shown to the model and the user."""
        rel = path.relative_to(self.root)
        return str(PurePosixPath(*rel.parts)) if rel.parts else "."

    def _refuse_credentials(self, resolved: Path, shown: str | None) -> None:
        """By name below the root, and the home folder's credential folders wherever the root is (a workspace of
        /home or / reaches ~/.password-store by a path whose names say nothing): core/tools/credentials.py."""
        part = credential_part(resolved, within=self.root)
        if part is not None:
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
