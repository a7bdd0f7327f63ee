"""core/llm/tls.py: one verifying TLS context for the model clients, made ahead in a thread or in place."""

from __future__ import annotations

import ssl
import sys

import pytest

from hermes_desktop.core.llm import tls


@pytest.fixture(autouse=True)
def fresh_module_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tls, "_context", None)
    monkeypatch.setattr(tls, "_thread", None)


def test_the_prefetched_context_is_shared_and_verifies_like_httpx_default() -> None:
    tls.prefetch()
    made = tls.context()
    assert tls.context() is made
    assert made.verify_mode is ssl.CERT_REQUIRED and made.check_hostname
    assert made.cert_store_stats()["x509_ca"] > 0  # the CA bundle was read


def test_a_failure_in_the_thread_makes_the_context_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    real = tls._make
    calls: list[str] = []

    def flaky() -> ssl.SSLContext:
        calls.append("thread" if len(calls) == 0 else "in place")
        if len(calls) == 1:
            raise OSError("the CA bundle could not be read")
        return real()

    monkeypatch.setattr(tls, "_make", flaky)
    tls.prefetch()
    made = tls.context()
    assert calls == ["thread", "in place"] and made.verify_mode is ssl.CERT_REQUIRED


def test_importing_it_imports_neither_openai_nor_httpx() -> None:
    import subprocess

    code = ("import sys; import hermes_desktop.core.llm.tls; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('openai', 'httpx', 'httpx2')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_process_that_exits_while_the_context_is_being_made_exits_cleanly() -> None:
    """The thread reads the CA bundle outside the GIL; without the exit hook libcrypto's exit handler freed its
    tables under it and the process died of SIGSEGV in about one fast exit in three (seen as `ask` -11)."""
    import subprocess
    import sys

    # httpx imported first, so the thread goes straight into OpenSSL; the exits land at several points of its read.
    code = ("import sys, time; from hermes_desktop.core.llm import tls; tls._httpx(); tls.prefetch(); "
            "time.sleep(float(sys.argv[1])); sys.exit(3)")
    delays = [n * 0.002 for n in range(16)]
    codes = [subprocess.run([sys.executable, "-c", code, str(delay)], capture_output=True, timeout=60).returncode
             for delay in delays]
    assert codes == [3] * len(delays)
