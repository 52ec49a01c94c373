"""Decide the site key a host is filed under.

Activity frames are keyed by (app, site), so the key has to be coarse
enough that one product keeps one key across its hosts and fine enough that
different products do not blur together.  The rule, first match wins:

1. Local and IP hosts keep their port: ``localhost:3000``, ``myapp.test``,
   ``192.168.1.1:8080``, ``[::1]:8000``.  On those hosts the port is what
   tells two services apart.
2. Aliases collapse to one key: ``twitter.com`` -> ``x.com``,
   ``youtu.be`` -> ``youtube.com``, ``chat.openai.com`` -> ``chatgpt.com``...
3. Product hosts keep their full host: every subdomain of google.com
   (``mail.google.com``, ``docs.google.com``, ``calendar.google.com``...) and
   a short named list (``news.ycombinator.com``, ``docs.python.org``, the
   Outlook hosts...).  Gmail and Google Search share a domain but are
   different activities.
4. Everything else is the registrable domain: one label left of the public
   suffix, with ``www.`` and other subdomains dropped.  The suffix table is a
   small embedded subset of the Public Suffix List: common two-label ccTLD
   suffixes (``co.uk``) plus hosting platforms where every subdomain has a
   different owner (``acme.atlassian.net``, ``unix.stackexchange.com``,
   ``user.github.io``).  Hosts outside the table fall back to the last two
   labels, which is right for the large majority of browsing.
"""

from __future__ import annotations

import re
from functools import lru_cache

_IPV4 = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}")

_TWO_LABEL_SUFFIXES = frozenset(
    {
        # Country-code second levels seen in everyday browsing.
        "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "ltd.uk", "plc.uk",
        "com.au", "net.au", "org.au", "edu.au", "gov.au",
        "co.nz", "org.nz", "co.jp", "ne.jp", "or.jp", "ac.jp",
        "co.kr", "or.kr", "co.in", "net.in", "org.in", "co.za", "co.il",
        "co.id", "co.th", "com.br", "com.mx", "com.ar", "com.co", "com.tr",
        "com.cn", "net.cn", "org.cn", "com.hk", "com.tw", "com.sg",
        "com.my", "com.ph", "com.vn", "com.pe", "com.sa", "com.eg",
        "com.pk", "com.ng", "com.ua", "com.pl",
        # Platforms that hand each customer or community its own subdomain.
        "github.io", "gitlab.io", "atlassian.net", "stackexchange.com",
        "readthedocs.io", "vercel.app", "netlify.app", "herokuapp.com",
        "pages.dev", "workers.dev", "web.app", "firebaseapp.com",
        "appspot.com", "blogspot.com", "substack.com", "notion.site",
        "wordpress.com", "tumblr.com", "azurewebsites.net",
        "ngrok.io", "ngrok-free.app", "fly.dev", "onrender.com",
    }
)

# Domains where every subdomain is its own product.
_PRODUCT_PARENTS = frozenset({"google.com"})
# Subdomains of a product parent that are just the parent itself.
_NOT_A_PRODUCT = frozenset({"www", "m"})

_PRODUCT_HOSTS = frozenset(
    {
        "news.ycombinator.com",
        "docs.python.org",
        "developer.mozilla.org",
        "outlook.office.com",
        "outlook.office365.com",
        "outlook.live.com",
        "teams.microsoft.com",
        "music.youtube.com",
    }
)

_ALIASES = {
    "twitter.com": "x.com",
    "youtu.be": "youtube.com",
    "youtube-nocookie.com": "youtube.com",
    "redd.it": "reddit.com",
    "chat.openai.com": "chatgpt.com",
    "fb.com": "facebook.com",
    "instagr.am": "instagram.com",
}


def is_ip_literal(host: str) -> bool:
    """True for dotted IPv4 and for IPv6 (the only hosts containing ':')."""
    return ":" in host or _IPV4.fullmatch(host) is not None


def is_local_host(host: str) -> bool:
    """Loopback and reserved development names: what a dev server runs on."""
    return (
        host == "localhost"
        or host.endswith((".localhost", ".test"))
        or host.startswith("127.")
        or host in ("::1", "0.0.0.0")
    )


def registrable_domain(host: str) -> str:
    """One label left of the public suffix (see the module docstring)."""
    labels = host.split(".")
    if len(labels) <= 2:
        return host
    if f"{labels[-2]}.{labels[-1]}" in _TWO_LABEL_SUFFIXES:
        return ".".join(labels[-3:])
    return f"{labels[-2]}.{labels[-1]}"


@lru_cache(maxsize=4096)
def site_key(host: str, port: int | None = None) -> str:
    """The site key for an already lowercased, dot-trimmed host."""
    if not host:
        return ""
    if is_local_host(host) or is_ip_literal(host):
        if port is None:
            return host
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    bare = host[4:] if host.startswith("www.") else host
    if bare in _ALIASES:
        return _ALIASES[bare]
    if bare in _PRODUCT_HOSTS:
        return bare
    domain = registrable_domain(bare)
    if domain in _PRODUCT_PARENTS and bare != domain:
        # "a.b.mail.google.com" files under the product label next to the
        # parent, "mail.google.com".
        product = bare[: -len(domain) - 1].rsplit(".", 1)[-1]
        if product not in _NOT_A_PRODUCT:
            return f"{product}.{domain}"
    return _ALIASES.get(domain, domain)
