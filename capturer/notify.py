"""The systemd notification protocol (sd_notify), without libsystemd.

`READY=1` once capture runs, `WATCHDOG=1` from the loop while it is healthy,
`STATUS=…` for `systemctl status`, `STOPPING=1` on the way out. When
`NOTIFY_SOCKET` is unset (not under systemd) every call is a no-op.
"""

from __future__ import annotations

import os
import socket


class Notifier:
    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]  # abstract namespace
        self._address = address or None
        watchdog_usec = env.get("WATCHDOG_USEC", "")
        watchdog_pid = env.get("WATCHDOG_PID", "")
        owned = not watchdog_pid or watchdog_pid == str(os.getpid())
        self.watchdog_interval = (int(watchdog_usec) / 1_000_000 / 2
                                  if watchdog_usec.isdigit() and owned else None)

    @property
    def enabled(self) -> bool:
        return self._address is not None

    def send(self, *fields: str) -> bool:
        if self._address is None:
            return False
        message = "\n".join(fields).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message, self._address)
            return True
        except OSError:
            return False

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *( [f"STATUS={status}"] if status else []))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")
