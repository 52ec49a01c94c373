"""type_url: run the three layers in order over one parsed URL.

The layers are site parser -> generic detectors -> fallback, and the first
answer wins.  The function is pure, so it is memoised: a day's capture
repeats the same URLs many times (every focus change re-reports the tab).
"""

from __future__ import annotations

from functools import lru_cache

from core.urls import parse_url

from .fallback import UNKNOWN_REF, fallback
from .generic import detect
from .ref import PageRef
from .sites import parser_for


def resolve(url: str) -> PageRef:
    """The three layers without a safety net (tests call this directly, so
    a parser that raises fails them instead of being silently absorbed)."""
    parsed = parse_url(url)
    if parsed is None:
        return UNKNOWN_REF
    parser = parser_for(parsed.site) if parsed.site else None
    found = parser(parsed) if parser is not None else None
    return found or detect(parsed) or fallback(parsed)


@lru_cache(maxsize=8192)
def type_url(url: str) -> PageRef:
    """Type one URL string.  Total: never raises, always returns a PageRef."""
    if not isinstance(url, str):
        return UNKNOWN_REF
    try:
        return resolve(url)
    except Exception:  # noqa: BLE001 - one odd URL must not abort a day's compile
        return UNKNOWN_REF


def site_of(url: str) -> str:
    """The site key activity frames are keyed by; "" when there is none."""
    return type_url(url).site
