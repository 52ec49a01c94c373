"""Well-known sections of any site: cart, checkout, settings, admin, dashboard, home.

Like the auth detectors, these match whole path words (see Url.words) and
carry no entity: the section name is the whole information, and what
follows it in the path (order numbers, account ids) is nobody's business.
"""

from __future__ import annotations

from core.urls import Url

from ..ref import PageRef, generic_ref

CHECKOUT = "checkout"
SHOPPING_CART = "shopping_cart"
SETTINGS = "settings"
ADMIN_PAGE = "admin_page"
DASHBOARD = "dashboard"
HOMEPAGE = "homepage"

KINDS = (CHECKOUT, SHOPPING_CART, SETTINGS, ADMIN_PAGE, DASHBOARD, HOMEPAGE)

_CHECKOUT_WORDS = frozenset({"checkout", "check-out", "payment", "pay"})
_CART_WORDS = frozenset(
    {"cart", "basket", "shopping-cart", "shoppingcart", "shopping_cart", "bag"}
)
_SETTINGS_WORDS = frozenset(
    {"settings", "preferences", "prefs", "account", "my-account", "myaccount",
     "user-settings", "profile-settings", "edit-profile"}
)
_SETTINGS_HOST_LABELS = frozenset({"myaccount", "account"})
_ADMIN_WORDS = frozenset({"admin", "wp-admin", "administrator"})
_DASHBOARD_WORDS = frozenset({"dashboard", "console"})
_DASHBOARD_HOST_LABELS = frozenset({"dashboard", "console", "portal"})


def _host_label(url: Url) -> str:
    return url.host.partition(".")[0] if url.host.count(".") >= 2 else ""


def checkout(url: Url) -> PageRef | None:
    if not url.words.isdisjoint(_CHECKOUT_WORDS):
        return generic_ref(url, CHECKOUT)
    return None


def shopping_cart(url: Url) -> PageRef | None:
    if not url.words.isdisjoint(_CART_WORDS):
        return generic_ref(url, SHOPPING_CART)
    return None


def settings(url: Url) -> PageRef | None:
    if not url.words.isdisjoint(_SETTINGS_WORDS) or _host_label(url) in _SETTINGS_HOST_LABELS:
        return generic_ref(url, SETTINGS)
    return None


def admin_page(url: Url) -> PageRef | None:
    if not url.words.isdisjoint(_ADMIN_WORDS) or _host_label(url) == "admin":
        return generic_ref(url, ADMIN_PAGE)
    return None


def dashboard(url: Url) -> PageRef | None:
    if not url.words.isdisjoint(_DASHBOARD_WORDS) or _host_label(url) in _DASHBOARD_HOST_LABELS:
        return generic_ref(url, DASHBOARD)
    return None


def homepage(url: Url) -> PageRef | None:
    """The root of a site, whatever its query string (campaign links etc.)."""
    if not url.segments:
        return generic_ref(url, HOMEPAGE)
    return None
