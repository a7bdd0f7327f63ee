"""Assemble the engine from the user's installation: settings, secrets, store, tools, model.

The window and the command line both start here, so they behave the same.

The agent's own client talks to the default model (the active profile, with HERMES_BASE_URL / HERMES_MODEL
applied); `session_models` hands each turn the client of the model its session was given in the model
picker (core/session_models.py), and `model_catalog` keeps the lists the picker shows (core/model_catalog.py).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

from hermes_desktop.core.audit import AuditLog
from hermes_desktop.core.logging_setup import REDACTION
from hermes_desktop.core.mcp.client_features import ClientFeatures, workspace_roots
from hermes_desktop.core.mcp.manager import MCPManager
from hermes_desktop.core.mcp.session_servers import SessionServers
from hermes_desktop.core.model_catalog import CACHE_FILE_NAME, ModelCatalog
from hermes_desktop.core.paths import (
    AppPaths, agents_skills_dir, app_paths, bundled_skills_dir, claude_skills_dir, ensure_dir,
)
from hermes_desktop.core.secrets import (
    BackendReport, LazySecretStore, SecretStore, SecretStoreError, open_secret_store, resolve_api_key,
)
from hermes_desktop.core.session_lock import DIRECTORY_NAME as LOCKS_DIRECTORY, SessionLocks
from hermes_desktop.core.session_models import SessionModels
from hermes_desktop.core.session_types import SessionStore
from hermes_desktop.core.settings import (
    ProviderProfile, Settings, SettingsStore, effective_profile, effective_workspace, is_ephemeral,
)
from hermes_desktop.core.skills.manager import SkillManager
from hermes_desktop.core.skills.model import Origin
from hermes_desktop.core.skills.trust import TrustStore
from hermes_desktop.core.tools.approval import ApprovalPolicy, Approver, DenyAllApprover, Rule
from hermes_desktop.core.tools.builtin import builtin_tools
from hermes_desktop.core.tools.network import NetworkPolicy
from hermes_desktop.core.tools.pager import PAGER, read_more_tool
from hermes_desktop.core.tools.registry import ToolRegistry
from hermes_desktop.core.tools.spec import ToolSpec
from hermes_desktop.core.tools.workspace import Workspace

if TYPE_CHECKING:  # the agent and the model client pull in openai (~0.5 s): loaded in make_agent()
    from hermes_desktop.core.agent import Agent
    from hermes_desktop.core.knowledge.embeddings import Endpoint, ProviderEmbedder
    from hermes_desktop.core.local_only import LocalOnlyRule
    from hermes_desktop.core.llm import ModelClient
    from hermes_desktop.core.learning.trajectories import WorkflowMemory
    from hermes_desktop.core.knowledge.service import KnowledgeService
    from hermes_desktop.core.memory.service import MemoryService
    from hermes_desktop.core.assistants.service import AssistantService
    from hermes_desktop.core.usage.counts import RequestUsage
    from hermes_desktop.core.usage.service import UsageService

log = logging.getLogger(__name__)


@dataclass
class Runtime:
    paths: AppPaths
    settings_store: SettingsStore
    settings: Settings
    secrets: SecretStore
    secrets_report: BackendReport
    store: SessionStore
    registry: ToolRegistry
    audit: AuditLog
    workspace: Workspace
    profile: ProviderProfile | None
    skills: SkillManager
    mcp: MCPManager
    problems: list[str] = field(default_factory=list)  # things to tell the user at start-up
    env: Mapping[str, str] = field(default_factory=dict)
    session_models: SessionModels | None = None  # set by make_agent
    model_catalog: ModelCatalog | None = None
    memory: "MemoryService | None" = None  # core/memory; None when the store is not SQLite (memory off)
    workflow: "WorkflowMemory | None" = None  # core/learning/trajectories.WorkflowMemory (learning.db), None until open_runtime sets it
    knowledge: "KnowledgeService | None" = None  # core/knowledge; bases under <data>/knowledge/
    assistants: "AssistantService | None" = None  # core/assistants; None when the store is not SQLite (Hermes only)
    usage: "UsageService | None" = None  # core/usage: every model request's tokens; None when the store is not SQLite

    def usage_sink(self) -> "Callable[[RequestUsage], None] | None":
        """What every model client reports its requests to (core/usage/recorder.py)."""
        return self.usage.record if self.usage is not None else None

    def drain_usage(self) -> None:
        """Wait for the usage records in flight (before the store closes)."""
        if self.usage is not None:
            self.usage.recorder.drain()

    def api_key(self, env: Mapping[str, str] | None = None) -> str | None:
        return None if self.profile is None else self._resolve_key(self.profile, env)

    def api_key_for(self, profile: ProviderProfile) -> str | None:
        """The key for any profile (blocking: the keyring). HERMES_API_KEY only for the active profile: the
        environment's key is never sent to another provider's server."""
        if self.profile is not None and profile.id == self.profile.id:
            return self.api_key(self.env)
        return self._resolve_key(profile, {})

    def _resolve_key(self, profile: ProviderProfile, env: Mapping[str, str] | None) -> str | None:
        """The profile's key from `env` or the keyring (the ephemeral environment profile: from HERMES_API_KEY
        only, so a saved provider's key never reaches the server HERMES_BASE_URL names); a keyring failure is
        noted, and a key found is redacted from logs from now on."""
        try:
            if is_ephemeral(profile):  # the environment's own server: its key is the environment's, or none
                key = (self.env if env is None else env).get("HERMES_API_KEY", "").strip() or None
            else:
                key = resolve_api_key(profile.keyring_username, self.secrets, env)
        except SecretStoreError as exc:
            self.problems.append(str(exc))
            return None
        if key:
            REDACTION.known_secrets.add(key)
        return key

    def new_client(self, profile: ProviderProfile, api_key: str | None) -> "ModelClient":
        """A model client for a profile other than the default (the model picker's), wired like the default."""
        from hermes_desktop.core.llm import ModelClient

        return ModelClient(profile, api_key, on_echo_learned=self.remember_reasoning_echo, usage_sink=self.usage_sink())

    def profile_for(self, profile_id: str) -> ProviderProfile | None:
        """A profile as it is to be used: the active one with the environment's overrides, others as saved."""
        if self.profile is not None and profile_id == self.profile.id:
            return self.profile
        return self.settings.profile(profile_id)

    def picker_profiles(self) -> list[ProviderProfile]:
        """The profiles the model picker lists: the active one (as used) first, then the others as saved."""
        listed = [self.profile] if self.profile is not None else []
        return listed + [p for p in self.settings.profiles if self.profile is None or p.id != self.profile.id]

    def network_policy(self) -> NetworkPolicy:
        return NetworkPolicy(allowed_private_hosts=frozenset(h.lower() for h in self.settings.fetch_allowed_private_hosts))

    def make_agent(self, approver: Approver | None = None, *, model: "ModelClient | None" = None) -> "Agent":
        from hermes_desktop.core.agent import Agent, AgentServices
        from hermes_desktop.core.llm import ModelClient

        if model is None and self.profile is not None:
            model = self.new_client(self.profile, self.api_key())
        elif model is not None and model.usage_sink is None:  # a client made elsewhere still reports its usage
            model.usage_sink = self.usage_sink()
        policy = ApprovalPolicy(approver=approver or DenyAllApprover(), mode=self.settings.approval_mode,
                                rules={key: Rule(value) for key, value in self.settings.tool_rules.items()},
                                on_rules_changed=self.save_rules)
        services = AgentServices(
            store=self.store,
            registry=self.registry,
            policy=policy,
            workspace=self.workspace,
            network=self.network_policy(),
            audit=self.audit,
            limits=self.settings.limits,
            disabled_tools=set(self.settings.disabled_tools),
            dry_run=self.settings.dry_run,
            skills_layer=self.skills_layer,
            skill_catalog=self.skills.catalog,
            skill_counts=self.skills.counts,
            offer_tools=self.offer_tools,
            before_turn=self.skills.apply_slash,
            tool_notes=self.mcp.withheld_note,
            known_secrets=REDACTION.known_secrets,
            learn_no_vision=self.remember_no_vision,
            session_locks=SessionLocks(self.paths.data_dir / LOCKS_DIRECTORY,
                                       wait_s=lambda: self.settings.limits.session_wait_s),
            **self.memory_hooks(),
            **self.workflow_hooks(),
            **self.knowledge_hooks(),
        )
        agent = Agent(model, services)
        assistants = self.assistants
        if self.session_models is None:
            self.session_models = SessionModels(self.store, default=lambda: agent.model, profile=self.profile_for,
                                                api_key=self.api_key_for, make_client=self.new_client)
        else:
            self.session_models.set_default(lambda: agent.model)
        services.choose_model = self.session_models.choose
        if assistants is not None:  # the session's assistant: its layer, tools, parameters, model (core/assistants)
            services.assistant_layer = assistants.layer
            services.request_params = assistants.request_params
            services.choose_model = assistants.choose_model(self.session_models, self.profile_for)
            services.side_model = assistants.side_client(self.session_models, self.profile_for)
        services.call_guard = self.call_guard
        services.local_only = self.local_only
        if self.mcp.client_features is not None:
            self.mcp.client_features.model = lambda: agent.model  # an MCP server's sampling uses the active model
        return agent

    def workflow_hooks(self) -> dict[str, object]:
        """The agent's workflow memory hooks (core/learning/trajectories.py): a past path before, the path after."""
        workflow = self.workflow
        if workflow is None:
            return {}
        return {"prepare_workflow": workflow.prepare, "workflow_layer": workflow.layer,
                "record_workflow": workflow.record_turn}

    async def side_client(self, session_id: str) -> "ModelClient | None":
        """The client for a session's titles outside a turn: its assistant's side model, else its profile's
        `side_model`, else the model that answers it (core/assistants/service.py); never another provider."""
        if self.session_models is None:
            return None
        if self.assistants is None:
            side = (await self.session_models.choose(session_id)).client
        else:
            model = (await self.assistants.choose_model(self.session_models, self.profile_for)(session_id)).client
            if model is None:
                return None
            side = await self.assistants.side_client(self.session_models, self.profile_for)(session_id, model)
        if side is None:
            return None
        from hermes_desktop.core.executors import run_store

        return side if await run_store(self.local_only.may_send, session_id, side.profile) else None

    @property
    def local_only(self) -> "LocalOnlyRule":
        """Sessions held by a local-only provider go to no other (core/local_only.py)."""
        from hermes_desktop.core.local_only import LocalOnlyRule

        return LocalOnlyRule(self.store, self.profile_for)

    def memory_hooks(self) -> dict[str, object]:
        """The agent's memory hooks (core/memory/service.py): recall before a turn, extraction after it; off for a
        session whose assistant has memory off."""
        memory = self.memory
        if memory is None:
            return {}
        hooks = {"memory_layer": memory.layer, "prepare_memory": memory.prepare_event,
                 "remember_turn": memory.after_turn}
        return self.assistants.memory_hooks(hooks) if self.assistants is not None else hooks

    def skills_layer(self, session_id: str) -> str:
        """The active skills' instructions; for an assistant with a skill list, only its skills' (a `/skill-name`
        of another skill activates it for the session, but this assistant never gets its instructions)."""
        assistant = self.assistants.current(session_id) if self.assistants is not None else None
        if assistant is None or assistant.skills is None:
            return self.skills.skill_layer(session_id)
        parts = [f"## Skill: {skill.name} (active)\n{skill.instructions}" for name in self.skills.active(session_id)
                 if name in assistant.skills and (skill := self.skills.get(name)) is not None and skill.instructions]
        return "\n\n".join(parts)

    def offer_tools(self, session_id: str, specs: list[ToolSpec]) -> list[ToolSpec]:
        """The tools a request offers: MCP's live ones, active skills', the pager's, search_knowledge in a session that
        uses knowledge bases (attached from the chat or named by its assistant), then the assistant's allow list
        (which leaves search_knowledge to the knowledge service: core/assistants/allow_list.py)."""
        offered = self._knowledge_offered(session_id, PAGER.offered(
            session_id, self.skills.offered(session_id, self.mcp.offered(specs, session_id))))
        return self.assistants.offered(session_id, offered) if self.assistants is not None else offered

    def call_guard(self, session_id: str, name: str, source: str | None, arguments: dict | None) -> str | None:  # type: ignore[type-arg]
        """Why a call must not run: its MCP server is off for the session, or the assistant may not use it."""
        refused = self.mcp.refusal(session_id, name, source)
        if refused is None and self.assistants is not None:
            refused = self.assistants.refusal(session_id, name, source, arguments)
        return refused

    def knowledge_hooks(self) -> dict[str, object]:
        """The agent's knowledge hooks (core/knowledge/service.py): passages before a turn, the layer per request."""
        if self.knowledge is None:
            return {}
        return {"prepare_knowledge": self.knowledge.prepare, "knowledge_layer": self.knowledge.layer}

    def assistant_bases(self, session_id: str, fresh: bool = False) -> tuple[str, ...]:
        """The knowledge base names the session's assistant lists (the knowledge service's hook: its
        `session_bases` is the one answer to which bases a session uses); none without assistants."""
        return self.assistants.knowledge_bases(session_id, fresh) if self.assistants is not None else ()

    def _knowledge_offered(self, session_id: str, specs: list) -> list:  # type: ignore[type-arg]
        return specs if self.knowledge is None else self.knowledge.offered(session_id, specs)

    def embedding_endpoint(self, model: str, url: str) -> "Endpoint | None":
        """Where a knowledge base's vectors come from: its own URL (no key: the provider's key goes only to the
        provider), else the active provider's endpoint with its key."""
        from hermes_desktop.core.knowledge.embeddings import Endpoint

        if url:
            return Endpoint(url, None, model)
        if self.profile is None:
            return None
        return Endpoint(self.profile.base_url, self.api_key(self.env), model)

    def may_embed_for(self, session_id: str, url: str) -> bool:
        """Whether a session's words may go to a knowledge base's embedding endpoint (blocking): always, unless a
        local-only provider holds the session (core/local_only.py); then only to the active provider's endpoint
        when that one may receive it, never to a base's own URL (a server the app cannot vouch for)."""
        rule = self.local_only
        if rule.holder(session_id) is None:
            return True
        return not url and self.profile is not None and rule.may_send(session_id, self.profile)

    def close(self) -> None:
        """Close the files this runtime holds open (learning.db, then the session store). Call it after every
        writer has been awaited (turns, memory extraction, MCP servers): the window's shutdown and each command."""
        if self.workflow is not None:
            self.workflow.close()
        if hasattr(self.store, "close"):
            self.drain_usage()  # the last requests' usage rows land before the database closes
            self.store.close()

    def workflow_embedder(self, session_id: str) -> "ProviderEmbedder | None":
        """Workflow memory's vectors for a session: its own provider's embedding model (never another provider:
        a request's text goes only where the session already sends it), or None (BM25 alone)."""
        info = self.store.get_session(session_id) if session_id else None
        profile = self.profile_for(info.profile_id) if info is not None and info.profile_id else None
        profile = profile or self.profile
        if profile is None or not profile.embedding_model:
            return None
        from hermes_desktop.core.knowledge.embeddings import Endpoint, ProviderEmbedder

        return ProviderEmbedder(Endpoint(profile.base_url, self.api_key_for(profile), profile.embedding_model))

    def skill_roots(self) -> list[tuple[Path, Origin]]:
        """Bundled first, then ~/.claude/skills and ~/.agents/skills (each if enabled), then the user's folder: later
        ones override."""
        roots = [(bundled_skills_dir(), Origin.BUNDLED)]
        if getattr(self.settings, "claude_skills", False):
            roots.append((claude_skills_dir(), Origin.CLAUDE))
        if self.settings.agents_skills:
            roots.append((agents_skills_dir(), Origin.AGENTS))
        roots.append((self.paths.user_skills_dir, Origin.USER))
        return roots

    def remember_reasoning_echo(self, profile: ProviderProfile) -> None:
        """The model client learned that this profile's server wants reasoning sent back: save it in
        settings.json (`learned_reasoning_echo`) so later turns and restarts send it from the start."""
        from dataclasses import replace

        self.settings = replace(self.settings, profiles=tuple(
            replace(p, learned_reasoning_echo=True) if p.id == profile.id else p for p in self.settings.profiles))
        if self.profile is not None and self.profile.id == profile.id:
            self.profile = replace(self.profile, learned_reasoning_echo=True)
        self.settings_store.save(self.settings)

    def remember_no_vision(self, profile_id: str) -> None:
        """A server refused image content for this profile: save `learned_no_vision` in settings.json, so images are
        refused before sending from now on (Vision "auto" only; the user's yes/no still wins)."""
        from dataclasses import replace

        self.settings = replace(self.settings, profiles=tuple(
            replace(p, learned_no_vision=True) if p.id == profile_id else p for p in self.settings.profiles))
        if self.profile is not None and self.profile.id == profile_id:
            self.profile = replace(self.profile, learned_no_vision=True)
        self.settings_store.save(self.settings)

    def save_rules(self, rules: dict[str, Rule]) -> None:
        """Persist the per-tool approval rules (called by the policy when one changes)."""
        from dataclasses import replace

        self.settings = replace(self.settings, tool_rules={key: rule.value for key, rule in rules.items()})
        self.settings_store.save(self.settings)


def open_runtime(env: Mapping[str, str] | None = None, *, store: SessionStore | None = None,
                 paths: AppPaths | None = None, secrets: SecretStore | None = None) -> Runtime:
    env = os.environ if env is None else env
    paths = paths or app_paths()
    for directory in (paths.data_dir, paths.config_dir, paths.log_dir):
        ensure_dir(directory)
    settings_store = SettingsStore(paths)
    loaded = settings_store.load()
    problems = [loaded.problem] if loaded.problem else []
    if secrets is None:
        secrets, report = open_secret_store()
    elif isinstance(secrets, LazySecretStore):  # `ask`: the keyring is detected when first used
        report = secrets.report  # type: ignore[assignment]
    else:
        report = BackendReport(type(secrets).__name__, secrets.is_persistent, "given by the caller")
    if store is None:
        from hermes_desktop.core.store import open_store

        opened = open_store(paths)
        store = opened.store
        problems += opened.messages
    workspace = Workspace(effective_workspace(loaded.settings, paths, env))
    try:
        workspace.ensure_exists()
    except OSError as exc:
        problems.append(f"The workspace folder {workspace.root} could not be created: {exc}")
    try:
        ensure_dir(paths.user_skills_dir)
    except OSError as exc:  # a read-only or full data folder: the history still opens (read-only), skills load
        problems.append(f"The skills folder {paths.user_skills_dir} could not be created: {exc.strerror or exc}")
    from hermes_desktop.core.skills import yaml_cache

    yaml_cache.configure(paths.data_dir / yaml_cache.FILE_NAME)  # skills' parsed YAML between starts
    from hermes_desktop.core.llm import reasoning_origins  # which server wrote which reasoning (the echo's rule)

    reasoning_origins.configure(paths.data_dir / reasoning_origins.FOLDER_NAME)
    registry = ToolRegistry(builtin_tools())
    registry.register(read_more_tool())  # offered only while a session has a long result to read on
    runtime: Runtime
    skills = SkillManager(lambda: runtime.skill_roots(), TrustStore(paths.trusted_skills_file), registry, store)
    runtime = Runtime(
        paths=paths,
        settings_store=settings_store,
        settings=loaded.settings,
        secrets=secrets,
        secrets_report=report,
        store=store,
        registry=registry,
        audit=AuditLog(paths.audit_log),
        workspace=workspace,
        profile=effective_profile(loaded.settings, env),
        skills=skills,
        mcp=MCPManager(paths.mcp_config_file, registry, secrets, paths.mcp_log_dir, REDACTION.known_secrets),
        problems=problems,
        env=dict(env),
        model_catalog=ModelCatalog(paths.data_dir / CACHE_FILE_NAME),
    )
    runtime.mcp.workspace = lambda: runtime.workspace.root  # ${workspaceFolder} in mcp.json
    runtime.mcp.session_servers = SessionServers(store)  # the MCP servers on per session (sessions.mcp_servers)
    from hermes_desktop.core.mcp import oauth_network  # OAuth discovery: fetch_url's address rules, the user's hosts

    oauth_network.configure(runtime.network_policy)
    # Elicitation, sampling and roots for MCP servers; the window / terminal set its elicitor and sampler.
    runtime.mcp.client_features = ClientFeatures(roots=lambda: workspace_roots(runtime.workspace.root),
                                                 audit=runtime.audit, servers=lambda: runtime.mcp.supervisors.values())
    runtime.memory = open_memory(runtime)
    from hermes_desktop.core.learning.trajectories import WorkflowMemory

    runtime.workflow = WorkflowMemory(paths.data_dir / "learning.db", runtime.store,
                                      enabled=bool(getattr(runtime.settings, "workflow_memory", True)),
                                      incognito=lambda session_id: runtime.memory is not None
                                      and runtime.memory.store.is_incognito(session_id),
                                      embedder_for=runtime.workflow_embedder)
    runtime.knowledge = open_knowledge(runtime)
    runtime.assistants = open_assistants(runtime)
    runtime.usage = open_usage(runtime)
    from hermes_desktop.core.usage import hooks as usage_hooks

    usage_hooks.install(runtime.usage_sink())  # /embeddings requests report here (core/usage/hooks.py)
    skills.reload()
    return runtime


def open_assistants(runtime: Runtime) -> "AssistantService | None":
    """The assistants over the session store's database (core/assistants); None without one (Hermes only)."""
    from hermes_desktop.core.assistants.service import AssistantService
    from hermes_desktop.core.assistants.store import AssistantStore

    if not hasattr(runtime.store, "_db"):
        return None
    return AssistantService(AssistantStore(runtime.store), language=lambda: runtime.settings.language,
                            workspace=lambda: runtime.workspace.root)


def open_usage(runtime: Runtime) -> "UsageService | None":
    """Usage records in the session store's database (core/usage), prices and budget in usage.json."""
    from hermes_desktop.core.usage.service import UsageService

    if not hasattr(runtime.store, "_db"):
        return None
    return UsageService(runtime.store, runtime.paths.config_dir)


def open_memory(runtime: Runtime) -> "MemoryService | None":
    """Memory over the session store's database, its tools registered (remember, recall, forget)."""
    from hermes_desktop.core.learning.trajectories import WorkflowMemory
    from hermes_desktop.core.memory.service import MemoryService
    from hermes_desktop.core.memory.store import MemoryStore

    if not hasattr(runtime.store, "_db"):
        return None
    try:
        from hermes_desktop.core.memory.embeddings import Embedder

        from hermes_desktop.core.held_secrets import HeldSecrets

        # What memories must never hold: every secret in the keyring under a configured name (core/held_secrets.py).
        from hermes_desktop.core.local_only import local_only_ids

        store = MemoryStore(runtime.store, secrets=HeldSecrets(runtime.secrets, lambda: runtime.settings.profiles,
                                                               lambda: runtime.mcp.config.servers),
                            private=lambda: local_only_ids(runtime.settings.profiles))
        service = MemoryService(store, lambda: runtime.settings,
                                embedder=Embedder(store, runtime.profile_for, runtime.api_key_for))
    except Exception as exc:  # e.g. a database of a version without the memory tables, open read-only
        log.warning("memory is unavailable: %s", exc)
        return None
    for spec in service.tools():
        runtime.registry.register(spec, replace=True)
    return service




def open_knowledge(runtime: Runtime) -> "KnowledgeService":
    """Knowledge bases under <data>/knowledge/ (core/knowledge/), the search_knowledge tool registered."""
    from hermes_desktop.core.knowledge.registry import KnowledgeRegistry
    from hermes_desktop.core.knowledge.service import KnowledgeService

    service = KnowledgeService(KnowledgeRegistry(runtime.paths.knowledge_dir), runtime.embedding_endpoint,
                               runtime.may_embed_for, assistant_bases=runtime.assistant_bases)
    for spec in service.tools():
        runtime.registry.register(spec, replace=True)
    return service
