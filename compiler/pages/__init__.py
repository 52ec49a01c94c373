"""Typed page references: what a browser URL *was*, in a few words.

``type_url("https://github.com/Octocat/Hello-World/pull/12")`` gives
``PageRef(kind="github_pull_request", site="github.com",
entity="octocat/hello-world#12", layer="site")``.

Three layers, first answer wins (see resolve.py):

* ``site``     bespoke parsers for popular sites (sites/, SITE_PARSERS);
* ``generic``  site-independent detectors: searches, auth pages, carts,
               settings, docs, downloads, dev servers, browser pages…
               (generic/);
* ``fallback`` the site itself (kind "domain"), or "unknown" when the
               input is not a usable URL.

Kind naming: site-layer kinds are ``<product>_<thing>`` ("youtube_video");
kinds any site can have are bare ("search_query", "sign_in"), and site
parsers reuse them, so every search is one kind wherever it ran.  The
site-key rule is documented in core/urls/sitekey.py.  Everything here is pure,
deterministic and standard-library only.
"""

from __future__ import annotations

from .fallback import KINDS as _FALLBACK_KINDS
from .generic import GENERIC_KINDS
from .ref import ENTITY_MAX_CHARS, PageRef
from .resolve import site_of, type_url
from .sites import SITE_KINDS, SITE_PARSERS, SiteParser

KINDS: tuple[str, ...] = tuple(sorted({*SITE_KINDS, *GENERIC_KINDS, *_FALLBACK_KINDS}))

__all__ = [
    "ENTITY_MAX_CHARS",
    "KINDS",
    "SITE_PARSERS",
    "PageRef",
    "SiteParser",
    "site_of",
    "type_url",
]
