"""KINDS is exactly what the tables produce, and typing is total and pure.

A kind cannot be added to a parser without a table row that produces it,
and a row cannot produce a kind missing from KINDS.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.pages import ENTITY_MAX_CHARS, KINDS, SITE_PARSERS, PageRef, type_url
from compiler.pages.resolve import resolve

try:  # package layout
    from .test_pages_generic import FALLBACK_CASES, GENERIC_CASES
    from .test_pages_sites import SITE_CASES
except ImportError:  # rootdir layout (no __init__.py in tests/)
    from test_pages_generic import FALLBACK_CASES, GENERIC_CASES
    from test_pages_sites import SITE_CASES

LAYERS = {"site", "generic", "fallback"}
_SNAKE_CASE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")


def test_tables_produce_exactly_the_declared_kinds() -> None:
    produced = {row[1] for row in SITE_CASES + GENERIC_CASES + FALLBACK_CASES}
    assert produced == set(KINDS)


def test_kinds_are_sorted_unique_snake_case_and_plentiful() -> None:
    assert list(KINDS) == sorted(set(KINDS))
    assert all(_SNAKE_CASE.fullmatch(kind) for kind in KINDS)
    assert len(KINDS) >= 40


def test_site_parsers_are_a_readable_ordered_table() -> None:
    patterns = [row.pattern for row in SITE_PARSERS]
    assert len(patterns) == len(set(patterns))
    assert all(callable(row.parse) for row in SITE_PARSERS)


def _check(ref: PageRef) -> None:
    assert isinstance(ref, PageRef)
    assert ref.kind in KINDS
    assert ref.layer in LAYERS
    assert ref.site == ref.site.strip().lower()
    if ref.entity is not None:
        assert 0 < len(ref.entity) <= ENTITY_MAX_CHARS
        assert ref.entity == ref.entity.strip()
        assert not re.search(r"[\x00-\x1f\x7f]|\s\s", ref.entity)


@settings(max_examples=1500, deadline=None)
@given(st.text())
def test_any_text_is_typed_without_raising(text: str) -> None:
    _check(resolve(text))


URL_PREFIXES = [
    "", "http://", "https://", "//", "file://", "about:", "chrome://",
    "mailto:", "localhost:", "http://[", "https://user:pw@",
] + sorted({row[0][: row[0].index("/", 8) + 1] for row in SITE_CASES})
URL_PIECES = st.sampled_from(
    list("/?#&=:@[]%+.-_~ ") + ["%2F", "%ZZ", "%00", "xn--", "é", "\n", "\u2028", "..",
    "www.", ".com", "localhost", "127.0.0.1", ":8080", "q=", "v=", "id=", "p=", "search",
    "login", "dp", "status", "c", "d", "wiki", "r", "in", "-", "mail", "abc-defg-hij"]
) | st.text(max_size=3)


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(URL_PREFIXES), st.lists(URL_PIECES, max_size=25).map("".join))
def test_url_shaped_noise_is_typed_without_raising(prefix: str, rest: str) -> None:
    _check(resolve(prefix + rest))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_typing_is_deterministic(text: str) -> None:
    assert resolve(text) == resolve(text) == type_url(text)
