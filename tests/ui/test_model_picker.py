"""The model picker in the real window: two providers on two scripted servers, real /models lists, real requests."""

from __future__ import annotations

import json
from typing import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.session_models import SessionPick
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore
from hermes_desktop.ui.model_picker import KIND_ROLE, MODEL_ROLE, PROFILE_ROLE
from tests.support.model_server import ScriptedModelServer, text_reply
from tests.ui.test_window import ask_and_settle, restart, wait_for_reply


@pytest.fixture
def second_server() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(models=["other-b", "other-a"]) as server:
        yield server


@pytest.fixture
def providers(model_server, second_server) -> None:
    """Two saved providers, no key needed; the first is active."""
    model_server.models = ["scripted-model", "scripted-large"]
    main = ProviderProfile(id="main", name="Main", base_url=model_server.base_url, model="scripted-model",
                           request_timeout_s=5.0, needs_api_key=False, models=("typed-by-hand",))
    other = ProviderProfile(id="other", name="Other", base_url=second_server.base_url, model="other-a",
                            request_timeout_s=5.0, needs_api_key=False)
    SettingsStore(app_paths()).save(Settings(profiles=(main, other), active_profile_id="main"))


def last_turn_request(server: ScriptedModelServer):
    """The last request of a turn (the window also asks the default model for a title after a first exchange)."""
    return [r for r in server.chat_requests if not r.system_prompt.startswith("Write a title")][-1]


def popup(h):
    return h.window.model_picker.popup


def tree(h) -> QTreeWidget:
    return h.window.findChild(QTreeWidget, "modelTree")


def model_items(h) -> dict[tuple[str, str], QTreeWidgetItem]:
    found = {}
    view = tree(h)
    for top in range(view.topLevelItemCount() if view else 0):
        header = view.topLevelItem(top)
        for index in range(header.childCount()):
            child = header.child(index)
            if child.data(0, KIND_ROLE) == "model":
                found[(child.data(0, PROFILE_ROLE), child.data(0, MODEL_ROLE))] = child
    return found


def open_picker(h, *, listing: tuple[str, str] | None = None):
    h.do(lambda: QTest.mouseClick(h.window.model_picker, Qt.MouseButton.LeftButton))
    h.wait_until(lambda: popup(h) is not None and popup(h).isVisible(), what="the picker to open")
    if listing is not None:
        h.wait_until(lambda: listing in model_items(h), what=f"{listing} in the picker")
    return popup(h)


def click(h, item: QTreeWidgetItem) -> None:
    view = tree(h)
    view.scrollToItem(item)
    h.do(lambda: QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                                  pos=view.visualItemRect(item).center()))


def pick(h, profile_id: str, model: str) -> None:
    open_picker(h, listing=(profile_id, model))
    click(h, model_items(h)[(profile_id, model)])
    h.wait_until(lambda: h.window.model_picker.pick == SessionPick(profile_id, model), what="the pick")
    assert not popup(h).isVisible(), "choosing closes the picker"


def test_the_picker_lists_each_server_and_hand_typed_models_and_a_choice_applies_to_this_session_only(
        make_window, model_server, second_server, providers) -> None:
    h = make_window(configured=False)
    ask_and_settle(h, model_server, "first question", "first answer")
    first_session = h.window.current_session
    assert last_turn_request(model_server).body["model"] == "scripted-model"
    assert "Main · scripted-model" in h.window.model_picker.text()

    open_picker(h, listing=("other", "other-b"))
    h.wait_until(lambda: ("main", "scripted-large") in model_items(h), what="the main server's list")
    listed = set(model_items(h))
    assert {("main", "scripted-model"), ("main", "typed-by-hand"), ("main", "scripted-large"),
            ("other", "other-a"), ("other", "other-b")} <= listed
    h.do(lambda: popup(h).hide())

    pick(h, "other", "other-b")
    assert "Other · other-b" in h.window.model_picker.text()
    second_server.enqueue(text_reply("answered by other-b"))
    h.send("second question")
    wait_for_reply(h, "answered by other-b")
    assert last_turn_request(second_server).body["model"] == "other-b"
    sent = [(m["role"], m["content"]) for m in last_turn_request(second_server).messages[1:]]
    assert sent[:2] == [("user", "first question"), ("assistant", "first answer")], "the history goes along"
    h.wait_until(lambda: not h.controller.is_busy(first_session), what="idle")

    # A new session uses the default.
    h.do(h.window.new_session)
    h.wait_until(lambda: "Main · scripted-model" in h.window.model_picker.text(), what="the default in a new chat")
    requests_before = len(second_server.chat_requests)
    ask_and_settle(h, model_server, "in a new session", "default answer")
    assert last_turn_request(model_server).body["model"] == "scripted-model"
    assert len(second_server.chat_requests) == requests_before
    new_session = h.window.current_session

    # Switching back shows the first session's model; it is saved with the session.
    h.run(h.window.open_session(first_session, None))
    h.wait_until(lambda: "Other · other-b" in h.window.model_picker.text(), what="the first session's model")
    stored = h.controller.store.get_session(first_session)
    assert (stored.profile_id, stored.model) == ("other", "other-b")

    # After a restart: the restored session keeps its model; the other one follows the default.
    again = restart(h, make_window)
    assert again.window.current_session == first_session
    again.wait_until(lambda: "Other · other-b" in again.window.model_picker.text(), what="the kept choice")
    again.run(again.window.open_session(new_session, None))
    again.wait_until(lambda: "Main · scripted-model" in again.window.model_picker.text(), what="default label")
    again.run(again.window.open_session(first_session, None))
    again.wait_until(lambda: "Other · other-b" in again.window.model_picker.text(), what="the kept choice")
    second_server.enqueue(text_reply("still other-b"))
    again.send("after the restart")
    wait_for_reply(again, "still other-b")
    assert last_turn_request(second_server).body["model"] == "other-b"


