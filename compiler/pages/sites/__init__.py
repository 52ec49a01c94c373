"""The registry of bespoke site parsers: one readable table, one lookup.

Each row of SITE_PARSERS pairs a site pattern with the parser for it.
Patterns are matched against the site key (see core/urls/sitekey.py), never the
raw host, so aliases and www./m. variants need no rows of their own:

* ``"github.com"``      exactly that site key;
* ``"amazon.*"``        that brand under any public suffix (amazon.co.uk);
* ``"*.atlassian.net"`` any tenant of a per-customer platform.

A parser returns None for pages it does not recognise; the generic layer
then gets its turn.  Lookup is a dict hit per distinct site, cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from core.urls import Url

from ..ref import PageRef
from . import ai, code, comms, engines, forums, google, media, packages
from . import reference, shopping, social, work

Parser = Callable[[Url], "PageRef | None"]


@dataclass(frozen=True, slots=True)
class SiteParser:
    """One row of the registry: which sites, and the function that types them."""

    pattern: str
    parse: Parser


SITE_PARSERS: tuple[SiteParser, ...] = (
    # Code and developer Q&A
    SiteParser("github.com", code.github),
    SiteParser("gitlab.com", code.gitlab),
    SiteParser("stackoverflow.com", code.stackexchange),
    SiteParser("*.stackexchange.com", code.stackexchange),
    SiteParser("superuser.com", code.stackexchange),
    SiteParser("serverfault.com", code.stackexchange),
    SiteParser("askubuntu.com", code.stackexchange),
    SiteParser("mathoverflow.net", code.stackexchange),
    # Package registries
    SiteParser("pypi.org", packages.pypi),
    SiteParser("npmjs.com", packages.npm),
    SiteParser("crates.io", packages.crates_io),
    SiteParser("docs.rs", packages.docs_rs),
    # Reference
    SiteParser("wikipedia.org", reference.wikipedia),
    SiteParser("arxiv.org", reference.arxiv),
    SiteParser("medium.com", reference.medium),
    SiteParser("docs.python.org", reference.python_docs),
    SiteParser("developer.mozilla.org", reference.mdn),
    # Google
    SiteParser("google.*", google.google),
    SiteParser("maps.google.com", google.google),
    SiteParser("docs.google.com", google.google_docs),
    SiteParser("drive.google.com", google.google_drive),
    SiteParser("mail.google.com", google.gmail),
    SiteParser("calendar.google.com", google.google_calendar),
    SiteParser("meet.google.com", google.google_meet),
    # Other search engines
    SiteParser("bing.com", engines.bing),
    SiteParser("duckduckgo.com", engines.duckduckgo),
    # Video, streaming, music
    SiteParser("youtube.com", media.youtube),
    SiteParser("music.youtube.com", media.youtube),
    SiteParser("twitch.tv", media.twitch),
    SiteParser("spotify.com", media.spotify),
    SiteParser("netflix.com", media.netflix),
    # Social networks and forums
    SiteParser("x.com", social.x),
    SiteParser("facebook.com", social.facebook),
    SiteParser("instagram.com", social.instagram),
    SiteParser("linkedin.com", social.linkedin),
    SiteParser("reddit.com", forums.reddit),
    SiteParser("news.ycombinator.com", forums.hackernews),
    # Team workspaces
    SiteParser("notion.so", work.notion),
    SiteParser("*.notion.site", work.notion),
    SiteParser("*.atlassian.net", work.atlassian),
    SiteParser("figma.com", work.figma),
    SiteParser("trello.com", work.trello),
    # Messaging, meetings, mail
    SiteParser("slack.com", comms.slack),
    SiteParser("zoom.us", comms.zoom),
    SiteParser("outlook.office.com", comms.outlook),
    SiteParser("outlook.office365.com", comms.outlook),
    SiteParser("outlook.live.com", comms.outlook),
    # AI assistants
    SiteParser("chatgpt.com", ai.chatgpt),
    SiteParser("claude.ai", ai.claude),
    SiteParser("gemini.google.com", ai.gemini),
    # Shopping
    SiteParser("amazon.*", shopping.amazon),
    SiteParser("ebay.*", shopping.ebay),
    SiteParser("etsy.com", shopping.etsy),
)

SITE_KINDS: tuple[str, ...] = tuple(
    sorted(
        {
            *ai.KINDS, *code.KINDS, *comms.KINDS, *engines.KINDS, *forums.KINDS,
            *google.KINDS, *media.KINDS, *packages.KINDS, *reference.KINDS,
            *shopping.KINDS, *social.KINDS, *work.KINDS,
        }
    )
)


def _index(rows: tuple[SiteParser, ...]) -> tuple[dict, dict, dict]:
    exact: dict[str, Parser] = {}
    brands: dict[str, Parser] = {}
    tenants: dict[str, Parser] = {}
    for row in rows:
        if row.pattern.endswith(".*"):
            table, key = brands, row.pattern[:-2]
        elif row.pattern.startswith("*."):
            table, key = tenants, row.pattern[2:]
        else:
            table, key = exact, row.pattern
        if key in table:
            raise ValueError(f"duplicate site pattern {row.pattern!r}")
        table[key] = row.parse
    return exact, brands, tenants


_EXACT, _BRANDS, _TENANTS = _index(SITE_PARSERS)


@lru_cache(maxsize=4096)
def parser_for(site: str) -> Parser | None:
    """The parser owning *site*: exact key, then tenant parent, then brand."""
    if site in _EXACT:
        return _EXACT[site]
    label, _, parent = site.partition(".")
    if parent in _TENANTS:
        return _TENANTS[parent]
    # Brand rows match on the first label of the site key ("amazon.de",
    # "amazon.co.uk").  Product hosts such as "mail.google.com" start with
    # the product name, so the "google.*" row never claims them.
    return _BRANDS.get(label)
