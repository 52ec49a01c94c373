"""Desktop notifications for replays started from a shortcut: the person
pressed a key and looked away, so an escalation, a refusal or a failure must
say so on the screen, not only in a D-Bus reply nobody reads.

Sent by `core.desktop_notify.notify` on the session bus the service already
holds (a desktop without a notification server shows nothing, and the
replay is never failed or delayed for it).
"""

from __future__ import annotations

from typing import Any

from core.desktop_notify import notify

__all__ = ["message_for", "notify"]

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

