"""A process that chats until it is killed: for the kill -9 test (tests/e2e/test_crash_safety.py).

It runs real turns (SQLite store in the XDG data directory, real openai client to the
scripted server at argv[1]) forever, printing `ACK <session> <message id>` once each
user message is committed, so the test knows which messages must survive.
"""

from __future__ import annotations

import asyncio
import sys

from hermes_desktop.core import events as ev
from hermes_desktop.core.llm import ModelClient
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.settings import ProviderProfile


async def main(base_url: str) -> None:
    runtime = open_runtime(secrets=MemorySecretStore())
    profile = ProviderProfile(id="crash", name="crash", base_url=base_url, model="scripted-model", request_timeout_s=30)
    agent = runtime.make_agent(model=ModelClient(profile, "sk-crash-test"))
    n = 0
    while True:
        n += 1
        async for event in agent.start_turn("crash", f"question {n}"):
            if isinstance(event, ev.TurnStarted):
                print(f"ACK crash {event.user_message_id}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
