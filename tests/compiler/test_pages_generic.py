"""Table tests for the generic detectors, the fallback, and the site-key rule."""

from __future__ import annotations

import pytest

from compiler.pages import ENTITY_MAX_CHARS, PageRef, site_of, type_url
from compiler.pages.resolve import resolve

GENERIC_CASES = [
    # Searches on sites without a parser: parameter + search-shaped path.
    ("https://search.yahoo.com/search?p=linux+kernel", "search_query", "yahoo.com", "linux kernel"),
    ("https://www.baidu.com/s?wd=python", "search_query", "baidu.com", "python"),
    ("https://example.com/?q=hello%20there", "search_query", "example.com", "hello there"),
    ("https://shop.example.com/products/search?query=red+shoes&page=2", "search_query", "example.com", "red shoes"),
    ("https://blog.example.org/search/?s=caching", "search_query", "example.org", "caching"),
    ("https://example.com/site-search", "search_query", "example.com", None),
    # Auth pages never carry an entity.
    ("https://example.com/login?next=%2Fhome", "sign_in", "example.com", None),
    ("https://blog.example.com/wp-login.php", "sign_in", "example.com", None),
    ("https://example.com/users/sign_in", "sign_in", "example.com", None),
    ("https://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=x&code=abc",
     "sign_in", "microsoftonline.com", None),
    ("https://accounts.google.com/o/oauth2/auth?state=xyz", "sign_in", "accounts.google.com", None),
    ("https://github.com/login", "sign_in", "github.com", None),
    ("https://example.com/signup?plan=pro", "sign_up", "example.com", None),
    ("https://accounts.google.com/signup/v2/webcreateaccount", "sign_up", "accounts.google.com", None),
    ("https://example.com/account/logout", "sign_out", "example.com", None),
    ("https://example.com/forgot-password?email=me%40example.com", "password_reset", "example.com", None),
    # Site sections.
    ("https://shop.example.com/checkout/payment", "checkout", "example.com", None),
    ("https://www.amazon.com/gp/cart/view.html", "shopping_cart", "amazon.com", None),
    ("https://github.com/settings/profile", "settings", "github.com", None),
    ("https://myaccount.google.com/security", "settings", "myaccount.google.com", None),
    ("https://blog.example.com/wp-admin/edit.php", "admin_page", "example.com", None),
    ("https://dashboard.stripe.com/payments", "dashboard", "stripe.com", None),
    ("https://example.com/dashboard/overview", "dashboard", "example.com", None),
    ("https://example.com/", "homepage", "example.com", None),
    ("https://www.example.com/?utm_source=newsletter", "homepage", "example.com", None),
    ("https://example.com/?p=12", "homepage", "example.com", None),
    # Documentation.
    ("https://docs.djangoproject.com/en/5.0/topics/db/models/", "docs_page", "djangoproject.com", "topics/db/models"),
    ("https://requests.readthedocs.io/en/latest/user/quickstart/",
     "docs_page", "requests.readthedocs.io", "user/quickstart"),
    ("https://example.com/docs/getting-started.html", "docs_page", "example.com", "getting-started"),
    ("https://docs.github.com/en/actions", "docs_page", "github.com", "actions"),
    ("https://learn.microsoft.com/en-us/windows/wsl/install", "docs_page", "microsoft.com", "windows/wsl/install"),
    ("https://docs.example.com/", "docs_page", "example.com", None),
    # Files.
    ("https://example.com/papers/attention%20is%20all.pdf", "pdf_document", "example.com", "attention is all.pdf"),
    ("https://example.com/releases/app-1.2.3.tar.gz", "file_download", "example.com", "app-1.2.3.tar.gz"),
    ("https://cdn.example.com/dl/Setup.EXE?sig=abc", "file_download", "example.com", "Setup.EXE"),
    # Hosts.
    ("http://localhost:8000/admin", "local_dev_server", "localhost:8000", "localhost:8000"),
    ("http://127.0.0.1:5000/", "local_dev_server", "127.0.0.1:5000", "127.0.0.1:5000"),
    ("http://app.localhost:5173/login", "local_dev_server", "app.localhost:5173", "app.localhost:5173"),
    ("http://myapp.test/", "local_dev_server", "myapp.test", "myapp.test"),
    ("http://[::1]:3000/", "local_dev_server", "[::1]:3000", "[::1]:3000"),
    ("localhost:3000/dashboard", "local_dev_server", "localhost:3000", "localhost:3000"),
    ("http://192.168.1.1/", "ip_host", "192.168.1.1", "192.168.1.1"),
    ("https://10.0.0.5:8443/ui", "ip_host", "10.0.0.5:8443", "10.0.0.5:8443"),
    ("http://[2001:db8::1]/status", "ip_host", "2001:db8::1", "2001:db8::1"),
    ("https://status.openai.com/", "status_page", "openai.com", None),
    ("https://api.github.com/repos/octocat/hello-world", "api_endpoint", "github.com", None),
    ("https://example.com/api/v1/users/42", "api_endpoint", "example.com", None),
    # Non-web schemes.
    ("file:///home/me/notes/todo.md", "local_file", "", "/home/me/notes/todo.md"),
    ("file:///home/me/My%20Docs/a.txt", "local_file", "", "/home/me/My Docs/a.txt"),
    ("file:///C:/Users/Me/report.pdf", "local_file", "", "/C:/Users/Me/report.pdf"),
    ("file://server/share/plan.odt", "local_file", "", "//server/share/plan.odt"),
    ("about:blank", "browser_page", "", "about:blank"),
    ("about:preferences#privacy", "browser_page", "", "about:preferences"),
    ("chrome://settings/privacy", "browser_page", "", "chrome://settings"),
    ("edge://newtab/", "browser_page", "", "edge://newtab"),
    ("view-source:https://example.com/", "browser_page", "", "view-source"),
    ("chrome-extension://abcdefghijklmnopabcdefghijklmnop/popup.html",
     "browser_extension", "", "abcdefghijklmnopabcdefghijklmnop"),
    ("moz-extension://0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b/options.html",
     "browser_extension", "", "0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"),
    ("mailto:bob@example.com?subject=hi", "app_link", "", "mailto"),
    ("tel:+15551234567", "app_link", "", "tel"),
    ("zoommtg://zoom.us/join?confno=123&pwd=abc", "app_link", "", "zoommtg"),
    ("javascript:void(0)", "app_link", "", "javascript"),
    ("data:text/html,<h1>hi</h1>", "app_link", "", "data"),
    ("hunter2:whatever", "app_link", "", None),
]

