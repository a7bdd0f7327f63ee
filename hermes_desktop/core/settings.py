"""User settings: provider profiles, workspace, approvals, appearance, agent limits.

Stored as `settings.json` in the config directory, written atomically (temporary
file + replace) and never containing a secret: API keys live in the OS keyring
(`core/secrets.py`). Environment overrides (HERMES_BASE_URL, HERMES_MODEL,
HERMES_API_KEY, HERMES_WORKSPACE) win over saved values at read time and are
never written back: `effective_profile()` and `effective_workspace()` apply them
to a copy.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import asdict, dataclass, field, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import Any, Callable, Mapping, TypeVar

from hermes_desktop.core.paths import AppPaths, ensure_dir

log = logging.getLogger(__name__)

SETTINGS_VERSION = 1
ENV_PROFILE_ID = "env"


class ToolMode(StrEnum):
    """How tools reach the model: the `tools` API parameter, a prompt format, or whichever works."""

    NATIVE = "native"
    TEXT = "text"
    AUTO = "auto"


class ApprovalMode(StrEnum):
    ASK_RISKY = "ask_risky"
    ALWAYS_ASK = "always_ask"
    TRUSTED = "trusted"
    CHAT_ONLY = "chat_only"


class ReasoningEcho(StrEnum):
    """Whether a reply's reasoning is sent back with its tool calls in later requests.

    DeepSeek's thinking mode refuses (400) a request whose assistant tool-call messages lack their
    `reasoning_content`; most other servers ignore or reject the field. AUTO: on for presets known to need
    it, or once a server's 400 named the field (`learned_reasoning_echo`); never to a server that did not
    stream reasoning in the first place."""

    AUTO = "auto"
    ALWAYS = "always"
    NEVER = "never"


class Capability(StrEnum):
    """A model capability the user can state, or leave to Hermes (AUTO: from the model's name, or learned)."""

    AUTO = "auto"
    YES = "yes"
    NO = "no"


class ThinkingDisplay(StrEnum):
    """How a reply's reasoning shows in the transcript."""

    AUTO = "auto"  # open while it streams, collapsed to "Thought for N s" once the answer starts
    EXPANDED = "expanded"  # always open
    HIDDEN = "hidden"  # never shown (still kept with the message)


@dataclass(frozen=True, slots=True)
class ProviderProfile:
    """One model endpoint the user has configured. Holds no secret."""

    id: str
    name: str
    base_url: str
    model: str
    temperature: float | None = None
    max_output_tokens: int | None = 4096
    context_window: int = 32_768
    tool_mode: ToolMode = ToolMode.AUTO
    request_timeout_s: float = 120.0
    needs_api_key: bool = True
    reasoning_echo: ReasoningEcho = ReasoningEcho.AUTO
    # Sent as `reasoning_effort` ("low" | "medium" | "high") where the server accepts it; None sends nothing.
    reasoning_effort: str | None = None
    # Extra request body fields merged into every chat request (`enable_thinking`, `thinking: {type: ...}`, ...).
    extra_params: dict[str, Any] = field(default_factory=dict)
    vision: Capability = Capability.AUTO
    # Models the user typed by hand for the model picker, beside those the server lists.
    models: tuple[str, ...] = ()
    # Learned from the server's answers, kept so they hold after a restart.
    learned_reasoning_echo: bool = False
    learned_no_vision: bool = False
    # A model of this provider's /embeddings endpoint for memory recall (core/memory/embeddings.py); None: BM25 only.
    embedding_model: str | None = None
    # A cheaper model of this same provider for side tasks (titles, summaries, memory extraction); None: the
    # session's own model (core/assistants/service.py side_client).
    side_model: str | None = None
    # The user runs this provider on their own machine or network and marked it so: a session it answered in is
    # then sent only to local-only providers, and its memories are recalled only for them (core/local_only.py).
    local_only: bool = False

    @property
    def keyring_username(self) -> str:
        return f"provider:{self.id}"

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "ProviderProfile":
        known = {f.name for f in fields(ProviderProfile)}
        values = {k: v for k, v in data.items() if k in known}
        if "tool_mode" in values:
            values["tool_mode"] = ToolMode(values["tool_mode"])
        values["reasoning_echo"] = _enum(ReasoningEcho, values.get("reasoning_echo"), ReasoningEcho.AUTO)
        values["vision"] = _enum(Capability, values.get("vision"), Capability.AUTO)
        effort = values.get("reasoning_effort")
        values["reasoning_effort"] = effort if isinstance(effort, str) and effort.strip() else None
        extra = values.get("extra_params")
        values["extra_params"] = dict(extra) if isinstance(extra, Mapping) else {}
        values["models"] = tuple(str(m) for m in values.get("models") or () if str(m).strip())
        embedding = values.get("embedding_model")
        values["embedding_model"] = embedding.strip() if isinstance(embedding, str) and embedding.strip() else None
        side = values.get("side_model")
        values["side_model"] = side.strip() if isinstance(side, str) and side.strip() else None
        values["local_only"] = values.get("local_only") is True  # only a real true: "false" is not a promise kept
        return ProviderProfile(**values)


@dataclass(frozen=True, slots=True)
class AgentLimits:
    """Guards on one user turn (see core/agent.py)."""

    max_round_trips: int = 12
    max_identical_calls: int = 3
    max_consecutive_failures: int = 3
    tool_result_char_budget: int = 8_000
    default_tool_timeout_s: float = 60.0
    # Read-only tool calls of one reply that run at the same time (the rest wait for a free slot).
    max_parallel_tools: int = 4
    # A whole turn's deadline in seconds; time spent waiting for the user's approval does not count. When it
    # passes, the turn stops as a Stop would (running tools cancelled, the partial reply kept) and says so. 0: none.
    turn_deadline_s: float = 1800.0
    # One model reply's output limit (its text, and separately the arguments of its tool calls), in characters:
    # a stream that never ends is stopped there, what arrived is kept and its tool calls do not run.
    max_reply_chars: int = 200_000
    # Long conversations (core/conversation_summary.py): when the history no longer fits, older exchanges are sent
    # as a summary and the newest this many stay word for word (0: no summaries, old exchanges are left out).
    summary_keep_exchanges: int = 20
    # One summary side request's time limit; past it the turn leaves old exchanges out instead, and says so.
    summary_timeout_s: float = 60.0
    # How long a turn waits for another turn of the same session (another window or `ask`) before it gives up
    # (core/session_lock.py).
    session_wait_s: float = 60.0


@dataclass(frozen=True, slots=True)
class Settings:
    profiles: tuple[ProviderProfile, ...] = ()
    active_profile_id: str | None = None
    workspace: str | None = None
    approval_mode: ApprovalMode = ApprovalMode.ASK_RISKY
    theme: str = "system"
    language: str = "system"
    limits: AgentLimits = field(default_factory=AgentLimits)
    disabled_tools: tuple[str, ...] = ()
    # Hosts (host or host:port) that fetch_url may reach even though they resolve to
    # loopback or private addresses, e.g. a home server the user named explicitly.
    fetch_allowed_private_hosts: tuple[str, ...] = ()
    # Per-tool approval rules ("always_allow" | "ask" | "never_allow"), keyed as core/tools/approval.rule_key.
    tool_rules: dict[str, str] = field(default_factory=dict)
    # Write and destructive tools report what they would do instead of doing it.
    dry_run: bool = False
    # Also load skills from ~/.agents/skills (the Agent Skills standard's folder shared between clients).
    agents_skills: bool = False
    # Also load skills from ~/.claude/skills (Claude Code's folder), overridden by the two folders above.
    claude_skills: bool = False
    # `sessions import` refuses files larger than this (the file is streamed, never read whole).
    import_max_mb: int = 100
    thinking_display: ThinkingDisplay = ThinkingDisplay.AUTO
    # Memory (core/memory): the global switch; short-term memories' half-life in days; tokens the recalled
    # memories may take in a request.
    memory_enabled: bool = True
    memory_half_life_days: float = 7.0
    memory_budget_tokens: int = 400
    # Saved profiles (ids) that never receive memories: no memory layer, and the memory tools refuse. Memories are
    # the user's, shared by every other saved profile (core/memory/store.py, "Profiles").
    memory_excluded_profiles: tuple[str, ...] = ()
    # Workflow memory (core/learning): record each turn's tool path (learning.db) and offer a similar past success.
    workflow_memory: bool = True

    def profile(self, profile_id: str | None) -> ProviderProfile | None:
        return next((p for p in self.profiles if p.id == profile_id), None)

    @property
    def active_profile(self) -> ProviderProfile | None:
        return self.profile(self.active_profile_id) or (self.profiles[0] if self.profiles else None)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["version"] = SETTINGS_VERSION
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "Settings":
        limits_known = {f.name for f in fields(AgentLimits)}
        limits = AgentLimits(**{k: v for k, v in dict(data.get("limits") or {}).items() if k in limits_known})
        return Settings(
            profiles=tuple(ProviderProfile.from_json(p) for p in data.get("profiles") or ()),
            active_profile_id=data.get("active_profile_id"),
            workspace=data.get("workspace"),
            approval_mode=ApprovalMode(data.get("approval_mode", ApprovalMode.ASK_RISKY)),
            theme=str(data.get("theme", "system")),
            language=str(data.get("language", "system")),
            limits=limits,
            disabled_tools=tuple(data.get("disabled_tools") or ()),
            fetch_allowed_private_hosts=_private_hosts(data.get("fetch_allowed_private_hosts")),
            tool_rules={str(k): str(v) for k, v in dict(data.get("tool_rules") or {}).items()
                        if v in ("always_allow", "ask", "never_allow")},
            dry_run=bool(data.get("dry_run", False)),
            agents_skills=bool(data.get("agents_skills", False)),
            claude_skills=bool(data.get("claude_skills", False)),
            import_max_mb=_positive_int(data.get("import_max_mb"), 100),
            thinking_display=_enum(ThinkingDisplay, data.get("thinking_display"), ThinkingDisplay.AUTO),
            memory_enabled=bool(data.get("memory_enabled", True)),
            memory_half_life_days=_positive_float(data.get("memory_half_life_days"), 7.0),
            memory_budget_tokens=_positive_int(data.get("memory_budget_tokens"), 400),
            memory_excluded_profiles=_strings(data.get("memory_excluded_profiles")),
            workflow_memory=bool(data.get("workflow_memory", True)),
        )


E = TypeVar("E", bound=StrEnum)


def _enum(kind: type[E], value: Any, default: E) -> E:
    """`value` as a member of `kind`; a value this version does not know falls back to `default`."""
    try:
        return kind(value)
    except ValueError:
        return default


def _positive_float(value: Any, default: float) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return number if number > 0 and number == number and number != float("inf") else default


def _private_hosts(value: Any) -> tuple[str, ...]:
    """fetch_allowed_private_hosts as fetch_url matches it (network.parse_private_hosts). A hand-written file may
    hold one string (read like the Settings field, not letter by letter), numbers or nulls: what is not a host is
    left out (and logged), so an odd entry neither widens fetch_url's reach nor stops the engine."""
    if not value:
        return ()
    from hermes_desktop.core.tools.network import parse_private_hosts  # only for a file that lists hosts

    if isinstance(value, str):
        text = value
    elif isinstance(value, (list, tuple)):
        text = ", ".join(entry for entry in value if isinstance(entry, str))
    else:
        text = ""
    hosts, bad = parse_private_hosts(text)
    if bad or (value and not isinstance(value, (str, list, tuple))) or (
            isinstance(value, (list, tuple)) and any(not isinstance(entry, str) for entry in value)):
        log.warning("settings: fetch_allowed_private_hosts entries that are not a host were left out: %r", value)
    return hosts


def _strings(value: Any) -> tuple[str, ...]:
    """A list of ids from the file: its strings, once each, in order (a lone string is one id, not its letters)."""
    items = [value] if isinstance(value, str) else value if isinstance(value, (list, tuple)) else ()
    return tuple(dict.fromkeys(item for item in items if isinstance(item, str) and item))


def _positive_int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else default


def with_profile(settings: Settings, profile: ProviderProfile, *, make_active: bool = False) -> Settings:
    """Add `profile`, or replace the one with its id."""
    profiles = [p for p in settings.profiles if p.id != profile.id]
    index = next((i for i, p in enumerate(settings.profiles) if p.id == profile.id), len(profiles))
    profiles.insert(index, profile)
    active = profile.id if make_active or settings.active_profile_id is None else settings.active_profile_id
    return replace(settings, profiles=tuple(profiles), active_profile_id=active)


def without_profile(settings: Settings, profile_id: str) -> Settings:
    profiles = tuple(p for p in settings.profiles if p.id != profile_id)
    active = settings.active_profile_id
    if active == profile_id:
        active = profiles[0].id if profiles else None
    return replace(settings, profiles=profiles, active_profile_id=active)


@dataclass(frozen=True, slots=True)
class LoadedSettings:
    settings: Settings
    # A message for the user when the file could not be used (it was moved aside).
    problem: str | None = None


class SettingsStore:
    """Reads and writes settings.json; a corrupt file is kept aside, never lost."""

    def __init__(self, paths: AppPaths) -> None:
        self._path = paths.settings_file
        self._base: dict[str, Any] | None = None  # what this writer last loaded or saved (core/settings_merge.py)

    @property
    def path(self) -> Path:
        return self._path

    def load(self) -> LoadedSettings:
        if not self._path.exists():
            return LoadedSettings(Settings())
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("the top level is not an object")
            from hermes_desktop.core.settings_merge import plain
            from hermes_desktop.core.settings_validation import read_valid

            settings, problem = read_valid(data, self._path)  # field by field: a bad value costs only itself
            self._base = plain(settings.to_json())
            return LoadedSettings(settings, problem)
        except (OSError, ValueError, TypeError, KeyError) as exc:
            from hermes_desktop.core.coded import coded

            try:
                kept = _move_aside(self._path)
            except OSError as moving:  # a read-only config folder: the file stays where it is, still unread
                log.warning("settings file unusable (%s) and could not be moved aside: %s", exc, moving)
                return LoadedSettings(Settings(), problem=coded(
                    f"Your settings file {self._path} could not be read ({exc}) nor set aside ({moving}). Default "
                    "settings are used for now; the file was left as it is.",
                    "settings_unreadable_left", path=str(self._path), error=str(exc)))
            log.warning("settings file unusable (%s); moved to %s", exc, kept)
            return LoadedSettings(
                Settings(),
                problem=coded(f"Your settings file could not be read ({exc}). It was kept as {kept} "
                              "and default settings were loaded.", "settings_unreadable", kept=str(kept),
                              error=str(exc)),
            )

    def save(self, settings: Settings) -> Settings:
        """Write only what changed since this store last loaded or saved, onto the file as it is now, under a file
        lock (core/settings_merge.py): another process's changes meanwhile are kept. Returns the settings as saved."""
        from hermes_desktop.core.settings_merge import save_merged

        ensure_dir(self._path.parent)
        saved, self._base = save_merged(self._path, settings, self._base)
        return saved


def write_atomically(path: Path, text: str) -> None:
    """Write a whole file so that readers see either the old or the new content, never half. A symbolic link
    (a configuration kept in a dotfiles folder) stays one: the file it points to is replaced."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    replace_atomically(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def replace_atomically(path: Path, fill: Callable[[Path], object], *, prefix: str | None = None) -> None:
    """Make `path` what `fill` writes into a new temporary file beside it (same folder, so the rename is atomic):
    synced to disk, then renamed over `path`. Readers see the old file or the whole new one, never a part; on any
    failure the temporary file is removed and `path` is as it was. `prefix` names the temporary file for readers
    that must skip it (a sync folder never lists `.tmp-` names)."""
    fd, tmp = tempfile.mkstemp(prefix=prefix or f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        fill(Path(tmp))
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _move_aside(path: Path) -> Path:
    for n in range(1, 1000):
        target = path.with_name(f"{path.name}.corrupt-{n}")
        if not target.exists():
            path.replace(target)
            return target
    raise OSError(f"too many corrupt copies next to {path}")


def effective_profile(settings: Settings, env: Mapping[str, str] | None = None) -> ProviderProfile | None:
    """The profile to talk to, with HERMES_BASE_URL / HERMES_MODEL applied over the saved one.

    With no saved profile, both variables together make a complete profile of their own. A HERMES_BASE_URL that
    names another server than the saved profile's is not that profile either: a key and memories belong to the
    provider they were given to, so the override is its own ephemeral profile (id `env`, nothing saved, its key
    only from HERMES_API_KEY, see `is_ephemeral`), with the saved profile's model unless HERMES_MODEL names one.
    """
    env = os.environ if env is None else env
    base_url = env.get("HERMES_BASE_URL", "").strip()
    model = env.get("HERMES_MODEL", "").strip()
    profile = settings.active_profile
    if profile is None or (base_url and not same_server(base_url, profile.base_url)):
        model = model or (profile.model if profile is not None else "")
        if not (base_url and model):
            return None
        profile = ProviderProfile(id=ENV_PROFILE_ID, name="Environment", base_url=base_url, model=model)
        return replace(profile, needs_api_key=False)
    if base_url:
        profile = replace(profile, base_url=base_url)
    if model:
        profile = replace(profile, model=model)
    return profile


def is_ephemeral(profile: ProviderProfile) -> bool:
    """Whether this is the profile made from the environment (HERMES_BASE_URL): its key comes from HERMES_API_KEY
    alone, never from the keyring, and nothing about it is saved."""
    return profile.id == ENV_PROFILE_ID


def same_server(a: str, b: str) -> bool:
    """Whether two base URLs name the same server and path (case of scheme and host, default port and a trailing
    slash aside): what decides whether HERMES_BASE_URL is the saved profile's server or another one."""
    from urllib.parse import urlsplit

    def key(url: str) -> tuple[str, str, int | None, str]:
        parts = urlsplit(url.strip())
        try:
            port = parts.port
        except ValueError:
            return (url.strip(), "", None, "")
        scheme = parts.scheme.lower()
        port = None if (scheme, port) in (("http", 80), ("https", 443)) else port
        return (scheme, (parts.hostname or "").lower(), port, parts.path.rstrip("/"))

    return key(a) == key(b)


def effective_workspace(settings: Settings, paths: AppPaths, env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    override = env.get("HERMES_WORKSPACE", "").strip()
    chosen = override or settings.workspace
    return Path(chosen).expanduser() if chosen else paths.default_workspace
