"""Where blocking work runs: one executor for the session database, a separate bounded one for tools.

Why two: a tool's worker thread can get stuck in a system call (a FIFO, a dripping
server, a slow network file system) and Python cannot kill a thread. When tools and
database writes shared asyncio's default executor, eight stuck reads exhausted it and no
write could land any more: the turn never ended and the reply was lost. Now:

- `run_store()` runs database calls (and the agent's other quick bookkeeping) on the
  store executor, which tools never use, so they cannot starve it.
- `run_tool_thread()` runs blocking tool code on the tool executor: at most
  `TOOL_WORKERS` threads, created on demand. When all are busy, further tool work waits
  in its queue (and the runner's timeout still ends the call; work that never started
  is dropped). Its threads are daemon threads, so one stuck in a system call never keeps
  `hermes-desktop ask` (or the app) from exiting: the interpreter does not wait for them.

The store executor's threads are ordinary (non-daemon) threads: a database write that
started must finish, and SQLite calls are bounded by their busy timeout.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import queue
import threading
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, Callable, TypeVar

T = TypeVar("T")

STORE_WORKERS = 4
TOOL_WORKERS = 8

_WorkItem = tuple[Future, Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class DaemonThreadPool(Executor):
    """A bounded thread pool whose threads are daemons (never joined at interpreter exit).

    Threads are started on demand up to `max_workers` and then reused; a submitted call
    waits in the queue until one is free. Cancelling a future that has not started yet
    means its call never runs.
    """

    def __init__(self, max_workers: int, name: str) -> None:
        if max_workers < 1:
            raise ValueError("max_workers must be at least 1")
        self.max_workers = max_workers
        self._name = name
        self._queue: queue.SimpleQueue[_WorkItem | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        # As in concurrent.futures: released by a thread that finished a call, taken by submit().
        self._idle = threading.Semaphore(0)
        self._busy = 0
        self._shutdown = False
        self._numbers = itertools.count(1)

    @property
    def busy(self) -> int:
        """How many threads are running a call right now."""
        with self._lock:
            return self._busy

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> "Future[T]":
        future: Future[T] = Future()
        with self._lock:
            if self._shutdown:
                raise RuntimeError("cannot schedule new work after shutdown")
            self._queue.put((future, fn, args, kwargs))
            if not self._idle.acquire(timeout=0) and len(self._threads) < self.max_workers:
                self._start_thread()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the idle threads; running calls are not waited for unless `wait` (they are daemons)."""
        with self._lock:
            self._shutdown = True
            threads = list(self._threads)
        if cancel_futures:
            self._cancel_queued()
        for _ in threads:
            self._queue.put(None)
        if wait:
            for thread in threads:
                thread.join()

    def _cancel_queued(self) -> None:
        pending: list[_WorkItem | None] = []
        while True:
            try:
                pending.append(self._queue.get_nowait())
            except queue.Empty:
                break
        for item in pending:
            if item is not None:
                item[0].cancel()

    def _start_thread(self) -> None:
        thread = threading.Thread(target=self._work, name=f"{self._name}-{next(self._numbers)}", daemon=True)
        self._threads.append(thread)
        thread.start()

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            future, fn, args, kwargs = item
            if not future.set_running_or_notify_cancel():
                self._idle.release()
                continue
            with self._lock:
                self._busy += 1
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
                future.set_exception(exc)
            else:
                future.set_result(result)
            finally:
                del item, future, fn, args, kwargs
                with self._lock:
                    self._busy -= 1
            self._idle.release()


_store_executor: ThreadPoolExecutor | None = None
_tool_executor: DaemonThreadPool | None = None
_create_lock = threading.Lock()


def store_executor() -> ThreadPoolExecutor:
    """The executor for database calls. Tools never run here."""
    global _store_executor
    with _create_lock:
        if _store_executor is None:
            _store_executor = ThreadPoolExecutor(max_workers=STORE_WORKERS, thread_name_prefix="hermes-store")
        return _store_executor


def tool_executor() -> DaemonThreadPool:
    """The bounded executor (daemon threads) for blocking tool code."""
    global _tool_executor
    with _create_lock:
        if _tool_executor is None:
            _tool_executor = DaemonThreadPool(TOOL_WORKERS, "hermes-tool")
        return _tool_executor



async def run_store(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run a database call on the store executor and wait for it."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(store_executor(), functools.partial(fn, *args, **kwargs))


async def run_tool_thread(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run blocking tool code on the tool executor and wait for it.

    Cancelling the wait (Stop, a timeout) drops the call if it has not started; a call
    that is running goes on in its daemon thread, which is why tools also stop themselves
    (deadlines inside their loops, refusing FIFOs, killing process groups).
    """
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(tool_executor(), functools.partial(fn, *args, **kwargs))
