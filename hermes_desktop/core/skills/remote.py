"""Skills from a git repository or a zip at an https URL (issue 27): fetch, look at, pin, install, update.

A source is a local folder or zip, a git URL (`https://host/owner/repo`, `…/repo/tree/REF/sub/folder`,
`URL#REF` or `URL#REF:sub/folder`; also `file://` and, for a host the user allowed, `git://`) or a zip URL
(`https://…/x.zip`). `stage()` fetches it into a hidden `.installing-*` folder inside the skills folder (discovery
never enters those), copies the chosen folder with the same file rules as a local install (install_files.py: no
links, limits) and loads every skill in it with the app's loader; any skill that does not load refuses the whole
source with its reason. `Staged.inventory()` is what the user is shown before saying yes: the skills, their
descriptions, their scripts with SHA-256, their declared requirements and the pin (commit or file hash).
`commit()` renames it into place and records the source in `skill_sources.json` (data dir), which `skills show`,
`update` and `remove` read.

Git is run as the `git` command (not dulwich): see docs/learning.md. It runs with no user or system config (no
credential helpers, no insteadOf), prompts off, only the source's protocol allowed, redirects off, and for https
pinned (`http.curloptResolve`) to the address the private-network guard (core/tools/network.py) checked, so DNS
cannot answer git differently. The tree is checked with `git ls-tree` BEFORE anything is written: symlinks,
submodules, a definition file over the loader's limit and a tree over the install limits are refused unread.
Zips are downloaded through the same guard and pinned connection as fetch_url, counted against the size limit.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from hermes_desktop.core.settings import write_atomically
from hermes_desktop.core.skills.discovery import discover
from hermes_desktop.core.skills.install_files import (
    MAX_FILES, MAX_INSTALL_BYTES, InstallRefused, copy_folder, extract_zip,
)
from hermes_desktop.core.skills.loader import MAX_DEFINITION_BYTES, is_skill_folder, list_folder, load_skill
from hermes_desktop.core.skills.model import Origin, Skill
from hermes_desktop.core.tools import network
from hermes_desktop.core.tools.spec import ToolError

GIT_TIMEOUT_S = 180.0
SOURCES_FILE = "skill_sources.json"
_HEX = re.compile(r"^[0-9a-f]{7,40}$")
_DEFINITIONS = {"skill.md", "skill.yaml", "instructions.md"}


@dataclass(frozen=True, slots=True)
class Source:
    kind: str  # "path" | "git" | "zip"
    location: str  # the path, or the URL without ref and subfolder
    ref: str = ""  # git: branch, tag or commit ("" = the remote's default branch)
    subdir: str = ""  # git: the folder inside the repository

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "location": self.location, "ref": self.ref, "subdir": self.subdir}


def parse_source(text: str, *, ref: str = "", subdir: str = "") -> Source:
    """What the user typed as a Source. Raises InstallRefused for a URL we do not fetch."""
    text = text.strip()
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme in ("", "c", "d") or len(scheme) == 1:  # a path (a drive letter is a one-letter "scheme")
        return Source("path", text)
    if scheme not in ("https", "http", "git", "file"):
        raise InstallRefused(f"{scheme}:// sources are not installed; give an https URL, a git URL or a path")
    if parts.username or parts.password:
        raise InstallRefused("URLs with embedded credentials are not used; skills are installed from public sources")
    fragment = parts.fragment
    path = parts.path
    if fragment:
        given_ref, _, given_sub = fragment.partition(":")
        ref, subdir = ref or given_ref, subdir or given_sub
    if scheme in ("https", "http") and path.lower().endswith(".zip"):
        return Source("zip", urlunsplit((scheme, parts.netloc, path, parts.query, "")))
    match = re.match(r"^(/[^/]+/[^/]+?)(?:\.git)?/(?:-/)?tree/([^/]+)(?:/(.*))?$", path)
    if match and scheme in ("https", "http"):  # GitHub's and GitLab's browser URL of a folder
        path, ref, subdir = match.group(1), ref or match.group(2), subdir or (match.group(3) or "")
    return Source("git", urlunsplit((scheme, parts.netloc, path, "", "")), ref, _clean_subdir(subdir))


def _clean_subdir(subdir: str) -> str:
    relative = PurePosixPath(subdir.strip().strip("/")) if subdir.strip().strip("/") else PurePosixPath()
    if relative.is_absolute() or ".." in relative.parts or "\\" in subdir:
        raise InstallRefused(f"the folder {subdir!r} would be outside the repository")
    return relative.as_posix() if relative.parts else ""


def _allowed(host: str, port: int, policy: network.NetworkPolicy) -> bool:
    return host.lower() in policy.allowed_private_hosts or f"{host.lower()}:{port}" in policy.allowed_private_hosts


# ---------------------------------------------------------------- fetching

def _git(args: list[str], cwd: Path, config: list[str]) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_ASKPASS="",
               SSH_ASKPASS="", LC_ALL="C")
    command = ["git", "-c", "core.hooksPath=" + os.devnull, "-c", "core.symlinks=false", "-c", "protocol.allow=never",
               *config, *args]
    try:
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=GIT_TIMEOUT_S,
                              stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise InstallRefused("git is not installed; install git, or download the repository as a zip") from None
    except subprocess.TimeoutExpired:
        raise InstallRefused(f"git took longer than {GIT_TIMEOUT_S:.0f} s") from None
    if done.returncode != 0:
        raise InstallRefused(f"git {args[0]} failed: {done.stderr.strip()[-500:] or done.returncode}")
    return done.stdout


def _git_config(source: Source, policy: network.NetworkPolicy) -> list[str]:
    parts = urlsplit(source.location)
    scheme = parts.scheme.lower()
    config = ["-c", f"protocol.{scheme}.allow=always", "-c", "http.followRedirects=false"]
    if scheme == "file":
        return config
    host = parts.hostname or ""
    if scheme in ("git", "http"):  # unauthenticated plain text: only to a host the user named
        port = parts.port or (9418 if scheme == "git" else 80)
        if not _allowed(host, port, policy):
            raise InstallRefused(f"{scheme}:// is not encrypted; it is used only for a host you allowed in "
                                 "Settings › Permissions; use https")
        if scheme == "git":
            return config
    try:
        destination = network.check_destination(source.location, policy)
    except ToolError as exc:
        raise InstallRefused(str(exc)) from None
    return config + ["-c", f"http.curloptResolve={destination.host}:{destination.port}:{destination.address}"]


def _fetch_git(source: Source, work: Path, policy: network.NetworkPolicy) -> tuple[Path, str]:
    """Fetch one commit of the repository into `work`/repo and check out its chosen folder. Returns (folder,
    commit)."""
    config = _git_config(source, policy)
    repo = work / "repo"
    repo.mkdir()
    _git(["init", "-q"], repo, config)
    wanted = source.ref or "HEAD"
    try:
        _git(["fetch", "-q", "--depth", "1", "--no-tags", source.location, wanted], repo, config)
        commit = _git(["rev-parse", "FETCH_HEAD^{commit}"], repo, config).strip()
    except InstallRefused:
        if not _HEX.match(source.ref):
            raise
        # a commit the server will not hand out by itself (git daemon's default): the history, then the commit
        _git(["fetch", "-q", "--no-tags", source.location, "+refs/heads/*:refs/remotes/source/*"], repo, config)
        commit = _git(["rev-parse", "--verify", f"{source.ref}^{{commit}}"], repo, config).strip()
    pathspec = source.subdir or "."
    listing = _git(["ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--", pathspec], repo, config)
    entries = [line for line in listing.split("\0") if line]
    if not entries:
        raise InstallRefused(f"the repository has no folder {source.subdir!r} at {commit[:12]}")
    total = 0
    for line in entries:
        meta, _, path = line.partition("\t")
        mode, kind, _, size = meta.split(maxsplit=3)
        if mode == "120000":
            raise InstallRefused(f"{path} is a symbolic link; links are not installed")
        if kind == "commit":
            raise InstallRefused(f"{path} is a git submodule; submodules are not installed")
        total += int(size) if size.strip().isdigit() else 0
        if PurePosixPath(path).name.lower() in _DEFINITIONS and int(size) > MAX_DEFINITION_BYTES:
            raise InstallRefused(f"{path} is {int(size):,} bytes; the limit is {MAX_DEFINITION_BYTES:,} (a skill's "
                                 "instructions are sent with every request while it is active)")
    if len(entries) > MAX_FILES or total > MAX_INSTALL_BYTES:
        raise InstallRefused(f"more than {MAX_FILES:,} files or {MAX_INSTALL_BYTES // 1_000_000} MB")
    _git(["checkout", "-q", commit, "--", pathspec], repo, config)
    folder = (repo / source.subdir) if source.subdir else repo
    if not folder.is_dir():
        raise InstallRefused(f"{source.subdir!r} is a file in the repository, not a folder")
    return folder, commit


def _download(source: Source, target: Path, policy: network.NetworkPolicy) -> str:
    """The zip at the URL into `target`, through the private-network guard; returns its SHA-256."""
    parts = urlsplit(source.location)
    if parts.scheme == "http" and not _allowed(parts.hostname or "", parts.port or 80, policy):
        raise InstallRefused("http:// is not encrypted (anyone on the way could change the zip); use https, or allow "
                             "the host in Settings › Permissions")
    policy = network.NetworkPolicy(allowed_private_hosts=policy.allowed_private_hosts, max_bytes=MAX_INSTALL_BYTES,
                                   total_timeout_s=120.0, timeout_s=30.0, resolver=policy.resolver)
    transfer = network.Transfer(policy)
    url = source.location
    digest = hashlib.sha256()
    for _ in range(policy.max_redirects + 1):
        try:
            destination = network.check_destination(url, policy)
        except ToolError as exc:
            raise InstallRefused(str(exc)) from None
        from hermes_desktop.core.tools.proxies import proxy_for

        proxy = proxy_for(destination.scheme, destination.host) if policy.use_environment_proxies else None
        connection = network.pinned_connection(destination, transfer, proxy)
        try:
            connection.request("GET", destination.target, headers={"User-Agent": "HermesDesktop (skills install)",
                                                                   "Accept-Encoding": "identity"})
            response = connection.getresponse()
            if response.status in (301, 302, 303, 307, 308) and response.getheader("Location"):
                from urllib.parse import urljoin

                url = urljoin(url, response.getheader("Location", ""))
                continue
            if response.status != 200:
                raise InstallRefused(f"the server answered {response.status} {response.reason}")
            size = 0
            with open(target, "wb") as out:
                while block := response.read1(1 << 16):
                    size += len(block)
                    if size > MAX_INSTALL_BYTES:
                        raise InstallRefused(f"the download is larger than {MAX_INSTALL_BYTES // 1_000_000} MB")
                    digest.update(block)
                    out.write(block)
            return digest.hexdigest()
        except (OSError, network.http.client.HTTPException, ToolError) as exc:
            raise InstallRefused(f"downloading {url} failed: {exc}") from None
        finally:
            connection.close()
    raise InstallRefused(f"too many redirects starting at {source.location}")


# ---------------------------------------------------------------- staging and the inventory

def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def code_files(skill: Skill) -> list[Path]:
    files = [skill.folder / "tools.py"] if skill.has_tools_py else []
    scripts = skill.folder / "scripts"
    if scripts.is_dir() and not scripts.is_symlink():
        files += sorted(p for p in scripts.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return files


@dataclass
class Staged:
    """A fetched source, checked and waiting in the skills folder's hidden staging folder for the user's yes."""

    source: Source
    pin: str  # "commit <sha>" or "sha256 <hex>"
    staging: Path
    root: Path  # the folder that will be installed
    name: str  # its folder name in the skills folder
    skills: list[Skill] = field(default_factory=list)

    def scripts(self) -> dict[str, str]:
        """Every code file (tools.py, scripts/…) relative to the installed folder, with its SHA-256."""
        return {path.relative_to(self.root).as_posix(): _sha256(path)
                for skill in self.skills for path in code_files(skill)}

    def inventory(self) -> list[str]:
        kind = {"git": "git repository", "zip": "zip download", "path": "local source"}[self.source.kind]
        lines = [f"{kind} {self.source.location}" + (f" (ref {self.source.ref})" if self.source.ref else "")
                 + (f", folder {self.source.subdir}" if self.source.subdir else ""),
                 f"pinned to {self.pin}", f"installs as {self.name}/ with {len(self.skills)} skill(s):"]
        scripts = self.scripts()
        for skill in self.skills:
            lines.append(f"  {skill.name}: {skill.description[:200]}")
            for requirement in skill.requires:
                lines.append(f"      requires {requirement.kind} {requirement.name}")
            prefix = skill.folder.relative_to(self.root).as_posix()
            for path, digest in scripts.items():
                if prefix == "." or path.startswith(prefix + "/"):
                    lines.append(f"      code {path}  sha256 {digest}")
        if scripts:
            lines.append("Its code does not run until you trust it (`hermes-desktop skills trust NAME`).")
        return lines

    def discard(self) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)


def _load_all(root: Path) -> list[Skill]:
    """Every skill in `root` (itself, or the collection below it). Any skill folder that does not load refuses it."""
    if is_skill_folder(list_folder(root)):
        skill, problems = load_skill(root, Origin.USER)
        if skill is None:
            raise InstallRefused("it does not load as a skill: " +
                                 ("; ".join(f"{p.file}: {p.reason}" for p in problems) or "not a skill"))
        return [skill]
    found = discover([(root, Origin.USER)])
    errors = [f"{Path(folder).relative_to(root).as_posix()}: {p.file}: {p.reason}"
              for folder, problems in found.rejected for p in problems if p.level == "error"]
    if errors:
        raise InstallRefused("a skill in it does not load: " + "; ".join(errors[:5]))
    if not found.skills:
        raise InstallRefused("no SKILL.md or skill.yaml in it (nor in its folders up to 4 levels down)")
    return list(found.skills)


def _folder_name(source: Source, skills: list[Skill]) -> str:
    tail = PurePosixPath(urlsplit(source.location).path).name.removesuffix(".git").removesuffix(".zip")
    name = skills[0].name if len(skills) == 1 else (PurePosixPath(source.subdir).name or tail)
    name = re.sub(r"[\\/\0]", "-", name).strip().lstrip(".")
    if not name or name in (".", ".."):
        raise InstallRefused("its name cannot be a folder name; rename the skill")
    return name


def stage(source: Source, skills_dir: Path, policy: network.NetworkPolicy) -> Staged:
    """Fetch and check `source`; nothing is installed yet. Raises InstallRefused with the reason."""
    skills_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".installing-", dir=skills_dir))
    try:
        if source.kind == "git":
            fetched, commit = _fetch_git(source, staging, policy)
            pin = f"commit {commit}"
        elif source.kind == "zip":
            archive = staging / "download.zip"
            pin = f"sha256 {_download(source, archive, policy)}"
            fetched = staging / "unzipped"
            fetched.mkdir()
            extract_zip(archive, fetched)
            children = [p for p in fetched.iterdir() if not p.name.startswith((".", "__MACOSX"))]
            if len(children) == 1 and children[0].is_dir() and not is_skill_folder(list_folder(fetched)):
                fetched = children[0]  # GitHub's zips hold one top folder (repo-main/)
        else:
            raise InstallRefused("a local source is installed by install_into")
        copied = staging / "copy"
        copy_folder(fetched, copied / "x")
        skills = _load_all(copied / "x")
        name = _folder_name(source, skills)
        root = copied / name
        (copied / "x").rename(root)
        skills = _load_all(root)  # paths as they are under the final folder name
        return Staged(source, pin, staging, root, name, skills)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


# ---------------------------------------------------------------- records, install, update, remove

class SourceRecords:
    """`skill_sources.json`: installed folder name -> where it came from and what it was pinned to."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return {str(k): v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def save(self, records: dict[str, dict[str, Any]]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, json.dumps(records, indent=2, ensure_ascii=False))

    def for_skill(self, skill: Skill, skills_dir: Path) -> tuple[str, dict[str, Any]] | None:
        """The record of the installed folder that holds `skill` (itself, or a collection it is part of)."""
        try:
            relative = skill.folder.resolve().relative_to(skills_dir.resolve())
        except ValueError:
            return None
        top = relative.parts[0] if relative.parts else ""
        record = self.load().get(top)
        return (top, record) if record else None


