"""Shopping: Amazon (every country store), eBay and Etsy.

Carts and checkouts are left to the generic layer, which types them the
same way on every shop.
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import SEARCH_QUERY, PageRef, site_ref

AMAZON_PRODUCT = "amazon_product"
EBAY_ITEM = "ebay_item"
ETSY_LISTING = "etsy_listing"
ETSY_SHOP = "etsy_shop"

KINDS = (AMAZON_PRODUCT, EBAY_ITEM, ETSY_LISTING, ETSY_SHOP)

_ASIN = re.compile(r"[A-Z0-9]{10}")
# Path words Amazon puts right before an ASIN: /dp/, /gp/product/,
# /gp/aw/d/ (mobile), /exec/obidos/ASIN/ (very old links).
_ASIN_MARKERS = frozenset({"dp", "product", "d", "asin"})
_EBAY_ITEM_ID = re.compile(r"\d{9,15}")


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def amazon(url: Url) -> PageRef | None:
    """Products by ASIN (uppercase, the slug before /dp/ ignored); /s?k= searches."""
    segs = url.segments
    for marker, candidate in zip(segs, segs[1:]):
        if marker.lower() in _ASIN_MARKERS and _ASIN.fullmatch(candidate.upper()):
            return site_ref(url, AMAZON_PRODUCT, candidate.upper())
    if segs[:1] == ("s",) or (not segs and "k" in url.query):
        return site_ref(url, SEARCH_QUERY, url.query.get("k"))
    return None


def ebay(url: Url) -> PageRef | None:
    """/itm/<id> or /itm/<slug>/<id>; /sch/…?_nkw= searches."""
    segs = url.segments
    if segs and segs[0] == "itm":
        item = next((s for s in reversed(segs[1:]) if _EBAY_ITEM_ID.fullmatch(s)), None)
        return site_ref(url, EBAY_ITEM, item) if item else None
    if segs and segs[0] == "sch":
        return site_ref(url, SEARCH_QUERY, url.query.get("_nkw"))
    return None


def etsy(url: Url) -> PageRef | None:
    """/listing/<id>/<slug>, /shop/<name>, /search?q=."""
    segs = url.segments
    if len(segs) >= 2 and segs[0] == "listing" and _is_number(segs[1]):
        return site_ref(url, ETSY_LISTING, segs[1])
    if len(segs) >= 2 and segs[0] == "shop":
        return site_ref(url, ETSY_SHOP, segs[1].lower())
    if segs and segs[0] == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    return None
