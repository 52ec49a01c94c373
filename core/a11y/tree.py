"""Bounded walks of one window's accessibility tree, and the hit test.

Reading a node costs several AT-SPI calls over D-Bus, so a walk is capped in
nodes, depth and time and goes breadth-first: when a budget runs out, the
levels a person sees first (toolbars, buttons, fields) are already in. Text
*content* is never read here — names, roles, states and extents only — and
the top-level window's segment carries no name, because a window title
changes with the document while the layout below it does not.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from . import Accessible
from .path import Segment, clip_name, join, number_siblings
from .roles import CONTROL_ROLES, LABELLED_ROLES, PART_ROLES
from .screen import SCREEN, point_to_extents
from .toolkit import on_screen, window_relative


@dataclass(frozen=True, slots=True)
class WalkLimits:
    max_nodes: int = 400
    max_depth: int = 14
    budget_ms: int = 300


@dataclass(frozen=True, slots=True)
class Node:
    """One element read during a walk (or found by a hit test)."""

    key: str                 # object path on the app's bus: identity within one app
    parent: int | None       # walk index of the parent
    depth: int
    ordinal: int             # index among siblings
    role: str
    name: str
    description: str
    labelled_by: str | None
    states: str
    x: int | None
    y: int | None
    w: int | None
    h: int | None
    path: str

    @property
    def secret(self) -> bool:
        return self.role == "password text"

    def contains(self, px: int, py: int, slack: int = 0) -> bool:
        x, y, w, h = self.x, self.y, self.w, self.h
        if x is None or y is None or w is None or h is None or w <= 0 or h <= 0:
            return False
        return x - slack <= px < x + w + slack and y - slack <= py < y + h + slack


@dataclass(frozen=True, slots=True)
class Walk:
    """The result of one bounded walk."""

    nodes: tuple[Node, ...]
    accessibles: tuple[Accessible, ...]  # live accessibles, parallel to nodes (not stored)
    truncated: str | None       # None | 'nodes' | 'depth' | 'time'
    elapsed_ms: int


def read_label(accessible: Accessible) -> str | None:
    """The name of the element that labels this one (LABELLED_BY), if any."""
    import pyatspi

    for relation in accessible.getRelationSet():
        if relation.getRelationType() == pyatspi.RELATION_LABELLED_BY and relation.getNTargets():
            return clip_name(relation.getTarget(0).name) or None
    return None


def read_states(accessible: Accessible) -> str:
    import pyatspi

    return ",".join(sorted(pyatspi.stateToString(s) for s in accessible.getState().getStates()))


def read_extents(accessible: Accessible) -> tuple[int | None, int | None, int | None, int | None]:
    import pyatspi

    try:
        extents = accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    except NotImplementedError:
        return None, None, None, None
    return extents.x, extents.y, extents.width, extents.height


def segment_for(role: str, name: str, label: str | None, depth: int) -> Segment:
    """A path segment. The window's own (depth 0) never carries a name: a
    title changes with the document while the layout below stays (and Qt's
    top-level is a `filler` named after the title)."""
    if depth == 0:
        return Segment(role)
    return Segment(role, name=name, label="" if name else (label or ""))


def walk(window: Accessible, app: str, limits: WalkLimits,
         clock: Callable[[], float] = time.perf_counter) -> Walk:
    """Breadth-first walk from a top-level window, within `limits`."""
    started = clock()
    deadline = started + limits.budget_ms / 1000
    nodes: list[Node] = []
    accessibles: list[Accessible] = []
    truncated: str | None = None
    root = _read(window, None, 0, 0, None, app, [])
    nodes.append(root[0])
    accessibles.append(window)
    queue: deque[tuple[int, Accessible, list[Segment]]] = deque([(0, window, root[1])])
    while queue:
        parent_index, parent, parent_segments = queue.popleft()
        depth = nodes[parent_index].depth + 1
        count = parent.childCount
        if count < 0:  # libatspi reports a failed call as -1: the app stopped answering
            raise TimeoutError("application stopped answering during a walk")
        if not count:
            continue
        if depth > limits.max_depth:
            truncated = truncated or "depth"
            continue
        children: list[tuple[int, Accessible, str, str, str | None]] = []
        for ordinal in range(count):
            if len(nodes) + len(children) >= limits.max_nodes:
                truncated = "nodes"
                break
            if clock() >= deadline:
                truncated = "time"
                break
            child = parent.getChildAtIndex(ordinal)
            if child is None:
                continue
            role, name, label = child.getRoleName(), clip_name(child.name), None
            if not name and role in LABELLED_ROLES:
                label = read_label(child)
            children.append((ordinal, child, role, name, label))
        segments = number_siblings([segment_for(r, n, lb, depth) for _, _, r, n, lb in children])
        for (ordinal, child, role, name, label), segment in zip(children, segments):
            own_segments = [*parent_segments, segment]
            node = _node(child, parent_index, depth, ordinal, role, name, label,
                         join(app, own_segments))
            nodes.append(node)
            accessibles.append(child)
            queue.append((len(nodes) - 1, child, own_segments))
        if truncated in ("nodes", "time"):
            break
    elapsed = int((clock() - started) * 1000)
    return Walk(tuple(nodes), tuple(accessibles), truncated, elapsed)


def _read(accessible: Accessible, parent: int | None, depth: int, ordinal: int, label: str | None, app: str,
          parent_segments: list[Segment]) -> tuple[Node, list[Segment]]:
    role, name = accessible.getRoleName(), clip_name(accessible.name)
    segment = segment_for(role, name, label, depth)
    segments = [*parent_segments, segment]
    return _node(accessible, parent, depth, ordinal, role, name, label, join(app, segments)), segments


def _node(accessible: Accessible, parent: int | None, depth: int, ordinal: int, role: str, name: str,
          label: str | None, path: str) -> Node:
    x, y, w, h = read_extents(accessible)
    return Node(key=accessible.path, parent=parent, depth=depth, ordinal=ordinal, role=role,
                name=name, description=clip_name(accessible.description), labelled_by=label,
                states=read_states(accessible), x=x, y=y, w=w, h=h, path=path)


def hit_test(window: Accessible, x: int, y: int, max_depth: int = 32,
             origin: tuple[int, int] = SCREEN) -> list[Accessible]:
    """The chain of accessibles under a desktop point, outermost first.

    GTK answers `getAccessibleAtPoint` with the direct child only, so the
    search recurses. GTK3 containers also sometimes answer "nothing" for a
    point that one of their children plainly covers (seen right after a
    window grows); then the children's own extents are checked, so a click
    on a button is not mistaken for a click on the panel around it. `origin`
    is where the window's extents start on the desktop for a toolkit that
    reports them relative to the window (`toolkit.origin_for`); such a
    toolkit's `visible` widgets count as shown.
    """
    import pyatspi

    x, y = point_to_extents(origin, x, y)
    relaxed = origin != SCREEN or window_relative(window)
    chain = [window]
    current = window
    for _ in range(max_depth):
        try:
            child = current.queryComponent().getAccessibleAtPoint(x, y, pyatspi.DESKTOP_COORDS)
        except NotImplementedError:
            child = None
        if child is None or child.path == current.path:
            child = _child_covering(current, x, y, relaxed=relaxed)
        if child is None:
            break
        chain.extend(_down_to(current, child))
        current = child
    return chain


def _down_to(ancestor: Accessible, descendant: Accessible, limit: int = 64) -> list[Accessible]:
    """The accessibles from below `ancestor` down to `descendant`. GTK 4
    answers a point asked of a window with the deepest widget there,
    skipping every level between: the levels are read back from the
    widget's parents, so the chain — and the path built from it — is the
    same whichever way the toolkit answered (a two-link `frame/text` path
    would not resolve again). Not found below `ancestor`: the widget alone."""
    levels, node = [descendant], descendant.parent
    for _ in range(limit):
        if node is None:
            return [descendant]
        if node.path == ancestor.path:
            return list(reversed(levels))
        levels.append(node)
        node = node.parent
    return [descendant]


def clicked_element(chain: list[Accessible]) -> list[Accessible]:
    """The hit chain ending at the element a click acts on: a label or an
    icon inside a control (within two levels) stands for that control. GTK 4
    may answer a point with the label alone, skipping the levels between, so
    the control is looked for among the label's real ancestors and the chain
    is rebuilt down from the window to it."""
    deepest = chain[-1]
    if len(chain) < 2 or deepest.getRoleName() not in PART_ROLES:
        return chain
    control, node = None, deepest
    for _ in range(2):
        node = node.parent
        if node is None:
            break
        if node.getRoleName() in CONTROL_ROLES:
            control = node
            break
    if control is None:
        return chain
    paths = [c.path for c in chain]
    if control.path in paths:
        return chain[:paths.index(control.path) + 1]
    ancestry, node = [control], control.parent
    for _ in range(64):
        if node is None:
            return chain          # not under this window after all: keep what was hit
        if node.path == chain[0].path:
            return [chain[0], *reversed(ancestry)]
        ancestry.append(node)
        node = node.parent
    return chain


def _child_covering(parent: Accessible, x: int, y: int, limit: int = 200, depth: int = 0,
                    relaxed: bool = False) -> Accessible | None:
    """The showing child whose extents contain the point (smallest first).

    Some containers report no extents of their own (GTK's notebook page in
    mousepad says -1,-1,-1,-1) while their children report real ones: such a
    child counts as covering the point when one of its own children does,
    so the hit test goes through it instead of stopping at the notebook."""
    count = parent.childCount
    best: Accessible | None = None
    best_area: int | None = None
    hollow: Accessible | None = None
    for index in range(min(max(count, 0), limit)):
        child = parent.getChildAtIndex(index)
        if child is None or not on_screen(child, relaxed):
            continue
        cx, cy, cw, ch = read_extents(child)
        if cx is None or cy is None or cw is None or ch is None or cw <= 0 or ch <= 0:
            if hollow is None and depth < 2 and _child_covering(child, x, y, limit, depth + 1, relaxed) is not None:
                hollow = child
            continue
        if cx <= x < cx + cw and cy <= y < cy + ch and (best_area is None or cw * ch < best_area):
            best, best_area = child, cw * ch
    return best if best is not None else hollow


def path_of(chain: list[Accessible], app: str) -> str:
    """A path for an element reached by hit test (outside a cached walk).

    Sibling indexes are computed only where siblings share role and name,
    which costs a few calls per level; clicks are rare enough for that."""
    segments: list[Segment] = []
    for depth, accessible in enumerate(chain):
        role, name = accessible.getRoleName(), clip_name(accessible.name)
        label = read_label(accessible) if not name and role in LABELLED_ROLES else None
        segment = segment_for(role, name, label, depth)
        parent = chain[depth - 1] if depth else None
        if parent is not None and depth > 0:
            same: list[str] = []
            for i in range(parent.childCount):
                sibling = parent.getChildAtIndex(i)
                if sibling is None or sibling.getRoleName() != role:
                    continue
                s_name = clip_name(sibling.name)
                s_label = read_label(sibling) if not s_name and role in LABELLED_ROLES else None
                if segment_for(role, s_name, s_label, depth).identity == segment.identity:
                    same.append(sibling.path)
            if len(same) > 1 and accessible.path in same:
                segment = Segment(segment.role, segment.name, segment.label,
                                  same.index(accessible.path) + 1)
        segments.append(segment)
    return join(app, segments)


def node_for_hit(chain: list[Accessible], app: str) -> Node:
    """A Node for the deepest element of a hit-test chain."""
    accessible = chain[-1]
    role, name = accessible.getRoleName(), clip_name(accessible.name)
    label = read_label(accessible) if not name and role in LABELLED_ROLES else None
    return _node(accessible, None, len(chain) - 1, accessible.getIndexInParent(), role, name,
                 label, path_of(chain, app))
