"""Approvals describe the disk as it will be when the call runs (issue 21, section 1).

Every case runs a real turn: the real openai client against the scripted model server over HTTP, the real file tools
on a temporary workspace, the real approval policy; only the user is scripted (ScriptedApprover), because a person
cannot be. Each reply holds several calls, and the later ones depend on what the earlier ones did to the disk.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from hermes_desktop.core import events as ev
from hermes_desktop.core.tool_calls import CHANGED_RESULT, MAX_RECHECKS
from hermes_desktop.core.tools.approval import ApprovalRequest, Decision, Rule, rule_key
from hermes_desktop.core.tools.spec import Risk
from tests.support.engine import ScriptedApprover, make_engine, of_type
from tests.support.model_server import CallScript, text_reply, tool_call_reply


def finished(events: list) -> dict[str, ev.ToolCallFinished]:
    return {f.call_id: f for f in of_type(events, ev.ToolCallFinished)}


async def test_the_second_move_onto_the_same_target_says_it_replaces_it(profile, workspace_dir: Path,
                                                                       model_server) -> None:
    (workspace_dir / "a.txt").write_text("from a")
    (workspace_dir / "b.txt").write_text("from b, longer")
    approver = ScriptedApprover([Decision.ALLOW_ONCE, Decision.DENY])
    engine = make_engine(profile, workspace_dir, approver=approver)
    model_server.enqueue(tool_call_reply(CallScript("move_path", {"src": "a.txt", "dst": "x.txt"}, id="m1"),
                                         CallScript("move_path", {"src": "b.txt", "dst": "x.txt"}, id="m2")),
                         text_reply("I moved a.txt; you kept x.txt."))
    events = await engine.ask("put both into x.txt")
    await engine.close()

    first, second = approver.asked
    assert (first.impact_code, first.risk) == ("move", Risk.WRITE)
    assert (second.impact_code, second.risk) == ("move_replacing", Risk.DESTRUCTIVE)
    assert second.impact == "will move b.txt (14 bytes) to x.txt, replacing the existing file (6 bytes)"
    assert (workspace_dir / "x.txt").read_text() == "from a" and (workspace_dir / "b.txt").exists()
    # The second card was shown without a measurement and measured when its turn came.
    proposed = {p.call_id: p for p in of_type(events, ev.ToolCallProposed)}
    assert proposed["m1"].impact.startswith("will move a.txt") and proposed["m2"].impact is None
    [measured] = [m for m in of_type(events, ev.ToolCallMeasured) if m.call_id == "m2"]
    assert (measured.risk, measured.impact_code) == ("destructive", "move_replacing")
    assert finished(events)["m2"].outcome is ev.ToolOutcome.DENIED


async def test_allow_for_this_session_on_a_new_file_does_not_allow_an_overwrite(profile, workspace_dir: Path,
                                                                                model_server) -> None:
    approver = ScriptedApprover([Decision.ALLOW_SESSION, Decision.DENY])
    engine = make_engine(profile, workspace_dir, approver=approver)
    model_server.enqueue(
        tool_call_reply(CallScript("write_file", {"path": "notes.txt", "content": "first"}, id="w1"),
                        CallScript("write_file", {"path": "notes.txt", "content": "second"}, id="w2"),
                        CallScript("write_file", {"path": "other.txt", "content": "new"}, id="w3")),
        text_reply("done"))
    events = await engine.ask("write notes")
    await engine.close()

    assert [(r.call_id, r.impact_code) for r in approver.asked] == [("w1", "create_file"), ("w2", "overwrite_file")], \
        "the overwrite asked; the second new file was covered by the grant for new files"
    assert (workspace_dir / "notes.txt").read_text() == "first" and (workspace_dir / "other.txt").read_text() == "new"
    decided = {d.call_id: d.decided_by for d in of_type(events, ev.ToolCallDecided)}
    assert decided == {"w1": "you", "w2": "you", "w3": "allowed for this session"}


async def test_a_session_grant_for_a_move_does_not_cover_a_move_that_replaces(profile, workspace_dir: Path,
                                                                             model_server) -> None:
    (workspace_dir / "a.txt").write_text("a")
    (workspace_dir / "b.txt").write_text("b")
    approver = ScriptedApprover([Decision.ALLOW_SESSION, Decision.DENY])
    engine = make_engine(profile, workspace_dir, approver=approver)
    model_server.enqueue(tool_call_reply(CallScript("move_path", {"src": "a.txt", "dst": "x.txt"}),
                                         CallScript("move_path", {"src": "b.txt", "dst": "x.txt"})),
                         text_reply("ok"))
    await engine.ask("both to x")
    await engine.close()
    assert [r.impact_code for r in approver.asked] == ["move", "move_replacing"]
    assert (workspace_dir / "x.txt").read_text() == "a" and (workspace_dir / "b.txt").read_text() == "b"


async def test_deleting_a_folder_the_reply_just_filled_asks_about_its_five_files(profile, workspace_dir: Path,
                                                                               model_server) -> None:
    (workspace_dir / "box").mkdir()
    for n in range(5):
        (workspace_dir / f"f{n}.txt").write_text("data")
    approver = ScriptedApprover([Decision.ALLOW_SESSION, Decision.DENY])  # the moves for the session; the delete no
    engine = make_engine(profile, workspace_dir, approver=approver)
    moves = [CallScript("move_path", {"src": f"f{n}.txt", "dst": "box"}, id=f"m{n}") for n in range(5)]
    model_server.enqueue(tool_call_reply(*moves, CallScript("delete_path", {"path": "box"}, id="d")),
                         text_reply("I did not delete the box."))
    events = await engine.ask("box them and throw the box away")
    await engine.close()

    assert [r.tool_name for r in approver.asked] == ["move_path", "delete_path"], "one grant covered the five moves"
    delete = approver.asked[-1]
    assert (delete.impact_code, delete.impact_files, delete.impact_params["files"]) == ("delete_folder", 5, 5)
    assert delete.impact == "will delete 5 files, 20 bytes in box", "not 'the empty folder'"
    assert sorted(p.name for p in (workspace_dir / "box").iterdir()) == [f"f{n}.txt" for n in range(5)]
    assert finished(events)["d"].outcome is ev.ToolOutcome.DENIED


async def test_always_allowed_delete_still_asks_for_a_folder_the_reply_filled_with_300_files(
        profile, workspace_dir: Path, model_server) -> None:
    big = workspace_dir / "incoming"
    big.mkdir()
    for n in range(300):
        (big / f"{n:03}.txt").write_text("x")
    (workspace_dir / "archive").mkdir()
    approver = ScriptedApprover([Decision.DENY])
    engine = make_engine(profile, workspace_dir, approver=approver)
    engine.agent.services.policy.rules = {rule_key("delete_path", "builtin"): Rule.ALWAYS_ALLOW,
                                          rule_key("move_path", "builtin"): Rule.ALWAYS_ALLOW}
    model_server.enqueue(tool_call_reply(CallScript("move_path", {"src": "incoming", "dst": "archive"}, id="m"),
                                         CallScript("delete_path", {"path": "archive"}, id="d")),
                         text_reply("Kept the archive."))
    events = await engine.ask("archive the incoming files, then clear the archive")
    await engine.close()

    [asked] = approver.asked
    assert (asked.tool_name, asked.impact_files, asked.over_threshold) == ("delete_path", 300, True)
    waiting = of_type(events, ev.ToolCallAwaitingApproval)
    assert [(w.call_id, w.over_threshold) for w in waiting] == [("d", True)], "'Always allow' is not offered"
    assert len(list((workspace_dir / "archive" / "incoming").iterdir())) == 300
    assert finished(events)["m"].outcome is ev.ToolOutcome.OK


async def test_reads_of_one_reply_still_run_together_and_see_the_disk_as_it_is(profile, workspace_dir: Path,
                                                                             model_server) -> None:
    """Reads before a write are measured at once (they do not change the disk); reads after it see what it wrote."""
    (workspace_dir / "a.txt").write_text("old")
    approver = ScriptedApprover([Decision.ALLOW_ONCE])
    engine = make_engine(profile, workspace_dir, approver=approver)
    model_server.enqueue(tool_call_reply(CallScript("read_file", {"path": "a.txt"}, id="r1"),
                                         CallScript("list_directory", {"path": "."}, id="r2"),
                                         CallScript("write_file", {"path": "a.txt", "content": "new"}, id="w"),
                                         CallScript("read_file", {"path": "a.txt"}, id="r3")),
                         text_reply("ok"))
    events = await engine.ask("read, write, read")
    await engine.close()
    results = finished(events)
    assert "old" in results["r1"].result and "new" in results["r3"].result
    assert [r.impact_code for r in approver.asked] == ["overwrite_file"]
    started = [e.call_id for e in events if isinstance(e, (ev.ToolCallStarted, ev.ToolCallFinished))]
    assert started[:2] == ["r1", "r2"], "the two reads started before either finished"


@dataclass
class ChangingApprover:
    """A user who answers while something else changes the disk (another program, a sync client): `change` runs
    while each question is open, before the answer arrives."""

    change: Callable[[int], None]
    answers: list[Decision] = field(default_factory=list)
    asked: list[ApprovalRequest] = field(default_factory=list)

    async def ask(self, request: ApprovalRequest) -> Decision:
        self.asked.append(request)
        self.change(len(self.asked))
        return self.answers.pop(0) if self.answers else Decision.DENY


async def test_a_file_that_appears_while_the_user_decides_is_asked_about_again(profile, workspace_dir: Path,
                                                                               model_server) -> None:
    target = workspace_dir / "report.txt"

    def someone_saves(asked: int) -> None:
        if asked == 1:
            target.write_text("their work")

    approver = ChangingApprover(someone_saves, [Decision.ALLOW_ONCE, Decision.DENY])
    engine = make_engine(profile, workspace_dir, approver=approver)
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "report.txt", "content": "mine"}, id="w")),
                         text_reply("ok"))
    events = await engine.ask("write the report")
    await engine.close()

    assert [r.impact_code for r in approver.asked] == ["create_file", "overwrite_file"]
    again = approver.asked[1]
    assert again.asked_before is not None and again.asked_before.impact == "will create report.txt (4 bytes)", \
        "the question says what was allowed before"
    assert approver.asked[0].asked_before is None
    assert target.read_text() == "their work", "what the user approved (a new file) was not what it would do"
    assert [m.impact_code for m in of_type(events, ev.ToolCallMeasured)] == ["overwrite_file"]
    assert [d.decision for d in of_type(events, ev.ToolCallDecided)] == ["allow_once", "deny"]
    assert finished(events)["w"].outcome is ev.ToolOutcome.DENIED


async def test_a_folder_that_keeps_changing_is_refused_with_a_clear_result(profile, workspace_dir: Path,
                                                                           model_server) -> None:
    folder = workspace_dir / "inbox"
    folder.mkdir()
    (folder / "0.txt").write_text("x")

    def mail_arrives(asked: int) -> None:
        (folder / f"{asked}.txt").write_text("x")

    approver = ChangingApprover(mail_arrives, [Decision.ALLOW_ONCE] * 10)
    engine = make_engine(profile, workspace_dir, approver=approver)
    model_server.enqueue(tool_call_reply(CallScript("delete_path", {"path": "inbox"}, id="d")),
                         text_reply("It kept changing, so I left it."))
    events = await engine.ask("empty the inbox")
    await engine.close()

    assert len(approver.asked) == MAX_RECHECKS + 1
    assert [r.impact_files for r in approver.asked] == [1, 2, 3], "each question said what it would delete then"
    result = finished(events)["d"]
    assert (result.outcome, result.result) == (ev.ToolOutcome.DENIED, CHANGED_RESULT)
    assert json.loads(result.result)["status"] == "not_run"
    assert len(list(folder.iterdir())) == MAX_RECHECKS + 2, "nothing was deleted"
    assert of_type(events, ev.ToolCallDecided)[-1].decided_by == "changed before it ran"
    record = engine.audit.read()[-1]
    assert (record["outcome"], record["decided_by"]) == ("denied", "changed before it ran")


async def test_a_change_the_rules_still_cover_runs_without_asking_again(profile, workspace_dir: Path,
                                                                      model_server) -> None:
    """Re-deciding is by the same policy: trusted mode runs a new file's write, and a file that appeared meanwhile
    makes it an overwrite, which trusted mode asks about."""
    from hermes_desktop.core.settings import ApprovalMode

    target = workspace_dir / "out.txt"
    approver = ScriptedApprover([Decision.DENY])
    engine = make_engine(profile, workspace_dir, approver=approver, mode=ApprovalMode.TRUSTED)
    policy = engine.agent.services.policy
    real_decide = policy.decide

    async def decide_then_someone_saves(request: ApprovalRequest):
        decision = await real_decide(request)
        if request.impact_code == "create_file":
            target.write_text("theirs")  # between the automatic decision and the run
        return decision

    policy.decide = decide_then_someone_saves  # type: ignore[method-assign]
    model_server.enqueue(tool_call_reply(CallScript("write_file", {"path": "out.txt", "content": "ours"}, id="w")),
                         text_reply("ok"))
    events = await engine.ask("write out.txt")
    await engine.close()
    assert [r.impact_code for r in approver.asked] == ["overwrite_file"]
    assert target.read_text() == "theirs"
    assert [d.decided_by for d in of_type(events, ev.ToolCallDecided)] == ["policy: trusted mode", "you"]


async def test_a_session_grant_covers_its_own_kind_and_no_more_files_than_allowed() -> None:
    """The policy alone: what one "allow for this session" answer covers (core/tools/grants.py)."""
    from hermes_desktop.core.tools.approval import ApprovalPolicy

    def delete(files: int, session: str = "s", code: str = "delete_folder") -> ApprovalRequest:
        return ApprovalRequest(session, "c", "delete_path", "builtin", Risk.DESTRUCTIVE, {"path": "box"},
                               f"will delete {files} files", "", files, files * 10, impact_code=code)

    def asks(policy: ApprovalPolicy, request: ApprovalRequest) -> bool:
        return policy.needs_asking(policy.prepare(request)) is None

    policy = ApprovalPolicy(approver=ScriptedApprover([Decision.ALLOW_SESSION]))
    assert (await policy.decide(delete(5))).decision is Decision.ALLOW_SESSION
    assert not asks(policy, delete(5)) and not asks(policy, delete(2)), "as many files or fewer: covered"
    assert asks(policy, delete(6)), "more files than the user allowed"
    assert asks(policy, delete(1, code="delete_file")), "another kind of delete"
    assert asks(policy, delete(5, session="other")), "another session"
    policy.forget_session("s")
    assert asks(policy, delete(5))
