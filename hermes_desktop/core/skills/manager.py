"""Skills at run time: the catalog every request carries, activation per session, and which tools
each request offers.

Progressive disclosure:
1. every request carries a compact catalog (name and description) in the system prompt, within a budget
   (core/skills/catalog.py): all skills when they fit, else the session's active skills, recently used ones and
   the ones most relevant to the current message, plus `find_skills(query)` over the rest (offered only then);
   none at all when no skill is installed. No tool schema lists skill names (an enum of 1,000 names was ~11,000
   tokens on every request): a name is checked when the tool runs, and a wrong one gets the closest names;
2. `activate_skill(name)` makes the skill active for the session and returns its tools and its full resource list;
   its instructions are not in the result: from the next request on they are in the skill layer of the system
   message, so they are sent once per request, not twice (the result says where to find them). Its own tools
   (tools.py, and `<skill>_run_script` for scripts/: core/skills/scripts.py) are offered from then on;
3. `read_skill_resource(name, path, offset, limit)` returns one text file of the skill, a page at a time (`limit`
   characters from `offset`; a page that stops early says how many characters remain and the next offset): from
   references/ or assets/, or another non-code file its instructions point to (see loader.is_resource). A path
   that does not exist is matched without regard to letter case (the pdf skill says FORMS.md for forms.md), and
   failing that the error lists the closest existing paths (difflib). Never a path outside the folder, never
   tools.py or scripts/, and never a file over MAX_RESOURCE_BYTES (refused with its size).
The user activates a skill by pinning it (Skills tab) or starting a message with `/skill-name` (any Unicode name:
`/会议纪要`; also with a full-width slash, with zero-width characters an input method left in, and followed directly
by punctuation or, for a name in a script written without spaces, by the message: `／会议纪要，整理一下`).
Active skills are saved with the session (the store's active_skills), so reopening restores them.
"""

from __future__ import annotations

import difflib
import logging
import re
import threading
import unicodedata
from pathlib import Path
from typing import Any, Callable, Iterable

from hermes_desktop.core.coded import coded
from hermes_desktop.core.skills import code, yaml_cache
from hermes_desktop.core.skills.catalog import (
    SEARCH_DESCRIPTION_CHARS, Catalog, SkillIndex, build_catalog, catalog_budget, full_catalog,
)
from hermes_desktop.core.skills.discovery import discover
from hermes_desktop.core.skills.loader import TooLarge, is_resource, read_limited
from hermes_desktop.core.skills.model import Discovery, Origin, Skill, SkillProblem
from hermes_desktop.core.skills.scripts import script_tool
from hermes_desktop.core.skills.trust import TrustStore
from hermes_desktop.core.tokens import estimate_text_tokens, estimate_tools_tokens
from hermes_desktop.core.tools.registry import ToolRegistry
from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolError, ToolSpec

log = logging.getLogger(__name__)

ACTIVATE = "activate_skill"
READ_RESOURCE = "read_skill_resource"
FIND = "find_skills"
MAX_RESOURCE_BYTES = 2_000_000
PAGE_CHARS = 6_000  # a page of a resource: under the default tool result budget (8,000) with room for the note
MAX_PAGE_CHARS = 100_000
# The system prompt and tool rules are not known when offering tools; this is a generous estimate of them, so a
# catalog that is said to fit (find_skills not offered) really fits once they are known.
OTHER_FIXED_ALLOWANCE = 400
RECENT = 20
FIND_RESULTS = 8
# A full-width slash too (what a Chinese input method types); not a path such as /usr/bin.
_TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
_SLASH = re.compile(r"^[/／]([^\s/／]{1,200}+)(?![/／])")
# Invisible characters a paste or an input method leaves in a message (zero-width space/joiners, BOM, soft hyphen).
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")


def _short(text: str, chars: int = 200) -> str:
    """A model-given string echoed back in a result: enough to recognise, never the whole of a pasted text."""
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _given_name(value: Any) -> str:
    """A skill name as a model passes it: without invisible characters, spaces or a leading slash (full-width too)."""
    return _INVISIBLE.sub("", str(value)).strip().lstrip("/／").strip()


