"""The program's window, and only it: finding it among the application's
windows, giving it the keyboard, and checking before every injected event
that the keyboard and the pointer still go there.

A replay is often started from a shortcut while another application is in
front, so nothing may be typed until the program's own window is focused
and that is confirmed — by X (the input focus, or the window manager's
`_NET_ACTIVE_WINDOW`) and by AT-SPI (the window's accessible is `active`).
Every key and button press re-checks X first (one round trip): if the person
clicked elsewhere mid-run, the run stops before the event, not after.

Which window: one whose WM_CLASS is the program's application and whose
title has every word the demonstrations' titles shared. Exactly one → that
one; none → `GuardMismatch`; several → `AmbiguousWindow` naming them, unless
the caller picked one by a fragment of its title.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from compiler.programs.records import Guard
from compiler.programs.titles import has_words
from core.errors import PhantomError
from core.x11 import Atoms, TopLevel, client_of, describe, minimised, top_levels, window_manager_running

ACTIVATE_TIMEOUT_S = 5.0    # the step timeout (see scene.CONFIRM_TIMEOUT_S)
_POLL_S = 0.005


class GuardMismatch(PhantomError):
    """The program's application or window is not on the screen."""

    code = "guard_mismatch"


class AmbiguousWindow(PhantomError):
    """Several windows match the program and none was chosen."""

    code = "ambiguous_window"


class FocusLost(PhantomError):
    """The program's window does not have (or lost) the keyboard or the
    pointer; the event was not sent."""

    code = "guard_mismatch"


@dataclass(frozen=True, slots=True)
class WindowMatch:
    """The window a replay acts in, with the others of its application."""

    window: TopLevel
    others: tuple[TopLevel, ...]


