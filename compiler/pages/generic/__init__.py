"""Site-independent detectors, tried in order after the site parsers.

Order matters and is chosen so the more specific and the more
privacy-sensitive answer wins: non-web schemes first (they are total for
non-web URLs), then host facts (dev servers, IPs), then auth pages (whose
URLs carry codes and tokens, so they must never become a search or a docs
page with an entity), then file types, searches, site sections, docs, and
finally the site root.
"""

from __future__ import annotations

from core.urls import WEB_SCHEMES, Url

from ..ref import PageRef
from . import auth, docs, files, hosts, schemes, search, sections

DETECTORS = (
    schemes.non_web_page,
    hosts.local_dev_server,
    hosts.ip_host,
    auth.sign_out,
    auth.password_reset,
    auth.sign_up,
    auth.sign_in,
    files.downloaded_file,
    search.search_query,
    sections.checkout,
    sections.shopping_cart,
    sections.settings,
    sections.admin_page,
    sections.dashboard,
    hosts.status_page,
    docs.docs_page,
    hosts.api_endpoint,
    sections.homepage,
)

GENERIC_KINDS: tuple[str, ...] = tuple(
    sorted(
        {*auth.KINDS, *docs.KINDS, *files.KINDS, *hosts.KINDS, *schemes.KINDS,
         *search.KINDS, *sections.KINDS}
    )
)


def detect(url: Url) -> PageRef | None:
    """The first detector's answer, or None to hand over to the fallback."""
    if url.scheme in WEB_SCHEMES and not url.host:
        return None  # "http:///x": nothing to attribute a page to
    for detector in DETECTORS:
        found = detector(url)
        if found is not None:
            return found
    return None