def _fold(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def page(text: str, offset: int, limit: int, *, how_to_continue: str) -> str:
    """`limit` characters of `text` from `offset`; when more remains, a last line says how much and how to go on."""
    total = len(text)
    offset = max(0, min(offset, total))
    chunk = text[offset: offset + limit]
    end = offset + len(chunk)
    if end >= total:
        return chunk if offset == 0 else chunk + f"\n[end: characters {offset:,}-{end:,} of {total:,}]"
    return (chunk + f"\n[… {total - end:,} more characters (this part: {offset:,}-{end:,} of {total:,}). "
            "To read on, " + how_to_continue.replace("{offset}", str(end)) + "]")


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
        self._index = SkillIndex.build(())
        self._full = Catalog("", 0, 0)
        self._full_tokens = 0
        self._recent: list[str] = []  # activated in this run, newest first
        self.last_catalog = Catalog("", 0, 0)  # what the latest request listed (doctor)
        self._last_counts: dict[str, tuple[int, int]] = {}  # (listed, searchable) per session (Activity)

    # ------------------------------------------------------------------ discovery
    def reload(self) -> Discovery:
        """Scan the folders again (blocking: call from a worker thread); register trusted skills' tools."""
        found = discover(self._roots())
        yaml_cache.save()  # what this scan parsed, for the next start (core/skills/yaml_cache.py)
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
            self._index = SkillIndex.build(found.skills)
            self._full = full_catalog(found.skills)
            self._full_tokens = estimate_text_tokens(self._full.text)
            self._register_skill_tools()
            if not self._recent:
                self._recent = self._recently_used()
        return found

    def _recently_used(self) -> list[str]:
        """Skills active in the most recently updated sessions (newest first): 'recently used' across restarts."""
        listing = getattr(self._store, "list_sessions", None)
        if listing is None:
            return []
        names: list[str] = []
        try:
            for info in listing(limit=RECENT):
                names += [n for n in info.active_skills if n not in names]
        except Exception:  # the store may be read-only or busy: recency is only a hint
            log.debug("could not read recent sessions' skills", exc_info=True)
        return names[:RECENT]

    def _register_code(self, skill: Skill) -> None:
        specs: list[ToolSpec] = []
        if skill.has_tools_py:
            code.forget(skill.name)
            try:
                specs = code.load_tools(skill)
            except Exception as exc:  # a broken tools.py disables its tools, not the skill's instructions
                log.warning("tools.py of skill %s failed: %s", skill.name, exc)
                self.code_problems.setdefault(skill.name, []).append(
                    SkillProblem("tools.py", coded(f"could not be loaded: {type(exc).__name__}: {exc}",
                                                   "skill_tools_failed", error=f"{type(exc).__name__}: {exc}"), "error"))
        if skill.has_scripts:
            runner = script_tool(skill, self.trust.trusted)
            if runner is not None:
                specs.append(runner)
        names = []
        for spec in specs:
            if not _TOOL_NAME.fullmatch(spec.name):  # sent as is, it would make the provider refuse every request
                self.code_problems.setdefault(skill.name, []).append(SkillProblem(
                    "tools.py", coded(f"tool name {spec.name!r} is not allowed by model APIs (letters A-Z and a-z, "
                                      "digits, _ and -, at most 64); give it an ASCII name with @tool(name=...); "
                                      "skipped", "skill_tool_name", name=spec.name)))
                continue
            if self._registry.get(spec.name) is not None:
                self.code_problems.setdefault(skill.name, []).append(
                    SkillProblem("tools.py", coded(f"tool {spec.name!r} clashes with an existing tool; skipped",
                                                   "skill_tool_clash", name=spec.name)))
                continue
            self._registry.register(spec)
            names.append(spec.name)
        self._skill_tools[skill.name] = names

    def _register_skill_tools(self) -> None:
        for name in (ACTIVATE, READ_RESOURCE, FIND):
            self._registry.unregister(name)
        if not self.skills:
            return
        name_field = {"type": "string", "description": "a skill's name as the catalog or find_skills gives it"}
        self._registry.register(ToolSpec(
            ACTIVATE, "Load a skill when the user's task matches its description. Its instructions then appear in "
            "your system message; returns its tools and resource files.",
            {"type": "object", "properties": {"name": name_field}, "required": ["name"], "additionalProperties": False},
            self._activate_tool, Risk.READ, timeout_s=10, source="skills"))
        self._registry.register(ToolSpec(
            READ_RESOURCE, "Read a resource file of a skill (a path activate_skill listed), one page at a time.",
            {"type": "object", "properties": {
                "name": name_field, "path": {"type": "string", "description": "relative to the skill's folder"},
                "offset": {"type": "integer", "minimum": 0, "description": "first character (default 0)"},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_CHARS,
                          "description": f"characters to read (default {PAGE_CHARS})"}},
             "required": ["name", "path"], "additionalProperties": False},
            self._read_resource_tool, Risk.READ, timeout_s=10, source="skills"))
        self._registry.register(ToolSpec(
            FIND, "Search the installed skills not listed in the catalog by keywords (any language).",
            {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"],
             "additionalProperties": False},
            self._find_tool, Risk.READ, timeout_s=10, source="skills"))

    @property
    def skills(self) -> tuple[Skill, ...]:
        return self.discovery.skills

    def get(self, name: str) -> Skill | None:
        return self.discovery.get(name)

    def closest_names(self, name: str, n: int = 5) -> list[str]:
        names = [s.name for s in self.skills]
        lowered = {s.lower(): s for s in names}
        if name.lower() in lowered:
            return [lowered[name.lower()]]
        close = difflib.get_close_matches(name, names, n=n, cutoff=0.6)
        return close or [found for found, _ in self._index.search(name, n)]

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

    def trust_skill(self, name: str, digest: str | None = None) -> bool:
        """Trust the skill's code: the content hashed as `digest` when given (what the user was asked about; a
        change made since is not trusted), else as it is now. Returns whether its code is trusted afterwards."""
        skill = self.get(name)
        if skill is None:
            return False
        self.trust.trust(skill, digest)
        self.reload()
        now = self.get(name)
        return now is not None and not self.needs_trust(now)

    # ------------------------------------------------------------------ activation
    def active(self, session_id: str) -> list[str]:
        info = self._store.get_session(session_id)
        names = list(info.active_skills) if info is not None else []
        return [n for n in names if self.get(n) is not None]

    def resolve(self, name: str) -> Skill | None:
        """The skill called `name`, or the one whose name differs only in letter case."""
        skill = self.get(name)
        if skill is None:  # also the same name in another Unicode normal form (é typed as e + accent)
            same = [s for s in self.skills if _fold(s.name) == _fold(name)]
            skill = same[0] if len(same) == 1 else None
        return skill

    def activate(self, session_id: str, name: str) -> Skill:
        skill = self.resolve(name)
        if skill is not None:
            name = skill.name
        if skill is None:
            close = self.closest_names(name)
            raise ToolError(f"no skill named {_short(name)!r}" + (
                f"; the closest names: {', '.join(close)}" if close else
                "; use find_skills to search the installed skills"))
        with self._lock:
            self._recent = [name] + [n for n in self._recent if n != name][: RECENT - 1]
        if self._store.get_session(session_id) is None:
            self._store.create_session(session_id)
        current = self.active(session_id)
        if name not in current:
            self._store.set_active_skills(session_id, current + [name])
        return skill

    def deactivate(self, session_id: str, name: str) -> None:
        self._store.set_active_skills(session_id, [n for n in self.active(session_id) if n != name])

    def apply_slash(self, session_id: str, text: str) -> str | None:
        """`/skill-name …` at the start of a message activates that skill (any Unicode name). Returns its name."""
        match = _SLASH.match(_INVISIBLE.sub("", text.strip()))
        if match is None:
            return None
        word = match.group(1)
        skill = self.resolve(word)
        if skill is None:  # the name followed by punctuation ('/会议纪要，请整理'), or, for a name in a script
            # written without spaces, by the message itself ('/会议纪要帮我整理'): the longest name that fits
            for candidate in sorted(self.skills, key=lambda s: -len(s.name)):
                rest = word[len(candidate.name):]
                if rest and _fold(word[:len(candidate.name)]) == _fold(candidate.name) and (
                        (unicodedata.category(rest[0]).startswith("P") and rest[0] not in "-_.")
                        or (not candidate.name[-1].isascii() and not rest[0].isascii())):
                    skill = candidate
                    break
        if skill is not None:
            self.activate(session_id, skill.name)
            return skill.name
        return None

    # ------------------------------------------------------------------ what a request carries
    def needs_search(self, other_fixed_tokens: int) -> bool:
        """Whether the full catalog is over its budget, so the catalog is a selection and find_skills is offered."""
        return self._full_tokens > catalog_budget(other_fixed_tokens)

    def catalog_for(self, session_id: str = "", message: str = "", other_fixed_tokens: int = 0) -> Catalog:
        """The catalog for one request (see core/skills/catalog.py); remembered as `last_catalog`."""
        pinned = self.active(session_id) if session_id else []
        with self._lock:
            recent = list(self._recent)
        made = build_catalog(self.skills, catalog_budget(other_fixed_tokens), index=self._index, message=message,
                             pinned=pinned, recent=recent, full=self._full)
        self.last_catalog = made
        if session_id:
            with self._lock:
                self._last_counts[session_id] = (made.listed, made.searchable)
        return made

    def counts(self, session_id: str = "") -> tuple[int, int]:
        """(listed, searchable) of the latest catalog built for the session."""
        with self._lock:
            return self._last_counts.get(session_id, (self.last_catalog.listed, self.last_catalog.searchable))

    def catalog(self, session_id: str = "", message: str = "", other_fixed_tokens: int = 0) -> str:
        return self.catalog_for(session_id, message, other_fixed_tokens).text

    def search(self, query: str, limit: int = FIND_RESULTS) -> list[Skill]:
        found = [self.get(name) for name, _ in self._index.search(query, limit)]
        return [s for s in found if s is not None]

    def skill_layer(self, session_id: str) -> str:
        parts = []
        for name in self.active(session_id):
            skill = self.get(name)
            if skill is not None and skill.instructions:
                parts.append(f"## Skill: {skill.name} (active)\n{skill.instructions}")
        return "\n\n".join(parts)

    def offered(self, session_id: str, specs: Iterable[ToolSpec]) -> list[ToolSpec]:
        """Drop the tools of skills that are not active in this session, and find_skills when the catalog lists
        every skill."""
        active = set(self.active(session_id))
        kept = [s for s in specs if not (s.source.startswith("skill:") and s.source[6:] not in active)]
        if not any(s.name == FIND for s in kept):
            return kept
        if not any(s.name == ACTIVATE for s in kept):  # skills switched off (Tools tab): nothing to find
            return [s for s in kept if s.name != FIND]
        others = estimate_tools_tokens([s.to_openai() for s in kept]) + OTHER_FIXED_ALLOWANCE
        return kept if self.needs_search(others) else [s for s in kept if s.name != FIND]

    # ------------------------------------------------------------------ the tools
    def _activate_tool(self, args: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
        skill = self.activate(ctx.session_id, _given_name(args["name"]))
        return {
            "skill": skill.name,
            "instructions": f"now in your system message, under '## Skill: {skill.name} (active)'; follow them",
            "tools": list(skill.tools) + self._skill_tools.get(skill.name, []),
            "resources": list(skill.resources),
            "note": "The skill is now active for this session. Read a resource with read_skill_resource(name, path)."
            + (" Its scripts cannot run yet: the user has not trusted this skill's code (Skills tab > Trust code…, "
               f"or `hermes-desktop skills trust {skill.name}`). Tell the user if the task needs them."
               if self.needs_trust(skill) else ""),
        }

    def _find_tool(self, args: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
        query = str(args.get("query") or "").strip()
        if not query:
            raise ToolError("give a few keywords to search for")
        found = self.search(query)
        shown = _short(query)  # a query of a whole pasted message, echoed in full, pushed the skills past the cut
        if not found:
            return {"query": shown, "skills": [], "note": "No installed skill matches these words; try other words "
                    "or synonyms, or do the task without a skill."}
        return {"query": shown, "skills": [{"name": s.name, "description": s.description[:SEARCH_DESCRIPTION_CHARS]}
                                           for s in found],
                "note": "Call activate_skill with the name of the one that fits the task."}

    def _resource_path(self, skill: Skill, relative: str) -> tuple[Path, str, str]:
        """The file for `relative`, its path as found, and a note when it was matched without regard to case.
        ToolError naming the closest existing paths when there is none."""
        root = skill.folder.resolve()
        target = (skill.folder / relative).resolve()
        if root not in target.parents or not is_resource(target.relative_to(root)):
            raise ToolError(f"refused: {relative!r} is not one of the skill's resource files (its instructions and "
                            "code are not resources; paths outside the skill's folder are never read)")
        if target.is_file():
            return target, relative, ""
        known = self._all_resources(skill)
        same = [p for p in known if p.lower() == relative.lower()]
        if same:
            found = same[0]
            target = (skill.folder / found).resolve()
            if root in target.parents:  # never outside the folder, even through a linked folder
                return target, found, f"[{relative!r} does not exist; this is {found!r}]\n"
        close = difflib.get_close_matches(relative, known, n=5, cutoff=0.4)
        by_name = [p for p in known if Path(p).name.lower() == Path(relative).name.lower() and p not in close]
        close = (by_name + close)[:5]
        raise ToolError(f"{relative!r} does not exist in skill {skill.name}" +
                        (f"; the closest existing paths: {', '.join(close)}" if close else
                         f"; its resources: {', '.join(skill.resources[:20]) or 'none'}"))

    @staticmethod
    def _all_resources(skill: Skill) -> list[str]:
        found = []
        for path in skill.folder.rglob("*"):
            if len(found) > 5000:
                break
            try:
                relative = path.relative_to(skill.folder)
                if path.is_file() and not path.is_symlink() and is_resource(relative):
                    found.append(relative.as_posix())
            except OSError:
                continue
        return sorted(found)

    def _read_resource_tool(self, args: dict[str, Any], ctx: ToolContext) -> str:
        name = _given_name(args["name"])
        skill = self.resolve(name)
        if skill is None:
            close = self.closest_names(name)
            raise ToolError(f"no skill named {_short(name)!r}" +
                            (f"; the closest names: {', '.join(close)}" if close else ""))
        relative = str(args["path"]).strip().lstrip("/")
        target, found, note = self._resource_path(skill, relative)
        try:  # never more than the limit is read, whatever the file's size says or becomes
            data = read_limited(target, MAX_RESOURCE_BYTES, "larger resources are not read")
        except TooLarge as exc:
            raise ToolError(f"refused: {found!r} {exc}") from None
        except OSError as exc:
            raise ToolError(f"{found!r} cannot be read: {exc.strerror or exc}") from None
        if b"\x00" in data[:8192]:
            raise ToolError(f"{found!r} is a binary file; only text resources can be read")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ToolError(f"{found!r} is not UTF-8 text") from exc
        offset = int(args.get("offset") or 0)
        limit = max(1, min(int(args.get("limit") or PAGE_CHARS), MAX_PAGE_CHARS))
        how = f"call read_skill_resource(name={skill.name!r}, path={found!r}, offset={{offset}})"
        return note + page(text, offset, limit, how_to_continue=how)
