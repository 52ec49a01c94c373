"""Google: Search and Maps on google.*, and the product hosts under google.com.

Each product host (docs., drive., mail., calendar., meet.) is its own site
key (see core/urls/sitekey.py), so each gets its own small parser here.  Google's
document, file and thread ids are case-sensitive and kept as they are.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

from core.urls import Url
from core.urls.reads import fragment_route

from ..ref import SEARCH_QUERY, PageRef, site_ref

GOOGLE_MAPS = "google_maps"
GOOGLE_MAPS_PLACE = "google_maps_place"
GOOGLE_MAPS_DIRECTIONS = "google_maps_directions"
GOOGLE_DOC = "google_doc"
GOOGLE_SHEET = "google_sheet"
GOOGLE_SLIDES = "google_slides"
GOOGLE_FORM = "google_form"
GOOGLE_DRIVE_FILE = "google_drive_file"
GOOGLE_DRIVE_FOLDER = "google_drive_folder"
GMAIL_INBOX = "gmail_inbox"
GMAIL_THREAD = "gmail_thread"
GOOGLE_CALENDAR = "google_calendar"
GOOGLE_CALENDAR_EVENT = "google_calendar_event"
GOOGLE_MEET_CALL = "google_meet_call"

KINDS = (
    GOOGLE_MAPS, GOOGLE_MAPS_PLACE, GOOGLE_MAPS_DIRECTIONS, GOOGLE_DOC,
    GOOGLE_SHEET, GOOGLE_SLIDES, GOOGLE_FORM, GOOGLE_DRIVE_FILE,
    GOOGLE_DRIVE_FOLDER, GMAIL_INBOX, GMAIL_THREAD, GOOGLE_CALENDAR,
    GOOGLE_CALENDAR_EVENT, GOOGLE_MEET_CALL,
)

_EDITORS = {
    "document": GOOGLE_DOC,
    "spreadsheets": GOOGLE_SHEET,
    "presentation": GOOGLE_SLIDES,
    "forms": GOOGLE_FORM,
}
_DRIVE_VIEWS = frozenset(
    {"my-drive", "shared-with-me", "recent", "starred", "trash", "home",
     "computers", "shared-drives"}
)
_CALENDAR_VIEWS = frozenset(
    {"day", "week", "month", "year", "agenda", "schedule", "customday", "customweek"}
)
_MEET_CODE = re.compile(r"[a-z]{3}-[a-z]{4}-[a-z]{3}")
# Gmail thread ids in the fragment: "FMfcgzGxSbbm..." or 16 hex digits.
_GMAIL_THREAD_ID = re.compile(r"[A-Za-z0-9_-]{16,}")
# Folder and label names; anything with "=" or "&" is not a Gmail route
# (an OAuth fragment, say) and must not become an entity.
_GMAIL_FOLDER = re.compile(r"[\w .&-]{1,60}")


def google(url: Url) -> PageRef | None:
    """Web search on any google.* and Maps on /maps or maps.google.com."""
    segs = url.segments
    head = segs[0].lower() if segs else ""
    if head == "maps":
        return _maps(url, segs[1:])
    if url.host.startswith("maps."):
        return _maps(url, segs)
    if head in ("", "search", "webhp") and url.query.get("q", "").strip():
        return site_ref(url, SEARCH_QUERY, url.query["q"])
    return None


def _maps(url: Url, rest: tuple[str, ...]) -> PageRef:
    # Maps paths spell spaces as "+"; "@lat,lng,zoom" and "data=..." parts
    # are viewport state, not places.
    places = [
        p.replace("+", " ") for p in rest[1:]
        if not p.startswith(("@", "data=", "am="))
    ]
    what = rest[0] if rest else ""
    if what == "place" and places:
        return site_ref(url, GOOGLE_MAPS_PLACE, places[0])
    if what == "dir":
        return site_ref(url, GOOGLE_MAPS_DIRECTIONS, " → ".join(places))
    if what == "search" and places:
        return site_ref(url, SEARCH_QUERY, places[0])
    if url.query.get("q"):
        return site_ref(url, SEARCH_QUERY, url.query["q"])
    return site_ref(url, GOOGLE_MAPS)


def google_docs(url: Url) -> PageRef | None:
    """/document/d/<id>, /spreadsheets/d/<id>, ... including /u/1/ variants.

    The bare host redirects to the Docs home, typed as a doc without an id.
    """
    segs = url.segments
    if not segs:
        return site_ref(url, GOOGLE_DOC)
    kind = _EDITORS.get(segs[0])
    if kind is None:
        return None
    doc_id = None
    if "d" in segs:
        after = segs[segs.index("d") + 1:]
        # Published forms use /forms/d/e/<id>/viewform.
        if after[:1] == ("e",):
            after = after[1:]
        doc_id = after[0] if after else None
    return site_ref(url, kind, doc_id)


def google_drive(url: Url) -> PageRef | None:
    """Files by id, folders by id or by named view ("my-drive")."""
    segs = url.segments
    if len(segs) >= 3 and segs[0] == "file" and segs[1] == "d":
        return site_ref(url, GOOGLE_DRIVE_FILE, segs[2])
    if "folders" in segs[:-1]:
        return site_ref(url, GOOGLE_DRIVE_FOLDER, segs[segs.index("folders") + 1])
    if segs and segs[0] in ("open", "uc") and url.query.get("id"):
        return site_ref(url, GOOGLE_DRIVE_FILE, url.query["id"])
    if segs and segs[-1] in _DRIVE_VIEWS:
        return site_ref(url, GOOGLE_DRIVE_FOLDER, segs[-1])
    return None


def gmail(url: Url) -> PageRef | None:
    """Gmail routes in the fragment: "#inbox", "#label/Work/<thread>", "#search/q"."""
    if not url.segments or url.segments[0] != "mail":
        return None
    # "#inbox?compose=new": the part after "?" is UI state, and a fragment
    # of "key=value" pairs no route (see fragment_route; capture keeps no more).
    fragment = unquote_plus(fragment_route(url.fragment))
    route = [p for p in fragment.split("/") if p]
    if not route:
        return site_ref(url, GMAIL_INBOX, "inbox")
    box = route[0].lower()
    if box in ("search", "advanced-search") and len(route) > 1:
        return site_ref(url, SEARCH_QUERY, route[1])
    if box in ("label", "category") and len(route) > 1:
        folder, rest = route[1], route[2:]
    else:
        folder, rest = box, route[1:]
    if rest and _GMAIL_THREAD_ID.fullmatch(rest[0]):
        return site_ref(url, GMAIL_THREAD, rest[0])
    if _GMAIL_FOLDER.fullmatch(folder):
        return site_ref(url, GMAIL_INBOX, folder)
    return site_ref(url, GMAIL_INBOX)


def google_calendar(url: Url) -> PageRef:
    """Calendar views by name; events carry no entity.

    Event ids in calendar URLs are base64 of "event-id owner-email", so they
    would smuggle an email address into the entity.
    """
    segs = url.segments
    if "eventedit" in segs or "event" in segs:
        return site_ref(url, GOOGLE_CALENDAR_EVENT)
    view = next((s for s in segs if s in _CALENDAR_VIEWS), None)
    return site_ref(url, GOOGLE_CALENDAR, view)


def google_meet(url: Url) -> PageRef | None:
    """A call is its meeting code ("abc-defg-hij")."""
    segs = url.segments
    if segs and _MEET_CODE.fullmatch(segs[0].lower()):
        return site_ref(url, GOOGLE_MEET_CALL, segs[0].lower())
    if len(segs) >= 2 and segs[0] == "lookup":
        return site_ref(url, GOOGLE_MEET_CALL, segs[1].lower())
    return None
