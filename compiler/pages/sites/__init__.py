"""The registry of bespoke site parsers: one readable table, one lookup.

Each row of SITE_PARSERS pairs a site's declaration in core/urls/reads.py
(its pattern, and the query parameters and fragment its parser reads — what
capture keeps of that site's URLs) with the parser for it. Patterns are
matched against the site key (see core/urls/sitekey.py), never the raw
host, so aliases and www./m. variants need no rows of their own:

* ``"github.com"``      exactly that site key;
* ``"amazon.*"``        that brand under any public suffix (amazon.co.uk);
* ``"*.atlassian.net"`` any tenant of a per-customer platform.

A parser returns None for pages it does not recognise; the generic layer
then gets its turn.  Lookup is the declarations' own (`reads_for`), cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from core.urls import Url
from core.urls.reads import BY_PATTERN, SITE_READS, SiteReads, reads_for

from ..ref import PageRef
from . import ai, code, comms, engines, forums, google, media, packages, reference, shopping, social, work

Parser = Callable[[Url], "PageRef | None"]


@dataclass(frozen=True, slots=True)
class SiteParser:
    """One row of the registry: a site's declaration, and the function that
    types its URLs reading no more than the declaration names."""

    reads: SiteReads
    parse: Parser

    @property
    def pattern(self) -> str:
        return self.reads.pattern


def _row(pattern: str, parse: Parser) -> SiteParser:
    return SiteParser(BY_PATTERN[pattern], parse)


SITE_PARSERS: tuple[SiteParser, ...] = (
    # Code and developer Q&A
    _row("github.com", code.github),
    _row("gitlab.com", code.gitlab),
    _row("stackoverflow.com", code.stackexchange),
    _row("*.stackexchange.com", code.stackexchange),
    _row("superuser.com", code.stackexchange),
    _row("serverfault.com", code.stackexchange),
    _row("askubuntu.com", code.stackexchange),
    _row("mathoverflow.net", code.stackexchange),
    # Package registries
    _row("pypi.org", packages.pypi),
    _row("npmjs.com", packages.npm),
    _row("crates.io", packages.crates_io),
    _row("docs.rs", packages.docs_rs),
    # Reference
    _row("wikipedia.org", reference.wikipedia),
    _row("arxiv.org", reference.arxiv),
    _row("medium.com", reference.medium),
    _row("docs.python.org", reference.python_docs),
    _row("developer.mozilla.org", reference.mdn),
    # Google
    _row("google.*", google.google),
    _row("maps.google.com", google.google),
    _row("docs.google.com", google.google_docs),
    _row("drive.google.com", google.google_drive),
    _row("mail.google.com", google.gmail),
    _row("calendar.google.com", google.google_calendar),
    _row("meet.google.com", google.google_meet),
    # Other search engines
    _row("bing.com", engines.bing),
    _row("duckduckgo.com", engines.duckduckgo),
    # Video, streaming, music
    _row("youtube.com", media.youtube),
    _row("music.youtube.com", media.youtube),
    _row("twitch.tv", media.twitch),
    _row("spotify.com", media.spotify),
    _row("netflix.com", media.netflix),
    # Social networks and forums
    _row("x.com", social.x),
    _row("facebook.com", social.facebook),
    _row("instagram.com", social.instagram),
    _row("linkedin.com", social.linkedin),
    _row("reddit.com", forums.reddit),
    _row("news.ycombinator.com", forums.hackernews),
    # Team workspaces
    _row("notion.so", work.notion),
    _row("*.notion.site", work.notion),
    _row("*.atlassian.net", work.atlassian),
    _row("figma.com", work.figma),
    _row("trello.com", work.trello),
    # Messaging, meetings, mail
    _row("slack.com", comms.slack),
    _row("zoom.us", comms.zoom),
    _row("outlook.office.com", comms.outlook),
    _row("outlook.office365.com", comms.outlook),
    _row("outlook.live.com", comms.outlook),
    # AI assistants
    _row("chatgpt.com", ai.chatgpt),
    _row("claude.ai", ai.claude),
    _row("gemini.google.com", ai.gemini),
    # Shopping
    _row("amazon.*", shopping.amazon),
    _row("ebay.*", shopping.ebay),
    _row("etsy.com", shopping.etsy),
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


def _by_declaration(rows: tuple[SiteParser, ...]) -> dict[SiteReads, Parser]:
    """Exactly one parser per declaration, and none without one."""
    parsers: dict[SiteReads, Parser] = {}
    for row in rows:
        if row.reads in parsers:
            raise ValueError(f"two parsers for site pattern {row.pattern!r}")
        parsers[row.reads] = row.parse
    missing = [reads.pattern for reads in SITE_READS if reads not in parsers]
    if missing:
        raise ValueError(f"declared sites without a parser: {', '.join(missing)}")
    return parsers


_PARSERS = _by_declaration(SITE_PARSERS)


@lru_cache(maxsize=4096)
def parser_for(site: str) -> Parser | None:
    """The parser owning *site*: exact key, then tenant parent, then brand."""
    reads = reads_for(site)
    return _PARSERS[reads] if reads is not None else None
