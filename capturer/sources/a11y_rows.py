"""What a walk of an accessibility tree becomes on the capture side: store
rows for its elements (with the URLs in their names cut down as stored
URLs are), the rectangles of its editable fields and of a browser's
address bar (which pictures mask), and its extents moved onto the desktop
for toolkits that report them relative to the window. Pure functions of a
walk and a window."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from core.a11y.screen import SCREEN, extents_to_screen
from core.a11y.tree import Node, Walk
from core.geometry import Rect
from core.store import ElementRow
from core.urls import sanitize_url

from .base import FieldMask, WindowInfo

# Roles that hold a page: a field under one belongs to the page, not to the
# browser's own toolbars.
DOCUMENT_ROLES = frozenset({"document web", "document frame", "embedded"})


def editable_field_masks(nodes: Sequence[Node], window: WindowInfo, *,
                         browser: bool = False) -> tuple[FieldMask, ...]:
    """Rectangles of a walk's editable fields — any element with the
    EDITABLE state, whatever its role (a toolkit's search box, a rich-text
    paragraph, a browser's combo-box address bar) — and password fields. In
    a `browser` window a field in its toolbars (`in_chrome`) is the address
    or search bar: its mask is the whole box around it (`chrome_box`)."""
    masks = []
    size = (window.width, window.height)
    for index, node in enumerate(nodes):
        rect = _extents(node)
        secret = node.role == "password text"
        if rect is None or (not secret and "editable" not in node.states.split(",")):
            continue
        chain = [(nodes[i].role, _extents(nodes[i])) for i in _ancestors(nodes, index)] if browser else []
        if browser and in_chrome([role for role, _ in chain]):
            masks.append(FieldMask(window.window_id, (window.x, window.y), chrome_box(chain, rect), secret,
                                   chrome=True, size=size))
        else:
            masks.append(FieldMask(window.window_id, (window.x, window.y), rect, secret, size=size))
    return tuple(masks)


def in_chrome(roles: Sequence[str]) -> bool:
    """Whether a field whose ancestors have these roles (outermost first)
    is part of a browser's own toolbars rather than of a page: it lies in a
    tool bar and in no document."""
    return "tool bar" in roles and not any(role in DOCUMENT_ROLES for role in roles)


def chrome_box(ancestors: Sequence[tuple[str, Rect | None]], field: Rect) -> Rect:
    """The box to cover for a browser's address (or search) bar, from its
    ancestors' roles and extents (outermost first, None where unknown): the
    first one with extents inside the innermost tool bar. Firefox draws
    the bar's frame, its buttons and its dropdown of suggestions (URLs of
    history, their queries and fragments included) inside that box, and
    grows the box while the dropdown is open; the field's own extents are
    only its line of text, a frame's width short of what a field mask
    would cover. Never smaller than the field."""
    roles = [role for role, _ in ancestors]
    below = len(roles) - roles[::-1].index("tool bar") if "tool bar" in roles else len(roles)
    box = next((rect for _, rect in ancestors[below:] if rect is not None), field)
    return union(box, field)


def union(a: Rect, b: Rect) -> Rect:
    left, top = min(a[0], b[0]), min(a[1], b[1])
    right, bottom = max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[3], b[1] + b[3])
    return left, top, right - left, bottom - top


def _ancestors(nodes: Sequence[Node], index: int) -> list[int]:
    """Walk indexes of a node's ancestors, outermost first."""
    chain = []
    parent = nodes[index].parent
    while parent is not None:
        chain.append(parent)
        parent = nodes[parent].parent
    return chain[::-1]


def _extents(node: Node) -> Rect | None:
    x, y, w, h = node.x, node.y, node.w, node.h
    if x is None or y is None or w is None or h is None or w <= 0 or h <= 0:
        return None
    return x, y, w, h


# GTK's "no place" for a widget that is not laid out (an unmapped panel):
# the lowest 32-bit integer, kept as it is rather than moved with the window.
NO_PLACE = -(2 ** 31)


def on_desktop(result: Walk, origin: tuple[int, int]) -> Walk:
    """A walk's extents moved onto the desktop (for window-relative toolkits)."""
    if origin == SCREEN:
        return result
    return replace(result, nodes=tuple(_on_desktop(node, origin) for node in result.nodes))


def _on_desktop(node: Node, origin: tuple[int, int]) -> Node:
    if node.x is None or node.y is None or NO_PLACE in (node.x, node.y):
        return node
    x, y, _, _ = extents_to_screen(origin, (node.x, node.y, node.w or 0, node.h or 0))
    return replace(node, x=x, y=y)


def element_row(node: Node, element_id: int, tree_id: int | None, parent_id: int | None) -> ElementRow:
    return ElementRow(id=element_id, tree_id=tree_id, parent_id=parent_id, depth=node.depth,
                      ordinal=node.ordinal, role=node.role, name=without_url_secrets(node.name),
                      description=without_url_secrets(node.description),
                      labelled_by=without_url_secrets(node.labelled_by) if node.labelled_by is not None else None,
                      states=node.states, x=node.x, y=node.y, w=node.w, h=node.h,
                      path=without_url_secrets(node.path))


_URL_LIKE = re.compile(r"[^\s'\"\[\]]*[?#][^\s'\"\[\]]*")


def without_url_secrets(text: str) -> str:
    """`text` with every URL in it reduced to what a stored URL keeps
    (`core.urls.sanitize_url`: no token, no fragment). Browsers name
    elements by URLs — the address bar's dropdown lists history as
    "host/path?q=…#access_token=…", Firefox View links by their URL — and
    element rows must not keep what the snapshot's URL does not. Words
    with a "?" or "#" that are not URLs ("C#", "issue #5") stay."""
    if "?" not in text and "#" not in text:
        return text

    def cleaned(match: re.Match[str]) -> str:
        word = match.group(0)
        kept = sanitize_url(word)
        return word if kept is None else kept

    return _URL_LIKE.sub(cleaned, text)
