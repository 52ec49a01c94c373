"""Desktop notifications for replays started from a shortcut: the person
pressed a key and looked away, so an escalation, a refusal or a failure must
say so on the screen, not only in a D-Bus reply nobody reads.

Sent through `org.freedesktop.Notifications` on the session bus the service
already holds. A desktop without a notification server (a bare window
manager) simply shows nothing: a missing server, a slow one or an error
reply never fails or delays the replay beyond a short timeout.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from core.bus import NOTIFICATIONS

if TYPE_CHECKING:
    from dbus_fast.aio import MessageBus

log = logging.getLogger(__name__)

NOTIFY_TIMEOUT_S = 2.0
APP_NAME = "Phantom"

_SUMMARIES = {
    "escalated": "Phantom stopped: {program}",
    "refused": "Phantom did not replay {program}",
    "failed": "Phantom replay failed: {program}",
    "success": "Phantom replayed {program}",
}


def message_for(result: dict[str, Any]) -> tuple[str, str] | None:
    """(summary, body) for a run result (as `result_dict` gives it), or None
    for a status that needs no notification."""
    template = _SUMMARIES.get(result.get("status", ""))
    if template is None:
        return None
    escalation = result.get("escalation") or {}
    if escalation:
        body = f"Step {escalation.get('step')}: {escalation.get('reason', '')}"
    else:
        body = f"{len(result.get('steps', []))} steps, verified"
    if not result.get("sent_input") and result.get("status") != "success":
        body += " Nothing was sent."
    return template.format(program=result.get("program", "?")), body[:500]


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
