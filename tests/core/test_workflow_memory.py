"""Workflow memory through the real agent and the scripted model over HTTP (issue 27): a three-step file task is
recorded with its path; a similar request in a new session carries it as a hint in its first request and emits
WorkflowHintOffered; a denied path, an undone one ("that's wrong") and a forgotten one are never offered;
incognito records nothing; the setting turns it off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.learning.trajectories import WorkflowMemory
from hermes_desktop.core.tools.approval import Decision
from hermes_desktop.core.knowledge.embeddings import Endpoint, ProviderEmbedder
from tests.support import minilm
from tests.support.embeddings_server import EmbeddingsServer
from tests.support.engine import ScriptedApprover, make_engine, of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply

HINT = "A similar task succeeded before:"


def wire(engine, path: Path, incognito: set[str] | None = None, enabled: bool = True,
         embedder_for=lambda session_id: None) -> WorkflowMemory:
    """The agent wired to workflow memory as core/runtime.py workflow_hooks does."""
    memory = WorkflowMemory(path, engine.store, enabled=enabled, incognito=lambda s: s in (incognito or set()),
                            embedder_for=embedder_for)
    services = engine.agent.services
    services.prepare_workflow = memory.prepare
    services.workflow_layer = memory.layer
    services.record_workflow = memory.record_turn
    return memory


def tidy_script(server, *, final: str = "Moved report.pdf to Desktop.") -> None:
    server.enqueue(
        tool_call_reply(CallScript("list_directory", {"path": "Downloads"})),
        tool_call_reply(CallScript("make_directory", {"path": "Desktop"})),
        tool_call_reply(CallScript("move_path", {"src": "Downloads/report.pdf", "dst": "Desktop/report.pdf"})),
        text_reply(final))


@pytest.fixture
def files(workspace_dir: Path) -> Path:
    (workspace_dir / "Downloads").mkdir()
    (workspace_dir / "Downloads" / "report.pdf").write_bytes(b"%PDF-1.4 x")
    return workspace_dir


def engine_for(profile, files, answers):
    return make_engine(profile, files, approver=ScriptedApprover(list(answers)))


def last_system(server, text: str) -> str:
    """The system prompt of the newest request carrying `text` (a repeated request text: the later session's)."""
    return [r for r in server.chat_requests if text in json.dumps(r.body)][-1].system_prompt


async def test_a_successful_path_is_offered_to_a_similar_request_in_a_new_session(
        profile, model_server, files, tmp_path) -> None:
    engine = engine_for(profile, files, [Decision.ALLOW_ONCE] * 4)
    memory = wire(engine, tmp_path / "learning.db")
    tidy_script(model_server)
    first = await engine.ask("Move the pdf from my Downloads to the Desktop", "a")
    assert of_type(first, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED
    assert (files / "Desktop" / "report.pdf").exists()
    [kept] = memory.all()
    assert kept.good and kept.why == "" and kept.session_id == "a"
    assert [s["tool"] for s in kept.path] == ["list_directory", "make_directory", "move_path"]
    assert kept.path_text == "list_directory(Downloads) → make_directory(Desktop) → move_path(report.pdf, report.pdf)"

    model_server.enqueue(text_reply("Done."))
    second = await engine.ask("Please move the pdf files from Downloads to the Desktop", "b")
    system = last_system(model_server, "Please move the pdf files")
    assert f"{HINT} list_directory(Downloads) → make_directory(Desktop) → move_path(report.pdf, report.pdf)" in system
    [offered] = of_type(second, ev.WorkflowHintOffered)
    assert offered.source_session_id == "a" and offered.trajectory_id == kept.id
    assert [e for e in second if isinstance(e, ev.WorkflowHintOffered)] and \
        second.index(offered) < second.index(of_type(second, ev.TurnFinished)[0])

    model_server.enqueue(text_reply("The weather is fine."))
    unrelated = await engine.ask("What is the weather like today", "c")
    assert not of_type(unrelated, ev.WorkflowHintOffered)
    assert HINT not in last_system(model_server, "weather like today")

    assert memory.forget(kept.id)
    model_server.enqueue(text_reply("Done."))
    after = await engine.ask("Move the pdf from Downloads to the Desktop again", "d")
    assert not of_type(after, ev.WorkflowHintOffered)
    await engine.close()


async def test_a_denied_path_is_never_offered(profile, model_server, files, tmp_path) -> None:
    engine = engine_for(profile, files, [Decision.ALLOW_ONCE, Decision.DENY])  # make_directory allowed, move denied
    memory = wire(engine, tmp_path / "learning.db")
    tidy_script(model_server, final="I could not move it.")
    await engine.ask("Move the pdf from my Downloads to the Desktop", "a")
    [kept] = memory.all()
    assert not kept.good and kept.why == "a call was denied"
    model_server.enqueue(text_reply("ok"))
    events = await engine.ask("Move the pdf from my Downloads to the Desktop", "b")
    assert not of_type(events, ev.WorkflowHintOffered)
    assert HINT not in last_system(model_server, "Move the pdf from my Downloads")  # the b request is the last one
    await engine.close()


async def test_a_path_the_user_calls_wrong_is_undone_and_not_offered(profile, model_server, files, tmp_path) -> None:
    engine = engine_for(profile, files, [Decision.ALLOW_ONCE] * 4)
    memory = wire(engine, tmp_path / "learning.db")
    tidy_script(model_server)
    await engine.ask("Move the pdf from my Downloads to the Desktop", "a")
    model_server.enqueue(text_reply("Sorry."))
    await engine.ask("that's wrong, I meant the other pdf", "a")
    assert [t.good for t in memory.all()] == [False]
    assert memory.all()[0].why == "the user said it was wrong"
    model_server.enqueue(text_reply("ok"))
    events = await engine.ask("Move the pdf from my Downloads to the Desktop", "b")
    assert not of_type(events, ev.WorkflowHintOffered)
    assert HINT not in last_system(model_server, "Move the pdf from my Downloads")  # the b request is the last one
    await engine.close()


async def test_incognito_records_nothing_and_the_setting_turns_it_off(profile, model_server, files, tmp_path) -> None:
    engine = engine_for(profile, files, [Decision.ALLOW_ONCE] * 4)
    memory = wire(engine, tmp_path / "learning.db", incognito={"secret"})
    tidy_script(model_server)
    await engine.ask("Move the pdf from my Downloads to the Desktop", "secret")
    assert memory.all() == []
    await engine.close()

    (files / "Desktop" / "report.pdf").rename(files / "Downloads" / "report.pdf")
    engine = engine_for(profile, files, [Decision.ALLOW_ONCE] * 4)
    off = wire(engine, tmp_path / "off.db", enabled=False)
    tidy_script(model_server)
    await engine.ask("Move the pdf from my Downloads to the Desktop", "a")
    assert off.all() == []
    await engine.close()


async def test_a_failing_recorder_never_breaks_the_turn(profile, model_server, files, tmp_path) -> None:
    engine = engine_for(profile, files, [])
    (tmp_path / "learning.db").mkdir()  # the file cannot be opened: the turn still finishes
    wire(engine, tmp_path / "learning.db")
    model_server.enqueue(tool_call_reply(CallScript("list_directory", {"path": "Downloads"})), text_reply("ok"))
    events = await engine.ask("List my Downloads folder", "a")
    assert of_type(events, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED
    await engine.close()


async def test_a_chinese_request_finds_a_similar_chinese_one(profile, model_server, files, tmp_path) -> None:
    engine = engine_for(profile, files, [Decision.ALLOW_ONCE] * 4)
    memory = wire(engine, tmp_path / "learning.db")
    tidy_script(model_server)
    await engine.ask("把下载文件夹里的pdf移到桌面", "a")
    assert memory.all()[0].good
    model_server.enqueue(text_reply("好的。"))
    events = await engine.ask("请把下载里的pdf文件移到桌面上", "b")
    assert of_type(events, ev.WorkflowHintOffered), "written without spaces, yet the same task"
    model_server.enqueue(text_reply("晴。"))
    assert not of_type(await engine.ask("今天天气怎么样", "c"), ev.WorkflowHintOffered)
    await engine.close()


@pytest.mark.skipif(minilm.available() is not None, reason=str(minilm.available()))
async def test_a_paraphrase_bm25_misses_is_found_by_meaning_with_the_sessions_embedding_model(
        profile, model_server, files, tmp_path) -> None:
    """A real neural model over real HTTP: "put my downloaded PDF files on the desktop" shares too few words with
    the recorded request for BM25, and means the same. The weather still gets no hint. A failing endpoint means BM25
    alone (the turn goes on, no hint), and only the session's own requests are ever sent to it."""
    with EmbeddingsServer(model="minilm") as server:
        sent: list[str] = []

        class Recording(ProviderEmbedder):
            def vectors(self, texts: list[str]) -> list[list[float]]:
                sent.extend(texts)
                return super().vectors(texts)

        engine = engine_for(profile, files, [Decision.ALLOW_ONCE] * 4)
        memory = wire(engine, tmp_path / "learning.db", embedder_for=lambda session_id: Recording(
            Endpoint(server.base_url, None, "all-MiniLM-L6-v2")))
        tidy_script(model_server)
        await engine.ask("Move the pdf reports from Downloads to the Desktop", "a")
        memory.settle()
        assert memory.similar("put my downloaded PDF files on the desktop", exclude_session="b") is not None
        model_server.enqueue(text_reply("Done."))
        events = await engine.ask("put my downloaded PDF files on the desktop", "b")
        assert of_type(events, ev.WorkflowHintOffered), "found by meaning"
        model_server.enqueue(text_reply("Sunny."))
        assert not of_type(await engine.ask("what is the weather in Paris", "c"), ev.WorkflowHintOffered)
        assert sent[0] == "Move the pdf reports from Downloads to the Desktop"
        assert set(sent) == {"Move the pdf reports from Downloads to the Desktop",  # each by its own session
                             "put my downloaded PDF files on the desktop", "what is the weather in Paris"}
        server.fail = True
        model_server.enqueue(text_reply("Fine."))
        failing = await engine.ask("put the downloaded pdfs on my desktop please", "d")
        assert of_type(failing, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED
        await engine.close()


# ---------------------------------------------------------------------- failed and regenerated paths (audit)
# Each case records a path whose request is the one the positive test above proves is matched ("Move the pdf from my
# Downloads to the Desktop" ~ "Please move the pdf files from Downloads to the Desktop"), so a missing hint here
# is the judgement, not a miss of the search.
LATER = "Please move the pdf files from Downloads to the Desktop"


async def later_request_gets_no_hint(engine, model_server) -> None:
    model_server.enqueue(text_reply("ok"))
    events = await engine.ask(LATER, "later")
    assert not of_type(events, ev.WorkflowHintOffered)
    assert HINT not in last_system(model_server, LATER)


async def test_a_path_ending_with_an_unresolved_tool_error_is_never_offered(
        profile, model_server, files, tmp_path) -> None:
    engine = engine_for(profile, files, [])
    memory = wire(engine, tmp_path / "learning.db")
    model_server.enqueue(tool_call_reply(CallScript("list_directory", {"path": "Downloads"})),
                         tool_call_reply(CallScript("read_file", {"path": "Downloads/missing.pdf"})),
                         text_reply("I could not read it."))
    first = await engine.ask("Move the pdf from my Downloads to the Desktop", "a")
    assert of_type(first, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED  # it "finished", yet failed
    assert [f.outcome for f in of_type(first, ev.ToolCallFinished)] == [ev.ToolOutcome.OK, ev.ToolOutcome.ERROR]
    [kept] = memory.all()
    assert not kept.good and kept.why == "unresolved: read_file"
    await later_request_gets_no_hint(engine, model_server)
    await engine.close()


async def test_a_path_the_failure_guard_stopped_is_never_offered(profile, model_server, files, tmp_path) -> None:
    engine = engine_for(profile, files, [])
    memory = wire(engine, tmp_path / "learning.db")
    model_server.enqueue(*[tool_call_reply(CallScript("read_file", {"path": f"Downloads/gone{n}.pdf"}))
                           for n in range(3)],
                         text_reply("read_file keeps failing. How do you want to proceed?"))  # the hand-over round
    first = await engine.ask("Move the pdf from my Downloads to the Desktop", "a")
    assert of_type(first, ev.TurnFinished)[0].reason is ev.FinishReason.REPEATED_FAILURE
    [kept] = memory.all()
    assert not kept.good and kept.why == "finished: repeated_failure"
    await later_request_gets_no_hint(engine, model_server)
    await engine.close()


async def test_a_path_the_identical_call_guard_stopped_is_never_offered(
        profile, model_server, files, tmp_path) -> None:
    engine = engine_for(profile, files, [])
    memory = wire(engine, tmp_path / "learning.db")
    same = CallScript("list_directory", {"path": "Downloads"})
    model_server.enqueue(*[tool_call_reply(same) for _ in range(4)])
    first = await engine.ask("Move the pdf from my Downloads to the Desktop", "a")
    assert of_type(first, ev.TurnFinished)[0].reason is ev.FinishReason.REPEATED_CALL
    [kept] = memory.all()
    assert not kept.good and kept.why == "finished: repeated_call"
    await later_request_gets_no_hint(engine, model_server)
    await engine.close()


async def test_a_regenerated_path_is_never_offered(profile, model_server, files, tmp_path) -> None:
    """As the window's Regenerate does (ui/controller.py _rerun_from): rewind to the user message, answer it again.
    The first answer's path is undone; the new answer used no tools, so nothing is left to offer."""
    engine = engine_for(profile, files, [Decision.ALLOW_ONCE] * 4)
    memory = wire(engine, tmp_path / "learning.db")
    tidy_script(model_server)
    await engine.ask("Move the pdf from my Downloads to the Desktop", "a")
    [kept] = memory.all()
    assert kept.good
    user = [m for m in engine.store.messages("a") if m.role == "user"][0]
    engine.store.rewind_to("a", user.id)
    model_server.enqueue(text_reply("Which pdf do you mean?"))
    again = await engine.agent.start_regenerate("a").wait()
    assert of_type(again, ev.TurnFinished)[0].reason is ev.FinishReason.COMPLETED
    assert [(t.id, t.good, t.why) for t in memory.all()] == [(kept.id, False, "regenerated")]
    await later_request_gets_no_hint(engine, model_server)
    await engine.close()


async def test_a_regenerate_undoes_only_the_answer_it_replaces_and_keeps_the_new_one(
        profile, model_server, files, tmp_path) -> None:
    """The regenerated answer is a turn of its own: when it used tools and ended well, its path is what worked, and
    it is the one offered later, never the replaced one. An earlier turn of the same session is left alone."""
    engine = engine_for(profile, files, [Decision.ALLOW_ONCE] * 4)
    memory = wire(engine, tmp_path / "learning.db")
    model_server.enqueue(tool_call_reply(CallScript("list_directory", {"path": "."})), text_reply("Listed."))
    await engine.ask("Show me what is in my home folder", "a")
    tidy_script(model_server)
    await engine.ask("Move the pdf from my Downloads to the Desktop", "a")
    earlier, replaced = memory.all()
    (files / "Desktop" / "report.pdf").rename(files / "Downloads" / "report.pdf")
    user = [m for m in engine.store.messages("a") if m.role == "user"][-1]
    engine.store.rewind_to("a", user.id)
    model_server.enqueue(tool_call_reply(CallScript("move_path", {"src": "Downloads/report.pdf",
                                                                  "dst": "Desktop/report.pdf"})),
                         text_reply("Moved."))
    await engine.agent.start_regenerate("a").wait()
    rows = {t.id: t for t in memory.all()}
    assert rows[earlier.id].good, "a regenerate undoes the answer it replaces, not the session's other turns"
    assert not rows[replaced.id].good and rows[replaced.id].why == "regenerated"
    [new] = [t for t in rows.values() if t.id not in (earlier.id, replaced.id)]
    assert new.good and new.message_id == user.id and new.path_text == "move_path(report.pdf, report.pdf)"
    model_server.enqueue(text_reply("ok"))
    events = await engine.ask(LATER, "later")
    [offered] = of_type(events, ev.WorkflowHintOffered)
    assert offered.trajectory_id == new.id
    system = last_system(model_server, LATER)
    assert f"{HINT} move_path(report.pdf, report.pdf) (a hint" in system and replaced.path_text not in system
    await engine.close()
