"""A small tmpfs of a test's own (a full disk, a read-only mount): the
tests run as root, as CI does, and each mount is undone afterwards."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from testbed.executables import executable


@contextmanager
def tmpfs(mount: Path, size: str) -> Iterator[Path]:
    mount.mkdir(exist_ok=True)
    subprocess.run([executable("mount"), "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run([executable("umount"), "-l", str(mount)], check=False)


def remount_read_only(mount: Path) -> None:
    subprocess.run([executable("mount"), "-o", "remount,ro", str(mount)], check=True)
