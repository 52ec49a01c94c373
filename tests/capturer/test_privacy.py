"""Exclusion rules as pure functions."""

from __future__ import annotations

import pytest

from capturer.privacy import DEFAULT_EXCLUSIONS, ExclusionRule, WindowIdentity, first_matching_rule, is_secret_field


@pytest.mark.parametrize("window, rule_name", [
    (WindowIdentity("keepassxc", "keepassxc.KeePassXC", "Passwords.kdbx - KeePassXC"), "password manager (keepassxc)"),
    (WindowIdentity("firefox", "Navigator.firefox", "Inbox — Mozilla Firefox Private Browsing"),
     "private browser window"),
    (WindowIdentity("google-chrome", "google-chrome.Google-chrome", "New Tab - Google Chrome (Incognito)"),
     "private browser window"),
    (WindowIdentity("pinentry-gtk-2", "pinentry-gtk-2.Pinentry-gtk-2", "Passphrase"),
     "passphrase or authentication prompt"),
    (WindowIdentity("app", "app.App", "x", executable="/opt/bitwarden/bitwarden"), "password manager (bitwarden)"),
])
def test_default_rules_exclude_sensitive_windows(window, rule_name):
    assert first_matching_rule(DEFAULT_EXCLUSIONS, window).name == rule_name


@pytest.mark.parametrize("window", [
    WindowIdentity("firefox", "Navigator.firefox", "Privacy policy — Mozilla Firefox"),
    WindowIdentity("gedit", "gedit.Gedit", "notes.txt"),
    WindowIdentity("phantom-form", "phantom-form.phantom-form", "Phantom Form"),
])
def test_ordinary_windows_are_captured(window):
    assert first_matching_rule(DEFAULT_EXCLUSIONS, window) is None


def test_a_rule_needs_all_its_fields_to_match():
    rule = ExclusionRule("work chat", app="slack", title_regex="(?i)hr-private")
    assert rule.matches(WindowIdentity("slack", "slack.Slack", "#hr-private | Slack"))
    assert not rule.matches(WindowIdentity("slack", "slack.Slack", "#general | Slack"))
    assert not rule.matches(WindowIdentity("firefox", "x.y", "#hr-private"))
    assert not ExclusionRule("empty").matches(WindowIdentity("a", "b", "c"))


def test_only_password_text_is_secret():
    assert is_secret_field("password text")
    assert not is_secret_field("text")
