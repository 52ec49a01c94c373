"""What the page parsers read of a URL beyond its host and path — declared
once, here, as data.

Capture keeps a URL's query parameter only when a declaration names it, and
its fragment only where a declaration says a parser routes on it; everything
else (tokens, codes, keys, signatures, sessions, parameters nobody reads) is
dropped before the URL is stored (see sanitize.py). The compiler's parser
table (compiler/pages/sites) pairs each `SiteReads` row with the parser
that honours it, and the generic search detector asks `search_params` which
names to consult, so what capture keeps and what typing reads cannot drift
apart: a parser that starts reading a parameter nobody declared never sees
it in a stored URL, and the property test over the parsers' URL tables
(tests/compiler/test_pages_sanitize.py) fails.

Declarations name parameters by their lowercased, decoded name; a name that
looks like a credential (`is_secret_param`) is never kept, declared or not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .parts import Url


@dataclass(frozen=True, slots=True)
class SiteReads:
    """One site pattern and what its parser reads besides host and path.

    Patterns match site keys (sitekey.py), never raw hosts:
    ``"github.com"`` exactly that key, ``"amazon.*"`` the brand under any
    public suffix, ``"*.atlassian.net"`` any tenant of a platform."""

    pattern: str
    params: frozenset[str] = frozenset()
    # The parser routes on the fragment (Gmail), reading `fragment_route`.
    fragment: bool = False


def _reads(pattern: str, *params: str, fragment: bool = False) -> SiteReads:
    return SiteReads(pattern, frozenset(params), fragment)


SITE_READS: tuple[SiteReads, ...] = (
    # Code and developer Q&A
    _reads("github.com", "q"),
    _reads("gitlab.com", "search"),
    _reads("stackoverflow.com", "q"),
    _reads("*.stackexchange.com", "q"),
    _reads("superuser.com", "q"),
    _reads("serverfault.com", "q"),
    _reads("askubuntu.com", "q"),
    _reads("mathoverflow.net", "q"),
    # Package registries
    _reads("pypi.org", "q"),
    _reads("npmjs.com", "q"),
    _reads("crates.io", "q"),
    _reads("docs.rs"),
    # Reference
    _reads("wikipedia.org", "search", "title"),
    _reads("arxiv.org"),
    _reads("medium.com"),
    _reads("docs.python.org", "q"),
    _reads("developer.mozilla.org", "q"),
    # Google
    _reads("google.*", "q"),
    _reads("maps.google.com", "q"),
    _reads("docs.google.com"),
    _reads("drive.google.com", "id"),
    _reads("mail.google.com", fragment=True),
    _reads("calendar.google.com"),
    _reads("meet.google.com"),
    # Other search engines
    _reads("bing.com", "q"),
    _reads("duckduckgo.com", "q"),
    # Video, streaming, music
    _reads("youtube.com", "v", "list", "search_query", "q"),
    _reads("music.youtube.com", "v", "list", "search_query", "q"),
    _reads("twitch.tv", "term"),
    _reads("spotify.com"),
    _reads("netflix.com", "q"),
    # Social networks and forums
    _reads("x.com", "q"),
    _reads("facebook.com", "id", "story_fbid", "v", "q"),
    _reads("instagram.com"),
    _reads("linkedin.com", "keywords", "currentjobid"),
    _reads("reddit.com", "q"),
    _reads("news.ycombinator.com", "id"),
    # Team workspaces
    _reads("notion.so", "p", "v"),
    _reads("*.notion.site", "p", "v"),
    _reads("*.atlassian.net", "selectedissue"),
    _reads("figma.com"),
    _reads("trello.com"),
    # Messaging, meetings, mail
    _reads("slack.com"),
    _reads("zoom.us"),
    _reads("outlook.office.com"),
    _reads("outlook.office365.com"),
    _reads("outlook.live.com"),
    # AI assistants
    _reads("chatgpt.com"),
    _reads("claude.ai"),
    _reads("gemini.google.com"),
    # Shopping
    _reads("amazon.*", "k"),
    _reads("ebay.*", "_nkw"),
    _reads("etsy.com", "q"),
)


def _index(rows: tuple[SiteReads, ...]) -> tuple[dict[str, SiteReads], dict[str, SiteReads], dict[str, SiteReads]]:
    exact: dict[str, SiteReads] = {}
    brands: dict[str, SiteReads] = {}
    tenants: dict[str, SiteReads] = {}
    for row in rows:
        if row.pattern.endswith(".*"):
            table, key = brands, row.pattern[:-2]
        elif row.pattern.startswith("*."):
            table, key = tenants, row.pattern[2:]
        else:
            table, key = exact, row.pattern
        if key in table:
            raise ValueError(f"duplicate site pattern {row.pattern!r}")
        table[key] = row
    return exact, brands, tenants


_EXACT, _BRANDS, _TENANTS = _index(SITE_READS)
BY_PATTERN: dict[str, SiteReads] = {row.pattern: row for row in SITE_READS}


@lru_cache(maxsize=4096)
def reads_for(site: str) -> SiteReads | None:
    """The row owning *site*: exact key, then tenant parent, then brand."""
    if site in _EXACT:
        return _EXACT[site]
    label, _, parent = site.partition(".")
    if parent in _TENANTS:
        return _TENANTS[parent]
    # Brand rows match on the first label of the site key ("amazon.de",
    # "amazon.co.uk").  Product hosts such as "mail.google.com" start with
    # the product name, so the "google.*" row never claims them.
    return _BRANDS.get(label)


def fragment_route(fragment: str) -> str:
    """The part of a fragment a routing parser reads: up to any "?" (what
    follows is UI state, "#inbox?compose=new"), and nothing when it holds a
    "key=value" pair — that is a page's state or an OAuth response
    ("#access_token=…"), never a route."""
    route = fragment.partition("?")[0]
    return "" if "=" in route else route


# -- the generic search detector, on any site --------------------------------------------
# Names nearly always meaning "search text", accepted even on the site root
# (Google, DuckDuckGo and ChatGPT take "/?q=").
SEARCH_PARAMS_STRONG = (
    "q", "query", "search_query", "search", "keywords", "keyword",
    "searchterm", "search_term",
)
# Names that mean search text only on a search-shaped path: Amazon "k",
# Yahoo "p", WordPress "s", Twitch "term", Yandex "text", Baidu "wd",
# eBay "_nkw".  On a root path "?p=12" is a WordPress post, not a search.
SEARCH_PARAMS_WEAK = ("k", "p", "s", "term", "text", "wd", "_nkw")
_SEARCH_PARAMS_ALL = SEARCH_PARAMS_STRONG + SEARCH_PARAMS_WEAK
_SEARCH_PATH_WORDS = frozenset(
    {"search", "s", "find", "results", "result", "query", "sch", "lookup"}
)
# "search" as a word inside a compound ("site-search", "searchresults"),
# but not inside another word ("research").
_SEARCH_COMPOUND = re.compile(r"(?:^|[^a-z])search")


def has_search_word(url: Url) -> bool:
    """A path word that says "search" ("/search", "/site-search")."""
    return any(_SEARCH_COMPOUND.search(word) for word in url.words)


def search_params(url: Url) -> tuple[str, ...]:
    """The parameters that may hold search text on this page, in the order
    the generic detector tries them: every name on a search-shaped page (a
    search word in the path or a "search." host), the strong names on a
    site root, none elsewhere (a query parameter alone is not enough: "?q="
    also filters tables, and "?p=" pages through lists)."""
    if (
        has_search_word(url)
        or not url.words.isdisjoint(_SEARCH_PATH_WORDS)
        or url.host.startswith("search.")
    ):
        return _SEARCH_PARAMS_ALL
    if not url.segments:
        return SEARCH_PARAMS_STRONG
    return ()


# -- non-web schemes: what the scheme detector reads -------------------------------------
# Browser pages are named by their host ("chrome://settings") or, for
# "about:", the first path segment; "view-source:" by its scheme alone.
BROWSER_SCHEMES = frozenset({"about", "chrome", "edge", "brave", "opera", "vivaldi", "view-source"})
# Extension pages are named by the extension's id, the host.
EXTENSION_SCHEMES = frozenset({"chrome-extension", "moz-extension", "extension"})
# Local files are named by their path; every other non-web scheme
# ("mailto:", "data:", "javascript:", app links) by the scheme alone.
FILE_SCHEME = "file"
