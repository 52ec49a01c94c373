"""Sign-in, sign-up, sign-out and password-reset pages, on any site.

Auth pages never get an entity: their paths and parameters are exactly
where one-time codes, reset tokens and invitation links live.  Detection
uses whole path words (the first few segments, lowercased, with any file
extension cut), so "/authors" is not "auth" and "/lessons" is not "sso".
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import PageRef, generic_ref

SIGN_IN = "sign_in"
SIGN_UP = "sign_up"
SIGN_OUT = "sign_out"
PASSWORD_RESET = "password_reset"

KINDS = (SIGN_IN, SIGN_UP, SIGN_OUT, PASSWORD_RESET)

_SIGN_OUT_WORDS = frozenset(
    {"logout", "log-out", "log_out", "logoff", "signout", "sign-out", "sign_out"}
)
_PASSWORD_RESET_WORDS = frozenset(
    {"forgot-password", "forgot_password", "forgotpassword", "forgot",
     "password-reset", "password_reset", "passwordreset", "reset-password",
     "reset_password", "resetpassword", "password-recovery", "account-recovery"}
)
_SIGN_UP_WORDS = frozenset(
    {"signup", "sign-up", "sign_up", "register", "registration",
     "create-account", "createaccount", "create_account"}
)
_SIGN_IN_WORDS = frozenset(
    {"login", "log-in", "log_in", "signin", "sign-in", "sign_in", "auth",
     "oauth", "oauth2", "authorize", "authenticate", "sso", "saml", "saml2",
     "openid", "servicelogin", "2fa", "mfa", "two-factor", "two_factor"}
)
# Compound words such as "wp-login" or "user_signin" (not "signing").
_SIGN_IN_COMPOUND = re.compile(r"(?:^|[^a-z])(?:log[-_]?in|sign[-_]?in)(?:$|[^a-z])")
# Identity-provider hosts: accounts.google.com, login.microsoftonline.com…
_SIGN_IN_HOST_LABELS = frozenset(
    {"accounts", "login", "auth", "signin", "sso", "id", "idp", "identity", "oauth"}
)


def sign_out(url: Url) -> PageRef | None:
    if not url.words.isdisjoint(_SIGN_OUT_WORDS):
        return generic_ref(url, SIGN_OUT)
    return None


def password_reset(url: Url) -> PageRef | None:
    if not url.words.isdisjoint(_PASSWORD_RESET_WORDS):
        return generic_ref(url, PASSWORD_RESET)
    return None


def sign_up(url: Url) -> PageRef | None:
    if not url.words.isdisjoint(_SIGN_UP_WORDS):
        return generic_ref(url, SIGN_UP)
    return None


def sign_in(url: Url) -> PageRef | None:
    if (
        not url.words.isdisjoint(_SIGN_IN_WORDS)
        or any(_SIGN_IN_COMPOUND.search(word) for word in url.words)
        or (url.host.count(".") >= 2 and url.host.partition(".")[0] in _SIGN_IN_HOST_LABELS)
    ):
        return generic_ref(url, SIGN_IN)
    return None
