"""What a walk of an accessibility tree becomes on the capture side: store
rows for its elements, the rectangles of its editable fields (which
pictures mask), and its extents moved onto the desktop for toolkits that
report them relative to the window. Pure functions of a walk and a window."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.a11y.roles import TEXT_INPUT_ROLES
from core.a11y.screen import SCREEN, Placement, extents_to_screen
from core.a11y.tree import Node, Walk
from core.store import ElementRow

from .base import FieldMask, WindowInfo


def editable_field_masks(nodes: Sequence[Node], window: WindowInfo) -> tuple[FieldMask, ...]:
    """Rectangles of the editable text fields (and password fields) of a walk."""
    masks = []
    for node in nodes:
        x, y, w, h = node.x, node.y, node.w, node.h
        if node.role not in TEXT_INPUT_ROLES or x is None or y is None or w is None or h is None:
            continue
        secret = node.role == "password text"
        if not secret and "editable" not in node.states.split(","):
            continue
        if w > 0 and h > 0:
            masks.append(FieldMask(window.window_id, (window.x, window.y), (x, y, w, h), secret))
    return tuple(masks)


def on_desktop(result: Walk, origin: Placement) -> Walk:
    """A walk's extents moved onto the desktop (for window-relative toolkits)."""
    if origin == SCREEN:
        return result
    return replace(result, nodes=tuple(_on_desktop(node, origin) for node in result.nodes))


def _on_desktop(node: Node, origin: Placement) -> Node:
    if node.x is None or node.y is None:
        return node
    x, y, _, _ = extents_to_screen(origin, (node.x, node.y, node.w or 0, node.h or 0))
    return replace(node, x=x, y=y)


def element_row(node: Node, element_id: int, tree_id: int | None, parent_id: int | None) -> ElementRow:
    return ElementRow(id=element_id, tree_id=tree_id, parent_id=parent_id, depth=node.depth,
                      ordinal=node.ordinal, role=node.role, name=node.name,
                      description=node.description, labelled_by=node.labelled_by,
                      states=node.states, x=node.x, y=node.y, w=node.w, h=node.h, path=node.path)
