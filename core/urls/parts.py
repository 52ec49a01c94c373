"""Split a raw URL string, once, into the normalised pieces every layer reads.

Site parsers and generic detectors only ever look at a :class:`Url`, so none
of them has to defend against malformed input again.  Secret-bearing and
tracking query parameters are dropped here, before any layer can see them:
that makes "no token ever reaches an entity" a property of the parser input
rather than a promise each site parser has to keep.  Userinfo is discarded
for the same reason, and the fragment is kept raw for the one parser that
needs it (Gmail routes on it) and ignored by everything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import unquote, unquote_plus

from .sitekey import site_key

WEB_SCHEMES = frozenset({"http", "https"})

# Non-web schemes common enough that naming them tells the reader something.
KNOWN_SCHEMES = frozenset(
    {
        "about", "chrome", "edge", "brave", "opera", "vivaldi", "view-source",
        "chrome-extension", "moz-extension", "extension", "file", "data",
        "blob", "javascript", "mailto", "tel", "sms", "webcal", "magnet",
        "ftp", "sftp", "ssh", "git", "irc", "ircs", "ws", "wss", "slack",
        "zoommtg", "zoomus", "msteams", "vscode", "vscode-insiders",
        "jetbrains", "spotify", "steam", "discord", "tg", "whatsapp",
        "skype", "obsidian", "notion", "figma", "linear", "intent", "market",
    }
)

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_TABS_NEWLINES = re.compile(r"[\t\r\n]")
_WHITESPACE = re.compile(r"\s")
_AUTHORITY_END = re.compile(r"[/?#]")
# RFC 3986, appendix B: scheme, authority, path, query, fragment.
_URI_PARTS = re.compile(r"([^:/?#]+):(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.S)
_NO_WORDS: frozenset[str] = frozenset()
# A host typed without a scheme: "example.com", "bücher.de", "localhost",
# "10.0.0.1".  A dot is required for names so that plain words are not hosts.
_BARE_HOST = re.compile(
    r"localhost|[0-9]{1,3}(?:\.[0-9]{1,3}){3}"
    r"|(?:[^\W_](?:[\w-]*[^\W_])?\.)+[^\W\d_](?:[\w-]*[^\W_])?"
)
# Characters no real host contains; a netloc with them is garbage.
_BAD_HOST_CHARS = re.compile(r"[\s\x00-\x1f\x7f<>\"'`{}|\\^%@/?#]")

# Query parameters that carry credentials.  Matching is on the lowercased
# name; exact names catch short generic ones ("code", "state", "key"), the
# pattern catches the long tail ("x-amz-signature", "client_secret").
_SECRET_NAMES = frozenset(
    {
        "code", "state", "key", "sig", "sid", "pass", "pwd", "hash", "hmac",
        "otp", "nonce", "ticket", "jwt", "assertion", "magic", "invite",
        "samlresponse", "samlrequest", "oauth_verifier",
    }
)
_SECRET_PATTERN = re.compile(
    r"token|secret|passw|signature|credential|api_?key|auth|session"
    r"|(?:^|[_.\-])(?:key|sig)$"
)
_TRACKING_NAMES = frozenset(
    {
        "fbclid", "gclid", "gclsrc", "dclid", "msclkid", "mc_cid", "mc_eid",
        "igshid", "igsh", "si", "_ga", "_gl", "yclid", "twclid", "ttclid",
        "ref_src", "ref_url", "spm", "feature",
    }
)


@dataclass(frozen=True, slots=True)
class Url:
    """A parsed URL, reduced to what typing needs.  Treat as read-only."""

    scheme: str  # lowercased
    host: str  # lowercased, IDN decoded, no trailing dot, no "www."
    port: int | None
    site: str  # site key (see sitekey.py); "" for non-web schemes
    segments: tuple[str, ...]  # percent-decoded, empty segments dropped
    query: dict[str, str]  # lowercased name -> first value; secrets removed
    fragment: str  # raw; only parsers that route on it read it
    words: frozenset[str]  # first four path segments, lowercased, extension cut


def is_secret_param(name: str) -> bool:
    """True if a (lowercased) query parameter name may carry a credential."""
    return name in _SECRET_NAMES or _SECRET_PATTERN.search(name) is not None


@lru_cache(maxsize=2048)
def readable_param_name(raw_name: str) -> str | None:
    """The lowercased name of a query parameter typing may read, or None for
    an empty, tracking or credential-bearing one.

    Cached because a day's URLs reuse a few hundred parameter names.
    """
    name = _decode_plus(raw_name).strip().lower()
    if (
        not name
        or name.startswith("utm_")
        or name in _TRACKING_NAMES
        or is_secret_param(name)
    ):
        return None
    return name


def _decode_plus(text: str) -> str:
    return unquote_plus(text) if ("%" in text or "+" in text) else text


def _safe_query(raw: str) -> dict[str, str]:
    params: dict[str, str] = {}
    for pair in raw.split("&"):
        raw_name, _, value = pair.partition("=")
        name = readable_param_name(raw_name)
        if name is not None and name not in params:
            params[name] = _decode_plus(value)
    return params


def _normalise_host(host: str) -> str:
    host = host.lower().rstrip(".")
    if _BAD_HOST_CHARS.search(host):
        return ""
    if "xn--" in host:
        labels = []
        for label in host.split("."):
            if label.startswith("xn--"):
                try:
                    label = label.encode("ascii").decode("idna")
                except UnicodeError:
                    pass  # not valid punycode: keep the ASCII form
            labels.append(label)
        host = ".".join(labels)
    return host[4:] if host.startswith("www.") else host


def _split_host_port(netloc: str) -> tuple[str, int | None]:
    hostport = netloc.rpartition("@")[2]  # userinfo is dropped, never read
    if hostport.startswith("["):
        host, _, rest = hostport[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port_text = hostport.partition(":")
    port = None
    if port_text.isascii() and port_text.isdigit() and len(port_text) <= 5:
        port = int(port_text)
        if port > 65535:
            port = None
    return host, port


def _looks_like_bare_host(text: str) -> bool:
    hostport = _AUTHORITY_END.split(text, maxsplit=1)[0].rpartition("@")[2]
    return _BARE_HOST.fullmatch(hostport.partition(":")[0]) is not None


def _with_scheme(text: str) -> tuple[str, str] | None:
    """Return (scheme, url text with a scheme), or None if not URL-like."""
    match = _SCHEME.match(text)
    scheme = match.group(1).lower() if match else ""
    if scheme and ("." in scheme or scheme == "localhost"):
        scheme = ""  # "example.com:8080/x" or "localhost:3000": a host, not a scheme
    elif (
        scheme
        and scheme not in KNOWN_SCHEMES
        and scheme not in WEB_SCHEMES
        and "@" in _AUTHORITY_END.split(text, maxsplit=1)[0]
    ):
        scheme = ""  # "user:pass@example.com/x": userinfo on a bare host
    if scheme:
        return scheme, text
    if _WHITESPACE.search(text):
        return None
    if text.startswith("//"):
        return "http", "http:" + text
    if _looks_like_bare_host(text):
        return "http", "http://" + text
    return None


class UrlText(NamedTuple):
    """A URL string cut into its RFC 3986 parts, as written (nothing decoded)."""

    scheme: str            # lowercased; "http" when the text had none
    netloc: str | None     # the authority, userinfo included; None without "//"
    path: str
    query: str | None      # without the "?"; None when there was no "?"
    fragment: str | None   # without the "#"


def split_url(text: str) -> UrlText | None:
    """Cut *text* into its parts, or None when it is not recognisably a URL.
    A scheme-less host ("example.com/x") gets "http"."""
    text = text.strip()
    if "\t" in text or "\n" in text or "\r" in text:
        text = _TABS_NEWLINES.sub("", text)  # browsers drop these too
    found = _with_scheme(text) if text else None
    if found is None:
        return None
    scheme, text = found
    # The RFC 3986 splitting regex always matches once a scheme is present,
    # and unlike urlsplit it never raises.
    parts = _URI_PARTS.match(text)
    assert parts is not None
    _, netloc, path, query, fragment = parts.groups()
    return UrlText(scheme, netloc, path, query, fragment)


def parse_url(text: str) -> Url | None:
    """Parse *text* into a Url, or None when it is not recognisably a URL."""
    parts = split_url(text)
    return None if parts is None else parse_parts(parts)


def parse_parts(parts: UrlText) -> Url:
    """The Url of an already split URL."""
    scheme, netloc, path, query, fragment = parts
    host, port = _split_host_port(netloc) if netloc else ("", None)
    host = _normalise_host(host) if host else ""
    if "%" in path:
        segments = tuple(unquote(s) for s in path.split("/") if s)
    else:
        segments = tuple(filter(None, path.split("/")))
    is_web = scheme in WEB_SCHEMES
    return Url(
        scheme=scheme,
        host=host,
        port=port,
        site=site_key(host, port) if is_web and host else "",
        segments=segments,
        query=_safe_query(query) if query else {},
        fragment=fragment or "",
        words=(
            frozenset([s.lower().partition(".")[0] for s in segments[:4]])
            if is_web and segments
            else _NO_WORDS
        ),
    )
