"""sd_notify messages over a datagram socket, as systemd receives them."""

from __future__ import annotations

import socket

from capturer.notify import Notifier


def test_notifier_sends_ready_and_watchdog(tmp_path):
    path = str(tmp_path / "notify.sock")
    receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    receiver.bind(path)
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"})
    assert notifier.watchdog_interval == 15.0
    assert notifier.ready("capturing")
    assert notifier.watchdog()
    assert receiver.recv(100) == b"READY=1\nSTATUS=capturing"
    assert receiver.recv(100) == b"WATCHDOG=1"
    receiver.close()


def test_notifier_is_silent_outside_systemd():
    notifier = Notifier({})
    assert not notifier.enabled and not notifier.ready() and notifier.watchdog_interval is None
    assert Notifier({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "1", "WATCHDOG_PID": "1"}).watchdog_interval is None
