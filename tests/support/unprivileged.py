"""Running a command as an unprivileged user, for tests about file modes:
CI runs as root, for whom a chmod proves nothing (root reads and writes any
file). As root the command runs as `nobody` (or a user the test creates
when there is none) through `setpriv`; as anyone else it runs as is."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PHANTOM = str(Path(sys.executable).with_name("phantom"))
_FALLBACK_USER = "phantom-test"


def _account() -> pwd.struct_passwd | None:
    """The user to drop to; None when already unprivileged."""
    if os.geteuid() != 0:
        return None
    for name in ("nobody", _FALLBACK_USER):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                    _FALLBACK_USER], check=True, capture_output=True)
    return pwd.getpwnam(_FALLBACK_USER)


class Unprivileged:
    """A home directory the unprivileged user owns, and a way to run as them."""

    def __init__(self) -> None:
        self.account = _account()
        # Not under pytest's tmp_path: its parents are 0700 and root's.
        self.home = Path(tempfile.mkdtemp(prefix="phantom-modes-"))
        os.chmod(self.home, 0o755)
        if self.account is not None:
            os.chown(self.home, self.account.pw_uid, self.account.pw_gid)
        self.env = {"HOME": str(self.home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                    "XDG_DATA_HOME": str(self.home / "data"),
                    "XDG_CONFIG_HOME": str(self.home / "config"),
                    "XDG_CACHE_HOME": str(self.home / "cache"),
                    "XDG_RUNTIME_DIR": str(self.home / "run"),
                    "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8"}

    def run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
        prefix = [] if self.account is None else [
            "setpriv", f"--reuid={self.account.pw_uid}", f"--regid={self.account.pw_gid}",
            "--clear-groups", "--"]
        return subprocess.run([*prefix, *argv], env=self.env, cwd=self.home, capture_output=True,
                              text=True, timeout=timeout)

    def phantom(self, *args: str) -> subprocess.CompletedProcess:
        return self.run(PHANTOM, *args)

    def python(self, code: str, *args: str) -> subprocess.CompletedProcess:
        return self.run(sys.executable, "-c", code, *args)

    def chmod(self, path: Path, mode: int) -> None:
        """Set a mode as the owner would (root can; so can the owner)."""
        result = self.run("chmod", f"{mode:o}", str(path))
        assert result.returncode == 0, result.stderr

    def remove(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)
