"""Run a script from a skill's `scripts/` folder, as the Agent Skills standard lets a skill ship them.

Each skill with scripts that may run (bundled, or trusted by the user: core/skills/trust.py) gets one
tool, `<skill>_run_script`, with source `skill:<name>`, so it is offered only while that skill is active
and an "always allow" rule covers one skill's scripts, never every skill's. Decisions:

- Risk is destructive: a script can do anything the user can, so it asks in every approval mode.
- Trust is checked again just before running (a hash of the skill's files), not only when the tool was
  registered: a script edited after trust does not run until the user trusts the skill again.
- The working directory is the workspace, as for the file tools; the skill's own folder is in
  `HERMES_SKILL_DIR`. Environment variables that look like secrets (keys, tokens, passwords) are not
  passed on, so a script cannot read the provider key the app was started with.
- Interpreter by extension: `.py` runs with the user's `python3` (where they install the packages a
  skill needs), falling back to the app's own Python; `.sh` with bash; `.js`/`.mjs` with node; any other
  executable file directly. Anything else is refused with the reason.
- The script starts in a session (and process group) of its own. When the call ends for any reason
  (it finished, Stop, the tool timeout, app exit) the whole group is killed, so a child or grandchild
  it started, even one that still holds the output pipes, never outlives the call. On Windows the
  process tree is ended with `taskkill /T`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.skills.model import Skill
from hermes_desktop.core.tools.spec import Impact, Risk, ToolContext, ToolError, ToolSpec

log = logging.getLogger(__name__)

SCRIPTS = "scripts"
REAP_WAIT_S = 5.0
EXIT_POLL_S = 0.05
TIMEOUT_S = 120.0
MAX_OUTPUT_CHARS = 16_000
MAX_ARGS = 64
_SECRET_ENV = re.compile(r"KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION", re.I)
_TOOL_NAME_MAX = 64
_NOT_IN_TOOL_NAMES = re.compile(r"[^A-Za-z0-9_]")


def tool_name(skill_name: str) -> str:
    """`<skill>_run_script`. Model APIs accept only [A-Za-z0-9_-] in tool names (OpenAI answers 400 to the whole
    request otherwise), so a skill named outside ASCII (会议纪要) gets `skill_<hash>_run_script`, unique per name."""
    suffix = "_run_script"
    base = skill_name.replace("-", "_")
    if not base or _NOT_IN_TOOL_NAMES.search(base):
        base = "skill_" + hashlib.sha256(skill_name.encode("utf-8")).hexdigest()[:10]
    return base[: _TOOL_NAME_MAX - len(suffix)] + suffix


def list_scripts(skill: Skill) -> list[str]:
    """Runnable files under scripts/, relative to it (no hidden files, caches or symlinks)."""
    root = skill.folder / SCRIPTS
    found: list[str] = []
    if root.is_symlink():  # a linked folder's files are not covered by trust (core/skills/loader.py _linked_code)
        return found
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            path = Path(base) / name
            # regular files only: a FIFO's content is never on disk, so trust's hash could not cover what it feeds
            if not name.startswith(".") and not name.endswith((".pyc", ".md")) and _regular(path):
                found.append(path.relative_to(root).as_posix())
    return found


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)  # lstat: never a symlink either
    except OSError:
        return False


def command_for(script: Path) -> list[str]:
    suffix = script.suffix.lower()
    if suffix == ".py":
        # In a bundled app sys.executable is Hermes itself, not a Python: the user's Python is then required.
        python = shutil.which("python3") or shutil.which("python") or (None if getattr(sys, "frozen", False)
                                                                        else sys.executable)
        if python is None:
            raise ToolError(f"{script.name} needs Python 3, which is not installed on this computer")
        return [python, str(script)]
    if suffix == ".sh":
        shell = shutil.which("bash") or shutil.which("sh")
        if shell:
            return [shell, str(script)]
    if suffix in (".js", ".mjs", ".cjs"):
        node = shutil.which("node")
        if node is None:
            raise ToolError(f"{script.name} needs Node.js, which is not installed on this computer")
        return [node, str(script)]
    if os.access(script, os.X_OK) and os.name != "nt":
        return [str(script)]
    raise ToolError(f"cannot tell how to run {script.name}: not a .py, .sh or .js file and not executable")


def script_environment(skill: Skill) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not _SECRET_ENV.search(k)}
    env["HERMES_SKILL_DIR"] = str(skill.folder)
    env["PYTHONIOENCODING"] = "utf-8"
    # Bytecode caches live in the app's own folder, not in the skill's __pycache__: trust does not hash those, and
    # Python would import a planted .pyc (matching a module's size and time) instead of the trusted source.
    env["PYTHONPYCACHEPREFIX"] = str(app_paths().data_dir / "skill-pycache")
    return env


def _cut(text: str) -> str:
    if len(text) <= MAX_OUTPUT_CHARS:
        return text
    return text[: MAX_OUTPUT_CHARS // 2] + f"\n… [{len(text) - MAX_OUTPUT_CHARS:,} characters cut] …\n" + \
        text[-MAX_OUTPUT_CHARS // 2:]


def kill_process_group(pid: int) -> None:
    """SIGKILL every process in the group `pid` leads, even after the leader itself exited (its
    children keep the group, and with it the id, alive). No group left: nothing to do."""
    if os.name == "nt":
        subprocess.run(["taskkill", "/F", "/T", "/PID", str(pid)], capture_output=True, check=False)
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def _end(process: asyncio.subprocess.Process) -> None:
    """Kill the script's whole group and reap the script."""
    kill_process_group(process.pid)
    if process.returncode is None:
        try:
            await asyncio.shield(asyncio.wait_for(process.wait(), REAP_WAIT_S))
        except TimeoutError:
            log.warning("script process %s was killed but not reaped yet", process.pid)


