"""Reference reading: Wikipedia, arXiv, Medium, the Python docs and MDN."""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import SEARCH_QUERY, PageRef, site_ref

WIKIPEDIA_ARTICLE = "wikipedia_article"
ARXIV_PAPER = "arxiv_paper"
ARXIV_LISTING = "arxiv_listing"
MEDIUM_ARTICLE = "medium_article"
MEDIUM_PROFILE = "medium_profile"
PYTHON_DOCS_PAGE = "python_docs_page"
MDN_PAGE = "mdn_page"

KINDS = (
    WIKIPEDIA_ARTICLE, ARXIV_PAPER, ARXIV_LISTING, MEDIUM_ARTICLE,
    MEDIUM_PROFILE, PYTHON_DOCS_PAGE, MDN_PAGE,
)

# New-style ids ("2301.01234") and pre-2007 ones ("hep-th/9901001").
_ARXIV_ID = re.compile(r"\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7}")
_ARXIV_VERSION = re.compile(r"v\d+$")
# Medium appends a hex post id to every article slug: "my-title-1a2b3c4d5e6f".
_MEDIUM_POST_ID = re.compile(r"(?:^|-)([0-9a-f]{8,12})$")
# Leading path parts of docs.python.org that pick a translation or version.
_PYDOCS_PREFIX = re.compile(r"[a-z]{2}(?:-[a-z]{2})?|\d+(?:\.\d+)*|dev")


def wikipedia(url: Url) -> PageRef | None:
    """Articles in any language edition: entity "lang:Title".

    MediaWiki treats "_" as a space and upper-cases the first letter, so the
    entity does too; the rest of the title is case-sensitive and kept.
    """
    segs = url.segments
    language = url.host.split(".", 1)[0]
    if language in ("wikipedia", "m"):
        language = ""
    if len(segs) >= 2 and segs[0] == "wiki":
        title = "/".join(segs[1:])
    elif segs[:2] == ("w", "index.php"):
        if url.query.get("search"):
            return site_ref(url, SEARCH_QUERY, url.query["search"])
        title = url.query.get("title", "")
    else:
        return None
    if title.startswith("Special:Search"):
        typed = url.query.get("search") or title[15:].replace("_", " ")
        return site_ref(url, SEARCH_QUERY, typed)
    title = title.replace("_", " ").strip()
    if not title:
        return None
    title = title[0].upper() + title[1:]
    return site_ref(url, WIKIPEDIA_ARTICLE, f"{language}:{title}" if language else title)


def arxiv(url: Url) -> PageRef | None:
    """/abs, /pdf and /html pages share one entity: the id without version."""
    segs = url.segments
    if len(segs) >= 2 and segs[0] in ("abs", "pdf", "html", "format"):
        paper = _ARXIV_VERSION.sub("", "/".join(segs[1:]).removesuffix(".pdf"))
        if _ARXIV_ID.fullmatch(paper):
            return site_ref(url, ARXIV_PAPER, paper)
        return None
    if len(segs) >= 2 and segs[0] == "list":
        return site_ref(url, ARXIV_LISTING, segs[1])
    return None


def medium(url: Url) -> PageRef | None:
    """Articles keyed by their hex post id; "@user" pages are profiles."""
    segs = url.segments
    if not segs:
        return None
    if segs[0] == "p" and len(segs) >= 2 and _MEDIUM_POST_ID.search(segs[1]):
        return site_ref(url, MEDIUM_ARTICLE, segs[1])
    post = _MEDIUM_POST_ID.search(segs[-1]) if len(segs) >= 2 or url.host != "medium.com" else None
    if post:
        return site_ref(url, MEDIUM_ARTICLE, post.group(1))
    if segs[0].startswith("@"):
        return site_ref(url, MEDIUM_PROFILE, segs[0].lower())
    return None


def python_docs(url: Url) -> PageRef | None:
    """docs.python.org: "library/os.path", without language, version or .html."""
    segs = list(url.segments)
    while segs and _PYDOCS_PREFIX.fullmatch(segs[0]):
        segs.pop(0)
    if segs and segs[-1] in ("search.html", "search"):
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    if segs:
        segs[-1] = segs[-1].removesuffix(".html")
        if segs[-1] == "index":
            segs.pop()
    return site_ref(url, PYTHON_DOCS_PAGE, "/".join(segs))


def mdn(url: Url) -> PageRef | None:
    """developer.mozilla.org/<locale>/docs/<path>; the locale is dropped."""
    segs = url.segments
    if "docs" in segs[:2]:
        path = segs[segs.index("docs") + 1:]
        return site_ref(url, MDN_PAGE, "/".join(path)) if path else None
    if "search" in segs[:2]:
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    return None
