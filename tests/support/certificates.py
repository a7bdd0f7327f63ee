"""A self-signed certificate for localhost, made with the openssl command, for tests of real TLS servers."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def localhost_certificate(folder: Path) -> tuple[Path, Path]:
    """(certificate, key) in `folder`, valid one day for DNS:localhost; the test is skipped without openssl."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is needed to make a test certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True)
    return cert, key
