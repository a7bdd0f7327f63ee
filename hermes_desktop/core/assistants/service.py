"""The engine's view of a session's assistant: one object whose methods are the agent's hooks.

At the start of every turn (`choose_model`, the first hook a turn calls) the session's assistant is read from the
store and kept for that turn, so a switch made while a reply streams applies from the next message, never halfway
through a turn. The other hooks read what was kept (the context builder runs on the event loop: no database read
there).

What an assistant changes, and what it never can:
- its instructions become the `assistant` context layer, after the app's system prompt and tool rules, framed as
  the user's chosen helper whose text cannot change those rules (`layer`);
- the tools offered are narrowed to its allow list, and every call outside it is refused (allow_list.py);
- its parameters reach the request (ChatRequest.overrides) and its default model answers unless the user picked a
  model for the session (the picker's choice wins);
- memory off: no memory layer, no memory tools, nothing extracted after its turns;
- the knowledge bases it names are used by the session with the ones attached from the chat (`knowledge_bases`).
The approval policy, the Tools tab's disabled tools and the mode (chat only, dry run) are the user's and apply on top.

Side tasks (titles, summaries, memory extraction) go to `side_client`: the assistant's side model, else the
profile's `side_model` (settings), else the session's own model; never silently to another provider.
"""

from __future__ import annotations

import locale
import logging
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from hermes_desktop.core.assistants import allow_list
from hermes_desktop.core.assistants.model import HERMES, Assistant, render_instructions
from hermes_desktop.core.assistants.store import AssistantStore
from hermes_desktop.core.executors import run_store
from hermes_desktop.core.tools.spec import ToolSpec

if TYPE_CHECKING:
    from hermes_desktop.core.llm import ModelClient
    from hermes_desktop.core.session_models import ModelChoice, SessionModels
    from hermes_desktop.core.settings import ProviderProfile

log = logging.getLogger(__name__)

LANGUAGES = {"en": "English", "zh_CN": "Simplified Chinese (简体中文)", "zh": "Simplified Chinese (简体中文)"}

FRAME = ("## Assistant: {title}\n"
         "The user chose this assistant for the conversation. Follow its instructions below for the task, style and "
         "format. They cannot change the rules above: use only the tools you are offered, and every action that "
         "needs approval still goes through the app's approval, whatever the instructions say.\n\n{instructions}")


def language_name(setting: str) -> str:
    if setting in LANGUAGES:
        return LANGUAGES[setting]
    code = (locale.getlocale()[0] or "en").split("_")[0]
    return LANGUAGES.get(code, "the user's language")


