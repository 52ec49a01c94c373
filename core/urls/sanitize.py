"""The URL as Phantom may store it: `sanitize_url(raw)`.

What is kept of a web URL: the scheme, the host and port (never the
`user:password@` in front of them), the path, the query parameters a page
parser declares it reads on that site or that the generic search detector
reads on that page (reads.py), and the fragment only where the site's parser
routes on it (Gmail's "#label/Work/<thread>", up to any "?", never a
"key=value" fragment such as "#access_token=…"). Everything
else — `token`, `code`, `key`, `sig`, `session`, tracking tags, parameters
nothing reads — is dropped. Of a non-web URL only what the scheme detector
names it by is kept: a file's path, a browser page's host, an extension's
id, otherwise the scheme alone ("mailto:", "data:", "javascript:").

The property that makes this safe to apply at capture: typing the
sanitised URL gives the same page reference as typing the raw one, for
every URL in the parsers' tables (tests/compiler/test_pages_sanitize.py).
Capture, `phantom import` and the compiler's readers all pass URLs through
here — the readers because a store written before capture applied this rule
may hold reset tokens and fragments verbatim.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote

from .parts import WEB_SCHEMES, parse_parts, readable_param_name, split_url
from .reads import BROWSER_SCHEMES, EXTENSION_SCHEMES, FILE_SCHEME, fragment_route, reads_for, search_params


def sanitize_url(text: str | None) -> str | None:
    """`text` reduced to what may be stored, or None when it is not a URL
    (what cannot be recognised cannot be cleaned, so it is not kept)."""
    if not text:
        return None
    return _sanitize(text)


@lru_cache(maxsize=4096)
def _sanitize(text: str) -> str | None:
    kept = _kept(text)
    if kept is None:
        return None
    # Reading strips a URL's ends; blanks that stood inside the raw URL and
    # end the kept one ("about: ?x" -> "about: ") are percent-encoded, so
    # the stored URL reads back as the raw one did.
    stripped = kept.rstrip()
    return stripped + quote(kept[len(stripped):], safe="") if stripped != kept else kept


def _kept(text: str) -> str | None:
    parts = split_url(text)
    if parts is None:
        return None
    scheme, netloc, path, query, fragment = parts
    authority = "" if netloc is None else "//" + netloc.rpartition("@")[2]
    if scheme not in WEB_SCHEMES:
        return _non_web(scheme, authority, path)
    url = parse_parts(parts)
    if not url.host:
        return f"{scheme}:{authority}{path}"  # nothing to file a page under
    reads = reads_for(url.site)
    kept_names = frozenset(search_params(url)) | (reads.params if reads else frozenset())
    # readable_param_name is None for credential-looking and tracking names:
    # those go even where a declaration names them.
    kept = [pair for pair in (query.split("&") if query else ())
            if readable_param_name(pair.partition("=")[0]) in kept_names]
    route = fragment_route(fragment) if fragment and reads and reads.fragment else ""
    return (f"{scheme}:{authority}{path}" + ("?" + "&".join(kept) if kept else "")
            + ("#" + route if route else ""))


def _non_web(scheme: str, authority: str, path: str) -> str:
    if scheme == FILE_SCHEME or scheme == "about":
        return f"{scheme}:{authority}{path}"
    if scheme in EXTENSION_SCHEMES or (scheme in BROWSER_SCHEMES and scheme != "view-source"):
        return f"{scheme}:{authority}"
    return f"{scheme}:"
