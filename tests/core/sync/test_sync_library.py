"""Assistants, saved prompts and each session's assistant in two-way sync (issue 26: "assistants, prompts" were in
backups only). Two devices, real SQLite stores, a local folder target: creation, edits, delete and Undo, purge,
two assistants made with the same name on both devices, and a prompt edited on one while deleted on the other."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from hermes_desktop.core.assistants.model import Assistant
from hermes_desktop.core.assistants.store import AssistantStore
from hermes_desktop.core.sync.target import FolderTarget
from tests.support.sync_devices import Device


@pytest.fixture
def pair(tmp_path: Path):
    a, b = Device(tmp_path, "desktop"), Device(tmp_path, "laptop")
    (tmp_path / "remote").mkdir()
    yield a, b, FolderTarget(tmp_path / "remote")
    a.close()
    b.close()


def library(device: Device) -> AssistantStore:
    return AssistantStore(device.store)


def mine(device: Device) -> dict[str, str]:
    return {a.id: a.name for a in library(device).mine()}


def both_ways(a: Device, b: Device, remote: FolderTarget) -> None:
    a.sync(remote)
    b.sync(remote)
    a.sync(remote)


def test_an_assistant_made_on_one_device_is_edited_deleted_and_restored_on_both(pair) -> None:
    a, b, remote = pair
    made = library(a).save(Assistant(id="", name="Contract reader", instructions="Translate into French."))
    both_ways(a, b, remote)
    assert mine(b) == {made.id: "Contract reader"}
    assert library(b).get(made.id).instructions == "Translate into French."

    edited = library(b).get(made.id)
    library(b).save(replace(edited, instructions="Translate into German."))
    both_ways(b, a, remote)
    assert library(a).get(made.id).instructions == "Translate into German."

    library(a).delete(made.id)
    both_ways(a, b, remote)
    assert mine(b) == {}
    library(b).restore(made.id)  # Undo on the other device
    both_ways(b, a, remote)
    assert mine(a) == mine(b) == {made.id: "Contract reader"}

    library(a).delete(made.id)
    library(a).purge_deleted(time.time() + 1)  # gone for good here: a tombstone for everyone
    both_ways(a, b, remote)
    assert b.store._db.execute("SELECT COUNT(*) FROM assistants").fetchone()[0] == 0


def test_two_assistants_named_alike_on_two_devices_both_survive_with_one_renamed(pair) -> None:
    a, b, remote = pair
    one = library(a).save(Assistant(id="", name="Haiku poet", instructions="one"))
    two = library(b).save(Assistant(id="", name="Haiku poet", instructions="two"))
    both_ways(a, b, remote)
    b.sync(remote)
    assert mine(a) == mine(b)
    assert mine(a) == {one.id: "Haiku poet", two.id: "Haiku poet (2)"}  # the older keeps the name, on both
    assert {library(a).get(one.id).instructions, library(a).get(two.id).instructions} == {"one", "two"}


def test_prompts_sync_by_name_and_a_sessions_assistant_follows(pair) -> None:
    a, b, remote = pair
    saved = library(a).save_prompt("Weekly report", "Summarise {{week}}.", "for Fridays")
    helper = library(a).save(Assistant(id="", name="Week shaper"))
    a.chat("plan", "plan my week")
    library(a).set_session_assistant("plan", helper.id)
    both_ways(a, b, remote)
    on_b = library(b).prompt("Weekly report")
    assert on_b.body == "Summarise {{week}}." and on_b.description == "for Fridays"
    assert library(b).session_assistant("plan").assistant.id == helper.id

    library(b).save_prompt("Weekly report", "Summarise {{week}} in five bullets.", "for Fridays", prompt_id=on_b.id)
    library(b).set_session_assistant("plan", None)  # back to Hermes: that reaches the other device too
    both_ways(b, a, remote)
    assert library(a).prompt("Weekly report").body == "Summarise {{week}} in five bullets."
    assert library(a).session_assistant("plan").assistant.id == "hermes"

    library(a).delete_prompt(saved.id)
    both_ways(a, b, remote)
    assert [p.name for p in library(b).prompts() if p.id.isdigit()] == []
    again_a, again_b = a.sync(remote), b.sync(remote)
    assert again_a.uploaded_batches == again_b.uploaded_batches == 0  # settled: nothing more to send
