"""Web search engines other than Google: Bing and DuckDuckGo.

The generic search detector would catch most of these URLs too; a bespoke
parser pins down exactly which paths are result pages (Bing's /images and
/videos verticals, DuckDuckGo's /html and /lite front ends) so that the
engine's other pages never masquerade as searches.
"""

from __future__ import annotations

from core.urls import Url

from ..ref import SEARCH_QUERY, PageRef, site_ref

KINDS = ()  # both engines only emit the shared SEARCH_QUERY kind

_BING_RESULT_PATHS = frozenset(
    {("search",), ("images", "search"), ("videos", "search"),
     ("news", "search"), ("shop",)}
)
_DUCKDUCKGO_RESULT_PATHS = frozenset({(), ("html",), ("lite",)})


def bing(url: Url) -> PageRef | None:
    """/search, /images/search, /videos/search, /news/search, /shop with ?q=."""
    if url.segments in _BING_RESULT_PATHS and url.query.get("q"):
        return site_ref(url, SEARCH_QUERY, url.query["q"])
    return None


def duckduckgo(url: Url) -> PageRef | None:
    """Results live on "/?q=" (and the /html, /lite front ends)."""
    if url.segments in _DUCKDUCKGO_RESULT_PATHS and url.query.get("q"):
        return site_ref(url, SEARCH_QUERY, url.query["q"])
    return None
