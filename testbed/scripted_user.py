"""A scripted user for the virtual desktop: finds controls through AT-SPI the
way a person finds them by eye, and drives them with real XTest input. The
demo, the benchmarks and the tests all use it, so "what a user did" means the
same thing everywhere.

pyatspi binds to the accessibility bus of the environment it first sees:
create a ScriptedUser only after the desktop's environment is in os.environ.
"""

from __future__ import annotations

import time
from typing import Any

from .executables import executable
from .harness import VirtualDesktop
from .waiting import wait_until

MOTION_INTERVAL_S = 0.008   # a 125 Hz mouse

# A pyatspi Accessible (an application, a frame, a control): pyatspi ships no
# type information, so the name says what is held, not a checked shape.
Accessible = Any


def app_named(name: str, timeout: float = 10.0) -> Accessible:
    """The AT-SPI application with this name (a fixture app's prgname)."""
    import pyatspi

    def probe() -> Accessible | None:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and app.name == name:
                return app
        return None
    return wait_until(probe, timeout=timeout, what=f"AT-SPI application {name}")


def find(root: Accessible, role: str, name: str | None = None, label: str | None = None) -> Accessible:
    """Depth-first search by role and name (or the LABELLED_BY label)."""
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


def center(accessible: Accessible) -> tuple[int, int]:
    import pyatspi

    extents = accessible.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return extents.x + extents.width // 2, extents.y + extents.height // 2


def text_of(accessible: Accessible) -> str:
    text: str = accessible.queryText().getText(0, -1)
    return text


class ScriptedUser:
    """Real input on a virtual desktop, at a human-ish pace."""

    def __init__(self, desktop: VirtualDesktop, *, pace: float = 1.0, travel_s: float = 0.0) -> None:
        """`travel_s` > 0 makes the pointer glide to each click, one motion
        event per 8 ms sleep (about 100 a second with the round trip; a
        125 Hz mouse sends 125), for a little over `travel_s`,
        crossing the windows on its way (benchmarks: the motion a real hand
        makes); 0 jumps straight there (tests)."""
        from replay.xinput import XTestInput

        self.desktop = desktop
        self.pace = pace
        self.travel_s = travel_s
        self.input = XTestInput(desktop.display)
        self.clicks = 0
        self.keys = 0
        self.typing_delay = 0.03  # seconds per character

    def close(self) -> None:
        self.input.close()

    def pause(self, seconds: float) -> None:
        time.sleep(seconds * self.pace)

    def focus(self, wm_class: str) -> None:
        window = self.desktop.wait_for_window(wm_class)
        self.desktop.run([executable("xdotool"), "windowfocus", "--sync", str(window)])
        self.pause(0.3)

    def click(self, app: str, role: str, *, name: str | None = None, label: str | None = None) -> None:
        target = find(app_named(app), role, name=name, label=label)
        self.glide(*center(target))
        self.input.click(*center(target))
        self.clicks += 1
        self.pause(0.25)

    def glide(self, x: int, y: int) -> None:
        """Move the pointer to (x, y) along a straight line in `travel_s`."""
        steps = int(self.travel_s / MOTION_INTERVAL_S)
        if steps < 2:
            return
        x0, y0 = self.input.pointer()
        for step in range(1, steps + 1):
            self.input.move(round(x0 + (x - x0) * step / steps), round(y0 + (y - y0) * step / steps))
            time.sleep(MOTION_INTERVAL_S)

    def type(self, text: str, *, delay: float | None = None) -> None:
        self.input.type(text, delay=self.typing_delay if delay is None else delay)
        self.keys += len(text)

    def key(self, combo: str) -> None:
        self.input.key(combo)
        self.keys += 1
        self.pause(0.1)

    # -- small scenes ----------------------------------------------------------------
    def fill_form(self, name: str, email: str) -> None:
        """The form routine: name, email, submit."""
        self.focus("phantom-form")
        self.click("phantom-form", "text", label="Name:")
        self.key("ctrl+a")
        self.type(name)
        self.click("phantom-form", "text", label="Email:")
        self.key("ctrl+a")
        self.type(email)
        self.click("phantom-form", "push button", name="Submit")
        self.pause(0.4)

    def write_note(self, title: str) -> None:
        self.focus("phantom-notes")
        self.click("phantom-notes", "push button", name="New")
        self.click("phantom-notes", "text", label="Title:")
        self.type(title)
        self.click("phantom-notes", "push button", name="Save")
        self.pause(0.4)

    def browse(self, url: str) -> None:
        self.focus("phantom-browser")
        self.click("phantom-browser", "text", name="Address and search bar")
        self.key("ctrl+a")
        self.type(url)
        self.key("Return")
        self.pause(0.6)
