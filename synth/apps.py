"""What the synthetic user ordinarily does in mail, the editor, the
terminal, the spreadsheet, the file manager and chat: one weight table of
actions per application (an action takes the workspace, the focused window
and the generator, and says whether it did something), plus the idle move
that follows when it did nothing. The browser's table is in browsing.py."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from .desk import Window
from .guard import allowed, common_click, common_type, odd_click, present, type_and_press, unique_click
from .pacing import NAV_KEYS, Action, Pick, Press, Scroll, break_session, nothing
from .rng import Weights
from .workspace import TERMINAL_COMMANDS, Workspace

MAIL_KEYS = ("Delete", "ctrl+r", "ctrl+shift+k", "F5")
EDITOR_KEYS = ("ctrl+s", "ctrl+z", "ctrl+f", "ctrl+v", "Return", "ctrl+shift+z", "F9", "BackSpace")
TERMINAL_KEYS = ("ctrl+l", "ctrl+shift+c", "ctrl+shift+v", "ctrl+r", "ctrl+d")
CALC_KEYS = ("Return", "ctrl+s", "ctrl+z", "ctrl+v", "Delete", "F2", "ctrl+shift+v", "Escape")
FILES_KEYS = ("Return", "Delete", "F2", "ctrl+l", "ctrl+v", "ctrl+h")
CHAT_KEYS = ("ctrl+k", "Escape", "alt+Up", "ctrl+shift+a")


# -- shapes several applications share -------------------------------------------------------------
def content(ws: Workspace, window: Window, rng: random.Random) -> bool:
    """Click a content item (a subject, a file, a message, a far-down cell)."""
    return unique_click(ws, rng)


@dataclass(frozen=True, slots=True)
class ClickCommon:
    """Click a common target of one role; `opens` shows what it opens."""

    role: str
    opens: Callable[[Workspace, str], None] | None = None

    def __call__(self, ws: Workspace, window: Window, rng: random.Random) -> bool:
        picked = common_click(ws, rng, [t for t in window.view.common if t[0] == self.role])
        if picked and self.opens is not None:
            ws.desk.wait(rng.randint(200, 800))
            self.opens(ws, picked[1])
        return picked is not None


# -- mail -------------------------------------------------------------------------------------------
def _mail_search(ws: Workspace, window: Window, rng: random.Random) -> bool:
    return type_and_press(ws, rng, window.view.fields[0], (3, 16), (300, 1500), "Return")


def _has_fields(ws: Workspace, window: Window) -> bool:
    return bool(window.view.fields)


MAIL: Weights[Action] = Weights.of(
    (40, content), (10, ClickCommon("tree item", Workspace.mail_refresh)),
    (8, ClickCommon("push button")), (7, Press(MAIL_KEYS)), (4, _mail_search, _has_fields),
    (4, odd_click), (27, nothing))
MAIL_IDLE = Pick(Weights.of((60, Scroll(10)), (40, Press(("Down", "Up", "Page_Down"), 8))))


# -- editor -----------------------------------------------------------------------------------------
def _edit(ws: Workspace, window: Window, rng: random.Random) -> bool:
    if not allowed(ws, ("type", "gedit", "text", "")):
        break_session(ws.desk, rng)      # reading the code before editing it
    common_type(ws, "text", "", rng.randint(3, 140))
    if not window.state.get("modified"):
        ws.editor_show(modified=True)
    return True


def _editor_key(ws: Workspace, window: Window, rng: random.Random) -> bool:
    ws.desk.key(rng.choice(EDITOR_KEYS))
    if window.state.get("modified") and rng.random() < 0.5:
        ws.desk.key("ctrl+s")
        ws.editor_show(modified=False)
    return True


def _editor_click(ws: Workspace, window: Window, rng: random.Random) -> bool:
    view = window.view
    picked = common_click(ws, rng, view.content + view.common)
    if picked and picked[0] == "page tab":
        ws.doc = ws.docs.index(picked[1])
        ws.editor_show(modified=False)
    return picked is not None


EDITOR: Weights[Action] = Weights.of(
    (50, _edit), (16, Press(NAV_KEYS[:6], 9)), (12, _editor_key), (10, Scroll(8)),
    (4, Press("ctrl+c")), (2, _editor_click), (6, odd_click))


# -- terminal ---------------------------------------------------------------------------------------
def _command(ws: Workspace, window: Window, rng: random.Random) -> bool:
    command = rng.choice(TERMINAL_COMMANDS)
    ws.desk.type("", "", len(command) + rng.randint(-2, 6))
    ws.desk.wait(rng.randint(200, 1200))
    ws.desk.key("Return")
    if rng.random() < 0.5:
        ws.term_title(command)
    return True


def _recall(ws: Workspace, window: Window, rng: random.Random) -> bool:
    ws.desk.key("Up", rng.randint(1, 4))
    ws.desk.wait(rng.randint(300, 1500))
    ws.desk.key("Return")
    return True


def _stray_click(ws: Workspace, window: Window, rng: random.Random) -> bool:
    ws.desk.click(resolution="none")
    return True


TERMINAL: Weights[Action] = Weights.of(
    (45, _command), (15, _recall), (12, Scroll(10)), (12, Press(TERMINAL_KEYS)),
    (8, Press("Tab", 3)), (8, _stray_click))


# -- spreadsheet ------------------------------------------------------------------------------------
def far_down(ws: Workspace, window: Window, rng: random.Random) -> None:
    """Cells are content only far down the sheet: go there first if at the top."""
    if not window.view.content:
        ws.sheet_scroll()


def _edit_cell(ws: Workspace, window: Window, rng: random.Random) -> bool:
    cells = present(ws, [c for c in window.view.content if ("libreoffice-calc", *c) not in ws.clicked])
    if not cells:
        return False
    desk = ws.desk
    role, label = rng.choice(cells)
    ws.clicked.add(("libreoffice-calc", role, label))
    desk.click(role, label)
    desk.wait(rng.randint(300, 1500))
    desk.type(role, label, rng.randint(1, 12))
    ws.last_c = None
    desk.wait(rng.randint(100, 700))
    desk.key(rng.choice(("Return", "Tab")))
    return True


def _sheet_toolbar(ws: Workspace, window: Window, rng: random.Random) -> bool:
    return common_click(ws, rng, [t for t in window.view.common if t[0] != "page tab"]) is not None


def _sheet_scroll(ws: Workspace, window: Window, rng: random.Random) -> bool:
    ws.sheet_scroll()
    return True


SHEET: Weights[Action] = Weights.of(
    (32, content), (20, _edit_cell), (10, Press(NAV_KEYS[:6], 6)), (8, _sheet_toolbar),
    (8, Press(CALC_KEYS)), (3, Press("ctrl+c")), (5, _sheet_scroll), (7, Scroll(10)),
    (7, odd_click))


# -- files ------------------------------------------------------------------------------------------
FILES: Weights[Action] = Weights.of(
    (42, content), (12, ClickCommon("list item", Workspace.files_open)),
    (6, ClickCommon("push button")), (10, Press(FILES_KEYS)), (4, Press("ctrl+c")),
    (4, odd_click), (22, nothing))
FILES_IDLE = Pick(Weights.of((60, Scroll(8)), (40, Press(NAV_KEYS[:4], 5))))


# -- chat -------------------------------------------------------------------------------------------
def _channel(ws: Workspace, window: Window, rng: random.Random) -> bool:
    channels = [t for t in window.view.common if t[0] == "list item"]
    options = [t for t in present(ws, channels) if allowed(ws, ("click", "slack", *t))]
    if not options:
        return False
    ws.chat_open(rng.choice(options)[1])
    ws.last_c = ("click", "slack", "list item", ws.channel)
    return True


def _message(ws: Workspace, window: Window, rng: random.Random) -> bool:
    fields = [f for f in window.view.fields if f[1].startswith("Message #")]
    return bool(fields) and type_and_press(ws, rng, fields[0], (4, 160), (200, 1200), "Return")


def _chat_search(ws: Workspace, window: Window, rng: random.Random) -> bool:
    return type_and_press(ws, rng, ("entry", "Search Northwind"), (3, 20), (300, 1500), "Escape")


CHAT: Weights[Action] = Weights.of(
    (14, _channel), (20, content), (20, _message), (4, _chat_search), (6, Press(CHAT_KEYS)),
    (3, Press("ctrl+c")), (4, odd_click), (29, nothing))
CHAT_IDLE = Scroll(12)
