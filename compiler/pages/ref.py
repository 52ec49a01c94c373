"""The PageRef value, and the single place where entities are normalised.

Every layer builds its result through :func:`site_ref`, :func:`generic_ref`
or the fallback, all of which pass the entity through :func:`clean_entity`.
Keeping that in one function is what lets the length cap and whitespace
rules hold for every kind without each parser having to remember them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - import only for annotations
    from core.urls import Url

ENTITY_MAX_CHARS = 120
ELLIPSIS = "…"

LAYER_SITE = "site"
LAYER_GENERIC = "generic"
LAYER_FALLBACK = "fallback"

# A search is the same activity whichever site it ran on, so site parsers
# that recognise their own search page emit this shared kind; the `site`
# field already says where the search happened.
SEARCH_QUERY = "search_query"

# Runs of whitespace and C0/C1 control characters collapse to one space, so
# a percent-encoded newline or NUL can never reach a label or a log line.
_BLANKS = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")


@dataclass(frozen=True, slots=True)
class PageRef:
    """One typed reference to what a browser showed."""

    kind: str
    site: str
    entity: str | None
    layer: str


def clean_entity(text: str | None) -> str | None:
    """Collapse blanks, trim, and cap at ENTITY_MAX_CHARS (ellipsis included).

    Returns None for empty results so "no entity" has exactly one spelling.
    Slicing a Python str always cuts between code points, never inside one.
    """
    if not text:
        return None
    text = _BLANKS.sub(" ", text).strip()
    if not text:
        return None
    if len(text) > ENTITY_MAX_CHARS:
        text = text[: ENTITY_MAX_CHARS - 1].rstrip() + ELLIPSIS
    return text


def site_ref(url: Url, kind: str, entity: str | None = None) -> PageRef:
    """A result from a bespoke site parser."""
    return PageRef(kind, url.site, clean_entity(entity), LAYER_SITE)


def generic_ref(url: Url, kind: str, entity: str | None = None) -> PageRef:
    """A result from a site-independent detector."""
    return PageRef(kind, url.site, clean_entity(entity), LAYER_GENERIC)
