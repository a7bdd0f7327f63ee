"""Two `ask --session X` processes on one conversation: the second waits for the first turn (saying so on stderr),
or gives up with a clear error when the wait bound passes. The stored order is always each turn's own
user -> assistant(tool calls) -> tool -> assistant, never interleaved (core/session_lock.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from tests.support.cli import GUARD_S, ROOT, cli_env
from tests.support.model_server import CallScript, ScriptedModelServer, text_reply, tool_call_reply
from tests.support.stores import data_paths

KEY = "sk-lock-test-0123456789"


def _ask(text: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "hermes_desktop", "ask", text, "--session", "shared"], cwd=ROOT,
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class _Lines:
    """A process's stderr read on a thread, so the test can wait for a line while the process runs."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self.seen = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._thread.start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            with self.seen:
                self.lines.append(line)
                self.seen.notify_all()
        with self.seen:
            self.lines.append("<eof>")
            self.seen.notify_all()

    def wait_for(self, words: str) -> bool:
        with self.seen:
            return self.seen.wait_for(lambda: any(words in l for l in self.lines) or "<eof>" in self.lines, GUARD_S) \
                and any(words in l for l in self.lines)

    def text(self) -> str:
        self._thread.join(GUARD_S)
        return "".join(self.lines)


def _wait_until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    """Polls a condition of another process (not a timed assertion: the guard only catches a hang)."""
    deadline = time.monotonic() + GUARD_S
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.05)


def _stored(session_id: str) -> list[tuple[str, str]]:
    from hermes_desktop.core.store import open_store

    store = open_store(data_paths()).store
    try:
        return [(m.role, m.content or ("<calls>" if m.tool_calls else "")) for m in store.all_messages(session_id)]
    finally:
        store.close()


def test_a_second_ask_on_the_same_session_waits_for_the_first_turn_and_nothing_interleaves(workspace_dir: Path) -> None:
    gate = threading.Event()
    with ScriptedModelServer() as server:
        first_reply = tool_call_reply(CallScript("get_current_time", {}))
        first_reply.gate = gate  # the first turn holds the session until the test has seen the second one wait
        server.enqueue(first_reply, text_reply("first answer"), text_reply("second answer"))
        env = cli_env(server.base_url, workspace_dir, KEY)
        first = _ask("first question", env)
        _wait_until(lambda: len(server.chat_requests) >= 1, "the first turn's request")
        second = _ask("second question", env)
        second_err = _Lines(second)
        assert second_err.wait_for("Waiting for another Hermes process (pid"), second_err.text()
        # While it waits, the second turn has stored and sent nothing.
        assert [r for r in server.chat_requests if "second question" in json.dumps(r.messages)] == []
        assert [c for _, c in _stored("shared")] == ["first question"]
        gate.set()
        assert first.wait(GUARD_S) == 0, first.communicate()
        assert second.wait(GUARD_S) == 0, second_err.text()
        assert (second.stdout.read() if second.stdout else "").strip() == "second answer"
    roles = _stored("shared")
    assert [r for r, _ in roles] == ["user", "assistant", "tool", "assistant", "user", "assistant"], roles
    assert roles[0][1] == "first question" and roles[3][1] == "first answer"
    assert roles[4][1] == "second question" and roles[5][1] == "second answer"
    # The second turn's request carried the whole first turn, in order.
    last = server.chat_requests[-1].messages
    assert [m["role"] for m in last if m["role"] != "system"] == ["user", "assistant", "tool", "assistant", "user"]


def test_a_second_ask_gives_up_after_the_wait_bound_with_a_clear_error_and_stores_nothing(workspace_dir: Path) -> None:
    settings = app_paths().settings_file
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"limits": {"session_wait_s": 0.5}}), encoding="utf-8")
    gate = threading.Event()
    with ScriptedModelServer() as server:
        held = text_reply("first answer")
        held.gate = gate
        server.enqueue(held)
        env = cli_env(server.base_url, workspace_dir, KEY)
        first = _ask("first question", env)
        _wait_until(lambda: len(server.chat_requests) >= 1, "the first turn's request")
        second = _ask("second question", env)
        out, err = second.communicate(timeout=GUARD_S)
        assert second.returncode == 1, err
        assert "The conversation shared is busy: another Hermes process (pid" in err
        assert "Nothing was sent or saved" in err
        assert len(server.chat_requests) == 1
        gate.set()
        assert first.wait(GUARD_S) == 0
    assert _stored("shared") == [("user", "first question"), ("assistant", "first answer")]


def test_a_killed_turn_releases_the_session(workspace_dir: Path) -> None:
    """The lock is the kernel's: a process killed mid-turn holds nothing, the next turn runs at once."""
    with ScriptedModelServer() as server:
        gate = threading.Event()  # never set: the first turn is killed while it waits for its reply
        held = text_reply("never sent")
        held.gate = gate
        server.enqueue(held, text_reply("after the kill"))
        env = cli_env(server.base_url, workspace_dir, KEY)
        first = _ask("first question", env)
        _wait_until(lambda: len(server.chat_requests) >= 1, "the first turn's request")
        first.kill()
        first.wait(GUARD_S)
        second = _ask("second question", env)
        out, err = second.communicate(timeout=GUARD_S)
        assert second.returncode == 0, err
        assert "Waiting for" not in err
        assert out.strip() == "after the kill"
        gate.set()