async def run_script(skill: Skill, relative: str, args: list[str], ctx: ToolContext) -> dict[str, Any]:
    root = (skill.folder / SCRIPTS).resolve()
    script = (root / relative.strip().lstrip("/")).resolve()
    if root not in script.parents or relative not in list_scripts(skill):
        raise ToolError(f"{relative!r} is not one of {skill.name}'s scripts")
    command = command_for(script) + [str(a) for a in args]
    ctx.workspace.ensure_exists()
    process = await asyncio.create_subprocess_exec(
        *command, cwd=str(ctx.workspace.root), env=script_environment(skill), stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=os.name != "nt",
        creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))
    output = asyncio.ensure_future(process.communicate())
    try:
        # asyncio's wait() also waits for the pipes to close, which a child left running can hold open for
        # ever: watch the script's own exit instead, then end what it left running, which closes the pipes.
        while not output.done() and process.returncode is None:
            await asyncio.wait({output}, timeout=EXIT_POLL_S)
        kill_process_group(process.pid)
        stdout, stderr = await output
    finally:  # finished, or cancelled (Stop, timeout): the script and anything it started go
        output.cancel()
        await _end(process)
    return {"script": f"{SCRIPTS}/{relative}", "exit_code": process.returncode,
            "stdout": _cut(stdout.decode("utf-8", "replace")), "stderr": _cut(stderr.decode("utf-8", "replace"))}


def script_tool(skill: Skill, still_trusted: Callable[[Skill], bool]) -> ToolSpec | None:
    """The run-script tool for one skill, or None when it has no scripts."""
    scripts = list_scripts(skill)
    if not scripts:
        return None

    async def handler(args: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
        if not still_trusted(skill):
            raise ToolError(f"the files of skill {skill.name} changed since you trusted it; trust it again in the "
                            "Skills tab before its scripts can run")
        arguments = args.get("args") or []
        if len(arguments) > MAX_ARGS:
            raise ToolError(f"at most {MAX_ARGS} arguments")
        return await run_script(skill, str(args["script"]), [str(a) for a in arguments], ctx)

    def precheck(args: dict[str, Any], ctx: ToolContext) -> Impact:
        arguments = " ".join(str(a) for a in args.get("args") or [])
        return Impact(f"runs {SCRIPTS}/{args.get('script')} {arguments}".rstrip() +
                      f" from skill {skill.name}, in {ctx.workspace.root}, with your permissions", code="run_script",
                      params={"command": f"{SCRIPTS}/{args.get('script')} {arguments}".rstrip(), "skill": skill.name,
                              "folder": str(ctx.workspace.root)})

    return ToolSpec(
        tool_name(skill.name),
        f"Run one of the {skill.name} skill's scripts (as its instructions describe) in the workspace folder. "
        "Returns exit code, stdout and stderr.",
        {"type": "object", "properties": {
            "script": {"type": "string", "enum": scripts, "description": f"path under the skill's {SCRIPTS}/"},
            "args": {"type": "array", "items": {"type": "string"}, "description": "command-line arguments"}},
         "required": ["script"], "additionalProperties": False},
        handler, Risk.DESTRUCTIVE, timeout_s=TIMEOUT_S, source=skill.source, precheck=precheck, blocking=False)
