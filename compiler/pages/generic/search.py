"""Search result pages on any site, by query parameter and path shape.

A query parameter alone is not enough ("?q=" also filters tables, and
"?p=" pages through lists), so the path must look like search: the site
root, a search word among the first path segments, or a "search." host.
The first non-empty parameter, in the order listed below, wins.
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import SEARCH_QUERY, PageRef, generic_ref

KINDS = (SEARCH_QUERY,)

# Names nearly always meaning "search text", accepted even on the site root
# (Google, DuckDuckGo and ChatGPT take "/?q=").
_STRONG_PARAMS = (
    "q", "query", "search_query", "search", "keywords", "keyword",
    "searchterm", "search_term",
)
# Names that mean search text only on a search-shaped path: Amazon "k",
# Yahoo "p", WordPress "s", Twitch "term", Yandex "text", Baidu "wd",
# eBay "_nkw".  On a root path "?p=12" is a WordPress post, not a search.
_WEAK_PARAMS = ("k", "p", "s", "term", "text", "wd", "_nkw")
_ALL_PARAMS = _STRONG_PARAMS + _WEAK_PARAMS
_SEARCH_PATH_WORDS = frozenset(
    {"search", "s", "find", "results", "result", "query", "sch", "lookup"}
)
# "search" as a word inside a compound ("site-search", "searchresults"),
# but not inside another word ("research").
_SEARCH_COMPOUND = re.compile(r"(?:^|[^a-z])search")


def search_query(url: Url) -> PageRef | None:
    has_search_word = any(_SEARCH_COMPOUND.search(word) for word in url.words)
    search_shaped = (
        has_search_word
        or not url.words.isdisjoint(_SEARCH_PATH_WORDS)
        or url.host.startswith("search.")
    )
    if search_shaped:
        names = _ALL_PARAMS
    elif not url.segments:
        names = _STRONG_PARAMS
    else:
        return None
    for name in names:
        value = url.query.get(name)
        if value and value.strip():
            return generic_ref(url, SEARCH_QUERY, value)
    # An empty search page ("/search") is still a search page; a bare "/s/…"
    # or site root without a query is not.
    return generic_ref(url, SEARCH_QUERY) if has_search_word else None
