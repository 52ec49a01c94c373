"""Pages that are not on the web: local files, browser internals, app links.

These never have a site key (site is ""), and every non-web URL is typed
here, so the detectors after this one only ever see http(s) URLs. What each
scheme is named by is declared in core/urls/reads.py, because capture keeps
only that of a non-web URL.
"""

from __future__ import annotations

from core.urls import KNOWN_SCHEMES, WEB_SCHEMES, Url
from core.urls.reads import BROWSER_SCHEMES, EXTENSION_SCHEMES, FILE_SCHEME

from ..ref import PageRef, generic_ref

LOCAL_FILE = "local_file"
BROWSER_PAGE = "browser_page"
BROWSER_EXTENSION = "browser_extension"
APP_LINK = "app_link"

KINDS = (LOCAL_FILE, BROWSER_PAGE, BROWSER_EXTENSION, APP_LINK)


def non_web_page(url: Url) -> PageRef | None:
    """Type any URL whose scheme is not http(s); None for web URLs."""
    scheme = url.scheme
    if scheme in WEB_SCHEMES:
        return None
    if scheme == FILE_SCHEME:
        # A file on another machine ("file://server/share/x") keeps its host.
        path = "/".join(url.segments)
        prefix = f"//{url.host}/" if url.host else "/"
        return generic_ref(url, LOCAL_FILE, prefix + path if path or url.host else None)
    if scheme in BROWSER_SCHEMES:
        # "chrome://settings/privacy" -> "chrome://settings"; "about:blank".
        # "view-source:" wraps another URL, which is not repeated here.
        if url.host and scheme != "view-source":
            return generic_ref(url, BROWSER_PAGE, f"{scheme}://{url.host}")
        if scheme == "about" and url.segments:
            return generic_ref(url, BROWSER_PAGE, f"about:{url.segments[0].lower()}")
        return generic_ref(url, BROWSER_PAGE, scheme)
    if scheme in EXTENSION_SCHEMES:
        return generic_ref(url, BROWSER_EXTENSION, url.host or None)
    # Only well-known scheme names become the entity: an unknown "scheme"
    # might be the first half of something the user typed, not a protocol.
    return generic_ref(url, APP_LINK, scheme if scheme in KNOWN_SCHEMES else None)
