"""One-off questions the accessibility worker asks of the live AT-SPI tree:
which element has keyboard focus, the URL of a browser's showing document,
how many characters a field holds, whether an element is an unnamed
container, an element's ancestry, and the mask of a field that just took
focus. Each is a few AT-SPI calls and keeps
no state; they live apart from `a11y_reads.py`, whose `TreeReads` owns the
worker's caches (walked trees, applications by pid, hung applications), so
that each module reads as one job. Like everything the worker does, these
run on its thread only.
"""

from __future__ import annotations

from core.a11y import Accessible
from core.a11y.roles import CONTAINER_ROLES
from core.a11y.screen import extents_to_screen
from core.a11y.toolkit import OriginRule, origin_for
from core.a11y.tree import read_extents
from core.geometry import Rect

from .a11y_rows import chrome_box, in_chrome, union
from .base import FieldMask, WindowInfo

FOCUS_SEARCH_NODES = 400
# While a browser's address bar has focus its mask reaches this far down
# from the bar's top: Firefox's dropdown of ten suggestions is about 400 px.
DROPDOWN_COVER_PX = 480


def focused_descendant(frame: Accessible) -> Accessible | None:
    """The element with keyboard focus: one Collection query where the
    toolkit implements it (GTK), else a bounded breadth-first search of the
    live tree for the `focused` state (Qt's bridge has no Collection)."""
    from gi.repository import Atspi

    rule = Atspi.MatchRule.new(
        Atspi.StateSet.new([Atspi.StateType.FOCUSED]), Atspi.CollectionMatchType.ALL, {},
        Atspi.CollectionMatchType.ALL, [], Atspi.CollectionMatchType.ALL, [],
        Atspi.CollectionMatchType.ALL, False)
    try:
        matches = Atspi.Collection.get_matches(frame, rule, Atspi.CollectionSortOrder.CANONICAL, 1, True)
        return matches[0] if matches else None
    except Exception:  # noqa: BLE001 - no Collection interface: search
        pass
    queue, seen = [frame], 0
    while queue and seen < FOCUS_SEARCH_NODES:
        node = queue.pop(0)
        seen += 1
        for index in range(max(node.childCount, 0)):
            child = node.getChildAtIndex(index)
            if child is None:
                continue
            if child.getState().contains(Atspi.StateType.FOCUSED):
                return child
            queue.append(child)
    return None


def showing_document_url(frame: Accessible | None) -> str | None:
    """DocURL of the window's showing web document, found with one
    Collection query (a browser keeps a hidden document per tab)."""
    if frame is None:
        return None
    from gi.repository import Atspi

    rule = Atspi.MatchRule.new(
        Atspi.StateSet.new([Atspi.StateType.SHOWING]), Atspi.CollectionMatchType.ALL, {},
        Atspi.CollectionMatchType.ALL, [Atspi.Role.DOCUMENT_WEB], Atspi.CollectionMatchType.ANY, [],
        Atspi.CollectionMatchType.ALL, False)
    try:
        matches = Atspi.Collection.get_matches(frame, rule, Atspi.CollectionSortOrder.CANONICAL, 1, True)
    except Exception:  # noqa: BLE001 - a toolkit without Collection: the walk's document answers
        return None
    return document_url(matches[0]) if matches else None


def document_url(accessible: Accessible) -> str | None:
    """DocURL of a document: the Document interface's attribute, else an
    object attribute of that name (older toolkits)."""
    try:
        value: str | None = accessible.queryDocument().getAttributeValue("DocURL")
        if value:
            return value
    except Exception:  # noqa: BLE001 - no Document interface
        pass
    for attribute in accessible.getAttributes() or ():
        key, _, value = attribute.partition(":")
        if key == "DocURL" and value:
            return value
    return None


def characters(accessible: Accessible) -> int | None:
    try:
        return int(accessible.queryText().characterCount)
    except Exception:  # noqa: BLE001 - no Text interface, or the app went away
        return None


def contents(accessible: Accessible) -> tuple[int | None, str | None]:
    """How many characters a field holds and what they are, from its Text
    interface — not its name or placeholder, which a toolkit may report for
    an empty field. The text is only compared with the keys of the burst
    that follows; it is never stored."""
    count = characters(accessible)
    if count is None:
        return None, None
    try:
        return count, str(accessible.queryText().getText(0, count))
    except Exception:  # noqa: BLE001 - the app went away between the two calls
        return count, None


def is_container(accessible: Accessible) -> bool:
    return not accessible.name and accessible.getRoleName() in CONTAINER_ROLES


def ancestors(accessible: Accessible) -> list[Accessible]:
    chain = [accessible]
    current = accessible
    for _ in range(32):
        parent = current.parent
        if parent is None or parent.getRoleName() == "application":
            break
        chain.append(parent)
        current = parent
    return list(reversed(chain))


def focused_field_mask(accessible: Accessible, window: WindowInfo, *, browser: bool,
                       origin: OriginRule = origin_for) -> FieldMask | None:
    """The mask of an element that just took keyboard focus in `window`, if
    it takes text (any editable element, a password field). In a `browser`
    a field of its toolbars — the address bar — is masked by its whole box
    (`a11y_rows.chrome_box`) and, while it has focus, down to
    `DROPDOWN_COVER_PX` below its top: the dropdown opens after the focus
    event, and the walk that sees it open comes a debounce later."""
    import pyatspi

    secret = accessible.getRoleName() == "password text"
    if not secret and not accessible.getState().contains(pyatspi.STATE_EDITABLE):
        return None
    rect = _desktop_extents(accessible, window, origin)
    if rect is None:
        return None
    corner, size = (window.x, window.y), (window.width, window.height)
    if browser:
        chain = ancestors(accessible)[:-1]
        roles = [ancestor.getRoleName() for ancestor in chain]
        if in_chrome(roles):
            box = chrome_box(list(zip(roles, (_desktop_extents(a, window, origin) for a in chain))), rect)
            box = union(box, (box[0], box[1], box[2], DROPDOWN_COVER_PX))
            return FieldMask(window.window_id, corner, box, secret, chrome=True, size=size)
    return FieldMask(window.window_id, corner, rect, secret, size=size)


def _desktop_extents(accessible: Accessible, window: WindowInfo,
                     origin: OriginRule = origin_for) -> Rect | None:
    """Its extents on the desktop, moved by the session's origin rule (X11:
    by toolkit; Wayland: by the compositor's window rectangle)."""
    x, y, w, h = read_extents(accessible)
    if x is None or y is None or w is None or h is None or w <= 0 or h <= 0:
        return None
    return extents_to_screen(origin(accessible, window.x, window.y), (x, y, w, h))