FALLBACK_CASES = [
    ("", "unknown", ""),
    ("   ", "unknown", ""),
    ("not a url", "unknown", ""),
    ("foo", "unknown", ""),
    ("http://", "unknown", ""),
    ("https:///just/a/path", "unknown", ""),
    ("://example.com", "unknown", ""),
    ("https://exa mple.com/", "unknown", ""),
    ("https://example.com/some/page", "domain", "example.com"),
    ("example.com/some/path", "domain", "example.com"),
    ("//example.com/protocol-relative", "domain", "example.com"),
    ("  \thttps://example.com/x\n", "domain", "example.com"),
    ("https://Example.COM./Path", "domain", "example.com"),
    ("http://bücher.de/katalog", "domain", "bücher.de"),
    ("https://xn--bcher-kva.de/katalog", "domain", "bücher.de"),
    ("https://user:pass@example.com:8443/x#frag", "domain", "example.com"),
    ("user:pass@example.com/x", "domain", "example.com"),
    ("https://example.com:99999/x", "domain", "example.com"),
    ("https://example.com/%ZZ%/x", "domain", "example.com"),
    ("https://example.com/research?q=x", "domain", "example.com"),
    ("https://example.com/authors/jane", "domain", "example.com"),
    ("https://example.com/blog/signing-bonus", "domain", "example.com"),
    ("https://example.co.uk/a", "domain", "example.co.uk"),
    ("https://a.b.example.org/a", "domain", "example.org"),
    ("https://someone.github.io/project/", "domain", "someone.github.io"),
    ("http://intranet/wiki/page", "domain", "intranet"),
]


@pytest.mark.parametrize(("url", "kind", "site", "entity"), GENERIC_CASES)
def test_generic_detector(url: str, kind: str, site: str, entity: str | None) -> None:
    assert resolve(url) == PageRef(kind, site, entity, "generic")


@pytest.mark.parametrize(("url", "kind", "site"), FALLBACK_CASES)
def test_fallback(url: str, kind: str, site: str) -> None:
    assert resolve(url) == PageRef(kind, site, None, "fallback")


@pytest.mark.parametrize("junk", [None, 42, b"https://example.com", 3.5])
def test_non_string_input_is_unknown_not_an_error(junk) -> None:
    assert type_url(junk) == PageRef("unknown", "", None, "fallback")


SITE_KEYS = [
    ("https://www.github.com/a/b", "github.com"),
    ("https://gist.github.com/x", "github.com"),
    ("https://twitter.com/jack", "x.com"),
    ("https://youtu.be/dQw4w9WgXcQ", "youtube.com"),
    ("https://chat.openai.com/", "chatgpt.com"),
    ("https://mail.google.com/mail/u/0/", "mail.google.com"),
    ("https://a.b.docs.google.com/x", "docs.google.com"),
    ("https://www.google.com/", "google.com"),
    ("https://m.google.com/", "google.com"),
    ("https://news.ycombinator.com/", "news.ycombinator.com"),
    ("https://ycombinator.com/companies", "ycombinator.com"),
    ("https://en.m.wikipedia.org/wiki/X", "wikipedia.org"),
    ("https://www.amazon.co.jp/dp/B000000000", "amazon.co.jp"),
    ("https://acme.atlassian.net/browse/X-1", "acme.atlassian.net"),
    ("https://unix.stackexchange.com/q/1", "unix.stackexchange.com"),
    ("http://localhost/", "localhost"),
    ("http://localhost:3000/", "localhost:3000"),
    ("https://example.com:8443/", "example.com"),
    ("file:///etc/hosts", ""),
    ("about:blank", ""),
    ("garbage", ""),
]


@pytest.mark.parametrize(("url", "site"), SITE_KEYS)
def test_site_of(url: str, site: str) -> None:
    assert site_of(url) == site


def test_long_entities_are_capped_with_an_ellipsis() -> None:
    ref = type_url("https://www.google.com/search?q=" + "word+" * 100)
    assert ref.entity is not None
    assert len(ref.entity) == ENTITY_MAX_CHARS
    assert ref.entity.endswith("…")
    assert ref.entity.startswith("word word")


def test_entities_have_no_control_characters_or_runs_of_spaces() -> None:
    ref = type_url("https://www.google.com/search?q=%20a%0A%0Db%00%09c%20%20")
    assert ref.entity == "a b c"


def test_type_url_is_memoised() -> None:
    url = "https://github.com/memo/test"
    assert type_url(url) is type_url(url)
    assert type_url.cache_info().maxsize == 8192
