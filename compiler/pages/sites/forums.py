"""Discussion forums: Reddit and Hacker News.

Reddit names (subreddits, users) and base-36 post ids are case-insensitive
and lowercased.  Hacker News item ids are numbers; listings ("newest",
"ask", ...) are kept as the word the site uses.
"""

from __future__ import annotations

from core.urls import Url

from ..ref import SEARCH_QUERY, PageRef, site_ref

REDDIT_SUBREDDIT = "reddit_subreddit"
REDDIT_POST = "reddit_post"
REDDIT_USER = "reddit_user"
HACKERNEWS_ITEM = "hackernews_item"
HACKERNEWS_USER = "hackernews_user"
HACKERNEWS_LISTING = "hackernews_listing"

KINDS = (
    REDDIT_SUBREDDIT, REDDIT_POST, REDDIT_USER,
    HACKERNEWS_ITEM, HACKERNEWS_USER, HACKERNEWS_LISTING,
)

_HACKERNEWS_LISTINGS = frozenset(
    {"news", "newest", "front", "ask", "show", "jobs", "best", "active",
     "noobstories", "shownew", "asknew", "past", "classic", "pool", "newcomments"}
)


def reddit(url: Url) -> PageRef | None:
    """Subreddits, posts (keyed by id, not by slug) and users; redd.it links."""
    segs = tuple(s.lower() for s in url.segments)
    if url.host == "redd.it":
        return site_ref(url, REDDIT_POST, segs[0]) if segs else None
    if not segs:
        return None
    head = segs[0]
    if head == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    if head == "comments" and len(segs) > 1:
        return site_ref(url, REDDIT_POST, segs[1])
    if head == "r" and len(segs) > 1:
        rest = segs[2:]
        if len(rest) >= 2 and rest[0] == "comments":
            return site_ref(url, REDDIT_POST, rest[1])
        if rest[:1] == ("search",):
            return site_ref(url, SEARCH_QUERY, url.query.get("q"))
        return site_ref(url, REDDIT_SUBREDDIT, f"r/{segs[1]}")
    if head in ("user", "u") and len(segs) > 1:
        return site_ref(url, REDDIT_USER, f"u/{segs[1]}")
    return None


def hackernews(url: Url) -> PageRef | None:
    """news.ycombinator.com: /item?id=, /user?id=, and the listings."""
    segs = url.segments
    head = segs[0].lower() if segs else "news"
    item = url.query.get("id", "")
    if head == "item" and item.isascii() and item.isdigit():
        return site_ref(url, HACKERNEWS_ITEM, item)
    if head in ("user", "submitted", "threads", "favorites") and item:
        return site_ref(url, HACKERNEWS_USER, item)
    if head in _HACKERNEWS_LISTINGS:
        return site_ref(url, HACKERNEWS_LISTING, head)
    return None
