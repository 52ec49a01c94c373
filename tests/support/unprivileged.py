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

from testbed.executables import executable

PHANTOM = str(Path(sys.executable).with_name("phantom"))
CHECKOUT = Path(__file__).resolve().parents[2]
_FALLBACK_USER = "phantom-test"
_RUN_CLI = "import sys; from cli.main import main; sys.exit(main())"


def _account() -> pwd.struct_passwd | None:
    """The user to drop to; None when already unprivileged."""
    if os.geteuid() != 0:
        return None
    for name in ("nobody", _FALLBACK_USER):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    subprocess.run([executable("useradd"), "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
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

        # A checkout the user cannot reach (one under root's 0700 home) is
        # bound, in a mount namespace of each run's own, onto a directory
        # they can: its code and its venv are then read from there.
        self.mount: Path | None = None
        if self.account is not None and not self._reaches(CHECKOUT / "core" / "__init__.py"):
            self.mount = self.home / "checkout"
            self.mount.mkdir()
            self.env["PYTHONPATH"] = str(self.mount)

    def _drop(self) -> list[str]:
        assert self.account is not None
        return [executable("setpriv"), f"--reuid={self.account.pw_uid}", f"--regid={self.account.pw_gid}",
                "--clear-groups", "--"]

    def _reaches(self, path: Path) -> bool:
        probe = subprocess.run([*self._drop(), "test", "-r", str(path)], capture_output=True, timeout=30)
        return probe.returncode == 0

    def run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
        prefix = [] if self.account is None else self._drop()
        if self.mount is not None:
            bind = 'mount --bind "$1" "$2" && shift 2 && exec "$@"'
            prefix = [executable("unshare"), "--mount", "--propagation", "private", "--", "sh", "-c", bind, "sh",
                      str(CHECKOUT), str(self.mount), *prefix]
        return subprocess.run([*prefix, *argv], env=self.env, cwd=self.home, capture_output=True,
                              text=True, timeout=timeout)

    def _python(self) -> str:
        try:
            inside = Path(sys.executable).relative_to(CHECKOUT)
        except ValueError:  # a venv outside the checkout: reachable or not, as it is
            return sys.executable
        return sys.executable if self.mount is None else str(self.mount / inside)

    def phantom(self, *args: str) -> subprocess.CompletedProcess:
        if self.mount is None:
            return self.run(PHANTOM, *args)
        return self.run(self._python(), "-c", _RUN_CLI, *args)

    def python(self, code: str, *args: str) -> subprocess.CompletedProcess:
        return self.run(self._python(), "-c", code, *args)

    def chmod(self, path: Path, mode: int) -> None:
        """Set a mode as the owner would (root can; so can the owner)."""
        result = self.run("chmod", f"{mode:o}", str(path))
        assert result.returncode == 0, result.stderr

    def remove(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)
