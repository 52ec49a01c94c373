"""Secrets in userinfo, query strings and fragments never reach a PageRef."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.pages.resolve import resolve

try:  # package layout
    from .test_pages_generic import GENERIC_CASES
    from .test_pages_sites import SITE_CASES
except ImportError:  # rootdir layout (no __init__.py in tests/)
    from test_pages_generic import GENERIC_CASES
    from test_pages_sites import SITE_CASES

SECRET = "hunter2"

LEAKY_URLS = [
    f"https://user:{SECRET}@github.com/octocat/hello-world",
    f"https://{SECRET}:{SECRET}@example.com/",
    f"{SECRET}:{SECRET}@example.com/private",
    f"ftp://me:{SECRET}@files.example.com/pub",
    f"https://example.com/login?code={SECRET}&state={SECRET}",
    f"https://example.com/oauth/callback?code={SECRET}",
    f"https://app.example.com/callback#access_token={SECRET}&token_type=bearer",
    f"https://mail.google.com/mail/u/0/#access_token={SECRET}",
    f"https://www.google.com/search?q=cats&key={SECRET}",
    f"https://example.com/search?token={SECRET}",
    f"https://example.com/search?q=ok&api_key={SECRET}&client_secret={SECRET}",
    f"https://example.com/reset-password/{SECRET}?token={SECRET}",
    f"https://example.com/forgot-password?reset_token={SECRET}",
    f"https://us02web.zoom.us/j/81234567890?pwd={SECRET}",
    f"https://zoom.us/rec/share/{SECRET}",
    f"https://bucket.s3.amazonaws.com/report.zip?X-Amz-Signature={SECRET}&X-Amz-Credential={SECRET}",
    f"https://hooks.slack.com/services/T000/B000/{SECRET}",
    f"https://api.example.com/v1/items?access_token={SECRET}",
    f"https://example.com/?password={SECRET}",
    f"https://example.com/?sessionid={SECRET}&sig={SECRET}",
    f"https://calendar.google.com/calendar/r/eventedit/{SECRET}",
    f"https://outlook.live.com/mail/0/inbox/id/{SECRET}",
    f"http://localhost:3000/reset/{SECRET}",
]


@pytest.mark.parametrize("url", LEAKY_URLS)
def test_secrets_never_appear_in_any_field(url: str) -> None:
    ref = resolve(url)
    for field in (ref.kind, ref.site, ref.entity or "", ref.layer):
        assert SECRET not in field, (url, ref)


def test_sign_in_with_code_has_no_entity() -> None:
    ref = resolve(f"https://example.com/login?code={SECRET}&state=abc")
    assert (ref.kind, ref.entity) == ("sign_in", None)


def test_mailto_does_not_expose_the_address() -> None:
    ref = resolve("mailto:jane.doe@example.com")
    assert "jane" not in (ref.entity or "")


WEB_URLS = [row[0] for row in SITE_CASES + GENERIC_CASES if row[0].startswith("http")]
SECRET_PARAMS = [
    "token", "access_token", "code", "state", "key", "password", "sig",
    "client_secret", "api_key", "X-Amz-Signature", "sessionid", "pwd",
]


def _with_secrets(url: str, userinfo: str, name: str, value: str) -> str:
    """Insert userinfo and one secret query parameter into a web URL."""
    scheme, rest = url.split("://", 1)
    base, hash_mark, fragment = rest.partition("#")
    joiner = "&" if "?" in base else "?"
    return f"{scheme}://{userinfo}@{base}{joiner}{name}={value}{hash_mark}{fragment}"


@settings(max_examples=300, deadline=None)
@given(
    url=st.sampled_from(WEB_URLS),
    name=st.sampled_from(SECRET_PARAMS),
    value=st.from_regex(r"[A-Za-z0-9]{12,24}", fullmatch=True).map(lambda v: "S3cr" + v),
    user=st.from_regex(r"[a-z]{3,8}", fullmatch=True),
)
def test_adding_secrets_changes_nothing(url: str, name: str, value: str, user: str) -> None:
    """Userinfo and secret parameters are invisible: the result is identical."""
    leaky = _with_secrets(url, f"{user}:{value}", name, value)
    ref = resolve(leaky)
    assert ref == resolve(url)
    assert not re.search(re.escape(value), f"{ref.site} {ref.entity}")
