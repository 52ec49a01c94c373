"""The processes the virtual desktop starts, and how it stops them: split
from the harness, which says what to start; this says how a process (or
its group) is ended — its own and nothing else — and how a child's answer
on a pipe is read with a deadline."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.errors import PhantomError

from .waiting import wait_until


class DesktopError(PhantomError):
    """The virtual desktop could not be started."""

    code = "unavailable"


@dataclass
class StartedProcess:
    """A process the harness started and must stop."""

    name: str
    pid: int
    popen: subprocess.Popen[bytes] | None = None
    group: bool = False


def read_line(fd: int, *, timeout: float, what: str) -> str:
    """Read one line a child writes to a pipe, with a deadline."""
    import select

    chunks = b""
    deadline_left = timeout
    while b"\n" not in chunks:
        ready, _, _ = select.select([fd], [], [], deadline_left)
        if not ready:
            raise DesktopError(f"timed out waiting for {what}")
        data = os.read(fd, 4096)
        if not data:
            break
        chunks += data
    line = chunks.decode().strip().splitlines()[0] if chunks.strip() else ""
    if not line:
        raise DesktopError(f"no answer while waiting for {what}")
    return line


def terminate(process: StartedProcess, grace: float = 3.0) -> None:
    """SIGTERM, wait, then SIGKILL — the process (or its group) and nothing else."""
    def send(sig: int) -> None:
        try:
            if process.group:
                os.killpg(process.pid, sig)
            else:
                os.kill(process.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    send(signal.SIGTERM)
    if process.popen is not None:
        try:
            process.popen.wait(grace)
            if process.group:
                send(signal.SIGKILL)  # stragglers left in the group
            return
        except subprocess.TimeoutExpired:
            send(signal.SIGKILL)
            process.popen.wait(grace)
            return
    try:
        wait_until(lambda: not alive(process.pid), timeout=grace, what=f"{process.name} to exit")
    except TimeoutError:
        send(signal.SIGKILL)


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, children first."""
    found, queue = [], [pid]
    while queue:
        parent = queue.pop(0)
        try:
            children = [int(c) for c in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()]
        except OSError:
            continue
        found += children
        queue += children
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie still answers kill(0); treat it as gone.
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def start_session_bus(env: dict[str, str], command: Callable[[list[str]], list[str]] = list) -> StartedProcess:
    """A forked session dbus-daemon for a test desktop; its address goes into
    `env` (DBUS_SESSION_BUS_ADDRESS). `command` wraps the argv (the sway
    desktop runs it as its unprivileged user). The daemon has its own process
    group, which the services it activates share: they go with it."""
    from .executables import executable

    addr_r, addr_w = os.pipe()
    pid_r, pid_w = os.pipe()
    try:
        result = subprocess.run(
            command([executable("dbus-daemon"), "--session", "--fork", "--nopidfile",
                     f"--print-address={addr_w}", f"--print-pid={pid_w}"]),
            env=env, pass_fds=(addr_w, pid_w), capture_output=True, text=True, timeout=15)
        os.close(addr_w)
        os.close(pid_w)
        addr_w = pid_w = -1
        if result.returncode != 0:
            raise DesktopError(f"dbus-daemon failed: {result.stderr.strip()}")
        address = read_line(addr_r, timeout=10.0, what="the session bus address")
        pid = int(read_line(pid_r, timeout=10.0, what="the session bus pid"))
    finally:
        for fd in (addr_r, pid_r, addr_w, pid_w):
            if fd >= 0:
                os.close(fd)
    env["DBUS_SESSION_BUS_ADDRESS"] = address
    return StartedProcess("dbus-daemon", pid, group=True)

