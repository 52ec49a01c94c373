"""`phantom capture` on a headless sway desktop (`testbed.sway`), run as the
desktop's own user: the session bus and the AT-SPI bus take connections
only from the user they run as, and so does a real session. Its store and
files lie in a directory that user owns; the test (root in CI) reads them."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from support.daemon import PHANTOM, NotifySocket
from testbed.as_user import as_user, give, owned_dir
from testbed.sway import SwayDesktop


class SwayCapture:
    def __init__(self, sway: SwayDesktop, *, config_text: str = "", extra_env: dict | None = None) -> None:
        assert sway.root is not None
        self.workdir = owned_dir("capture-", parent=sway.root)
        os.chmod(self.workdir, 0o755)
        self.db = self.workdir / "store.sqlite3"
        self.config = self.workdir / "config.toml"
        self.config.write_text(config_text, encoding="utf-8")
        give(self.config)
        self.log_path = self.workdir / "capture.log"
        self.notify = NotifySocket(self.workdir)
        os.chmod(self.notify.path, 0o777)   # the daemon, another user, sends to it
        self.env = {**sway.env, "NOTIFY_SOCKET": self.notify.path, **(extra_env or {})}
        self.args = as_user([PHANTOM, "capture", "--db", str(self.db), "--config", str(self.config),
                             "--no-dbus", "-v"])
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "SwayCapture":
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(self.args, env=self.env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=log)
        try:
            self.notify.wait_for("READY=1")
        except TimeoutError as exc:
            self.stop()
            raise TimeoutError(f"{exc}; the daemon's log ends: {self.log()[-600:]!r}") from None
        return self

    def __exit__(self, *exc) -> None:
        if self.process is not None and self.process.poll() is None:
            self.stop()

    def stop(self, timeout: float = 20.0) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
            raise
        finally:
            self.notify.close()

    def log(self) -> str:
        return Path(self.log_path).read_text(errors="replace")
