"""Acting on an element: through AT-SPI first (an action, EditableText,
grabFocus), with real XTest input as the fallback. A pointer action is
never blind: before the button goes down, a hit test at the pointer must
find the intended element (for a click the visual rung re-aimed: the
recorded surface, and nothing that would change what the step does), else
nothing is clicked. Every XTest press goes
through the input's `before_press` check (see `replay/windows.py`): the
keyboard and the pointer must still belong to the program's window.

Typing does what the person did. `insert` puts the text at the caret (and
over the selection, if there is one, as typing does); `replace` sets the
field's whole content, which a program only asks for when every
demonstration typed into an empty field. A click into a one-line field
leaves the caret after the field's text with nothing selected, as a click
beside the text does: focusing a GTK 3 entry through AT-SPI selects all it
holds, and an insertion would have replaced it.

An EditableText call is trusted only when the field's text changed: Firefox
accepts the calls, says yes and changes nothing, and then the text is typed
through XTest. Typed keys are all or nothing as far as replay can make them:
a character the keyboard map cannot produce stops the step before its first
key, and a step stopped part way (the person took the keyboard) is reported
as having sent input, and is not retried.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from core.a11y import Accessible
from core.a11y.roles import LABELLED_ROLES

from . import live
from .xinput import XInputError, XTestInput

CLICK_ACTIONS = ("click", "press", "activate", "jump", "toggle")
EDIT_SETTLE_S = 0.3

# An accessible's EditableText interface (`queryEditableText()`); untyped, as pyatspi is.
AtspiEditableText = Any


class DispatchError(RuntimeError):
    """The step could not be performed; `sent` says whether input went out."""

    def __init__(self, message: str, *, sent: bool = False) -> None:
        super().__init__(message)
        self.sent = sent


class Dispatcher:
    def __init__(self, xinput: XTestInput | None = None, *,
                 before_press: Callable[[str], None] | None = None) -> None:
        self._xinput = xinput
        self._before_press = before_press

    @property
    def xinput(self) -> XTestInput:
        if self._xinput is None:
            self._xinput = XTestInput(before_press=self._before_press)
        return self._xinput

    def close(self) -> None:
        if self._xinput is not None:
            self._xinput.close()
            self._xinput = None

    # -- steps ------------------------------------------------------------------------
    def click(self, element: live.LiveElement, window: Accessible) -> str:
        if element.role in LABELLED_ROLES:
            if self._grab_focus(element):
                _caret_after_text(element)
                return "atspi_focus"
        else:
            action = _action_index(element.accessible)
            if action is not None:
                if element.accessible.queryAction().doAction(action):
                    return "atspi_action"
        self.pointer_click(element, window)
        if element.role in LABELLED_ROLES:
            _caret_after_text(element)
        return "xtest_pointer"

    def pointer_click(self, element: live.LiveElement, window: Accessible) -> None:
        x, y, w, h = element.extents()
        if w <= 0 or h <= 0:
            raise DispatchError(f"'{element.display}' has no area on screen to click")
        cx, cy = x + w // 2, y + h // 2
        self.xinput.move(cx, cy)
        time.sleep(0.03)
        hit = live.element_at(cx, cy, window, element.origin)
        if hit is None or not hit.same_as(element):
            seen = f"'{hit.display}' ({hit.role})" if hit else "nothing"
            raise DispatchError(f"refusing a blind click: {seen} is under ({cx},{cy}), "
                                f"not '{element.display}'")
        self.xinput.click(cx, cy, settle=0.0, hold=0.02)
        if self.xinput.pointer() != (cx, cy):
            raise DispatchError("the pointer was not where it was sent", sent=True)

    def click_at(self, point: tuple[int, int], window: Accessible,
                 check: Callable[[live.LiveElement | None], str | None]) -> str:
        """A re-aimed click (the visual rung): the pointer goes to `point`,
        the element under it is asked again (`check` says why not, or
        None), and only then the button goes down."""
        x, y = point
        self.xinput.move(x, y)
        time.sleep(0.03)
        problem = check(live.element_at(x, y, window))
        if problem is not None:
            raise DispatchError(f"refusing the re-aimed click: {problem}")
        self.xinput.click(x, y, settle=0.0, hold=0.02)
        if self.xinput.pointer() != (x, y):
            raise DispatchError("the pointer was not where it was sent", sent=True)
        return "xtest_pointer"

    def type_text(self, element: live.LiveElement, text: str, entry: str = "replace") -> str:
        """Enter `text` into the field, as `insert` or `replace` (see the module docstring)."""
        editable = _editable(element)
        if editable is not None:
            before = _content(element)
            if entry == "replace":
                if editable.setTextContents(text) and _took(element, before, text == before):
                    return "atspi_editable_text"
            elif _insert_at_caret(element.accessible, editable, text) and _took(element, before):
                return "atspi_insert_at_caret"
        try:
            self.xinput.check_typable(text)
        except XInputError as exc:
            raise DispatchError(f"cannot type the value: {exc}") from None
        if not self._grab_focus(element):
            raise DispatchError(f"cannot focus '{element.display}' to type into it")
        pressed = self.xinput.presses
        try:
            if entry == "replace":
                self.xinput.key("ctrl+a")
            self.xinput.type(text, delay=0.005)
        except Exception as exc:  # noqa: BLE001 - FocusLost, a dead display: say what went out
            if self.xinput.presses > pressed:
                raise DispatchError(f"typing stopped part way: {exc}", sent=True) from None
            raise
        return "xtest_keys"

    def key(self, combo: str) -> str:
        self.xinput.key(combo)
        return "xtest_keys"

    # -- helpers ----------------------------------------------------------------------
    @staticmethod
    def _grab_focus(element: live.LiveElement) -> bool:
        try:
            return bool(element.accessible.queryComponent().grabFocus())
        except NotImplementedError:
            return False
        except Exception:  # noqa: BLE001 - GTK 4 answers grabFocus with an AT-SPI error
            return False


def _editable(element: live.LiveElement) -> AtspiEditableText | None:
    try:
        editable = element.accessible.queryEditableText()
    except NotImplementedError:
        return None
    return editable if "editable" in element.states() else None


def _content(element: live.LiveElement) -> str | None:
    try:
        return live.full_text(element.accessible.queryText())
    except NotImplementedError:
        return None


def _took(element: live.LiveElement, before: str | None, unchanged_is_done: bool = False) -> bool:
    """Whether an EditableText call that said yes changed the field. Firefox
    accepts the calls and changes nothing; then the text is typed through
    XTest instead. A toolkit that applies them late has 0.3 s to show it."""
    if before is None:
        return True     # no Text interface to tell: trust the call
    deadline = time.monotonic() + EDIT_SETTLE_S
    while True:
        if _content(element) != before:
            return True
        if unchanged_is_done or time.monotonic() >= deadline:
            return unchanged_is_done
        time.sleep(0.02)


def _caret_after_text(element: live.LiveElement) -> None:
    """After a click into a one-line field: the caret after its text, nothing
    selected. A person's click never selects; replay's focus does (a GTK 3
    entry focused through AT-SPI selects everything it holds, and typing
    would replace it), and a pointer click at the field's centre may land
    inside the text. A recorded ctrl+a or Home that follows still does its part."""
    states = element.states()
    if "single line" not in states or "editable" not in states:
        return
    try:
        content = element.accessible.queryText()
    except NotImplementedError:
        return
    count = content.characterCount
    if count > 0 and (content.caretOffset != count or content.getNSelections() > 0):
        content.setCaretOffset(count)
        if content.getNSelections() > 0:
            content.removeSelection(0)


def _insert_at_caret(accessible: Accessible, editable: AtspiEditableText, text: str) -> bool:
    """Type-like insertion through AT-SPI: the selection (if any) is replaced,
    the text goes in at the caret, and the caret ends after it."""
    try:
        content = accessible.queryText()
    except NotImplementedError:
        return False
    caret = max(content.caretOffset, 0)
    if content.getNSelections() > 0:
        start, end = content.getSelection(0)
        if end > start:
            if not editable.deleteText(start, end):
                return False
            caret = start
    if not editable.insertText(caret, text, len(text.encode("utf-8"))):  # GTK counts bytes
        return False
    content.setCaretOffset(caret + len(text))
    return True


def _action_index(accessible: Accessible) -> int | None:
    try:
        actions = accessible.queryAction()
    except NotImplementedError:
        return None
    names = [actions.getName(i).casefold() for i in range(actions.nActions)]
    for wanted in CLICK_ACTIONS:
        if wanted in names:
            return names.index(wanted)
    return None
