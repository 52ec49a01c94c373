"""Documentation pages on any site: docs hosts and /docs/-style paths.

The entity is the page path inside the documentation with the parts that
only pick a language or a release removed ("en/5.0/topics/db/" ->
"topics/db"), so the same page read in two versions is one entity.
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import PageRef, generic_ref

DOCS_PAGE = "docs_page"

KINDS = (DOCS_PAGE,)

_DOCS_HOST_LABELS = frozenset(
    {"docs", "doc", "developer", "developers", "devdocs", "documentation", "learn"}
)
_DOCS_PATH_WORDS = frozenset(
    {"docs", "doc", "documentation", "manual", "reference", "guide", "guides",
     "handbook", "api-reference", "tutorial", "tutorials"}
)
# A closed list, because many real doc sections are two letters ("go", "js").
_LOCALES = frozenset(
    {"en", "en-us", "en-gb", "de", "fr", "es", "it", "ja", "ko", "nl", "pl",
     "pt", "pt-br", "ru", "sv", "tr", "uk", "zh", "zh-cn", "zh-tw", "zh-hans",
     "zh-hant"}
)
_VERSION = re.compile(
    r"v?\d+(?:\.\d+)*(?:\.x)?|latest|stable|dev|main|master|current|next|nightly"
)
_PAGE_SUFFIXES = (".html", ".htm", ".md", ".mdx")


def _is_docs_host(url: Url) -> bool:
    return (
        url.host.partition(".")[0] in _DOCS_HOST_LABELS and "." in url.host
    ) or url.site.endswith(".readthedocs.io")


def docs_page(url: Url) -> PageRef | None:
    segs = url.segments
    if not _is_docs_host(url):
        start = next(
            (i for i, s in enumerate(segs[:3]) if s.lower() in _DOCS_PATH_WORDS), None
        )
        if start is None:
            return None
        segs = segs[start + 1:]
    path = list(segs)
    while path and (path[0].lower() in _LOCALES or _VERSION.fullmatch(path[0].lower())):
        path.pop(0)
    if path:
        last = path[-1]
        for suffix in _PAGE_SUFFIXES:
            last = last.removesuffix(suffix)
        path[-1] = last
        if last == "index":
            path.pop()
    return generic_ref(url, DOCS_PAGE, "/".join(path))
