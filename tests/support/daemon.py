"""The real capture daemon, started as `phantom capture` in a subprocess on a
virtual desktop, with an sd_notify socket so tests know when it is ready."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import apsw

from testbed.waiting import wait_until

PHANTOM = str(Path(sys.executable).with_name("phantom"))


class NotifySocket:
    """A datagram socket playing systemd's part of the sd_notify protocol."""

    def __init__(self, directory: Path) -> None:
        self.path = str(directory / "notify.sock")
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._sock.bind(self.path)
        self._sock.setblocking(False)
        self.messages: list[str] = []

    def poll(self) -> list[str]:
        while self._sock.fileno() >= 0:
            try:
                self.messages.append(self._sock.recv(4096).decode())
            except BlockingIOError:
                break
        return self.messages

    def wait_for(self, field: str, timeout: float = 20.0) -> str:
        return wait_until(lambda: next((m for m in self.poll() if field in m.split("\n")), None),
                          timeout=timeout, what=f"sd_notify {field}")

    def close(self) -> None:
        """Keep what arrived (STOPPING=1 lands during shutdown), then close."""
        if self._sock.fileno() >= 0:
            self.poll()
            self._sock.close()


class CaptureProcess:
    """`phantom capture` under test."""

    def __init__(self, desktop, db: Path, *, config_text: str | None = None,
                 extra_args: tuple[str, ...] = (), extra_env: dict | None = None) -> None:
        self.desktop = desktop
        self.db = Path(db)
        self.workdir = Path(tempfile.mkdtemp(prefix="phantom-capture-", dir=self.db.parent))
        self.config = self.workdir / "config.toml"
        self.config.write_text(config_text or "", encoding="utf-8")
        self.log_path = self.workdir / "capture.log"
        self.notify = NotifySocket(self.workdir)
        env = dict(desktop.env)
        env.update({"NOTIFY_SOCKET": self.notify.path, "PATH": os.environ.get("PATH", "")})
        env.update(extra_env or {})
        self.env = env
        self.args = [PHANTOM, "capture", "--db", str(self.db), "--config", str(self.config),
                     *extra_args, *(["-v"] if os.environ.get("PHANTOM_TEST_VERBOSE") else [])]
        self.process: subprocess.Popen | None = None

    def start(self, *, wait_ready: bool = True) -> "CaptureProcess":
        self.process = subprocess.Popen(self.args, env=self.env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL,
                                        stderr=open(self.log_path, "ab"))
        if wait_ready:
            try:
                self.notify.wait_for("READY=1")
            except TimeoutError as exc:     # say why: the daemon's own last words
                raise TimeoutError(f"{exc}; the daemon's log ends: {self.log()[-600:]!r}") from None
        return self

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20.0) -> int:
        """Signal and wait; a daemon that does not exit in time is killed (so
        a failing test never leaves one behind) and the timeout re-raised."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
            raise
        finally:
            self.notify.close()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def __enter__(self) -> "CaptureProcess":
        return self.start()

    def __exit__(self, *exc) -> None:
        if self.alive():
            self.stop()


def query(db: Path, sql: str, params=()) -> list[tuple]:
    """Read the store the way the compiler does: read-only, while the daemon writes."""
    connection = apsw.Connection(f"file:{db}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        connection.set_busy_timeout(5000)
        return list(connection.execute(sql, params))
    finally:
        connection.close()


def wait_for_rows(db: Path, sql: str, predicate, *, timeout: float = 10.0, what: str = "rows"):
    """Poll a query until `predicate(rows)` holds; return the rows."""
    def probe():
        rows = query(db, sql)
        return rows if predicate(rows) else None
    return wait_until(probe, timeout=timeout, what=what)


def settle(seconds: float = 0.3) -> None:
    time.sleep(seconds)
