"""The real window on a qasync loop, with the engine pointed at the scripted model server."""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any, Awaitable, Callable, Iterator

import pytest
import qasync

from hermes_desktop.ui.launch import build_window
from hermes_desktop.ui.tasks import drain, install_asyncgen_hooks


class HarnessLoop(qasync.QEventLoop):
    """Keeps itself registered as the running loop for the whole test.

    The app runs one long qasync loop. Tests start and stop it many times, and between runs Qt
    still delivers qasync's timer callbacks (pytest-qt processes events; qasync's
    run_until_complete ends with one more processEvents() pass after clearing the running loop).
    Callbacks stepped then would see "no running event loop" although this loop is the only one.
    """

    def _after_run_forever(self) -> None:
        super()._after_run_forever()
        asyncio.events._set_running_loop(self)

    def run_until_complete(self, future: Any) -> Any:
        asyncio.events._set_running_loop(None)  # qasync sets it itself while it runs
        try:
            return super().run_until_complete(future)
        finally:
            asyncio.events._set_running_loop(self)


@pytest.fixture
def loop(qapp) -> Iterator[qasync.QEventLoop]:
    loop = HarnessLoop(qapp)
    asyncio.set_event_loop(loop)
    asyncio.events._set_running_loop(loop)
    restore_hooks = install_asyncgen_hooks(loop)  # as the app does: see ui/tasks.py
    yield loop
    loop.run_until_complete(drain())
    gc.collect()  # finalise abandoned async generators while the loop can still run their cleanup
    loop.run_until_complete(asyncio.sleep(0.05))
    loop.run_until_complete(loop.shutdown_asyncgens())
    restore_hooks()
    asyncio.events._set_running_loop(None)
    loop.close()
    asyncio.set_event_loop(None)


class Harness:
    def __init__(self, loop: qasync.QEventLoop, window: Any, controller: Any) -> None:
        self.loop = loop
        self.window = window
        self.controller = controller

    def run(self, awaitable: Awaitable[Any]) -> Any:
        return self.loop.run_until_complete(awaitable)

    def do(self, action: Callable[[], Any]) -> Any:
        """Run a UI action (a click, a key press) inside the running loop, as a real event would be."""

        async def inside() -> Any:
            result = action()
            await asyncio.sleep(0)
            return result

        return self.run(inside())

    def wait_until(self, predicate: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
        async def poll() -> Any:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                value = predicate()
                if value:
                    return value
                await asyncio.sleep(0.02)
            raise AssertionError(f"timed out waiting for {what}")

        return self.run(poll())

    def settle(self, seconds: float = 0.1) -> None:
        self.run(asyncio.sleep(seconds))

    def send(self, text: str) -> None:
        """Type a message into the chat box and press Enter, as the user would."""
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QPlainTextEdit

        box = self.window.findChild(QPlainTextEdit, "chatInput")

        def typing() -> None:
            box.setFocus()
            QTest.keyClicks(box, text)
            QTest.keyClick(box, Qt.Key.Key_Return)

        self.do(typing)


@pytest.fixture
def make_window(qapp, loop, model_server, workspace_dir):
    made: list[Harness] = []

    def make(*, configured: bool = True, **extra_env: str) -> Harness:
        """A started window; `configured=False` starts it like a first run (no provider in the environment)."""
        env = {"HERMES_BASE_URL": model_server.base_url, "HERMES_MODEL": "scripted-model",
               "HERMES_API_KEY": "sk-ui-test-key"} if configured else {}
        env = {**env, "HERMES_WORKSPACE": str(workspace_dir), **extra_env}
        _app, window, controller = build_window(env)
        window.resize(1200, 800)
        window.show()
        harness = Harness(loop, window, controller)
        harness.run(controller.start())
        harness.wait_until(lambda: window.chat.isEnabled(), what="the window to be ready")
        made.append(harness)
        return harness

    yield make
    for harness in made:
        harness.run(harness.controller.shutdown())
        harness.run(drain())
        harness.window.close()
        harness.window.deleteLater()
