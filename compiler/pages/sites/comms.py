"""Messaging, meetings and mail: Slack, Zoom and Outlook on the web.

Slack ids are uppercase by construction and kept as they are.  Outlook
message ids are long mailbox-scoped blobs whose distinguishing part is at
the end, so the 120-character cap would make different messages collide;
Outlook messages therefore carry no entity (the window title has the
subject).
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import PageRef, site_ref

SLACK_WORKSPACE = "slack_workspace"
SLACK_CHANNEL = "slack_channel"
SLACK_MESSAGE = "slack_message"
ZOOM_MEETING = "zoom_meeting"
ZOOM_RECORDING = "zoom_recording"
OUTLOOK_MAIL = "outlook_mail"
OUTLOOK_MESSAGE = "outlook_message"
OUTLOOK_CALENDAR = "outlook_calendar"

KINDS = (
    SLACK_WORKSPACE, SLACK_CHANNEL, SLACK_MESSAGE, ZOOM_MEETING,
    ZOOM_RECORDING, OUTLOOK_MAIL, OUTLOOK_MESSAGE, OUTLOOK_CALENDAR,
)

# Conversation ids: C… public channel, G… private, D… direct message.
_SLACK_CONVERSATION = re.compile(r"[CDG][A-Z0-9]{6,}")
_SLACK_TEAM = re.compile(r"[TE][A-Z0-9]{6,}")
# Permalinks end in "p" + the message timestamp without its dot.
_SLACK_MESSAGE_TS = re.compile(r"p\d{10,}")
# Slack's own subdomains that are not customer workspaces.
_SLACK_SERVICE_HOSTS = frozenset({"app", "api", "status", "docs", "hooks", "files"})
_OUTLOOK_FOLDER = re.compile(r"[a-z][a-z0-9-]{0,40}")


def slack(url: Url) -> PageRef | None:
    """app.slack.com/client/<team>/<channel> and <ws>.slack.com/archives/…"""
    segs = url.segments
    if url.host == "app.slack.com":
        if len(segs) >= 2 and segs[0] == "client" and _SLACK_TEAM.fullmatch(segs[1]):
            if len(segs) >= 3 and _SLACK_CONVERSATION.fullmatch(segs[2]):
                return site_ref(url, SLACK_CHANNEL, f"{segs[1]}/{segs[2]}")
            return site_ref(url, SLACK_WORKSPACE, segs[1])
        return None
    workspace = url.host.removesuffix(".slack.com")
    if workspace == url.host or workspace in _SLACK_SERVICE_HOSTS:
        return None
    if not segs:
        return site_ref(url, SLACK_WORKSPACE, workspace)
    if len(segs) >= 2 and segs[0] == "archives" and _SLACK_CONVERSATION.fullmatch(segs[1]):
        if len(segs) >= 3 and _SLACK_MESSAGE_TS.fullmatch(segs[2]):
            return site_ref(url, SLACK_MESSAGE, f"{workspace}/{segs[1]}/{segs[2]}")
        return site_ref(url, SLACK_CHANNEL, f"{workspace}/{segs[1]}")
    return None


def zoom(url: Url) -> PageRef | None:
    """Meetings by numeric id or personal-room name; the "pwd" passcode is
    a secret and never read (core.urls.parts drops it)."""
    segs = url.segments
    if not segs:
        return None
    head = segs[0].lower()
    if head in ("j", "s", "w", "wc"):
        meeting = next((s for s in segs[1:3] if s.isascii() and s.isdigit()), None)
        return site_ref(url, ZOOM_MEETING, meeting) if meeting else None
    if head == "my" and len(segs) > 1:
        return site_ref(url, ZOOM_MEETING, segs[1].lower())
    if head == "rec":
        # Recording share links work without login: the id is a credential.
        return site_ref(url, ZOOM_RECORDING)
    return None


def outlook(url: Url) -> PageRef | None:
    """/mail/<folder>[/id/<message>] and /calendar/view/<view>."""
    segs = [s.lower() for s in url.segments]
    if segs and segs[0] == "owa":  # outlook.office365.com/owa/… legacy prefix
        segs.pop(0)
    if not segs:
        return None
    rest = segs[1:]
    if rest and rest[0].isascii() and rest[0].isdigit():  # "/mail/0/inbox"
        rest.pop(0)
    if segs[0] == "mail":
        if "id" in rest:
            return site_ref(url, OUTLOOK_MESSAGE)
        folder = rest[0] if rest else "inbox"
        return site_ref(url, OUTLOOK_MAIL, folder if _OUTLOOK_FOLDER.fullmatch(folder) else None)
    if segs[0] == "calendar":
        view = rest[rest.index("view") + 1] if "view" in rest[:-1] else None
        return site_ref(url, OUTLOOK_CALENDAR, view)
    return None
