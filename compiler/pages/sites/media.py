"""Video, streaming and music: YouTube, Twitch, Spotify and Netflix.

Media ids (YouTube video ids, Spotify ids, clip slugs) are case-sensitive
and kept verbatim; handles and channel names are case-insensitive and
lowercased.
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import SEARCH_QUERY, PageRef, site_ref

YOUTUBE_VIDEO = "youtube_video"
YOUTUBE_SHORT = "youtube_short"
YOUTUBE_CHANNEL = "youtube_channel"
YOUTUBE_PLAYLIST = "youtube_playlist"
YOUTUBE_FEED = "youtube_feed"
TWITCH_CHANNEL = "twitch_channel"
TWITCH_VIDEO = "twitch_video"
TWITCH_CLIP = "twitch_clip"
SPOTIFY_TRACK = "spotify_track"
SPOTIFY_ALBUM = "spotify_album"
SPOTIFY_ARTIST = "spotify_artist"
SPOTIFY_PLAYLIST = "spotify_playlist"
SPOTIFY_EPISODE = "spotify_episode"
SPOTIFY_SHOW = "spotify_show"
NETFLIX_TITLE = "netflix_title"
NETFLIX_PLAYBACK = "netflix_playback"

KINDS = (
    YOUTUBE_VIDEO, YOUTUBE_SHORT, YOUTUBE_CHANNEL, YOUTUBE_PLAYLIST,
    YOUTUBE_FEED, TWITCH_CHANNEL, TWITCH_VIDEO, TWITCH_CLIP, SPOTIFY_TRACK,
    SPOTIFY_ALBUM, SPOTIFY_ARTIST, SPOTIFY_PLAYLIST, SPOTIFY_EPISODE,
    SPOTIFY_SHOW, NETFLIX_TITLE, NETFLIX_PLAYBACK,
)

_VIDEO_ID = re.compile(r"[A-Za-z0-9_-]{6,20}")
_TWITCH_NAME = re.compile(r"[A-Za-z0-9_]{2,25}")
_TWITCH_HOSTS = frozenset({"twitch.tv", "m.twitch.tv"})
_TWITCH_RESERVED = frozenset(
    {"directory", "downloads", "drops", "inventory", "jobs", "login", "messages",
     "moderator", "p", "prime", "search", "settings", "signup", "subscriptions",
     "turbo", "wallet", "videos", "u"}
)
_SPOTIFY_KINDS = {
    "track": SPOTIFY_TRACK,
    "album": SPOTIFY_ALBUM,
    "artist": SPOTIFY_ARTIST,
    "playlist": SPOTIFY_PLAYLIST,
    "episode": SPOTIFY_EPISODE,
    "show": SPOTIFY_SHOW,
}
# Netflix and Spotify prefix some paths with a country or language:
# "/gb/title/…", "/de-en/title/…", "/intl-fr/track/…".
_REGION_PREFIX = re.compile(r"(?:intl-)?[a-z]{2}(?:-[a-z]{2})?")


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _video(url: Url, kind: str, video_id: str | None) -> PageRef | None:
    if video_id and _VIDEO_ID.fullmatch(video_id):
        return site_ref(url, kind, video_id)
    return None


def youtube(url: Url) -> PageRef | None:
    """youtube.com (and m., music.), youtu.be short links, nocookie embeds."""
    segs = url.segments
    if url.host == "youtu.be":
        return _video(url, YOUTUBE_VIDEO, segs[0]) if segs else None
    if not segs:
        return None
    head = segs[0].lower()
    second = segs[1] if len(segs) > 1 else ""
    if head == "watch":
        return _video(url, YOUTUBE_VIDEO, url.query.get("v"))
    if head in ("embed", "live", "v"):
        return _video(url, YOUTUBE_VIDEO, second)
    if head == "shorts":
        return _video(url, YOUTUBE_SHORT, second)
    if head == "playlist" and url.query.get("list"):
        return site_ref(url, YOUTUBE_PLAYLIST, url.query["list"])
    if head == "results":
        return site_ref(url, SEARCH_QUERY, url.query.get("search_query") or url.query.get("q"))
    if head.startswith("@"):
        return site_ref(url, YOUTUBE_CHANNEL, head)
    if head == "channel" and second:
        return site_ref(url, YOUTUBE_CHANNEL, second)  # "UC…" ids are case-sensitive
    if head in ("c", "user") and second:
        return site_ref(url, YOUTUBE_CHANNEL, second.lower())
    if head == "feed" and second:
        return site_ref(url, YOUTUBE_FEED, second.lower())
    return None


def twitch(url: Url) -> PageRef | None:
    """Channels are the first path part; /videos/<id> and clips by slug."""
    segs = url.segments
    if url.host == "clips.twitch.tv":
        return site_ref(url, TWITCH_CLIP, segs[0]) if segs else None
    if url.host not in _TWITCH_HOSTS or not segs:
        return None
    head = segs[0].lower()
    if head == "videos" and len(segs) > 1 and _is_number(segs[1]):
        return site_ref(url, TWITCH_VIDEO, segs[1])
    if head == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("term"))
    if head in _TWITCH_RESERVED or not _TWITCH_NAME.fullmatch(head):
        return None
    if len(segs) >= 3 and segs[1].lower() == "clip":
        return site_ref(url, TWITCH_CLIP, segs[2])
    return site_ref(url, TWITCH_CHANNEL, head)


def spotify(url: Url) -> PageRef | None:
    """open.spotify.com/<type>/<id>, also under /intl-xx/ and /embed/."""
    if url.host != "open.spotify.com":
        return None
    segs = list(url.segments)
    if segs and (segs[0] == "embed" or _REGION_PREFIX.fullmatch(segs[0])):
        segs.pop(0)
    if len(segs) >= 2 and segs[0] in _SPOTIFY_KINDS:
        return site_ref(url, _SPOTIFY_KINDS[segs[0]], segs[1])
    if len(segs) >= 2 and segs[0] == "search":
        return site_ref(url, SEARCH_QUERY, segs[1])
    return None


def netflix(url: Url) -> PageRef | None:
    """/title/<id> is the details page, /watch/<id> is playback."""
    segs = list(url.segments)
    if segs and _REGION_PREFIX.fullmatch(segs[0]):
        segs.pop(0)
    if len(segs) >= 2 and _is_number(segs[1]):
        if segs[0] == "title":
            return site_ref(url, NETFLIX_TITLE, segs[1])
        if segs[0] == "watch":
            return site_ref(url, NETFLIX_PLAYBACK, segs[1])
    if segs and segs[0] == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    return None
