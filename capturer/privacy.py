"""Privacy rules, as pure functions: which windows are excluded, and which
fields may never have their text read.

An excluded window leaves a blind-spot row naming the rule and nothing else:
no snapshot, no title, no screenshot, no elements, no input counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .sources.base import WindowInfo


@dataclass(frozen=True, slots=True)
class ExclusionRule:
    """Matches a window when every given field matches (an empty field is not
    checked). `app` compares case-insensitively with the app name, WM_CLASS
    parts and executable name; the regexes search WM_CLASS and the title."""

    name: str
    app: str = ""
    wm_class_regex: str = ""
    title_regex: str = ""

    def matches(self, window: "WindowIdentity") -> bool:
        if not (self.app or self.wm_class_regex or self.title_regex):
            return False
        if self.app and self.app.casefold() not in window.app_names():
            return False
        if self.wm_class_regex and not _compiled(self.wm_class_regex).search(window.wm_class):
            return False
        if self.title_regex and not _compiled(self.title_regex).search(window.title):
            return False
        return True


@dataclass(frozen=True, slots=True)
class WindowIdentity:
    """The parts of a window an exclusion rule may look at."""

    app: str
    wm_class: str
    title: str
    executable: str = ""

    def app_names(self) -> frozenset[str]:
        names = {self.app, *self.wm_class.split("."), self.executable.rsplit("/", 1)[-1]}
        return frozenset(n.casefold() for n in names if n)


_PASSWORD_MANAGERS = ("keepassxc", "keepass2", "keepass", "1password", "bitwarden", "enpass",
                      "seahorse", "kwalletmanager5", "kwalletmanager", "lastpass", "proton-pass",
                      "gnome-keyring", "org.gnome.seahorse.application")

DEFAULT_EXCLUSIONS: tuple[ExclusionRule, ...] = (
    *(ExclusionRule(name=f"password manager ({app})", app=app) for app in _PASSWORD_MANAGERS),
    ExclusionRule(name="private browser window",
                  title_regex=r"(?i)\bprivate browsing\b|\bincognito\b|\binprivate\b"),
    ExclusionRule(name="passphrase or authentication prompt",
                  wm_class_regex=r"(?i)pinentry|polkit|gcr-prompter|ssh-askpass"),
)


def first_matching_rule(rules: tuple[ExclusionRule, ...], window: WindowIdentity) -> ExclusionRule | None:
    """The first rule that excludes this window, or None to capture it."""
    for rule in rules:
        if rule.matches(window):
            return rule
    return None


def excluding_rule(rules: tuple[ExclusionRule, ...], window: WindowInfo) -> ExclusionRule | None:
    """`first_matching_rule` for a window as the X source describes it."""
    return first_matching_rule(rules, WindowIdentity(window.app, window.wm_class, window.title,
                                                     window.executable or ""))


# AT-SPI roles whose text is a secret. Their text is never read, even inside an
# explicit recording.
SECRET_ROLES = frozenset({"password text"})


def is_secret_field(role: str) -> bool:
    return role in SECRET_ROLES


_cache: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    compiled = _cache.get(pattern)
    if compiled is None:
        compiled = _cache[pattern] = re.compile(pattern)
    return compiled