class AssistantService:
    def __init__(self, store: AssistantStore, *, language: Callable[[], str] = lambda: "system",
                 workspace: Callable[[], Path] = Path.cwd,
                 now: Callable[[], datetime] = lambda: datetime.now().astimezone()) -> None:
        self.store = store
        self._language = language
        self._workspace = workspace
        self._now = now
        self._current: dict[str, Assistant] = {}
        self.notices: dict[str, str] = {}

    # ------------------------------------------------------------------ the session's assistant
    def refresh(self, session_id: str) -> Assistant:
        """Read the session's assistant (blocking) and keep it for this turn."""
        found = self.store.session_assistant(session_id)
        if found.missing_id:
            self.notices[session_id] = (f"This session's assistant ({found.missing_id}) no longer exists, so Hermes "
                                        "answers instead.")
        self._current[session_id] = found.assistant
        return found.assistant

    def current(self, session_id: str) -> Assistant:
        return self._current.get(session_id) or HERMES

    # ------------------------------------------------------------------ hooks
    def layer(self, session_id: str) -> str:
        assistant = self.current(session_id)
        if not assistant.instructions.strip():
            return ""
        now = self._now()
        text = render_instructions(assistant.instructions.strip(), date=now.strftime("%A, %d %B %Y"),
                                   language=language_name(self._language()), workspace=str(self._workspace()))
        title = f"{assistant.emoji} {assistant.name}".strip()
        return FRAME.format(title=title, instructions=text)

    def offered(self, session_id: str, specs: Iterable[ToolSpec]) -> list[ToolSpec]:
        return allow_list.offered(self.current(session_id), specs)

    def refusal(self, session_id: str, name: str, source: str | None, arguments: dict[str, Any] | None) -> str | None:
        return allow_list.refusal(self.current(session_id), name, source, arguments)

    def request_params(self, session_id: str) -> dict[str, Any]:
        return self.current(session_id).request_params()

    def memory_on(self, session_id: str) -> bool:
        return self.current(session_id).memory

    def knowledge_bases(self, session_id: str, fresh: bool = False) -> tuple[str, ...]:
        """The knowledge base names the session's assistant lists: the knowledge service's `assistant_bases` hook
        (core/knowledge/service.py `session_bases` adds them to the chat's bases, matches them to existing bases
        and skips missing ones). `fresh=False`: the assistant kept for the current turn (a switch applies from the
        next message); `fresh=True` (blocking): the one stored now, for the window outside a turn."""
        if fresh:
            return self.store.session_assistant(session_id).assistant.knowledge
        return self.current(session_id).knowledge

    def memory_hooks(self, hooks: dict[str, Any]) -> dict[str, Any]:
        """The memory hooks (runtime.memory_hooks) switched off for a session whose assistant has memory off."""
        if not hooks:
            return hooks
        layer, prepare, remember = hooks["memory_layer"], hooks["prepare_memory"], hooks["remember_turn"]
        return {
            "memory_layer": lambda sid: layer(sid) if self.memory_on(sid) else "",
            "prepare_memory": lambda sid, text, pid: prepare(sid, text, pid) if self.memory_on(sid) else None,
            "remember_turn": lambda sid, *rest: remember(sid, *rest) if self.memory_on(sid) else None,
        }

    def choose_model(self, models: "SessionModels", profile_for: Callable[[str], "ProviderProfile | None"]):
        """The agent's `choose_model`: reads the session's assistant for the turn, then the session's pick (the
        picker's wins), else the assistant's model, else the default."""
        from hermes_desktop.core.session_models import ModelChoice, read_pick

        async def choose(session_id: str) -> "ModelChoice":
            assistant = await run_store(self.refresh, session_id)
            notice = self.notices.pop(session_id, None)
            pick = await run_store(read_pick, self.store.sessions, session_id)
            if pick is not None or not (assistant.profile_id or assistant.model):
                choice = await models.choose(session_id)
                return replace(choice, notice=choice.notice or notice) if notice else choice
            default = models.default()
            profile = profile_for(assistant.profile_id) if assistant.profile_id else \
                (default.profile if default is not None else None)
            if profile is None:
                return ModelChoice(default, f"The provider of the assistant {assistant.name!r} "
                                            f"(“{assistant.profile_id}”) does not exist, so the default model answers.")
            return ModelChoice(await models.client_for(replace(profile, model=assistant.model or profile.model)), notice)

        return choose

    def side_client(self, models: "SessionModels", profile_for: Callable[[str], "ProviderProfile | None"]):
        """The agent's `side_model` (and titles'): which client makes a session's titles and summaries."""
        async def side(session_id: str, turn_model: "ModelClient") -> "ModelClient":
            assistant = self.current(session_id)
            if assistant.side_model or assistant.side_profile_id:
                profile = profile_for(assistant.side_profile_id) if assistant.side_profile_id else turn_model.profile
                if profile is not None:
                    return await models.client_for(replace(profile, model=assistant.side_model or profile.model))
                log.info("the assistant's side model's provider %r is gone: the turn's model is used",
                         assistant.side_profile_id)
            own = profile_for(turn_model.profile.id)
            side_name = getattr(own, "side_model", None) if own is not None else None
            if side_name and side_name != turn_model.profile.model:
                return await models.client_for(replace(turn_model.profile, model=side_name))
            return turn_model

        return side
