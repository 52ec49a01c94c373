"""The privacy rules, applied to imported history in this one place.

An imported window is judged by the same exclusion rules as a live one
(`capturer.privacy.first_matching_rule`, with the person's configured rules):
an excluded window becomes a blind spot naming the rule and nothing else —
no snapshot, no title, no URL, no input. A foreign record names an app but
no WM_CLASS; ActivityWatch's window watcher on X11 reports the WM_CLASS as
the app, so the app name is offered to the rules as both, which lets a
`wm_class_regex` rule match too (erring towards hiding).

Every imported URL goes through `sanitize_url`, which is live capture's
own rule (`core.urls.sanitize_url`): the importers hand it to each reader,
so an imported URL is stored exactly as a captured one would be.
"""

from __future__ import annotations

from capturer.privacy import ExclusionRule, WindowIdentity, first_matching_rule
from core.urls import sanitize_url as core_sanitize_url

# A browser's own word that a window is private: ActivityWatch's web watcher
# reports it as `incognito`. Such a window is hidden whatever the rules say.
PRIVATE_WINDOW = "private browser window"


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
    """The URL as Phantom may keep it — the one rule live capture applies
    (`core.urls.sanitize_url`): no credentials, and only the query
    parameters and fragment a page parser reads."""
    return core_sanitize_url(url)


