"""One desktop notification, through `org.freedesktop.Notifications` on a
session bus the caller already holds: the replay service says what a
shortcut's replay did, the capture daemon says who switched typed-text
recording on. A desktop without a notification server (a bare window
manager) simply shows nothing: a missing server, a slow one or an error
reply never fails the caller, nor delays it beyond a short timeout."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from .bus import NOTIFICATIONS

if TYPE_CHECKING:
    from dbus_fast.aio import MessageBus

log = logging.getLogger(__name__)

NOTIFY_TIMEOUT_S = 2.0
APP_NAME = "Phantom"


async def notify(bus: MessageBus, summary: str, body: str, *, critical: bool = False) -> bool:
    """Post one notification; True when a server accepted it."""
    from dbus_fast import Message, MessageType, Variant

    message = Message(destination=NOTIFICATIONS.name, path=NOTIFICATIONS.path,
                      interface=NOTIFICATIONS.interface, member="Notify", signature="susssasa{sv}i",
                      body=[APP_NAME, 0, "", summary, body, [],
                            {"urgency": Variant("y", 2 if critical else 1)}, -1])
    try:
        reply = await asyncio.wait_for(bus.call(message), NOTIFY_TIMEOUT_S)
    except Exception as exc:  # noqa: BLE001 - no server, a slow one, a closed bus: show nothing
        log.info("no desktop notification (%s)", exc.__class__.__name__)
        return False
    if reply is None or reply.message_type == MessageType.ERROR:
        log.info("no desktop notification (%s)", getattr(reply, "error_name", "no reply"))
        return False
    return True
