"""A real, small filesystem (tmpfs) for the data folder, to fill up and free again.

`mount -t tmpfs` needs root (or CAP_SYS_ADMIN); where it is not permitted the test is
skipped with the reason. Full means full: `fill()` writes a file until the kernel
answers ENOSPC; `free()` deletes it.
"""

from __future__ import annotations

import errno
import os
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest


class SmallDisk:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._filler = root / "filler.bin"

    def fill(self) -> None:
        """Write until the filesystem refuses: afterwards not one more block can be allocated."""
        chunk = b"\0" * 4096
        fd = os.open(self._filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                try:
                    os.write(fd, chunk)
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
                    break
            for size in (512, 64, 1):  # the last partial block too
                try:
                    while True:
                        os.write(fd, chunk[:size])
                except OSError as exc:
                    if exc.errno != errno.ENOSPC:
                        raise
        finally:
            os.close(fd)
        assert os.statvfs(self.root).f_bavail == 0

    def free(self) -> None:
        self._filler.unlink(missing_ok=True)

    def remount(self, options: str) -> None:
        """e.g. "ro" or "rw": the whole filesystem becomes read-only or writable again."""
        subprocess.run(["mount", "-o", f"remount,{options}", str(self.root)], check=True, capture_output=True)


@contextmanager
def small_disk(mountpoint: Path, size: str = "8m") -> Iterator[SmallDisk]:
    """A tmpfs of `size` mounted at `mountpoint` for the duration; skips the test when mounting is not allowed."""
    mountpoint.mkdir(parents=True, exist_ok=True)
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(mountpoint)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs for the disk-full tests (needs root): {result.stderr.strip()}")
    try:
        yield SmallDisk(mountpoint)
    finally:
        subprocess.run(["umount", "-l", str(mountpoint)], capture_output=True)


def immutable(path: Path, on: bool) -> None:
    """`chattr +i` / `-i`: not even root may write the file (permission bits do not stop root)."""
    result = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"chattr is not available here: {result.stderr.strip()}")
