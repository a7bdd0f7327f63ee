"""Skills at run time: the catalog every request carries, activation per session, and which tools
each request offers.

Progressive disclosure:
1. every request carries a compact catalog (name and description of each skill) in the system
   prompt; none at all when no skill is installed;
2. `activate_skill(name)` returns the skill's instructions and resources and makes it active for the
   session: from then on its instructions are in the skill layer of the context and its own tools
   (from tools.py, and `<skill>_run_script` for its scripts/: core/skills/scripts.py) are offered; tools of
   inactive skills are not;
3. `read_skill_resource(name, path)` returns one text file of the skill: from references/ or assets/, or
   another non-code file its instructions point to (public skills use examples/ or a top-level reference.md;
   see loader.is_resource). Never a path outside the folder, never tools.py or scripts/, and never a file
   over MAX_RESOURCE_BYTES (refused with its size; at most the limit is ever read: loader.read_limited).
The user activates a skill by pinning it (Skills tab) or starting a message with `/skill-name`.
Active skills are saved with the session (the store's active_skills), so reopening restores them.
"""

from __future__ import annotations

import logging
import re
import threading
from pathlib import Path
from typing import Any, Callable, Iterable

from hermes_desktop.core.skills import code
from hermes_desktop.core.skills.discovery import discover
from hermes_desktop.core.skills.loader import TooLarge, is_resource, read_limited
from hermes_desktop.core.skills.model import Discovery, Origin, Skill, SkillProblem
from hermes_desktop.core.skills.scripts import script_tool
from hermes_desktop.core.skills.trust import TrustStore
from hermes_desktop.core.tools.registry import ToolRegistry
from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolError, ToolSpec

log = logging.getLogger(__name__)

ACTIVATE = "activate_skill"
READ_RESOURCE = "read_skill_resource"
CATALOG_DESCRIPTION_CHARS = 240
MAX_RESOURCE_BYTES = 200_000
_SLASH = re.compile(r"^/([a-z0-9][a-z0-9-]{0,63})(?:\s|$)")


