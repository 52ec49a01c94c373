"""Acting on an element: through AT-SPI first (an action, EditableText,
grabFocus), with real XTest input as the fallback. A pointer action is
never blind: before the button goes down, a hit test at the pointer must
find the intended element, else nothing is clicked."""

from __future__ import annotations

import time

from core.a11y.roles import LABELLED_ROLES

from . import live
from .xinput import XTestInput

CLICK_ACTIONS = ("click", "press", "activate", "jump", "toggle")


class DispatchError(RuntimeError):
    """The step could not be performed; `sent` says whether input went out."""

    def __init__(self, message: str, *, sent: bool = False) -> None:
        super().__init__(message)
        self.sent = sent


class Dispatcher:
    def __init__(self, xinput: XTestInput | None = None) -> None:
        self._xinput = xinput

    @property
    def xinput(self) -> XTestInput:
        if self._xinput is None:
            self._xinput = XTestInput()
        return self._xinput

    def close(self) -> None:
        if self._xinput is not None:
            self._xinput.close()
            self._xinput = None

    # -- steps ------------------------------------------------------------------------
    def click(self, element: live.LiveElement, window) -> str:
        if element.role in LABELLED_ROLES:
            if self._grab_focus(element):
                return "atspi_focus"
        else:
            action = _action_index(element.accessible)
            if action is not None:
                if element.accessible.queryAction().doAction(action):
                    return "atspi_action"
        self.pointer_click(element, window)
        return "xtest_pointer"

    def pointer_click(self, element: live.LiveElement, window) -> None:
        x, y, w, h = element.extents()
        if w <= 0 or h <= 0:
            raise DispatchError(f"'{element.display}' has no area on screen to click")
        cx, cy = x + w // 2, y + h // 2
        self.xinput.move(cx, cy)
        time.sleep(0.03)
        hit = live.element_at(cx, cy, window)
        if hit is None or not hit.same_as(element):
            seen = f"'{hit.display}' ({hit.role})" if hit else "nothing"
            raise DispatchError(f"refusing a blind click: {seen} is under ({cx},{cy}), "
                                f"not '{element.display}'")
        self.xinput.click(cx, cy, settle=0.0, hold=0.02)
        if self.xinput.pointer() != (cx, cy):
            raise DispatchError("the pointer was not where it was sent", sent=True)

    def type_text(self, element: live.LiveElement, text: str) -> str:
        """Replace the field's content with `text`."""
        accessible = element.accessible
        try:
            editable = accessible.queryEditableText()
        except NotImplementedError:
            editable = None
        if editable is not None and "editable" in element.states():
            if editable.setTextContents(text):
                return "atspi_editable_text"
        if not self._grab_focus(element):
            raise DispatchError(f"cannot focus '{element.display}' to type into it")
        self.xinput.key("ctrl+a")
        self.xinput.type(text, delay=0.005)
        return "xtest_keys"

    def key(self, combo: str) -> str:
        self.xinput.key(combo)
        return "xtest_keys"

    def focus_window(self, window) -> None:
        """Give the window keyboard focus (needed before XTest keys)."""
        try:
            window.queryComponent().grabFocus()
        except Exception:  # noqa: BLE001 - toolkit without Component focus
            pass

    # -- helpers ----------------------------------------------------------------------
    @staticmethod
    def _grab_focus(element: live.LiveElement) -> bool:
        try:
            return bool(element.accessible.queryComponent().grabFocus())
        except NotImplementedError:
            return False


def _action_index(accessible) -> int | None:
    try:
        actions = accessible.queryAction()
    except NotImplementedError:
        return None
    names = [actions.getName(i).casefold() for i in range(actions.nActions)]
    for wanted in CLICK_ACTIONS:
        if wanted in names:
            return names.index(wanted)
    return None
