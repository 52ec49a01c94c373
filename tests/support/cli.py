"""Running the real `phantom` command against a virtual desktop."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PHANTOM = str(Path(sys.executable).with_name("phantom"))


def phantom(desktop, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(desktop.env, PATH=os.environ.get("PATH", ""))
    return subprocess.run([PHANTOM, *args], capture_output=True, text=True, env=env, timeout=timeout)
