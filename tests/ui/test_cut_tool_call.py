"""A tool call cut off mid-stream, as the window shows it: the card says "Interrupted — not run", nothing
ran or asked, the reply is marked interrupted, and the banner's Retry answers the question again. A reply
that never ends stops at the output limit with what arrived kept."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QTreeWidget

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import AgentLimits, Settings, SettingsStore
from hermes_desktop.ui.chat.items import INTERRUPTED, BannerItem, MessageItem, ToolCardItem
from tests.support.model_server import CallScript, cut_tool_call_reply, endless_text_reply, text_reply


def rows(h) -> list:
    return h.window.chat.model.items()


def card_texts(h, card: ToolCardItem) -> list[str]:
    """The words the card is painted with (its layout, as the delegate draws it)."""
    return [part.text for part in h.window.chat.view.delegate.row_layout(card, 900).texts]


def data_folder(workspace_dir):
    data = workspace_dir / "data"
    data.mkdir()
    (data / "a.txt").write_text("keep me", encoding="utf-8")
    return data


@pytest.mark.parametrize("rule", ["always_allow", None])
def test_a_cut_call_shows_interrupted_runs_nothing_and_retry_answers_again(make_window, model_server, workspace_dir,
                                                                           rule) -> None:
    data = data_folder(workspace_dir)
    if rule:
        SettingsStore(app_paths()).save(Settings(tool_rules={"builtin/delete_path": rule}))
    h = make_window()
    model_server.enqueue(cut_tool_call_reply(CallScript("delete_path", '{"path": "data', id="call_cut"),
                                             text="Deleting the data folder."))
    h.send("delete the data folder")
    banner = h.wait_until(lambda: next((i for i in rows(h) if isinstance(i, BannerItem)), None), what="the banner")

    assert h.window.approver.dialog is None, "a cut call is never sent to the approval dialog"
    assert "not run" in banner.message and "retry" in banner.actions
    [card] = [i for i in rows(h) if isinstance(i, ToolCardItem)]
    assert card.status == INTERRUPTED and "interrupted — not run" in card_texts(h, card)
    assert '{"path": "data' in card.arguments
    [reply] = [i for i in rows(h) if isinstance(i, MessageItem) and i.role == "assistant"]
    assert reply.text == "Deleting the data folder." and reply.interrupted
    assert (data / "a.txt").read_text(encoding="utf-8") == "keep me"
    activity = h.window.findChild(QTreeWidget, "activityLog")
    h.wait_until(lambda: activity.topLevelItemCount() == 1, what="the turn in the Activity tab")
    turn = activity.topLevelItem(0)
    entries = [turn.child(n).text(0) for n in range(turn.childCount())]
    assert "delete_path · interrupted, not run (the reply was cut off)" in entries

    model_server.enqueue(text_reply("Which files in data should go?"))
    h.do(lambda: h.window.chat._on_action("banner:retry", banner, None))
    h.wait_until(lambda: any(isinstance(i, MessageItem) and i.text == "Which files in data should go?"
                             for i in rows(h)), what="the retried answer")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    active = [(m.role, m.content) for m in h.controller.store.messages(h.window.current_session)]
    assert active == [("user", "delete the data folder"), ("assistant", "Which files in data should go?")]
    assert (data / "a.txt").exists()


def test_a_reopened_session_still_shows_the_call_interrupted(make_window, model_server, workspace_dir) -> None:
    data_folder(workspace_dir)
    h = make_window()
    model_server.enqueue(cut_tool_call_reply(CallScript("delete_path", '{"path": "data', id="call_cut")))
    h.send("delete the data folder")
    h.wait_until(lambda: any(isinstance(i, BannerItem) for i in rows(h)), what="the banner")
    session = h.window.current_session
    h.do(h.window.close)
    again = make_window()
    again.wait_until(lambda: again.window.current_session == session, what="the restored session")
    card = again.wait_until(lambda: next((i for i in rows(again) if isinstance(i, ToolCardItem)), None),
                            what="the card")
    assert card.status == INTERRUPTED and "interrupted — not run" in card_texts(again, card)


def test_an_endless_reply_stops_at_the_output_limit_and_stays(make_window, model_server) -> None:
    SettingsStore(app_paths()).save(Settings(limits=AgentLimits(max_reply_chars=20_000)))
    h = make_window()
    model_server.enqueue(endless_text_reply("and on "))
    h.send("tell me a story")
    banner = h.wait_until(lambda: next((i for i in rows(h) if isinstance(i, BannerItem)), None), what="the stop")
    assert banner.level == "stopped" and "output limit of 20,000 characters" in banner.message
    assert "retry" in banner.actions
    [reply] = [i for i in rows(h) if isinstance(i, MessageItem) and i.role == "assistant"]
    assert reply.interrupted and not reply.streaming and reply.text.startswith("This goes on and on")
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    stored = h.controller.store.messages(h.window.current_session)[-1]
    assert (stored.content, stored.interrupted) == (reply.text, True) and len(reply.text) > 20_000