def test_choosing_default_again_makes_the_session_follow_the_active_provider(make_window, model_server,
                                                                              second_server, providers) -> None:
    h = make_window(configured=False)
    pick(h, "other", "other-a")
    session = h.window.current_session
    assert session is not None, "a pick in a new chat creates its session"
    open_picker(h)
    default = tree(h).topLevelItem(0)
    assert default.data(0, KIND_ROLE) == "default"
    click(h, default)
    h.wait_until(lambda: h.window.model_picker.pick is None, what="back to the default")
    ask_and_settle(h, model_server, "hello", "from main")
    assert last_turn_request(model_server).body["model"] == "scripted-model"
    assert not second_server.chat_requests


def test_a_model_added_by_hand_is_saved_with_the_provider_and_used(make_window, model_server, providers) -> None:
    h = make_window(configured=False)
    open_picker(h, listing=("main", "scripted-large"))
    view = tree(h)
    add = next(view.topLevelItem(t).child(i) for t in range(view.topLevelItemCount())
               for i in range(view.topLevelItem(t).childCount())
               if view.topLevelItem(t).child(i).data(0, KIND_ROLE) == "add"
               and view.topLevelItem(t).child(i).data(0, PROFILE_ROLE) == "main")
    click(h, add)
    dialog = h.wait_until(lambda: getattr(h.window.model_picker, "add_dialog", None), what="the add dialog")
    h.wait_until(dialog.isVisible, what="the add dialog to show")
    assert not dialog.ok_button.isEnabled(), "an empty name cannot be added"
    h.do(lambda: QTest.keyClicks(dialog.edit, "  my-custom-model "))
    h.do(dialog.ok_button.click)
    h.wait_until(lambda: h.window.model_picker.pick == SessionPick("main", "my-custom-model"), what="the pick")
    saved = SettingsStore(app_paths()).load().settings.profile("main")
    assert saved.models == ("typed-by-hand", "my-custom-model")
    ask_and_settle(h, model_server, "hi", "custom answer")
    assert last_turn_request(model_server).body["model"] == "my-custom-model"
    open_picker(h, listing=("main", "my-custom-model"))
    assert "added by hand" in model_items(h)[("main", "my-custom-model")].text(0)


def test_the_cached_list_is_used_when_a_server_is_down_and_refresh_updates_it(make_window, model_server,
                                                                               second_server, providers) -> None:
    h = make_window(configured=False)
    open_picker(h, listing=("other", "other-b"))
    h.wait_until(lambda: not h.window.model_picker.refreshing, what="the lists")
    cache = app_paths().data_dir / "model-lists.json"
    assert json.loads(cache.read_text())["profiles"]["other"]["models"] == ["other-a", "other-b"]
    h.do(lambda: popup(h).hide())
    second_server.stop()

    again = restart(h, make_window) if h.window.current_session else make_window(configured=False)
    open_picker(again, listing=("other", "other-b"))  # from the cache: the server is down
    refresh = popup(again).refresh_button
    again.wait_until(refresh.isEnabled, what="nothing being fetched")
    model_server.models = ["scripted-model", "scripted-large", "scripted-brand-new"]
    again.do(refresh.click)
    again.wait_until(lambda: ("main", "scripted-brand-new") in model_items(again), what="the refreshed list")
    again.wait_until(lambda: not again.window.model_picker.refreshing, what="both refreshes to end")
    headers = [tree(again).topLevelItem(t) for t in range(tree(again).topLevelItemCount())]
    other = next(x for x in headers if x.data(0, PROFILE_ROLE) == "other" and x.data(0, KIND_ROLE) == "profile")
    problems = [other.child(i).text(0) for i in range(other.childCount()) if other.child(i).data(0, KIND_ROLE) == "error"]
    assert problems and problems[0].startswith("Could not list models"), "the reason is shown"
    assert ("other", "other-b") in model_items(again), "the cached list stays"
    saved = json.loads(cache.read_text())["profiles"]
    assert saved["main"]["models"] == ["scripted-brand-new", "scripted-large", "scripted-model"]
    assert saved["other"]["models"] == ["other-a", "other-b"]


def test_ctrl_shift_m_opens_the_picker(make_window, providers) -> None:
    h = make_window(configured=False)
    assert h.window.findChild(object, "modelPicker") is h.window.model_picker
    h.do(lambda: QTest.keyClick(h.window, Qt.Key.Key_M,
                                Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier))
    h.wait_until(lambda: popup(h) is not None and popup(h).isVisible(), what="the picker")
    assert popup(h).filter.hasFocus() or popup(h).isActiveWindow()
