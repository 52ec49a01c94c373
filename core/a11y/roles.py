"""AT-SPI role names grouped by what Phantom does with them. Capture (which
click landed on a control, which keys went into a text field) and replay
(which step may change the screen, which element takes a label) must agree
on these sets, so they live here once."""

from __future__ import annotations

# Containers that only group other elements: a click whose deepest hit is one
# of these landed in a zone, not on a control.
CONTAINER_ROLES = frozenset({
    "frame", "window", "dialog", "panel", "filler", "scroll pane", "viewport", "layered pane",
    "split pane", "root pane", "glass pane", "internal frame", "desktop frame", "section",
    "grouping", "form", "redundant object", "unknown", "invalid", "tool bar", "status bar",
    "menu bar", "page tab list", "table", "tree table", "list", "tree", "option pane",
})
# Roles whose accessible name comes from a label element (GTK entries).
LABELLED_ROLES = frozenset({"text", "password text", "entry", "spin button", "combo box",
                            "editbar", "slider", "terminal", "document text"})
# Roles a typed keystroke goes into.
TEXT_INPUT_ROLES = LABELLED_ROLES | {"document web", "paragraph"}
# Controls a click acts on; a label or icon drawn inside one (GTK 4 puts the
# button's label under the pointer) stands for the control around it.
CONTROL_ROLES = frozenset({"push button", "toggle button", "check box", "radio button", "menu item",
                           "check menu item", "radio menu item", "link", "page tab", "combo box",
                           "spin button", "slider", "list item", "table cell"})
PART_ROLES = frozenset({"label", "icon", "image", "static"})
