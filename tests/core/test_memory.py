"""Memory the user can see and trust (issue 13): written after turns from the user's own words, recalled into later
sessions with sources, superseded, expired, forgotten only after asking, and never crossing profiles or incognito.

Real openai client against the scripted server over HTTP, real SQLite store. The server answers the extraction
side request itself (`auto_memory`): by default each candidate sentence as written, or the JSON a test scripts
with `memory_reply`. Time is the memory store's injectable clock, never a sleep.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.memory import Layer, MemoryState, MemoryStore
from hermes_desktop.core.memory.service import MemoryService
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.memory.recall import HEADING
from hermes_desktop.core.settings import ENV_PROFILE_ID, Settings
from hermes_desktop.core.storage.migrations import migrate
from hermes_desktop.core.store import connect, open_store
from hermes_desktop.core.tools.approval import Decision
from tests.support.old_history import write_old_history
from tests.support.engine import ScriptedApprover, make_engine, of_type
from tests.support.model_server import (
    MEMORY_PROMPT_OPENING, CallScript, RecordedRequest, error_reply, memory_reply, text_reply, tool_call_reply,
)
from tests.support.stores import data_paths

NOW = datetime(2026, 12, 1, 9, 0).timestamp()
DAY = 86_400.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def with_memory(engine, clock: Clock | None = None, settings: Settings | None = None) -> MemoryService:
    """The engine's agent wired to memory as the runtime wires it (core/runtime.py memory_hooks / open_memory)."""
    current = settings or Settings()
    service = MemoryService(MemoryStore(engine.store, clock=clock or Clock()), lambda: current)
    services = engine.agent.services
    services.memory_layer = service.layer
    services.prepare_memory = service.prepare_event
    services.remember_turn = service.after_turn
    for spec in service.tools():
        engine.registry.register(spec, replace=True)
    return service


def is_extraction(request: RecordedRequest) -> bool:
    return request.system_prompt.startswith(MEMORY_PROMPT_OPENING)


def main_requests(server) -> list[RecordedRequest]:
    return [r for r in server.chat_requests if not is_extraction(r) and not r.system_prompt.startswith("Write a title")]


@pytest.fixture
def engine(profile, workspace_dir):
    made = make_engine(profile, workspace_dir)
    yield made


async def turn(engine, service, text, session_id):
    events = await engine.ask(text, session_id)
    assert await service.wait_idle(10)
    return events


