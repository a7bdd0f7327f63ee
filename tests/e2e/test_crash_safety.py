"""kill -9 while a reply streams and tool results are written: the database survives, nothing acknowledged is lost."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hermes_desktop.core.store import open_store
from tests.support.model_server import CallScript, RecordedRequest, ScriptedModelServer, ScriptedReply, text_reply, tool_call_reply
from tests.support.stores import data_paths

ROOT = Path(__file__).resolve().parents[2]
REPLY = "".join(f"sentence {n} of a long streamed answer. " for n in range(400))
KILLS = 30


def responder(request: RecordedRequest) -> ScriptedReply:
    last = request.messages[-1]
    if last["role"] == "user":
        return tool_call_reply(CallScript("calculate", {"expression": "6*7"}), delay_s=0.01)
    return text_reply(REPLY, chunk_size=12, delay_s=0.002)


@pytest.mark.slow
def test_kill_9_at_random_moments_never_corrupts_or_loses_acknowledged_messages(tmp_path: Path) -> None:
    rng = random.Random(1234)
    acknowledged: set[int] = set()
    partial_replies: set[int] = set()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HERMES_WORKSPACE": str(tmp_path / "ws")}
    with ScriptedModelServer(responder=responder) as server:
        for attempt in range(KILLS):
            child = subprocess.Popen([sys.executable, "-m", "tests.support.crash_child", server.base_url], cwd=ROOT,
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            assert child.stdout is not None
            first = child.stdout.readline()  # wait until it is really chatting
            assert first.startswith("ACK"), child.stderr.read() if child.stderr else first
            acknowledged.add(int(first.split()[2]))
            time.sleep(rng.uniform(0.05, 1.5))
            child.send_signal(signal.SIGKILL)
            rest, _ = child.communicate(timeout=10)
            acknowledged |= {int(line.split()[2]) for line in rest.splitlines() if line.startswith("ACK")}

            opened = open_store(data_paths())  # the next start
            store = opened.store
            try:
                assert store.integrity_ok(), f"integrity_check failed after kill {attempt}"
                ids = {r[0] for r in store._db.execute("SELECT id FROM messages WHERE role = 'user'")}
                assert acknowledged <= ids, f"acknowledged user messages lost after kill {attempt}"
                for message in store.all_messages("crash"):
                    if message.role == "assistant" and message.content:
                        assert REPLY.startswith(message.content), "stored text is exactly what streamed"
                        if message.interrupted:
                            partial_replies.add(message.id)
                    if message.role == "assistant":
                        assert message.finish_reason is not None, "no reply is left 'streaming' after a restart"
                    if message.role == "tool":
                        assert json.loads(message.content or "{}").get("result") == "42" or "cancel" in (message.content or "")
            finally:
                store.close()
    assert len(partial_replies) >= 5, "most kills should land while a reply streams (the test would be weak otherwise)"