def commit(staged: Staged, skills_dir: Path, records: SourceRecords, *, replace: bool = False) -> Path:
    """Move the staged folder into the skills folder and record its source. Returns the installed folder."""
    target = skills_dir / staged.name
    try:
        if target.exists() or target.is_symlink():
            if not replace:
                raise InstallRefused(f"{target} already exists; `skills update {staged.name}` updates an installed "
                                     "source, `skills remove` removes it")
            old = staged.staging / "old"
            target.rename(old)  # the old copy goes away with the staging folder, only after the new one is in place
        staged.root.rename(target)
        every = records.load()
        every[staged.name] = {**staged.source.to_json(), "pin": staged.pin, "installed": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "skills": [s.name for s in staged.skills],
            "code": _code_hashes(target)}
        records.save(every)
    finally:
        staged.discard()
    return target


def _code_hashes(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): _sha256(p) for skill in _load_all(folder) for p in code_files(skill)}


def _definitions(folder: Path) -> dict[str, str]:
    texts: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name.lower() in _DEFINITIONS:
            try:
                texts[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
    return texts


def changes(installed: Path, staged: Staged) -> tuple[list[str], list[str]]:
    """(a unified diff of the definition files, the code files added, changed or removed) from the installed
    folder to the staged one."""
    before, after = _definitions(installed), _definitions(staged.root)
    diff: list[str] = []
    for name in sorted(set(before) | set(after)):
        diff += difflib.unified_diff(before.get(name, "").splitlines(), after.get(name, "").splitlines(),
                                     f"a/{name}", f"b/{name}", lineterm="")
    old = _code_hashes(installed) if installed.is_dir() else {}
    new = staged.scripts()
    changed = [f"changed {p}" for p in sorted(set(old) & set(new)) if old[p] != new[p]]
    changed += [f"added {p}" for p in sorted(set(new) - set(old))] + [f"removed {p}" for p in sorted(set(old) - set(new))]
    return diff, changed