class SkillManager:
    def __init__(self, roots: Callable[[], list[tuple[Path, Origin]]], trust: TrustStore, registry: ToolRegistry,
                 store: Any) -> None:
        self._roots = roots
        self.trust = trust
        self._registry = registry
        self._store = store
        self._lock = threading.RLock()
        self.discovery = Discovery()
        self.code_problems: dict[str, list[SkillProblem]] = {}
        self._skill_tools: dict[str, list[str]] = {}  # skill name -> tool names it registered
        self._untrusted: set[str] = set()  # skills with code the user has not trusted (as of the last reload)

    # ------------------------------------------------------------------ discovery
    def reload(self) -> Discovery:
        """Scan the folders again (blocking: call from a worker thread); register trusted skills' tools."""
        found = discover(self._roots())
        with self._lock:
            for names in self._skill_tools.values():
                for name in names:
                    self._registry.unregister(name)
            self._skill_tools.clear()
            self.code_problems.clear()
            self._untrusted = set()
            for skill in found.skills:
                if not skill.has_code:
                    continue
                if self.trust.trusted(skill):  # hashes the skill's files: done here, in the reload's worker thread
                    self._register_code(skill)
                else:
                    self._untrusted.add(skill.name)
            self.discovery = found
            self._register_skill_tools()
        return found

    def _register_code(self, skill: Skill) -> None:
        specs: list[ToolSpec] = []
        if skill.has_tools_py:
            code.forget(skill.name)
            try:
                specs = code.load_tools(skill)
            except Exception as exc:  # a broken tools.py disables its tools, not the skill's instructions
                log.warning("tools.py of skill %s failed: %s", skill.name, exc)
                self.code_problems.setdefault(skill.name, []).append(
                    SkillProblem("tools.py", f"could not be loaded: {type(exc).__name__}: {exc}", "error"))
        if skill.has_scripts:
            runner = script_tool(skill, self.trust.trusted)
            if runner is not None:
                specs.append(runner)
        names = []
        for spec in specs:
            if self._registry.get(spec.name) is not None:
                self.code_problems.setdefault(skill.name, []).append(
                    SkillProblem("tools.py", f"tool {spec.name!r} clashes with an existing tool; skipped"))
                continue
            self._registry.register(spec)
            names.append(spec.name)
        self._skill_tools[skill.name] = names

    def _register_skill_tools(self) -> None:
        for name in (ACTIVATE, READ_RESOURCE):
            self._registry.unregister(name)
        names = [s.name for s in self.skills]
        if not names:
            return
        self._registry.register(ToolSpec(
            ACTIVATE, "Load a skill's full instructions when the user's task matches its description in the skill "
            "catalog. Returns the instructions and the skill's resource files.",
            {"type": "object", "properties": {"name": {"type": "string", "enum": names}}, "required": ["name"],
             "additionalProperties": False},
            self._activate_tool, Risk.READ, timeout_s=10, source="skills"))
        self._registry.register(ToolSpec(
            READ_RESOURCE, "Read one resource file of an active skill (a path listed by activate_skill, "
            "relative to the skill's folder).",
            {"type": "object", "properties": {"name": {"type": "string", "enum": names}, "path": {"type": "string"}},
             "required": ["name", "path"], "additionalProperties": False},
            self._read_resource_tool, Risk.READ, timeout_s=10, source="skills"))

    @property
    def skills(self) -> tuple[Skill, ...]:
        return self.discovery.skills

    def get(self, name: str) -> Skill | None:
        return self.discovery.get(name)

    def tool_owner(self, tool_name: str) -> str | None:
        return next((skill for skill, names in self._skill_tools.items() if tool_name in names), None)

    def problems(self, skill: Skill) -> list[SkillProblem]:
        listed = list(skill.problems) + self.code_problems.get(skill.name, [])
        if self.needs_trust(skill):
            listed.append(SkillProblem(skill.code_files, "contains code that runs only after you trust this skill", "trust"))
        return listed

    # ------------------------------------------------------------------ trust
    def needs_trust(self, skill: Skill) -> bool:
        """Whether the skill has code the user has not trusted, as of the last reload (which the folder watcher
        runs on any change). Running a script checks the files' hash again (core/skills/scripts.py)."""
        return skill.name in self._untrusted

    def trust_skill(self, name: str) -> None:
        skill = self.get(name)
        if skill is not None:
            self.trust.trust(skill)
            self.reload()

    # ------------------------------------------------------------------ activation
    def active(self, session_id: str) -> list[str]:
        info = self._store.get_session(session_id)
        names = list(info.active_skills) if info is not None else []
        return [n for n in names if self.get(n) is not None]

    def activate(self, session_id: str, name: str) -> Skill:
        skill = self.get(name)
        if skill is None:
            raise ToolError(f"no skill named {name!r}; the catalog lists the installed skills")
        if self._store.get_session(session_id) is None:
            self._store.create_session(session_id)
        current = self.active(session_id)
        if name not in current:
            self._store.set_active_skills(session_id, current + [name])
        return skill

    def deactivate(self, session_id: str, name: str) -> None:
        self._store.set_active_skills(session_id, [n for n in self.active(session_id) if n != name])

    def apply_slash(self, session_id: str, text: str) -> str | None:
        """`/skill-name …` at the start of a message activates that skill. Returns its name."""
        match = _SLASH.match(text.strip())
        if match and self.get(match.group(1)) is not None:
            self.activate(session_id, match.group(1))
            return match.group(1)
        return None

    # ------------------------------------------------------------------ what a request carries
    def catalog(self) -> str:
        if not self.skills:
            return ""
        lines = ["Skills you can use. When a task matches one, call activate_skill with its name first, then "
                 "follow its instructions:"]
        for skill in self.skills:
            description = skill.description
            if len(description) > CATALOG_DESCRIPTION_CHARS:
                description = description[: CATALOG_DESCRIPTION_CHARS - 1].rstrip() + "…"
            lines.append(f"- {skill.name}: {description}")
        return "\n".join(lines)

    def skill_layer(self, session_id: str) -> str:
        parts = []
        for name in self.active(session_id):
            skill = self.get(name)
            if skill is not None and skill.instructions:
                parts.append(f"## Skill: {skill.name} (active)\n{skill.instructions}")
        return "\n\n".join(parts)

    def offered(self, session_id: str, specs: Iterable[ToolSpec]) -> list[ToolSpec]:
        """Drop the tools of skills that are not active in this session."""
        active = set(self.active(session_id))
        return [s for s in specs if not (s.source.startswith("skill:") and s.source[6:] not in active)]

    # ------------------------------------------------------------------ the two tools
    def _activate_tool(self, args: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
        skill = self.activate(ctx.session_id, args["name"])
        return {
            "skill": skill.name,
            "instructions": skill.instructions,
            "tools": list(skill.tools) + self._skill_tools.get(skill.name, []),
            "resources": list(skill.resources),
            "note": "The skill is now active: its instructions stay in your context for this session." + (
                " Its scripts cannot run yet: the user has not trusted this skill's code (Skills tab > Trust "
                "code…). Tell the user if the task needs them." if self.needs_trust(skill) else ""),
        }

    def _read_resource_tool(self, args: dict[str, Any], ctx: ToolContext) -> str:
        skill = self.get(args["name"])
        if skill is None:
            raise ToolError(f"no skill named {args['name']!r}")
        relative = str(args["path"]).strip().lstrip("/")
        root = skill.folder.resolve()
        target = (skill.folder / relative).resolve()
        if root not in target.parents or not is_resource(target.relative_to(root)):
            raise ToolError(f"refused: {relative!r} is not one of the skill's resource files (its instructions and "
                            "code are not resources; paths outside the skill's folder are never read)")
        if not target.is_file():
            raise ToolError(f"{relative!r} does not exist in skill {skill.name}")
        try:  # never more than the limit is read, whatever the file's size says or becomes
            data = read_limited(target, MAX_RESOURCE_BYTES, "a resource is returned whole to the model")
        except TooLarge as exc:
            raise ToolError(f"refused: {relative!r} {exc}; it cannot be read in parts yet") from None
        except OSError as exc:
            raise ToolError(f"{relative!r} cannot be read: {exc.strerror or exc}") from None
        if b"\x00" in data[:8192]:
            raise ToolError(f"{relative!r} is a binary file; only text resources can be read")
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ToolError(f"{relative!r} is not UTF-8 text") from exc
