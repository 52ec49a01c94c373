"""Where one run may act: the program's window, found and given the keyboard
at the start, and the windows the run's own steps open (a dialog of the
same process that was not there before) — nothing else. Other windows of the
same application that were already open (another document, another form)
are off limits, and so is every other application, unless a `switch` step
of the program brings one forward.
"""

from __future__ import annotations

import time

from core.a11y import Accessible
from core.x11 import TopLevel

from . import live
from .windows import AmbiguousWindow, FocusLost, GuardMismatch, WindowMatch, XSession

# How long X and then AT-SPI may take to confirm the keyboard moved: the
# step timeout, since on a busy machine an application can take seconds to
# mark its window active (nothing is sent until it does).
CONFIRM_TIMEOUT_S = 5.0


class Scene:
    def __init__(self, session: XSession, match: WindowMatch) -> None:
        self.session = session
        self.main = match.window
        # Windows that were open before this run acted (of every application
        # it acts in): whatever else is open at the end, the run opened.
        self._known = {match.window.window_id, *(w.window_id for w in match.others)}
        self._off_limits = {w.window_id for w in match.others}
        self._allowed: dict[int, TopLevel] = {match.window.window_id: match.window}

    # -- the keyboard ----------------------------------------------------------------------
    def activate(self) -> int:
        """Give the program's window the keyboard and confirm it through X
        and AT-SPI; returns the milliseconds it took. Raises FocusLost."""
        began = time.monotonic()
        self.session.activate(self.main, CONFIRM_TIMEOUT_S)
        import pyatspi

        while True:
            accessible = live.accessible_window(self.main)
            if accessible is not None and accessible.getState().contains(pyatspi.STATE_ACTIVE):
                return int((time.monotonic() - began) * 1000)
            if time.monotonic() - began > CONFIRM_TIMEOUT_S:
                raise FocusLost(f"X gave {self.main.describe()} the keyboard but its accessible "
                                "never became active; nothing was sent")
            time.sleep(0.005)

    def current(self) -> TopLevel:
        """The window of this run that has the keyboard now; FocusLost when
        the keyboard is anywhere else."""
        focused = self.session.focused_client()
        if focused is not None and self._allows(focused):
            window = self.session.refresh(self._allowed[focused])
            if window is not None:
                self._allowed[focused] = window
                return window
        raise FocusLost(f"the keyboard left {self.main.describe()} (another window has it); "
                        "the run stopped before its next input")

    def accessible(self) -> Accessible:
        """The accessible of the run's window that has the keyboard."""
        return self.view_of_current().window

    def view_of_current(self) -> live.TreeView:
        """A fresh view of the run's window that has the keyboard, with the
        origin its toolkit's extents need."""
        window = self.current()
        accessible = live.accessible_window(window)
        if accessible is None:
            raise live.LiveTreeError(f"{window.describe()} has no accessible window")
        return live.view_of(window, accessible)

    def before_press(self, kind: str) -> None:
        """Called before every XTest press: the keyboard (and, for a button,
        the pointer) must be on one of this run's windows."""
        window = self.current()
        if kind == "button":
            child = self.session.root.query_pointer().child
            frames = {w.frame_id for w in self._allowed.values()}
            if not child or int(child.id) not in frames:
                raise FocusLost(f"another window lies over {window.describe()} at the pointer; "
                                "the run stopped before the click")

    # -- other applications ----------------------------------------------------------------
    def switch_to(self, app: str) -> TopLevel:
        """A `switch` step: the application's one window comes forward and
        becomes the run's main window."""
        windows = [w for w in self.session.app_windows(app) if not w.dialog]
        if not windows:
            raise GuardMismatch(f"{app} is not running with a window")
        if len(windows) > 1:
            raise AmbiguousWindow(f"{len(windows)} {app} windows are open: "
                                  + ", ".join(w.describe() for w in windows[:4]))
        window = windows[0]
        self._known |= {w.window_id for w in self.session.app_windows(app)}
        self._allowed[window.window_id] = window
        self._off_limits.discard(window.window_id)
        self.main = window
        self.activate()
        return window

    # -- after the run ---------------------------------------------------------------------
    def windows_opened(self) -> list[TopLevel]:
        """Windows of the run's applications that are open now and were not
        at the start."""
        apps = {w.app for w in self._allowed.values()}
        return [w for app in sorted(apps) for w in self.session.app_windows(app)
                if w.window_id not in self._known]

    def focused(self) -> TopLevel | None:
        focused = self.session.focused_client()
        if focused is None:
            return None
        for app in {w.app for w in self._allowed.values()}:
            for window in self.session.app_windows(app):
                if window.window_id == focused:
                    return window
        return None

    def _allows(self, client_id: int) -> bool:
        if client_id in self._allowed:
            return True
        if client_id in self._off_limits:
            return False
        pids = {w.pid for w in self._allowed.values() if w.pid is not None}
        for window in self.session.app_windows(self.main.app):
            if window.window_id == client_id and window.pid in pids:
                self._allowed[client_id] = window   # a window the run's own steps opened
                return True
        return False
