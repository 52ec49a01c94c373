"""The privacy rules, applied to imported history in this one place.

An imported window is judged by the same exclusion rules as a live one
(`capturer.privacy.first_matching_rule`, with the person's configured rules):
an excluded window becomes a blind spot naming the rule and nothing else —
no snapshot, no title, no URL, no input. A foreign record names an app but
no WM_CLASS; ActivityWatch's window watcher on X11 reports the WM_CLASS as
the app, so the app name is offered to the rules as both, which lets a
`wm_class_regex` rule match too (erring towards hiding).

Every imported URL goes through `sanitize_url`, the single call site for
the URL rules: when core's URL sanitiser lands (branch url-privacy), this
name is pointed at it and nothing else changes.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from capturer.privacy import ExclusionRule, WindowIdentity, first_matching_rule

# A browser's own word that a window is private: ActivityWatch's web watcher
# reports it as `incognito`. Such a window is hidden whatever the rules say.
PRIVATE_WINDOW = "private browser window"

_SECRET_PARAMETER = re.compile(
    r"(?i)^(access_?token|id_?token|refresh_?token|token|auth|authorization|code|key|api_?key|"
    r"apikey|secret|client_secret|password|passwd|pwd|pass|session|sessionid|sid|sig|signature|"
    r"otp|x-amz-signature|x-amz-credential|x-amz-security-token)$")


def exclusion(rules: tuple[ExclusionRule, ...], app: str, title: str, *, page_title: str = "",
              private: bool = False) -> str | None:
    """The name of the rule that hides this window (its title, or the title
    of the page it shows), or None to import it."""
    for shown_title in (title, page_title) if page_title and page_title != title else (title,):
        rule = first_matching_rule(rules, WindowIdentity(app, app, shown_title))
        if rule is not None:
            return rule.name
    return PRIVATE_WINDOW if private else None


def sanitize_url(url: str | None) -> str | None:
    """The URL as Phantom may keep it: no user name or password, no fragment,
    no query parameter whose name marks a secret (tokens, keys, codes,
    signatures, sessions). None for anything that is not an absolute URL."""
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
        port = parts.port
    except ValueError:
        return None
    if not parts.scheme or not (host or parts.scheme == "file"):
        return None
    host = f"[{host}]" if host and ":" in host else (host or "")
    netloc = host + (f":{port}" if port else "")
    query = urlencode([(name, value) for name, value in parse_qsl(parts.query, keep_blank_values=True)
                       if not _SECRET_PARAMETER.match(name)])
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))
