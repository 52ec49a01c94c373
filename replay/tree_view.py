"""One moment's view of a window's accessibility tree, read lazily and
asked each question once.

Every AT-SPI read is a D-Bus round trip (0.7–1.1 ms a node), so a
pre-flight that resolved thirty steps one search at a time would walk the
same panels thirty times. A view caches what it has read — children, roles,
names, labels — and the shared prefixes of the steps' paths are read once;
the first step that needs every element of a role (the embedding rung) pays
one bounded breadth-first walk that every later step reuses. A view is a
snapshot: after an action that may change the screen, make a new one.
"""

from __future__ import annotations

from collections import deque

from core.a11y import Accessible
from core.a11y.path import PathError, Segment, clip_name, parse
from core.a11y.roles import CONTAINER_ROLES, LABELLED_ROLES
from core.a11y.screen import SCREEN, Placement
from core.a11y.tree import read_label
from core.errors import PhantomError

MAX_SEARCH_NODES = 3000


class LiveTreeError(PhantomError):
    """The accessibility bus or the application cannot be reached."""

    code = "unavailable"


class TreeView:
    """`origin` is what to add to extents to get desktop coordinates: the X
    window's origin for a toolkit that reports window-relative extents
    (GTK 4, see core/a11y/screen.py), else SCREEN (`live.view_of` places it)."""

    def __init__(self, window: Accessible, origin: Placement = SCREEN) -> None:
        self.window = window
        self.origin = origin
        self._children: dict[str, list[Accessible]] = {}
        self._facts: dict[str, tuple[str, str, str]] = {}
        self._by_role: dict[str, list[Accessible]] | None = None

    # -- cached reads ----------------------------------------------------------------------
    def children(self, node: Accessible) -> list[Accessible]:
        key = node.path
        cached = self._children.get(key)
        if cached is None:
            count = node.childCount
            if count < 0:
                raise LiveTreeError("the application stopped answering accessibility calls")
            cached = [c for c in (node.getChildAtIndex(i) for i in range(count)) if c is not None]
            self._children[key] = cached
        return cached

    def facts(self, node: Accessible) -> tuple[str, str, str]:
        """(role, name, label) of a node; the label only for unnamed fields."""
        key = node.path
        cached = self._facts.get(key)
        if cached is None:
            role, name = node.getRoleName(), clip_name(node.name)
            label = (read_label(node) or "") if not name and role in LABELLED_ROLES else ""
            cached = self._facts[key] = (role, name, label)
        return cached

    # -- questions -------------------------------------------------------------------------
    def resolve(self, path: str) -> list[Accessible]:
        """Every accessible the recorded path names under this window.

        Names and labels match exactly (case-insensitively): fuzzier
        matching is the embedding rung's job, with its margin and verb
        checks. An index segment picks among same-role, same-name siblings;
        a path recorded without an index that now finds several elements
        returns them all, and the caller refuses the ambiguity."""
        try:
            _, segments = parse(path)
        except PathError:
            return []
        if not segments or segments[0].role != self.facts(self.window)[0]:
            return []
        level = [self.window]
        for segment in segments[1:]:
            found: list[Accessible] = []
            for parent in level:
                matches = [c for c in self.children(parent) if self._matches(c, segment)]
                if segment.index is not None:
                    matches = matches[segment.index - 1: segment.index] if segment.index <= len(matches) else []
                found.extend(matches)
            level = found
            if not level:
                return []
        return level

    def of_role(self, role: str) -> list[Accessible]:
        """Every showing accessible of a role (one bounded walk, then cached)."""
        import pyatspi

        if self._by_role is None:
            self._by_role = {}
            queue, seen = deque([self.window]), 0
            while queue and seen < MAX_SEARCH_NODES:
                node = queue.popleft()
                seen += 1
                for child in self.children(node):
                    if child.getState().contains(pyatspi.STATE_SHOWING):
                        self._by_role.setdefault(self.facts(child)[0], []).append(child)
                    queue.append(child)
        return list(self._by_role.get(role, ()))

    def _matches(self, accessible: Accessible, segment: Segment) -> bool:
        role, name, label = self.facts(accessible)
        if role != segment.role:
            return False
        if segment.name:
            return name.casefold() == segment.name.casefold()
        if segment.label:
            return not name and label.casefold() == segment.label.casefold()
        # A segment recorded without a name: an unnamed element, or a container
        # that has since been given one (containers only group; their names rarely matter).
        return not name or segment.role in CONTAINER_ROLES
