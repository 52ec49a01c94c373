"""Reading fixture apps' state back through AT-SPI, and finding where to
click, from the test process (which shares the session desktop's a11y bus)."""

from __future__ import annotations

from phantom.desktop.waiting import wait_until


def app_named(name: str, timeout: float = 10.0):
    import pyatspi

    def probe():
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and app.name == name:
                return app
        return None
    return wait_until(probe, timeout=timeout, what=f"AT-SPI application {name}")


def find(root, role: str, name: str | None = None, label: str | None = None):
    """Depth-first search by role and name (or LABELLED_BY label)."""
    import pyatspi

    stack = [root]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.getRoleName() == role:
            if name is not None and node.name == name:
                return node
            if label is not None:
                for relation in node.getRelationSet():
                    if (relation.getRelationType() == pyatspi.RELATION_LABELLED_BY
                            and relation.getTarget(0).name == label):
                        return node
            if name is None and label is None:
                return node
        stack.extend(node.getChildAtIndex(i) for i in reversed(range(node.childCount)))
    raise LookupError(f"no {role} named {name or label!r}")


def center(accessible) -> tuple[int, int]:
    import pyatspi

    extents = accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return extents.x + extents.width // 2, extents.y + extents.height // 2


def text_of(accessible) -> str:
    return accessible.queryText().getText(0, -1)