class XSession:
    """One X connection for one replay run, on the run's thread."""

    def __init__(self, display_name: str | None = None) -> None:
        from Xlib import display, error

        name = display_name or os.environ.get("DISPLAY") or ""
        try:
            self.connection = display.Display(name)
        except (error.DisplayError, error.ConnectionClosedError, OSError) as exc:
            raise PhantomError(f"cannot reach the X display {name!r}: {exc}",
                               code="unavailable") from None
        self.atoms = Atoms(self.connection)
        self.root = self.connection.screen().root
        self.managed = window_manager_running(self.connection, self.atoms)

    def close(self) -> None:
        try:
            self.connection.close()
        except Exception:  # noqa: BLE001 - a dead connection cannot be closed twice
            pass

    # -- which windows ----------------------------------------------------------------
    def app_windows(self, app: str) -> list[TopLevel]:
        """The application's windows a person can switch to: not its
        tooltips, menus and popovers (`TopLevel.popup`), which come and go
        with the pointer and are part of another of its windows."""
        return [w for w in top_levels(self.connection, self.atoms) if w.app == app.casefold() and not w.popup]

    def top_levels(self) -> list[TopLevel]:
        """Every viewable top-level client window, bottom of the stack first."""
        return top_levels(self.connection, self.atoms)

    def find(self, guard: Guard, choose: str | None = None) -> WindowMatch:
        """The one window the program may act in (see the module docstring)."""
        windows = self.app_windows(guard.app)
        if not windows:
            self._refuse_minimised(guard)
            raise GuardMismatch(f"{guard.app} is not running with a window; nothing was sent")
        main = [w for w in windows if not w.dialog] or windows
        fitting = [w for w in main if has_words(w.title, guard.title_tokens)]
        if not fitting:
            self._refuse_minimised(guard)
            seen = ", ".join(w.describe() for w in main[:4])
            raise GuardMismatch(f"no {guard.app} window is titled with "
                                f"{' '.join(guard.title_tokens)!r} (open: {seen}); nothing was sent")
        if choose is not None:
            chosen = [w for w in fitting if choose.casefold() in w.title.casefold()]
            if len(chosen) != 1:
                what = "no" if not chosen else f"{len(chosen)}"
                raise AmbiguousWindow(f"{what} {guard.app} windows have {choose!r} in their title "
                                      f"(open: {', '.join(w.describe() for w in fitting[:4])}); "
                                      "nothing was sent")
            fitting = chosen
        if len(fitting) > 1:
            raise AmbiguousWindow(f"{len(fitting)} {guard.app} windows fit the program: "
                                  + ", ".join(w.describe() for w in fitting[:4])
                                  + "; name one with --window TITLE; nothing was sent")
        return WindowMatch(fitting[0], tuple(w for w in windows if w.window_id != fitting[0].window_id))

    def _refuse_minimised(self, guard: Guard) -> None:
        """The program's window is there but minimised: say so (restoring it
        is the person's call), rather than that the application is not running."""
        hidden = [w for w in minimised(self.connection, self.atoms)
                  if w.app == guard.app.casefold() and not w.dialog and has_words(w.title, guard.title_tokens)]
        if hidden:
            raise GuardMismatch(f"{hidden[0].describe()} is minimised; restore it and replay again; "
                                "nothing was sent")

    def refresh(self, window: TopLevel) -> TopLevel | None:
        """The window as it is now (title, place), or None when it is gone."""
        from Xlib import error

        try:
            client = self.connection.create_resource_object("window", window.window_id)
            frame = self.connection.create_resource_object("window", window.frame_id)
            if frame.get_attributes().map_state != 2:  # X.IsViewable
                return None
            return describe(client, frame, self.root, self.atoms)
        except (error.BadWindow, error.BadDrawable, error.BadMatch):
            return None

    # -- focus ------------------------------------------------------------------------
    def focused_client(self) -> int | None:
        """The client window that has the keyboard now."""
        from Xlib import X, error

        if self.managed:
            prop = self.root.get_full_property(self.atoms["_NET_ACTIVE_WINDOW"], X.AnyPropertyType)
            active = int(prop.value[0]) if prop is not None and len(prop.value) else 0
            if not active:
                return None
        focus = self.connection.get_input_focus().focus
        if isinstance(focus, int):
            if focus != X.PointerRoot:
                return None
            focus = self.root.query_pointer().child
            if not focus:
                return None
        try:
            window = focus
            for _ in range(32):
                if window.get_wm_class() is not None:
                    return int(window.id)
                parent = window.query_tree().parent
                if not parent or parent.id == self.root.id:
                    client = client_of(window)
                    return int(client.id) if client is not None else None
                window = parent
        except (error.BadWindow, error.BadDrawable):
            return None
        return None

    def activate(self, window: TopLevel, timeout: float = ACTIVATE_TIMEOUT_S) -> float:
        """Give `window` the keyboard and wait until X says it has it; returns
        the seconds it took. Raises FocusLost when it does not happen."""
        from Xlib import X
        from Xlib.protocol import event

        began = time.monotonic()
        if self.focused_client() == window.window_id:
            return 0.0
        client = self.connection.create_resource_object("window", window.window_id)
        if self.managed:
            message = event.ClientMessage(window=client, client_type=self.atoms["_NET_ACTIVE_WINDOW"],
                                          data=(32, [2, X.CurrentTime, 0, 0, 0]))
            self.root.send_event(message, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
        else:
            frame = self.connection.create_resource_object("window", window.frame_id)
            frame.configure(stack_mode=X.Above)
            client.set_input_focus(X.RevertToParent, X.CurrentTime)
        self.connection.sync()
        while time.monotonic() - began < timeout:
            if self.focused_client() == window.window_id:
                return time.monotonic() - began
            time.sleep(_POLL_S)
        raise FocusLost(f"could not give {window.describe()} the keyboard within {timeout:.1f}s; "
                        "nothing was sent")

    def require_keyboard(self, window: TopLevel) -> None:
        """Before a key event: the keyboard still goes to `window`."""
        if self.focused_client() != window.window_id:
            raise FocusLost(f"{window.describe()} lost the keyboard (the person may have switched "
                            "windows); the run stopped before the next key")

    def require_pointer(self, window: TopLevel) -> None:
        """Before a button press: the pointer is over `window`, not over
        another window lying on top of it."""
        child = self.root.query_pointer().child
        if not child or int(child.id) != window.frame_id:
            raise FocusLost(f"another window lies over {window.describe()} at the pointer; "
                            "the run stopped before the click")
