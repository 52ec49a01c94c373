"""The URL declarations cover what the parsers read: for every URL in the
parsers' tables, typing the URL capture stores (`sanitize_url`) gives the
same page reference as typing the raw URL — and the secrets planted in them
are gone from the stored text."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from compiler.pages import SITE_PARSERS
from compiler.pages.fallback import UNKNOWN_REF
from compiler.pages.resolve import resolve
from core.urls import is_secret_param
from core.urls.reads import SEARCH_PARAMS_STRONG, SEARCH_PARAMS_WEAK, SITE_READS
from core.urls.sanitize import sanitize_url

try:  # package layout
    from .test_pages_generic import FALLBACK_CASES, GENERIC_CASES, SITE_KEYS
    from .test_pages_kinds import URL_PIECES, URL_PREFIXES
    from .test_pages_privacy import LEAKY_URLS, SECRET
    from .test_pages_sites import HANDED_OVER, SITE_CASES
except ImportError:  # rootdir layout (no __init__.py in tests/)
    from test_pages_generic import FALLBACK_CASES, GENERIC_CASES, SITE_KEYS
    from test_pages_kinds import URL_PIECES, URL_PREFIXES
    from test_pages_privacy import LEAKY_URLS, SECRET
    from test_pages_sites import HANDED_OVER, SITE_CASES

CORPUS = sorted({row[0] for row in SITE_CASES + GENERIC_CASES + FALLBACK_CASES + SITE_KEYS
                 + HANDED_OVER} | set(LEAKY_URLS))


def typed(url: str | None):
    """What the compiler makes of a stored URL (a row without one has none)."""
    return UNKNOWN_REF if url is None else resolve(url)


@pytest.mark.parametrize("url", CORPUS)
def test_the_stored_url_types_exactly_like_the_raw_one(url: str) -> None:
    assert typed(sanitize_url(url)) == resolve(url)


@pytest.mark.parametrize("url", CORPUS)
def test_sanitising_twice_changes_nothing(url: str) -> None:
    once = sanitize_url(url)
    assert sanitize_url(once) == once


@pytest.mark.parametrize("url", LEAKY_URLS)
def test_planted_secrets_in_query_userinfo_and_fragment_are_not_stored(url: str) -> None:
    stored = sanitize_url(url) or ""
    before_path = stored.split("//", 1)[-1].split("/", 1)[0]
    assert SECRET not in before_path  # never as userinfo
    assert "?" not in stored or SECRET not in stored.split("?", 1)[1]
    assert "#" not in stored or SECRET not in stored.split("#", 1)[1]


SECRET_NAMES = ["token", "access_token", "code", "state", "key", "sig", "session", "sessionid",
                "password", "client_secret", "api_key", "X-Amz-Signature", "auth", "otp",
                "utm_source", "fbclid", "unknown_param", "ref", "lang"]


def _plant(url: str, user: str, name: str, value: str) -> str:
    """`url` with userinfo, one more query parameter and, where it has none,
    a fragment added (a fragment it has is a route some parser may read)."""
    scheme, rest = url.split("://", 1)
    base, hash_mark, fragment = rest.partition("#")
    joiner = "&" if "?" in base else "?"
    tail = f"#{fragment}" if hash_mark else f"#{name}={value}"
    return f"{scheme}://{user}:{value}@{base}{joiner}{name}={value}{tail}"


WEB_CORPUS = [url for url in CORPUS if re.match(r"https?://[^/?#]+", url)
              and "@" not in url.split("//", 1)[1].split("/", 1)[0]]


@settings(max_examples=400, deadline=None)
@given(url=st.sampled_from(WEB_CORPUS), name=st.sampled_from(SECRET_NAMES),
       value=st.from_regex(r"[A-Za-z0-9]{10,20}", fullmatch=True).map(lambda v: "Zq9" + v),
       user=st.from_regex(r"[a-z]{3,8}", fullmatch=True))
def test_credentials_unread_parameters_and_fragments_never_reach_the_stored_url(
        url: str, name: str, value: str, user: str) -> None:
    planted = _plant(url, user, name, value)
    stored = sanitize_url(planted)
    assert value not in (stored or "")
    assert f"{user}:" not in (stored or "")
    assert typed(stored) == resolve(planted) == resolve(url)


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(URL_PREFIXES), st.lists(URL_PIECES, max_size=25).map("".join))
@example("about:", " ?")  # blanks that end the kept URL must survive being read back
def test_url_shaped_noise_types_the_same_stored_or_raw(prefix: str, rest: str) -> None:
    raw = prefix + rest
    stored = sanitize_url(raw)
    assert typed(stored) == resolve(raw)
    assert sanitize_url(stored) == stored


def test_every_parser_row_stands_on_one_declaration_in_the_same_order() -> None:
    assert [row.reads for row in SITE_PARSERS] == list(SITE_READS)


def test_no_declared_parameter_looks_like_a_credential() -> None:
    declared = {name for reads in SITE_READS for name in reads.params}
    declared |= set(SEARCH_PARAMS_STRONG + SEARCH_PARAMS_WEAK)
    assert not [name for name in declared if is_secret_param(name)]
    assert all(name == name.lower() for name in declared)
