"""Synthetic accessibility trees: a nested `Spec` is laid out in desktop
coordinates and walked breadth-first the way the capturer's walker does
(`core.a11y.tree.walk`): at most 400 nodes, top-level window
segment without a name, `[@label=…]` for unnamed labelled fields, sibling
indices only where role and name repeat. `Tree.find` is the one search by
role and label (the desk resolves clicks with it); `Layouts` reuses the
walk of a view shown again."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from core.a11y.path import Segment, clip_name, join

MAX_NODES = 400
TOP_LEVEL_ROLES = frozenset({"frame", "window", "dialog", "alert", "file chooser"})

_BASE = "enabled,sensitive,showing,visible"
_FOCUSABLE = "enabled,focusable,sensitive,showing,visible"
ROLE_STATES = {
    "frame": "active,enabled,resizable,sensitive,showing,visible",
    "dialog": "active,enabled,modal,sensitive,showing,visible",
    "push button": _FOCUSABLE,
    "toggle button": _FOCUSABLE,
    "link": "enabled,focusable,focused-on-click,sensitive,showing,visible",
    "entry": "editable,enabled,focusable,sensitive,showing,single line,visible",
    "password text": "editable,enabled,focusable,sensitive,showing,single line,visible",
    "text": "editable,enabled,focusable,multi line,sensitive,showing,visible",
    "document text": "editable,enabled,focusable,multi line,sensitive,showing,visible",
    "document web": "enabled,focusable,readonly,sensitive,showing,visible",
    "combo box": "enabled,expandable,focusable,sensitive,showing,visible",
    "page tab": "enabled,focusable,selectable,sensitive,showing,visible",
    "list item": "enabled,focusable,selectable,sensitive,showing,visible",
    "table row": "enabled,focusable,selectable,sensitive,showing,visible",
    "table cell": "enabled,focusable,selectable,sensitive,showing,transient,visible",
    "tree item": "enabled,expandable,focusable,selectable,sensitive,showing,visible",
    "menu": "enabled,focusable,selectable,sensitive,showing,visible",
    "menu item": "enabled,focusable,selectable,sensitive,showing,visible",
    "check box": "checkable,enabled,focusable,sensitive,showing,visible",
    "radio button": "checkable,enabled,focusable,sensitive,showing,visible",
}


@dataclass(frozen=True, slots=True)
class Spec:
    """One element and its children, before layout."""

    role: str
    name: str = ""
    label: str | None = None          # name of the element labelling this one
    children: tuple["Spec", ...] = ()
    layout: str = "v"                 # children stacked: v | h | grid
    size: int = 0                     # extent along the parent's axis; 0 = share
    cols: int = 1                     # grid columns
    description: str = ""


def spec(role: str, name: str = "", *children: Spec, label: str | None = None, layout: str = "v",
         size: int = 0, cols: int = 1, description: str = "") -> Spec:
    return Spec(role, name, label, tuple(children), layout, size, cols, description)


class UiNode(NamedTuple):
    """One walked element: the columns of an `elements` row minus ids."""

    depth: int
    ordinal: int
    parent: int                       # index in the tree, -1 for the root
    role: str
    name: str
    description: str
    labelled_by: str | None
    states: str
    x: int
    y: int
    w: int
    h: int
    path: str

    @property
    def label(self) -> str:
        return self.name or self.labelled_by or ""

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.w // 2, self.y + self.h // 2


@dataclass(frozen=True, slots=True)
class Tree:
    """One bounded walk of a window, laid out at its desktop position."""

    app: str
    nodes: tuple[UiNode, ...]
    truncated: str | None
    rect: tuple[int, int, int, int]
    _first: dict[str, dict[str, int]] = field(default_factory=dict, compare=False, repr=False)

    def find(self, role: str, label: str) -> int:
        """Index of the first node with this role and label; -1 if absent.
        The index (role -> label -> node) is built at the first search and
        lives as long as the tree; string keys keep it out of the cyclic GC's
        way."""
        first = self._first
        if not first:
            for index, node in enumerate(self.nodes):
                first.setdefault(node.role, {}).setdefault(node.name or node.labelled_by or "", index)
        by_label = first.get(role)
        return -1 if by_label is None else by_label.get(label, -1)

    def require(self, role: str, label: str) -> int:
        index = self.find(role, label)
        if index < 0:
            raise LookupError(f"{self.app}: no {role} {label!r} in the synthetic tree")
        return index


@lru_cache(maxsize=200_000)
def _segment(role: str, name: str, label: str, index: int | None) -> str:
    return Segment(role, name, label, index).render()


@lru_cache(maxsize=200_000)
def _clip(name: str) -> str:
    return clip_name(name)


@lru_cache(maxsize=256)
def _states(role: str, visible: bool) -> str:
    states = ROLE_STATES.get(role, _BASE)
    if visible:
        return states
    return ",".join(s for s in states.split(",") if s not in ("showing", "visible"))


def _child_rects(parent: Spec, rect: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    x, y, w, h = rect
    children = parent.children
    if parent.layout == "grid":
        cols = max(1, parent.cols)
        cell_w = max(1, w // cols)
        rects = []
        for i, child in enumerate(children):
            cell_h = child.size or 22
            rects.append((x + (i % cols) * cell_w, y + (i // cols) * cell_h, cell_w, cell_h))
        return rects
    horizontal = parent.layout == "h"
    total = w if horizontal else h
    fixed = sum(child.size for child in children)
    shared = [child for child in children if not child.size]
    share = max(1, (total - fixed) // len(shared)) if shared else 0
    rects = []
    offset = 0
    for child in children:
        extent = child.size or share
        if horizontal:
            rects.append((x + offset, y, extent, h))
        else:
            rects.append((x, y + offset, w, extent))
        offset += extent
    return rects


def expand(root: Spec, app: str, rect: tuple[int, int, int, int], max_nodes: int = MAX_NODES) -> Tree:
    """Lay out and walk a spec breadth-first, like the capturer's walker."""
    window_bottom = rect[1] + rect[3]
    window_right = rect[0] + rect[2]
    root_segment = Segment(root.role) if root.role in TOP_LEVEL_ROLES else Segment(
        root.role, clip_name(root.name))
    root_path = join(app, [root_segment])
    nodes: list[UiNode] = [UiNode(0, 0, -1, root.role, clip_name(root.name), root.description,
                                  root.label, _states(root.role, True), *rect, root_path)]
    queue: list[tuple[int, Spec, tuple[int, int, int, int]]] = [(0, root, rect)]
    truncated = None
    head = 0
    while head < len(queue):
        parent_index, parent, parent_rect = queue[head]
        head += 1
        if not parent.children:
            continue
        depth = nodes[parent_index].depth + 1
        room = max_nodes - len(nodes)
        children = parent.children
        if len(children) > room:
            children = children[:room]
            truncated = "nodes"
        rects = _child_rects(parent, parent_rect)
        keys = []
        identities: dict[tuple[str, str, str], int] = {}
        for child in children:
            name = _clip(child.name)
            key = (child.role, name, "" if name else (child.label or ""))
            keys.append(key)
            identities[key] = identities.get(key, 0) + 1
        seen: dict[tuple[str, str, str], int] = {}
        parent_path = nodes[parent_index].path
        top = rect[1]
        for ordinal, child in enumerate(children):
            key = keys[ordinal]
            index = None
            if identities[key] > 1:
                seen[key] = seen.get(key, 0) + 1
                index = seen[key]
            path = parent_path + "/" + _segment(key[0], key[1], key[2], index)
            child_rect = rects[ordinal]
            cx, cy, cw, ch = child_rect
            visible = cy < window_bottom and cy + ch > top and cx < window_right
            nodes.append(UiNode(depth, ordinal, parent_index, child.role, key[1], child.description,
                                child.label if not key[1] else None, _states(child.role, visible),
                                cx, cy, cw, ch, path))
            queue.append((len(nodes) - 1, child, child_rect))
        if truncated:
            break
    return Tree(app, tuple(nodes), truncated, rect)


class Layouts:
    """The trees of recently walked views: re-walking an unchanged view (the
    same spec object at the same place) gives the same tree, so its layout
    is reused. Keyed by the spec's identity; the oldest of 64 goes first."""

    def __init__(self) -> None:
        self._trees: dict[int, tuple[Spec, tuple[int, int, int, int], Tree]] = {}

    def walk(self, root: Spec, app: str, rect: tuple[int, int, int, int]) -> Tree:
        cached = self._trees.get(id(root))
        if cached is not None and cached[0] is root and cached[1] == rect:
            return cached[2]
        tree = expand(root, app, rect)
        self._trees[id(root)] = (root, rect, tree)
        if len(self._trees) > 64:
            del self._trees[next(iter(self._trees))]
        return tree
