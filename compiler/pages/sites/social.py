"""Social networks: X (Twitter), Facebook, Instagram and LinkedIn.

Handles are case-insensitive on all four and are lowercased.  Posts are
keyed by their global id alone, because the same post is reachable under
several paths (with or without the author's handle).  Top-level words the
networks reserve for their own pages are listed per site so that
"/settings" is never mistaken for a user called "settings".
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import SEARCH_QUERY, PageRef, site_ref

X_POST = "x_post"
X_PROFILE = "x_profile"
X_TIMELINE = "x_timeline"
FACEBOOK_PROFILE = "facebook_profile"
FACEBOOK_GROUP = "facebook_group"
FACEBOOK_POST = "facebook_post"
FACEBOOK_VIDEO = "facebook_video"
INSTAGRAM_PROFILE = "instagram_profile"
INSTAGRAM_POST = "instagram_post"
INSTAGRAM_REEL = "instagram_reel"
LINKEDIN_PROFILE = "linkedin_profile"
LINKEDIN_COMPANY = "linkedin_company"
LINKEDIN_JOB = "linkedin_job"
LINKEDIN_POST = "linkedin_post"
LINKEDIN_FEED = "linkedin_feed"
LINKEDIN_MESSAGING = "linkedin_messaging"

KINDS = (
    X_POST, X_PROFILE, X_TIMELINE, FACEBOOK_PROFILE, FACEBOOK_GROUP,
    FACEBOOK_POST, FACEBOOK_VIDEO, INSTAGRAM_PROFILE, INSTAGRAM_POST,
    INSTAGRAM_REEL, LINKEDIN_PROFILE, LINKEDIN_COMPANY, LINKEDIN_JOB,
    LINKEDIN_POST, LINKEDIN_FEED, LINKEDIN_MESSAGING,
)

_X_HANDLE = re.compile(r"[a-z0-9_]{1,15}")
_X_RESERVED = frozenset(
    {"home", "explore", "notifications", "messages", "search", "settings", "i",
     "compose", "login", "logout", "signup", "tos", "privacy", "intent",
     "share", "hashtag", "account", "jobs", "about", "download", "oauth"}
)
_FACEBOOK_NAME = re.compile(r"[a-z0-9.]{2,50}")
_FACEBOOK_RESERVED = frozenset(
    {"home.php", "login", "login.php", "logout.php", "watch", "marketplace",
     "events", "messages", "friends", "settings", "notifications", "gaming",
     "stories", "photo", "photo.php", "search", "help", "privacy", "policies",
     "bookmarks", "saved", "pages", "ads", "business", "dialog", "sharer",
     "sharer.php", "share", "l.php", "plugins", "recover", "checkpoint",
     "reg", "signup", "r.php"}
)
_INSTAGRAM_NAME = re.compile(r"[a-z0-9._]{1,30}")
_INSTAGRAM_RESERVED = frozenset(
    {"explore", "accounts", "direct", "stories", "about", "legal",
     "developer", "challenge", "emails", "web", "oauth", "privacy"}
)
# LinkedIn post URLs end in "...-activity-7123456789012345678-AbCd".
_LINKEDIN_ACTIVITY = re.compile(r"activity[-:](\d{10,})")
_TRAILING_NUMBER = re.compile(r"(\d{5,})$")


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def x(url: Url) -> PageRef | None:
    """x.com and twitter.com (one site key)."""
    segs = url.segments
    if not segs:
        return None
    head = segs[0].lower()
    if head == "home":
        return site_ref(url, X_TIMELINE)
    if head == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    if head == "hashtag" and len(segs) > 1:
        return site_ref(url, SEARCH_QUERY, f"#{segs[1]}")
    # /i/web/status/<id> and /i/status/<id> have no handle in them.
    if head == "i" and "status" in segs:
        post = segs[segs.index("status") + 1:]
        return site_ref(url, X_POST, post[0]) if post and _is_number(post[0]) else None
    if head in _X_RESERVED or not _X_HANDLE.fullmatch(head):
        return None
    if len(segs) >= 3 and segs[1].lower() == "status" and _is_number(segs[2]):
        return site_ref(url, X_POST, segs[2])
    return site_ref(url, X_PROFILE, head)


def facebook(url: Url) -> PageRef | None:
    """facebook.com and its m./web. hosts."""
    segs = url.segments
    if not segs:
        return None
    head = segs[0].lower()
    if head == "profile.php" and _is_number(url.query.get("id", "")):
        return site_ref(url, FACEBOOK_PROFILE, url.query["id"])
    if head in ("permalink.php", "story.php") and url.query.get("story_fbid"):
        return site_ref(url, FACEBOOK_POST, url.query["story_fbid"])
    if head == "groups" and len(segs) > 1:
        if len(segs) >= 4 and segs[2] in ("posts", "permalink"):
            return site_ref(url, FACEBOOK_POST, segs[3])
        return site_ref(url, FACEBOOK_GROUP, segs[1].lower())
    if head == "watch" and url.query.get("v"):
        return site_ref(url, FACEBOOK_VIDEO, url.query["v"])
    if head == "reel" and len(segs) > 1:
        return site_ref(url, FACEBOOK_VIDEO, segs[1])
    if head == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    if head in _FACEBOOK_RESERVED or not _FACEBOOK_NAME.fullmatch(head):
        return None
    if len(segs) >= 3 and segs[1] in ("posts", "videos"):
        kind = FACEBOOK_POST if segs[1] == "posts" else FACEBOOK_VIDEO
        return site_ref(url, kind, segs[2])
    return site_ref(url, FACEBOOK_PROFILE, head)


def instagram(url: Url) -> PageRef | None:
    """Profiles, posts (/p/, /tv/) and reels; shortcodes are case-sensitive."""
    segs = url.segments
    if not segs:
        return None
    head = segs[0].lower()
    # Posts appear both as /p/<code> and as /<user>/p/<code>.
    for owner_offset in (0, 1):
        if len(segs) > owner_offset + 1:
            what = segs[owner_offset].lower()
            if what in ("p", "tv"):
                return site_ref(url, INSTAGRAM_POST, segs[owner_offset + 1])
            if what in ("reel", "reels"):
                return site_ref(url, INSTAGRAM_REEL, segs[owner_offset + 1])
    if head in _INSTAGRAM_RESERVED or head in ("p", "tv", "reel", "reels"):
        return None
    if _INSTAGRAM_NAME.fullmatch(head):
        return site_ref(url, INSTAGRAM_PROFILE, head)
    return None


def linkedin(url: Url) -> PageRef | None:
    """Profiles, companies, jobs, posts, the feed and messaging."""
    segs = url.segments
    if not segs:
        return None
    head = segs[0].lower()
    second = segs[1] if len(segs) > 1 else ""
    if head == "in" and second:
        return site_ref(url, LINKEDIN_PROFILE, second.lower())
    if head in ("company", "school", "showcase") and second:
        return site_ref(url, LINKEDIN_COMPANY, second.lower())
    if head == "jobs":
        return _linkedin_jobs(url, segs)
    if head in ("feed", "posts"):
        activity = _LINKEDIN_ACTIVITY.search("/".join(segs[1:]))
        if activity:
            return site_ref(url, LINKEDIN_POST, activity.group(1))
        return site_ref(url, LINKEDIN_FEED) if head == "feed" else None
    if head == "messaging":
        return site_ref(url, LINKEDIN_MESSAGING)
    if head == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("keywords"))
    return None


def _linkedin_jobs(url: Url, segs: tuple[str, ...]) -> PageRef | None:
    # /jobs/view/<slug-or-id> and /jobs/...?currentJobId=<id> are one job.
    if len(segs) >= 3 and segs[1] == "view":
        job = _TRAILING_NUMBER.search(segs[2])
        if job:
            return site_ref(url, LINKEDIN_JOB, job.group(1))
    if _is_number(url.query.get("currentjobid", "")):
        return site_ref(url, LINKEDIN_JOB, url.query["currentjobid"])
    if len(segs) >= 2 and segs[1].startswith("search"):
        return site_ref(url, SEARCH_QUERY, url.query.get("keywords"))
    return None
