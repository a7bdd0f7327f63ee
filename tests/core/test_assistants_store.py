"""The assistants' storage (migration 9, core/assistants/store.py) and the prompt library, on real SQLite on disk:
a v8 database migrates with its sessions and messages kept; mine/gallery lookups; delete with Undo; forks keep the
session's assistant; a hand-broken row is skipped, not fatal; prompts with {{variables}}."""

from __future__ import annotations

import sqlite3

import pytest

from hermes_desktop.core.assistants.model import HERMES, Assistant
from hermes_desktop.core.assistants.prompt_library import MissingValues, fill, variables
from hermes_desktop.core.assistants.store import AssistantNotFound, AssistantStore, NameTaken
from hermes_desktop.core.session_types import NewMessage
from hermes_desktop.core.storage.migrations import LATEST_VERSION, migrate
from hermes_desktop.core.store import connect, open_store
from tests.support.old_history import write_old_history
from tests.support.stores import data_paths, open_test_store


def test_a_v8_database_migrates_to_v9_keeps_its_sessions_and_they_use_hermes() -> None:
    paths = data_paths()
    paths.data_dir.mkdir(parents=True, exist_ok=True)
    db = connect(paths.database)
    migrate(db, up_to=8)
    db.close()
    write_old_history(paths.database, "kept", [NewMessage("user", "hello"),
                                               NewMessage("assistant", "hi", finish_reason="stop")],
                      profile_id="p", model="m")

    store = open_store(paths).store
    try:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION >= 9
        assert [m.content for m in store.messages("kept")] == ["hello", "hi"]
        assistants = AssistantStore(store)
        assert assistants.session_assistant("kept").assistant is HERMES
        assert assistants.mine() == [] and assistants.prompts(), "the built-in prompts are there"
        saved = assistants.save(Assistant(id="", name="New"))
        assistants.set_session_assistant("kept", saved.id)
        assert assistants.session_assistant("kept").assistant.name == "New"
        backups = list(paths.data_dir.glob("hermes.db.pre-v*.bak"))
        assert [sqlite3.connect(b).execute("PRAGMA user_version").fetchone()[0] for b in backups] == [8]
    finally:
        store.close()


def test_the_v8_fixture_migrates_to_v9_with_its_sessions_memory_and_records() -> None:
    """tests/core/fixtures/hermes_v8.sql: a database users have (made once with migrations[:8], never regenerated)."""
    from tests.support.stores import FIXTURES

    paths = data_paths()
    paths.data_dir.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(paths.database)
    db.executescript((FIXTURES / "hermes_v8.sql").read_text(encoding="utf-8"))
    assert db.execute("PRAGMA user_version").fetchone()[0] == 8
    before = db.execute("SELECT id, session_id, role, content FROM messages ORDER BY id").fetchall()
    db.close()
    opened = open_store(paths)
    store = opened.store
    try:
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
        after = store._db.execute("SELECT id, session_id, role, content FROM messages ORDER BY id").fetchall()
        assert [tuple(r) for r in after] == before and before, "every message kept"
        assert store._db.execute("SELECT statement FROM memories").fetchone()[0] == "Prefers tea"
        assert store._db.execute("SELECT COUNT(*) FROM tool_call_records").fetchone()[0] == 1
        assistants = AssistantStore(store)
        for session_id in ("trip", "maths"):
            assert assistants.session_assistant(session_id).assistant is HERMES
        assistants.set_session_assistant("trip", "builtin:translator")
        assert assistants.session_assistant("trip").assistant.name == "Translator"
        assert [m.content for m in store.messages("trip")][0] == "Plan a weekend in 杭州 please"
    finally:
        store.close()


@pytest.fixture
def stores():
    opened = open_test_store()
    yield opened.store, AssistantStore(opened.store)
    opened.store.close()


def test_delete_then_undo_and_sessions_fall_back_meanwhile(stores) -> None:
    sessions, store = stores
    saved = store.save(Assistant(id="", name="Temp", tools=("calculate",)))
    store.set_session_assistant("s", saved.id)
    store.delete(saved.id)
    assert store.mine() == [] and store.session_assistant("s").missing_id == saved.id
    with pytest.raises(AssistantNotFound):
        store.get("Temp")
    store.restore(saved.id)
    assert store.get("temp").tools == ("calculate",)
    with pytest.raises(AssistantNotFound):
        store.delete("builtin:translator")  # the gallery is read-only


def test_a_gallery_assistant_saved_becomes_a_copy_of_the_users(stores) -> None:
    _, store = stores
    from dataclasses import replace

    translator = store.get("Translator")
    copy = store.save(replace(translator, name="My translator"))
    assert copy.id != translator.id and copy.origin == "user" and store.get("Translator").builtin
    with pytest.raises(NameTaken):
        store.save(replace(copy, id="", name="my TRANSLATOR"))


def test_a_fork_keeps_the_sessions_assistant(stores) -> None:
    sessions, store = stores
    store.set_session_assistant("s", "builtin:translator")
    message = sessions.append_message("s", NewMessage("user", "hello"))
    fork = sessions.fork("s", message)
    assert store.session_assistant(fork.id).assistant.id == "builtin:translator"


def test_a_row_that_no_longer_reads_is_left_out_not_fatal(stores, caplog) -> None:
    sessions, store = stores
    good = store.save(Assistant(id="", name="Good"))
    bad = store.save(Assistant(id="", name="Bad"))
    sessions._db.execute("UPDATE assistants SET data = '{\"name\": 5}' WHERE id = ?", (bad.id,))
    store.set_session_assistant("s", bad.id)
    assert [a.name for a in store.mine()] == ["Good"] and good
    assert store.session_assistant("s").assistant is HERMES
    assert "does not read" in caplog.text


def test_prompts_with_variables(stores) -> None:
    _, store = stores
    saved = store.save_prompt("Ask for leave", "Dear {{ manager }}, I need {{days}} days off. {{days}} is all.")
    assert saved.variables == ["manager", "days"]
    assert store.prompt("ask for LEAVE").body.startswith("Dear")
    assert fill(saved.body, {"manager": "Ana", "days": "{{manager}}"}) == \
        "Dear Ana, I need {{manager}} days off. {{manager}} is all.", "a value is inserted as written, never refilled"
    with pytest.raises(MissingValues) as caught:
        fill(saved.body, {"manager": "Ana", "days": " "})
    assert caught.value.names == ["days"]
    with pytest.raises(NameTaken):
        store.save_prompt("ask for leave", "x")
    store.delete_prompt(saved.id)
    with pytest.raises(AssistantNotFound):
        store.prompt("Ask for leave")
    assert variables("no blanks { here } {{}}") == []
    assert "周报模板" in [p.name for p in store.prompts()]