async def test_a_preference_stated_in_session_a_reaches_session_b_first_request_with_its_source(
        engine, model_server) -> None:
    service = with_memory(engine)
    remembered: list[ev.MemoryRemembered] = []
    service.subscribe(remembered.append)
    model_server.enqueue(text_reply("Noted, green tea it is."), text_reply("Try a green tea latte."))
    first = await turn(engine, service, "I prefer green tea over coffee in the morning.", "a")
    assert of_type(first, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED
    engine.store.rename("a", "Morning drinks")

    assert [e.statements for e in remembered] == [("I prefer green tea over coffee in the morning.",)]
    memory = service.store.get(remembered[0].memory_ids[0])
    assert memory.quote == "I prefer green tea over coffee in the morning."
    assert memory.layer is Layer.LONG_TERM and memory.session_id == "a" and memory.profile_id == "test"
    assert engine.store.message(memory.message_id).content == memory.quote

    events = await turn(engine, service, "Any ideas for a morning drink?", "b")
    first_b = [r for r in main_requests(model_server) if "Any ideas" in json.dumps(r.body)][0]
    day = f"{datetime.fromtimestamp(memory.created_at):%Y-%m-%d}"  # a day in any language (core/memory/recall.py)
    assert f"I prefer green tea over coffee in the morning. (from 'Morning drinks', {day})" in first_b.system_prompt
    recalled = of_type(events, ev.MemoryRecalled)
    assert recalled and recalled[0].memory_ids == (memory.id,)
    prepared = of_type(events, ev.ContextPrepared)[0]
    assert prepared.breakdown["memory"] > 0, "Activity's breakdown counts the memory layer"
    assert model_server.pending == 0, "the extraction side request never took a queued reply"


async def test_a_contradiction_supersedes_the_old_memory(engine, model_server) -> None:
    service = with_memory(engine)
    model_server.enqueue(text_reply("ok"), text_reply("ok"), text_reply("ok"))
    model_server.memory_responder = memory_reply({"statement": "Prefers tea", "quote": "I prefer tea",
                                                  "subject": "preferred drink", "kind": "preference"})
    await turn(engine, service, "I prefer tea these days.", "a")
    model_server.memory_responder = memory_reply({"statement": "Prefers coffee", "quote": "I prefer coffee",
                                                  "subject": "Preferred drink", "kind": "preference"})
    await turn(engine, service, "Actually I prefer coffee now.", "a")
    memories = service.store.list(states=None)
    by_statement = {m.statement: m for m in memories}
    assert by_statement["Prefers tea"].state is MemoryState.SUPERSEDED
    assert by_statement["Prefers tea"].superseded_by == by_statement["Prefers coffee"].id
    assert by_statement["Prefers coffee"].state is MemoryState.ACTIVE
    assert [m.statement for m in service.store.history(by_statement["Prefers coffee"].id)] == \
        ["Prefers coffee", "Prefers tea"]

    await turn(engine, service, "What do I prefer to drink, tea or coffee?", "b")
    prompt = main_requests(model_server)[-1].system_prompt
    assert "Prefers coffee" in prompt and "Prefers tea" not in prompt


async def test_a_deadline_expires_and_is_not_recalled_after_it(engine, model_server) -> None:
    clock = Clock()
    service = with_memory(engine, clock)
    model_server.enqueue(text_reply("Good luck."), text_reply("ok"), text_reply("ok"))
    model_server.memory_responder = memory_reply({"statement": "Apollo report due 15 Dec", "quote":
                                                  "The Apollo report is due on Dec 15", "subject": "Apollo deadline",
                                                  "kind": "deadline", "date": "2026-12-15"})
    await turn(engine, service, "The Apollo report is due on Dec 15.", "a")
    [memory] = service.store.list()
    assert memory.kind == "deadline" and memory.layer is Layer.SHORT_TERM
    assert datetime.fromtimestamp(memory.expires_at).date().isoformat() == "2026-12-15"

    clock.now = NOW + 3 * DAY
    await turn(engine, service, "How is the Apollo report going?", "b")
    assert "Apollo report due 15 Dec" in main_requests(model_server)[-1].system_prompt

    clock.now = datetime(2026, 12, 16, 8, 0).timestamp()
    await turn(engine, service, "How is the Apollo report going?", "c")
    assert "Apollo report due 15 Dec" not in main_requests(model_server)[-1].system_prompt
    assert service.store.get(memory.id).state is MemoryState.EXPIRED
    assert service.store.list() == []


async def remembered_deadline(engine, model_server, service) -> int:
    model_server.enqueue(text_reply("Noted."))
    model_server.memory_responder = memory_reply({"statement": "Apollo launch deadline is 20 Dec", "quote":
                                                  "the Apollo launch deadline is Dec 20", "subject": "Apollo launch",
                                                  "kind": "deadline", "date": "2026-12-20"})
    await turn(engine, service, "Remember the Apollo launch deadline is Dec 20.", "a")
    [memory] = service.store.list()
    return memory.id


class RaisingApprover:
    """The dialog dismissed (closed without an answer): asking fails, which the policy treats as a denial."""

    def __init__(self) -> None:
        self.asked = []

    async def ask(self, request):
        self.asked.append(request)
        raise RuntimeError("dialog dismissed")


@pytest.mark.parametrize("answer", ["deny", "dismiss", "allow"])
async def test_forget_asks_showing_exactly_what_goes_and_only_an_allow_forgets(
        answer, profile, workspace_dir, model_server) -> None:
    approver = RaisingApprover() if answer == "dismiss" else \
        ScriptedApprover([Decision.DENY if answer == "deny" else Decision.ALLOW_ONCE])
    engine = make_engine(profile, workspace_dir, approver=approver)
    service = with_memory(engine)
    changes: list[bool] = []
    service.subscribe_changes(lambda: changes.append(True))
    memory_id = await remembered_deadline(engine, model_server, service)
    model_server.enqueue(tool_call_reply(CallScript("forget", {"query": "deadline"})), text_reply("Done."))
    events = await turn(engine, service, "Forget what I said about the deadline.", "b")

    [asked] = approver.asked
    assert asked.tool_name == "forget"
    assert asked.impact == f"Forgets 1 memory: #{memory_id} “Apollo launch deadline is 20 Dec”"
    finished = of_type(events, ev.ToolCallFinished)[0]
    state = service.store.get(memory_id).state
    assert changes == ([True] if answer == "allow" else []), "the Memory tab is told when the tool forgot"
    if answer == "allow":
        assert state is MemoryState.FORGOTTEN
        assert json.loads(finished.result)["ids"] == [memory_id]
    else:
        assert state is MemoryState.ACTIVE
        assert json.loads(finished.result)["status"] == "denied"

    model_server.enqueue(text_reply("ok"))
    await turn(engine, service, "When is the Apollo launch deadline?", "c")
    assert ("Apollo launch deadline is 20 Dec" in main_requests(model_server)[-1].system_prompt) is (answer != "allow")
    await engine.close()


async def test_a_hypothetical_is_not_stored_even_when_the_model_offers_it(engine, model_server) -> None:
    service = with_memory(engine)
    model_server.enqueue(text_reply("Tofu is great."), text_reply("ok"))
    await turn(engine, service, "If I were vegetarian, I would prefer tofu.", "a")
    assert not [r for r in model_server.chat_requests if is_extraction(r)], "no candidate, so no side request"

    model_server.memory_responder = memory_reply(
        {"statement": "Is vegetarian", "quote": "如果我是素食者", "subject": "diet", "kind": "identity"},
        {"statement": "Likes jazz", "quote": "I love jazz", "subject": "music", "kind": "preference"})
    await turn(engine, service, "我喜欢吃豆腐。如果我是素食者，我会更喜欢豆腐。", "a")
    assert [r for r in model_server.chat_requests if is_extraction(r)], "the first sentence is a candidate"
    assert service.store.count(states=None) == 0, "a hypothetical and words the user never wrote are discarded"


async def test_remember_with_a_quote_the_user_never_wrote_is_refused_and_a_real_one_is_kept(
        engine, model_server) -> None:
    service = with_memory(engine)
    announced: list[ev.MemoryRemembered] = []
    service.subscribe(announced.append)
    model_server.memory_responder = memory_reply()
    model_server.enqueue(
        tool_call_reply(CallScript("remember", {"statement": "Loves jazz", "quote": "I love jazz"})),
        tool_call_reply(CallScript("remember", {"statement": "Plays the cello on weekends"})),
        tool_call_reply(CallScript("remember", {"statement": "Plays cello", "quote": "I play the cello"})),
        text_reply("Noted."))
    events = await turn(engine, service, "I play the cello every Saturday.", "a")
    results = [json.loads(e.result) for e in of_type(events, ev.ToolCallFinished)]
    assert results[0]["status"] == "refused" and "not found word for word" in results[0]["message"]
    assert results[1]["status"] == "refused", "without a quote the statement itself must be the user's words"
    assert results[2]["status"] == "remembered"
    assert [d.decision for d in of_type(events, ev.ToolCallDecided)] == [Decision.ALLOW_ONCE] * 3, "never asks"
    [memory] = service.store.list(states=None)
    assert (memory.statement, memory.quote, memory.origin) == ("Plays cello", "I play the cello", "tool")
    assert [e.memory_ids for e in announced] == [(memory.id,)]


async def test_an_incognito_session_records_nothing_and_recalls_nothing(engine, model_server) -> None:
    service = with_memory(engine)
    kept = service.store.add("Prefers window seats on trains", profile_id="test", quote="I prefer window seats",
                             kind="preference")
    service.store.set_incognito("secret", True)
    model_server.enqueue(text_reply("ok"), tool_call_reply(CallScript("recall", {"query": "trains"})),
                         text_reply("ok"))
    await turn(engine, service, "I prefer aisle seats on trains. Remember that my passport number is X123.",
               "secret")
    assert not [r for r in model_server.chat_requests if is_extraction(r)]
    assert "window seats" not in main_requests(model_server)[-1].system_prompt
    events = await turn(engine, service, "Which seat do I like on trains?", "secret")
    assert json.loads(of_type(events, ev.ToolCallFinished)[0].result)["status"] == "refused"
    assert [m.id for m in service.store.list(states=None)] == [kept.id]


async def test_a_memory_made_with_one_provider_is_recalled_when_another_answers(engine, model_server, profile,
                                                                              workspace_dir) -> None:
    """Memory is the user's: what they told one provider is known to the next ("仅用于 演示模型" was the complaint)."""
    service = with_memory(engine)
    model_server.enqueue(text_reply("ok"))
    await turn(engine, service, "I prefer dark chocolate with sea salt.", "a")
    assert service.store.count(profile_id="test") == 1

    other = make_engine(replace(profile, id="work"), workspace_dir, store=engine.store)
    other_service = with_memory(other)
    model_server.enqueue(tool_call_reply(CallScript("recall", {"query": "chocolate"})), text_reply("dark, salted"))
    events = await turn(other, other_service, "Which chocolate do I prefer?", "b")
    assert "I prefer dark chocolate with sea salt." in main_requests(model_server)[-2].system_prompt
    [found] = json.loads(of_type(events, ev.ToolCallFinished)[0].result)["memories"]
    assert found["statement"] == "I prefer dark chocolate with sea salt."
    assert [r.memory.statement for r in other_service.recalled("b")] == ["I prefer dark chocolate with sea salt."]
    assert service.store.get(found["id"]).profile_id == "test"  # it still says where it was made


async def test_a_provider_the_user_excluded_receives_no_memories_but_what_they_tell_it_is_kept(
        engine, model_server, profile, workspace_dir) -> None:
    settings = Settings(memory_excluded_profiles=("local",))
    service = with_memory(engine, settings=settings)
    model_server.enqueue(text_reply("ok"))
    await turn(engine, service, "I prefer dark chocolate with sea salt.", "a")

    local = make_engine(replace(profile, id="local"), workspace_dir, store=engine.store,
                        approver=ScriptedApprover([Decision.ALLOW_ONCE]))
    local_service = with_memory(local, settings=settings)
    model_server.enqueue(tool_call_reply(CallScript("recall", {"query": "chocolate"}),
                                         CallScript("remember", {"statement": "Lives in Lyon",
                                                                 "quote": "I live in Lyon"}),
                                         CallScript("forget", {"query": "chocolate"})),
                         text_reply("no idea"))
    events = await turn(local, local_service, "Which chocolate do I prefer? I live in Lyon.", "b")
    asked = [r for r in main_requests(model_server)][-2:]
    assert all("chocolate with sea salt" not in r.system_prompt and HEADING.splitlines()[0] not in r.system_prompt
               for r in asked)
    results = [json.loads(e.result) for e in of_type(events, ev.ToolCallFinished)]
    assert [r["status"] for r in results] == ["refused"] * 3
    assert all("chocolate" not in json.dumps(r) for r in results)
    assert local_service.recalled("b") == []
    assert service.store.get(1).state is MemoryState.ACTIVE  # `forget` through it forgot nothing

    # The user's own words to the excluded provider are still theirs: kept, made with "local", and recalled by others.
    [lyon] = [m for m in service.store.list() if "Lyon" in m.statement]
    assert lyon.profile_id == "local"
    model_server.enqueue(text_reply("Lyon"))
    await turn(engine, service, "Where do I live?", "c")
    assert lyon.statement in main_requests(model_server)[-1].system_prompt


async def test_the_environment_profile_neither_receives_nor_gives_memories(engine, model_server, profile,
                                                                          workspace_dir) -> None:
    """HERMES_BASE_URL naming another server is the ephemeral profile `env`: a server pointed at once gets none of
    the saved profiles' memories, and what was made with it stays with it."""
    service = with_memory(engine)
    model_server.enqueue(text_reply("ok"))
    await turn(engine, service, "I prefer dark chocolate with sea salt.", "a")

    env = make_engine(replace(profile, id=ENV_PROFILE_ID), workspace_dir, store=engine.store)
    env_service = with_memory(env)
    model_server.enqueue(tool_call_reply(CallScript("recall", {"query": "chocolate"})), text_reply("no idea"))
    events = await turn(env, env_service, "Which chocolate do I prefer? I prefer oolong tea.", "b")
    assert "dark chocolate" not in main_requests(model_server)[-2].system_prompt
    assert json.loads(of_type(events, ev.ToolCallFinished)[0].result) == {"memories": []}
    [oolong] = [m for m in service.store.list() if "oolong" in m.statement]
    assert oolong.profile_id == ENV_PROFILE_ID

    model_server.enqueue(text_reply("tea?"))
    await turn(engine, service, "What do I like to drink, tea or chocolate?", "c")
    prompt = main_requests(model_server)[-1].system_prompt
    assert "dark chocolate" in prompt and "oolong" not in prompt
    model_server.enqueue(text_reply("oolong"))
    await turn(env, env_service, "Which tea do I like?", "d")
    prompt = main_requests(model_server)[-1].system_prompt
    assert "oolong" in prompt and "dark chocolate" not in prompt


@pytest.mark.parametrize("failure", ["http_500", "garbage"])
async def test_a_failed_extraction_loses_nothing_and_leaves_the_reply_alone(failure, engine, model_server) -> None:
    service = with_memory(engine)
    model_server.memory_responder = (lambda r: error_reply(500, "boom", err_type="server_error")) \
        if failure == "http_500" else (lambda r: text_reply("Sure! Here are the memories: tea, coffee"))
    model_server.enqueue(text_reply("Your code is safe with me."))
    text = "I prefer tea. Remember that my locker code is 4711."
    events = await turn(engine, service, text, "a")
    assert of_type(events, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED
    assert "".join(e.text for e in of_type(events, ev.TextDelta)) == "Your code is safe with me."
    assert [m.content for m in engine.store.messages("a")] == [text, "Your code is safe with me."]
    [memory] = service.store.list(states=None)
    assert (memory.statement, memory.quote) == ("My locker code is 4711", "Remember that my locker code is 4711.")


async def test_memory_switched_off_in_settings_records_and_recalls_nothing(engine, model_server) -> None:
    service = with_memory(engine, settings=Settings(memory_enabled=False))
    service.store.add("Prefers window seats on trains", profile_id="test", quote="I prefer window seats")
    model_server.enqueue(text_reply("ok"))
    await turn(engine, service, "I prefer aisle seats on trains.", "a")
    assert not [r for r in model_server.chat_requests if is_extraction(r)]
    assert "window seats" not in main_requests(model_server)[-1].system_prompt


def test_short_term_memories_decay_and_pinned_ones_lead(tmp_path: Path) -> None:
    opened = open_store(data_paths())
    clock = Clock()
    store = MemoryStore(opened.store, clock=clock)
    old = store.add("Reading about sourdough starters", profile_id="p", kind="fact")
    clock.now += 30 * DAY
    new = store.add("Reading about sourdough baking", profile_id="p", kind="fact")
    service = MemoryService(store, Settings)
    ids = [r.memory.id for r in service.prepare("s", "sourdough tips", "p")]
    assert ids[:2] == [new.id, old.id]
    store.set_pinned(old.id, True)
    assert [r.memory.id for r in service.prepare("s", "sourdough tips", "p")][0] == old.id
    opened.store.close()


def test_a_v5_database_migrates_to_memory_with_a_backup() -> None:
    paths = data_paths()
    paths.data_dir.mkdir(parents=True, exist_ok=True)
    db = connect(paths.database)
    migrate(db, up_to=5)
    db.close()
    write_old_history(paths.database, "old", [NewMessage("user", "我喜欢喝绿茶")], title="Old talk")  # a v5 history
    opened = open_store(paths)
    store = MemoryStore(opened.store)
    assert [m.content for m in opened.store.messages("old")] == ["我喜欢喝绿茶"]
    memory = store.add("喜欢喝绿茶", profile_id="p", quote="我喜欢喝绿茶", session_id="old", kind="preference")
    assert [m.id for m in store.list(query="绿茶")] == [memory.id]
    assert opened.store._db.execute("SELECT version FROM schema_migrations WHERE version = 6").fetchone() is not None
    backups = list(paths.data_dir.glob("hermes.db.pre-v*.bak"))
    assert len(backups) == 1
    backup = sqlite3.connect(backups[0])
    assert backup.execute("PRAGMA user_version").fetchone()[0] == 5
    assert backup.execute("SELECT content FROM messages").fetchall() == [("我喜欢喝绿茶",)]
    opened.store.close()


async def test_a_remember_call_and_the_after_turn_extraction_keep_one_memory(engine, model_server) -> None:
    service = with_memory(engine)
    said = "Remember that my locker code is 4711."
    model_server.enqueue(tool_call_reply(CallScript("remember", {"statement": "Locker code is 4711",
                                                                 "quote": "my locker code is 4711"})),
                         text_reply("Noted."))
    model_server.memory_responder = memory_reply({"statement": "Locker code is 4711", "quote": said,
                                                  "subject": "locker code", "kind": "explicit"})
    await turn(engine, service, said, "a")
    assert [m.statement for m in service.store.list(states=None)] == ["Locker code is 4711"]


def embedding_service(engine, profile) -> MemoryService:
    from hermes_desktop.core.memory.embeddings import Embedder

    service = with_memory(engine)
    service.embedder = Embedder(service.store, lambda pid: profile if pid == profile.id else None,
                                lambda p: "sk-test-key")
    return service


def warm_drinks(texts: list[str]) -> list[list[float]]:
    """The scripted server's embedding model: warm drinks point one way, everything else another."""
    return [[1.0, 0.1] if any(w in t.lower() for w in ("tea", "warm", "drink")) else [0.0, 1.0] for t in texts]


async def test_embeddings_find_a_memory_sharing_no_word_with_the_message(
        model_server, profile, workspace_dir) -> None:
    profile = replace(profile, embedding_model="embed-small")
    engine = make_engine(profile, workspace_dir)
    service = embedding_service(engine, profile)
    model_server.embeddings = warm_drinks
    tea = service.store.add("Has green tea every afternoon", profile_id="test", kind="fact")
    cello = service.store.add("Plays the cello on Saturdays", profile_id="test", kind="fact")
    await service.embed([tea, cello])
    assert service.store.get(tea.id).embedding_model == "embed-small"
    model_server.enqueue(text_reply("ok"))
    await turn(engine, service, "Something warm for later?", "a")
    prompt = main_requests(model_server)[-1].system_prompt
    assert "Has green tea every afternoon" in prompt and "cello" not in prompt
    embedded = [r for r in model_server.requests if r.path.endswith("/embeddings")]
    assert embedded and embedded[-1].body["model"] == "embed-small"
    await engine.close()


@pytest.mark.parametrize("failure", [500, None])
async def test_failing_embeddings_fall_back_to_bm25_silently_with_a_log_line(
        failure, model_server, profile, workspace_dir, caplog) -> None:
    profile = replace(profile, embedding_model="embed-small")
    engine = make_engine(profile, workspace_dir)
    service = embedding_service(engine, profile)
    model_server.embeddings = (lambda texts: failure) if failure else None  # None: the server has no endpoint
    service.store.add("Has green tea every afternoon", profile_id="test", kind="fact")
    model_server.enqueue(text_reply("ok"), text_reply("ok"))
    events = await turn(engine, service, "Something warm for later?", "a")
    assert of_type(events, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED
    assert "green tea" not in main_requests(model_server)[-1].system_prompt
    await turn(engine, service, "Any green tea ideas?", "b")
    assert "Has green tea every afternoon" in main_requests(model_server)[-1].system_prompt
    assert "recall uses BM25 only" in caplog.text
    await engine.close()


def test_the_refinement_answer_is_read_in_the_shapes_models_write_it() -> None:
    from datetime import date

    from hermes_desktop.core.memory.extract import validate

    message = "I prefer tea. 我喜欢爬山。"
    item = {"statement": "Prefers tea", "quote": "I prefer tea", "subject": "drink", "kind": "preference"}
    for answer in (json.dumps({"memories": [item]}), json.dumps([item]),
                   "Here you go:\n```json\n" + json.dumps({"memories": [item]}) + "\n```"):
        assert [m.statement for m in validate(answer, message, date(2026, 12, 1))] == ["Prefers tea"]
    with pytest.raises(ValueError):
        validate("tea and hiking", message, date(2026, 12, 1))
    kept = validate(json.dumps({"memories": [{"statement": "喜欢爬山", "quote": "我喜欢爬山", "kind": "odd"}]}),
                    message, date(2026, 12, 1))
    assert [(m.statement, m.kind.value) for m in kept] == [("喜欢爬山", "fact")]


@pytest.mark.parametrize("text, kinds", [
    ("I prefer short answers.", ["preference"]),
    ("以后请用中文回答。", ["preference"]),
    ("我喜欢喝绿茶", ["preference"]),
    ("不要用表格。", ["preference"]),
    ("记住我的车位是B12。", ["explicit"]),
    ("My name is Wei and I work at Acme.", ["identity"]),
    ("The Apollo report is due on Dec 15.", ["deadline"]),
    ("项目评审在12月15日。", ["deadline"]),
    ("Do you prefer tea?", []),
    ("你喜欢喝茶吗？", []),
    ("If I were vegetarian, I would prefer tofu.", []),
    ("如果我是素食者，我会喜欢豆腐。", []),
    ("假如我住在北京，我不要开车。", []),
    ("What is 2+2", []),
    ("Hello there, thanks!", []),
])
def test_the_rules_find_statements_never_questions_or_hypotheticals(text, kinds) -> None:
    from datetime import date

    from hermes_desktop.core.memory.rules import find_candidates

    assert [c.kind.value for c in find_candidates(text, date(2026, 12, 1))] == kinds


def test_recall_stays_within_its_token_budget(tmp_path: Path) -> None:
    from hermes_desktop.core.memory.recall import layer_text
    from hermes_desktop.core.tokens import estimate_text_tokens

    opened = open_store(data_paths())
    store = MemoryStore(opened.store)
    for n in range(120):
        store.add(f"Garden note {n}: the tomatoes on the south bed need water every {n % 5 + 1} days", profile_id="p")
    for budget in (400, 120):
        service = MemoryService(store, lambda b=budget: Settings(memory_budget_tokens=b))
        chosen = service.prepare("s", "When should I water the tomatoes in the garden?", "p")
        assert chosen and estimate_text_tokens(layer_text(chosen)) <= budget
    assert len(service.prepare("s", "tomatoes", "p")) < len(
        MemoryService(store, Settings).prepare("s", "tomatoes", "p"))
    opened.store.close()
