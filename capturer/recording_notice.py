"""Telling the person that typed-text recording was switched on, and by
whom. A demonstration keeps what is typed (never in a password field), so
whoever starts one over D-Bus — a shortcut, `phantom record start`, an
agent through `phantom mcp` — is named in a desktop notification: the bus
says which process holds the calling connection, /proc says what it is
and what started it (for `phantom mcp`, the agent's host). The same words
show in `phantom status` while the recording runs."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from core.desktop_notify import notify
from core.processes import describe_process

if TYPE_CHECKING:
    from dbus_fast.aio import MessageBus

log = logging.getLogger(__name__)

LOOKUP_TIMEOUT_S = 2.0


async def caller_pid(bus: MessageBus, sender: str) -> int | None:
    """The pid of the process holding the bus connection `sender` (a unique
    name such as ':1.42'), as the bus daemon vouches for it; None when it
    cannot say (the caller has gone)."""
    from dbus_fast import Message, MessageType

    message = Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                      interface="org.freedesktop.DBus", member="GetConnectionUnixProcessID",
                      signature="s", body=[sender])
    try:
        reply = await asyncio.wait_for(bus.call(message), LOOKUP_TIMEOUT_S)
    except Exception as exc:  # noqa: BLE001 - a closed bus or a slow daemon: the caller stays unnamed
        log.info("could not ask the bus who %s is (%s)", sender, exc.__class__.__name__)
        return None
    if reply is None or reply.message_type == MessageType.ERROR:
        return None
    return int(reply.body[0])


async def who_called(bus: MessageBus, sender: str | None) -> str:
    """The calling process as a person reads it (`describe_process`), or the
    bus name when the process cannot be found."""
    pid = await caller_pid(bus, sender) if sender else None
    if pid is None:
        return f"the D-Bus connection {sender or '(unknown)'}"
    return describe_process(pid)


def notice(name: str, who: str) -> tuple[str, str]:
    """(summary, body) of the notification."""
    return (f"Phantom is recording what you type: {name!r}"[:200],
            f"Started by {who}. Typed text is kept until the recording stops (never from password "
            "fields); `phantom record stop` or `phantom record discard` ends it."[:600])


async def announce(bus: MessageBus, name: str, who: str) -> bool:
    """Post the notification; True when a notification server took it."""
    summary, body = notice(name, who)
    log.info("typed-text recording %r started by %s", name, who)
    return await notify(bus, summary, body, critical=True)
