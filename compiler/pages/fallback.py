"""The last layer: every input gets a PageRef, at worst an honest "don't know".

A web URL with a host is filed under its site as kind "domain"; anything
else (garbage, empty strings, plain words, hostless URLs) is "unknown"
with no site.  Neither carries an entity: the fallback has, by definition,
nothing it understands well enough to name.
"""

from __future__ import annotations

from core.urls import Url

from .ref import LAYER_FALLBACK, PageRef

DOMAIN = "domain"
UNKNOWN = "unknown"

KINDS = (DOMAIN, UNKNOWN)

UNKNOWN_REF = PageRef(UNKNOWN, "", None, LAYER_FALLBACK)


def fallback(url: Url | None) -> PageRef:
    if url is None or not url.site:
        return UNKNOWN_REF
    return PageRef(DOMAIN, url.site, None, LAYER_FALLBACK)
