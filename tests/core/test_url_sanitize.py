"""What Phantom stores of a URL, example by example (core/urls/sanitize.py)."""

from __future__ import annotations

import pytest

from core.urls.sanitize import sanitize_url

CASES = [
    # Credentials never; parameters only where a parser reads them.
    ("https://alice:S3cret@www.youtube.com/watch?v=dQw4w9WgXcQ&token=abc&code=def&t=42#frag",
     "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
    ("https://example.com/reset?token=abc&code=123&sig=x&session=y&lang=en#code=zzz",
     "https://example.com/reset"),
    ("https://www.google.com/search?q=cats&key=sec&sourceid=chrome",
     "https://www.google.com/search?q=cats"),
    ("https://shop.example.com/search?query=red+shoes&page=2&sessionid=1",
     "https://shop.example.com/search?query=red+shoes"),
    # On a site root only the strong search names count ("?p=12" is a post).
    ("https://example.com/?q=hello&p=2", "https://example.com/?q=hello"),
    ("https://example.com/blog?q=hello", "https://example.com/blog"),
    # Repeated and oddly spelled names keep their order and spelling.
    ("https://www.youtube.com/watch?V=a&v=b&list=L1", "https://www.youtube.com/watch?V=a&v=b&list=L1"),
    # The fragment only where a parser routes on it, and only the route.
    ("https://mail.google.com/mail/u/0/#label/Work/FMfcgzGxSbbm?compose=new",
     "https://mail.google.com/mail/u/0/#label/Work/FMfcgzGxSbbm"),
    ("https://mail.google.com/mail/u/0/?auth=x#inbox", "https://mail.google.com/mail/u/0/#inbox"),
    ("https://example.com/callback#access_token=abc&token_type=bearer", "https://example.com/callback"),
    # A declared name that looks like a credential would still go.
    ("https://news.ycombinator.com/item?id=1&auth=abc", "https://news.ycombinator.com/item?id=1"),
    # Scheme-less text gets the scheme typing gives it.
    ("user:pass@example.com/x?q=1", "http://example.com/x"),
    ("HTTPS://User:Pw@Example.COM:8443/A?Q=x", "https://Example.COM:8443/A"),
    # Non-web URLs keep only what they are named by.
    ("mailto:jane@example.com?subject=hi", "mailto:"),
    ("data:text/html,<p>secret</p>", "data:"),
    ("javascript:alert(document.cookie)", "javascript:"),
    ("file:///home/me/doc.pdf?x=1#page=2", "file:///home/me/doc.pdf"),
    ("chrome-extension://abcdef/popup.html?token=1", "chrome-extension://abcdef"),
    ("chrome://settings/passwords?search=x", "chrome://settings"),
    ("about:config?filter=x", "about:config"),
    ("view-source:https://x.com/?token=1", "view-source:"),
    ("ftp://me:pw@files.example.com/pub", "ftp:"),
    # A hostless web URL keeps no query.
    ("https:///path?q=1", "https:///path"),
]


@pytest.mark.parametrize(("raw", "stored"), CASES)
def test_what_is_stored_of_a_url(raw: str, stored: str) -> None:
    assert sanitize_url(raw) == stored


@pytest.mark.parametrize("raw", [None, "", "   ", "not a url", "foo"])
def test_what_is_not_a_url_is_not_stored(raw) -> None:
    assert sanitize_url(raw) is None
