"""Idle on a wlroots compositor: `org_kde_kwin_idle`, the compositor's word.

wlroots 0.15 (sway 1.7) offers `org_kde_kwin_idle` (ext-idle-notify-v1
came later): a client asks for an idle timeout on a seat and gets `idle`
once the seat has had no input for that long, and `resumed` at the next
input. Phantom observes no input on Wayland, so without this "idle" would
only mean "capture saw nothing" (docs/WAYLAND.md). Spoken over the raw wire
(`core.wayland.wire`): no Wayland library. A thread of its own waits on the
connection and calls `report(idle)`; a compositor that goes away ends the
thread, which the supervisor notices (`alive`) and starts again once the
display is back.
"""

from __future__ import annotations

import logging
import os
import select
import threading
from collections.abc import Callable

from core.wayland.wire import WaylandConnection, WaylandUnavailable, socket_path, uints

log = logging.getLogger(__name__)

IDLE, RESUMED = 0, 1   # org_kde_kwin_idle_timeout events


class CompositorIdle:
    """One Wayland connection and the thread that reads it."""

    def __init__(self, report: Callable[[bool], None], *, timeout_ms: int,
                 display: str | None = None, runtime_dir: str | None = None) -> None:
        path = socket_path(display if display is not None else os.environ.get("WAYLAND_DISPLAY", ""),
                           runtime_dir if runtime_dir is not None else os.environ.get("XDG_RUNTIME_DIR"))
        self._report = report
        self._connection = WaylandConnection(path)
        try:
            seat = self._connection.bind("wl_seat", 1)
            idle = self._connection.bind("org_kde_kwin_idle", 1)
            self._timeout = self._connection.new_id()
            # get_idle_timeout(new id, seat, milliseconds)
            self._connection.send(idle, 0, uints(self._timeout, seat, max(1, timeout_ms)))
            self._connection.roundtrip()
        except WaylandUnavailable:
            self._connection.close()
            raise
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """From now the compositor's word decides: not idle until it says so
        (without this, idle would fall back to the time since capture last
        saw input, which on Wayland is the time since capture started)."""
        self._report(False)
        self._thread = threading.Thread(target=self._run, name="phantom-idle", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            os.write(self._wake_w, b"x")
            self._thread.join(2.0)
        self._connection.close()
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        fd = self._connection.fileno()
        while True:
            readable, _, _ = select.select([fd, self._wake_r], [], [])
            if self._wake_r in readable:
                return
            try:
                events = self._connection.receive(block=False)
            except WaylandUnavailable as exc:
                log.warning("compositor idle: %s", exc)
                return
            for obj, opcode, _ in events:
                if obj == self._timeout and opcode in (IDLE, RESUMED):
                    log.debug("the compositor says %s", "idle" if opcode == IDLE else "resumed")
                    self._report(opcode == IDLE)
