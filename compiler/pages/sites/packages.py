"""Package registries: PyPI, npm, crates.io and docs.rs.

Package names are normalised the way each registry compares them, so the
same package visited under two spellings yields one entity: PyPI folds
case and treats runs of "-", "_" and "." as one "-" (PEP 503); crates.io
folds case and treats "_" as "-"; npm names are lowercase by rule.
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import SEARCH_QUERY, PageRef, site_ref

PYPI_PACKAGE = "pypi_package"
NPM_PACKAGE = "npm_package"
RUST_CRATE = "rust_crate"
RUST_DOCS_PAGE = "rust_docs_page"

KINDS = (PYPI_PACKAGE, NPM_PACKAGE, RUST_CRATE, RUST_DOCS_PAGE)

_PEP503_SEPARATORS = re.compile(r"[-_.]+")
# rustdoc file names: "struct.Vec.html", "fn.spawn.html", "index.html".
_RUSTDOC_ITEM = re.compile(r"(?:[a-z]+\.)?([^.]+)\.html")


def pypi(url: Url) -> PageRef | None:
    """/project/<name>[/<version>], /simple/<name>, /search?q=."""
    segs = url.segments
    if len(segs) >= 2 and segs[0] in ("project", "simple"):
        name = _PEP503_SEPARATORS.sub("-", segs[1]).lower()
        if len(segs) >= 3 and segs[0] == "project" and segs[2][:1].isdigit():
            name = f"{name}=={segs[2]}"
        return site_ref(url, PYPI_PACKAGE, name)
    if segs and segs[0] == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    return None


def npm(url: Url) -> PageRef | None:
    """/package/<name> and /package/@scope/<name>, optionally /v/<version>."""
    segs = url.segments
    if len(segs) >= 2 and segs[0] == "package":
        if segs[1].startswith("@") and len(segs) >= 3:
            return site_ref(url, NPM_PACKAGE, f"{segs[1]}/{segs[2]}".lower())
        return site_ref(url, NPM_PACKAGE, segs[1].lower())
    if segs and segs[0] == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    return None


def _crate_name(name: str) -> str:
    return name.lower().replace("_", "-")


def crates_io(url: Url) -> PageRef | None:
    """/crates/<name>[/<version>] and /search?q=."""
    segs = url.segments
    if len(segs) >= 2 and segs[0] == "crates":
        return site_ref(url, RUST_CRATE, _crate_name(segs[1]))
    if segs and segs[0] == "search":
        return site_ref(url, SEARCH_QUERY, url.query.get("q"))
    return None


def docs_rs(url: Url) -> PageRef | None:
    """/<crate>/<version>/<module path>/<item>.html -> "crate::module::Item".

    The version is dropped (readers mean the item, not the release) and the
    rustdoc item prefix ("struct.", "fn.") is removed from the last part.
    """
    segs = url.segments
    if not segs or segs[0] in ("releases", "about", "crate", "-"):
        if len(segs) >= 2 and segs[0] == "crate":
            return site_ref(url, RUST_CRATE, _crate_name(segs[1]))
        return None
    crate = _crate_name(segs[0])
    path = list(segs[3:])  # segs[1] is the version, segs[2] the crate again
    if path:
        item = _RUSTDOC_ITEM.fullmatch(path[-1])
        if item:
            path[-1] = item.group(1)
        if path[-1] == "index":
            path.pop()
    return site_ref(url, RUST_DOCS_PAGE, "::".join([crate.replace("-", "_"), *path]))
