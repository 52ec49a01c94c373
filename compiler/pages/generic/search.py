"""Search result pages on any site, by query parameter and path shape.

A query parameter alone is not enough ("?q=" also filters tables, and
"?p=" pages through lists), so the path must look like search: the site
root, a search word among the first path segments, or a "search." host.
Which parameters count, and where, is declared in core/urls/reads.py
(`search_params`), because capture keeps exactly those; the first
non-empty one, in the declared order, wins.
"""

from __future__ import annotations

from core.urls import Url
from core.urls.reads import has_search_word, search_params

from ..ref import SEARCH_QUERY, PageRef, generic_ref

KINDS = (SEARCH_QUERY,)


def search_query(url: Url) -> PageRef | None:
    for name in search_params(url):
        value = url.query.get(name)
        if value and value.strip():
            return generic_ref(url, SEARCH_QUERY, value)
    # An empty search page ("/search") is still a search page; a bare "/s/…"
    # or site root without a query is not.
    return generic_ref(url, SEARCH_QUERY) if has_search_word(url) else None
