"""The model clients' TLS context, made once, and made ahead in a thread by `ask`.

Every openai client builds an httpx transport, and the transport builds a TLS context that reads the whole CA
bundle (certifi's, or SSL_CERT_FILE / SSL_CERT_DIR): 15-40 ms of a short `ask`, paid before the first request
even when the server is plain http on localhost. OpenSSL reads the bundle without holding the GIL, so `ask`
calls `prefetch()` first thing and the bundle is read on the other core while the command imports openai and
opens its store. `context()` hands the same context to every model client (an SSLContext may be shared by
any number of connections); it is made exactly as httpx makes its default one (`create_ssl_context()`:
certificate verification on, the environment's CA settings honoured), so nothing about verification changes.
If the thread failed, `context()` makes it in place, as the client did before, and raises what that raises.

A command that ends before it needs the context (a read-only history, a bad argument) must still wait for the
thread at exit: OpenSSL reads the bundle outside the GIL, so interpreter shutdown does not stop it, and
libcrypto's own exit handler then frees the tables the thread is reading (a segmentation fault, exit -11, seen
in about one `ask` in three that failed fast). An atexit hook joins it; reading a bundle takes milliseconds,
and the join is bounded so a stuck read (a CA file on a dead network mount) cannot hold the exit for long.

Light on purpose: importing this module imports neither openai nor httpx.
"""

from __future__ import annotations

import atexit
import ssl
import threading
from typing import Any

_lock = threading.Lock()
_context: ssl.SSLContext | None = None
_thread: threading.Thread | None = None
EXIT_WAIT_S = 5.0


def _httpx() -> Any:
    """The httpx the installed openai SDK uses (this openai ships it as `httpx2`; older ones used `httpx`)."""
    try:
        import httpx2

        return httpx2
    except ImportError:  # pragma: no cover - depends on the openai release
        import httpx

        return httpx


def _make() -> ssl.SSLContext:
    return _httpx().create_ssl_context()


def _ahead() -> None:
    global _context
    try:
        made = _make()
    except Exception:  # noqa: BLE001 - context() tries again in place and reports what goes wrong there
        return
    with _lock:
        if _context is None:
            _context = made


def prefetch() -> None:
    """Start making the context in a daemon thread (once); returns at once."""
    global _thread
    with _lock:
        if _thread is not None or _context is not None:
            return
        _thread = threading.Thread(target=_ahead, name="hermes-tls", daemon=True)
    atexit.register(_wait_at_exit)
    _thread.start()


def _wait_at_exit() -> None:
    thread = _thread
    if thread is not None and thread.is_alive():
        thread.join(EXIT_WAIT_S)


def context() -> ssl.SSLContext:
    """The shared TLS context for model clients: the prefetched one (waiting for it if it is being made)."""
    global _context
    thread = _thread
    if thread is not None and thread.is_alive():
        thread.join()
    with _lock:
        if _context is None:
            _context = _make()
        return _context
