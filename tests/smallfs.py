"""Real small file systems for the full-disk tests: a tmpfs of a few MB mounted where the test needs it, filled to
the byte. Mounting needs root (CAP_SYS_ADMIN); elsewhere the tests skip and say why."""
from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

FILLER = ".filler"


@contextmanager
def small_fs(path: Path, size_mb: int = 8) -> Iterator[Path]:
    """A fresh tmpfs of `size_mb` MB mounted at `path` (created if missing) for the duration of the block."""
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", str(path)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {done.stderr.strip() or done.returncode}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill(path: Path, leave_kb: int = 0) -> Path:
    """Fill the file system holding `path` until at most `leave_kb` KB are free; returns the filler file."""
    filler = path / FILLER
    st = os.statvfs(path)
    free = st.f_bavail * st.f_frsize - leave_kb * 1024
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    try:
        chunk = 1 << 16
        while free > 0 or leave_kb == 0:
            try:
                free -= os.write(fd, b"\0" * (min(chunk, free) if free > 0 else 4096))
            except OSError:
                break
    finally:
        os.close(fd)
    return filler
