"""Keyboard and mouse listeners (pynput, over the X RECORD extension).

The listeners run in pynput's threads and do as little as possible there:
stamp the time, reduce the event to plain values, and hand it to the daemon's
loop. The time is the X server's, where it can be trusted (`source_time_ms`):
input typed while the daemon was stopped waits in the X connection, and is
stamped when it happened, not when it was read. No character ever leaves this module unless it is printable text the
input counter may keep (and it keeps it only inside a recording).
pynput is imported lazily: importing it without a display fails.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from core.clock import now_ms

from ..input_counts import FieldRef
from .base import HitResult, WindowInfo

if TYPE_CHECKING:
    from .receiver import ReceiverProbe

_MODIFIERS = {
    "ctrl": "ctrl", "ctrl_l": "ctrl", "ctrl_r": "ctrl",
    "shift": "shift", "shift_l": "shift", "shift_r": "shift",
    "alt": "alt", "alt_l": "alt", "alt_r": "alt", "alt_gr": "alt",
    "cmd": "super", "cmd_l": "super", "cmd_r": "super",
}
_KEY_NAMES = {
    "enter": "Return", "tab": "Tab", "esc": "Escape", "backspace": "BackSpace",
    "delete": "Delete", "up": "Up", "down": "Down", "left": "Left", "right": "Right",
    "home": "Home", "end": "End", "page_up": "Page_Up", "page_down": "Page_Down",
    "insert": "Insert", "menu": "Menu", "caps_lock": "Caps_Lock", "num_lock": "Num_Lock",
    "print_screen": "Print", "scroll_lock": "Scroll_Lock", "pause": "Pause",
}

# X keysyms of keys that type nothing: TTY functions, motion, modifiers,
# keypad functions and F-keys (0xff00-0xffff), vendor media keys (XF86).
_FUNCTION_KEYSYMS = range(0xFF00, 0x10000)
_VENDOR_KEYSYMS = range(0x1008FF00, 0x10090000)
# Keysyms of characters that name their code point: Latin-1 directly,
# Unicode as 0x1000000 + the code point.
_LATIN1_KEYSYMS = range(0x20, 0x100)
_UNICODE_KEYSYM_BASE = 0x1000000
_UNICODE_KEYSYMS = range(0x1000100, 0x1110000)
# A character was typed, but which one could not be read: it counts as
# text, and a recording keeps this in its place.
UNREADABLE_CHAR = "\ufffd"


@dataclass(frozen=True, slots=True)
class RawKey:
    ts_ms: int
    name: str | None
    char: str | None
    modifiers: frozenset[str]
    # Set by the daemon on a key that may start a text burst: the pending
    # question "which field has focus?", asked the moment the key arrived.
    field_query: Future[FieldRef | None] | None = None
    window_id: int | None = None     # the client window that had the keyboard

    @property
    def printable(self) -> bool:
        return (self.char is not None and self.char.isprintable()
                and not self.modifiers & {"ctrl", "alt", "super"})


@dataclass(frozen=True, slots=True)
class RawClick:
    ts_ms: int
    x: int
    y: int
    button: int
    window_id: int | None = None     # the client window under the pointer
    window: WindowInfo | None = None  # that window described at once (for an early hit test)
    hit_query: Future[HitResult] | None = None   # set by the daemon: the hit test, asked as the click arrived


@dataclass(frozen=True, slots=True)
class RawScroll:
    ts_ms: int
    x: int
    y: int
    steps: int
    window_id: int | None = None


RawInput = RawKey | RawClick | RawScroll
# pynput's keys, buttons and listeners: pynput ships no type information, so
# the name says what is passed (a pynput.keyboard.Key or KeyCode, a
# pynput.mouse.Button, a listener thread), not a checked shape.
PynputObject = Any


class InputListener:
    """Starts pynput's keyboard and mouse listeners; `deliver` is called from
    their threads with RawKey / RawClick / RawScroll values, each naming the
    window that received it (`receiver.py`)."""

    def __init__(self, deliver: Callable[[RawInput], None]) -> None:
        self._deliver = deliver
        self._held: set[str] = set()
        self._keyboard: PynputObject | None = None
        self._mouse: PynputObject | None = None
        self._probe: ReceiverProbe | None = None
        self._event = threading.local()    # the X time of the event a callback is handling
        self._server_clock = ServerClock()

    def start(self) -> None:
        from pynput import keyboard, mouse  # lazy: needs DISPLAY

        from .receiver import ReceiverProbe

        self._probe = ReceiverProbe()

        self._keyboard = _stamped(keyboard.Listener, self._event)(on_press=self._on_press,
                                                                  on_release=self._on_release)
        self._mouse = _stamped(_presses_only(mouse.Listener), self._event)(on_click=self._on_click,
                                                                           on_scroll=self._on_scroll)
        self._keyboard.start()
        self._mouse.start()
        self._keyboard.wait()
        self._mouse.wait()

    def stop(self) -> None:
        for listener in (self._keyboard, self._mouse):
            if listener is not None:
                try:
                    listener.stop()
                except Exception:  # noqa: BLE001 - stopping after the display died
                    pass
        self._keyboard = self._mouse = None
        self._held.clear()
        if self._probe is not None:
            self._probe.close()
            self._probe = None

    def alive(self) -> bool:
        return all(listener is not None and listener.is_alive()
                   for listener in (self._keyboard, self._mouse))

    def _now(self) -> int:
        """When the event being handled happened (see `ServerClock`)."""
        return self._server_clock.stamp(getattr(self._event, "x_time", None))

    # -- pynput callbacks (their threads) ---------------------------------------
    def _on_press(self, key: PynputObject, *_injected: object) -> None:
        modifier = _modifier_of(key)
        if modifier:
            self._held.add(modifier)
            return
        name, char = _describe_key(key)
        ts = self._now()
        probe = self._probe
        self._deliver(RawKey(ts, name, char, frozenset(self._held),
                             window_id=probe.keyboard_window() if probe else None))

    def _on_release(self, key: PynputObject, *_injected: object) -> None:
        modifier = _modifier_of(key)
        if modifier:
            self._held.discard(modifier)

    def _on_click(self, x: int, y: int, button: PynputObject, pressed: bool, *_injected: object) -> None:
        if pressed:
            ts, probe = self._now(), self._probe
            window_id = probe.window_at(x, y) if probe else None
            window = probe.describe(window_id) if probe and window_id else None
            self._deliver(RawClick(ts, int(x), int(y), _button_number(button), window_id, window))

    def _on_scroll(self, x: int, y: int, dx: int, dy: int, *_injected: object) -> None:
        ts, probe = self._now(), self._probe
        self._deliver(RawScroll(ts, int(x), int(y), max(1, abs(int(dx)) + abs(int(dy))),
                                probe.window_at(x, y) if probe else None))


# X server time is milliseconds on the server's monotonic clock, in 32 bits.
_X_TIME_WRAP = 1 << 32
# An event this old when read was queued while the daemon did not run; an
# older one is not believed (the wrap, or a server with another clock).
MAX_QUEUED_MS = 15 * 60_000
# Until one event was read this fresh, the server's clock is not known to be ours.
TRUSTED_WITHIN_MS = 1_000


class ServerClock:
    """Turns an event's X server time into wall time. A local X server
    (Xorg, Xvfb, Xwayland) stamps events from CLOCK_MONOTONIC, the clock
    this process reads too, so an event's age is the difference; its wall
    time is now minus its age. Trusted once an event arrives within a
    second of its stamp (a remote server's clock is another one: its events
    keep the time they were read at)."""

    def __init__(self) -> None:
        self.trusted = False

    def stamp(self, x_time: int | None) -> int:
        wall = now_ms()
        if x_time is None:
            return wall
        age = source_age_ms(x_time, time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1_000_000)
        if age is None or age > MAX_QUEUED_MS:
            return wall
        if not self.trusted:
            self.trusted = age <= TRUSTED_WITHIN_MS
            if not self.trusted:
                return wall
        return wall - age


def source_age_ms(x_time: int, monotonic_ms: int) -> int | None:
    """How long ago an event stamped `x_time` happened (≥ 0), or None when
    the stamp is not of this clock (later than now by more than a jiffy)."""
    age = (monotonic_ms - x_time + _X_TIME_WRAP // 2) % _X_TIME_WRAP - _X_TIME_WRAP // 2
    if age < -50:
        return None
    return max(0, age)


def _stamped(listener: type[PynputObject], event: threading.local) -> type[PynputObject]:
    """pynput's listener that keeps the X time of the event its callbacks
    are called for (`_handle_message` is pynput's own, as in `_presses_only`)."""
    base = getattr(listener, "_handle_message", None)
    if base is None:   # not the X11 backend
        return listener

    def _handle_message(self: PynputObject, display: object, x_event: object, injected: bool) -> None:
        event.x_time = getattr(x_event, "time", None)
        try:
            base(self, display, x_event, injected)
        finally:
            event.x_time = None

    return type(f"Stamped{listener.__name__}", (listener,), {"_handle_message": _handle_message})


def _presses_only(listener: type[PynputObject]) -> type[PynputObject]:
    """pynput's X11 mouse listener with its XRecord range narrowed to button
    presses. pynput asks the X server for the event types 4 to 8 (its
    `_EVENTS` pair is read as a first..last range), which takes in every
    pointer motion and crossing: a moving mouse sends 60–125 of them a
    second, each parsed in Python on the listener thread, and capture uses
    none of them (clicks and scrolls are presses; releases are not kept).
    `_EVENTS` is pynput's own attribute (pinned in requirements.txt); a
    desktop test fails if an upgrade stops it narrowing the range."""
    from Xlib import X

    if getattr(listener, "_EVENTS", None) is None:   # not the X11 backend
        return listener
    return type("ButtonPressListener", (listener,), {"_EVENTS": (X.ButtonPress, X.ButtonPress)})


def _modifier_of(key: PynputObject) -> str | None:
    name = getattr(key, "name", None)
    return _MODIFIERS.get(name) if name else None


def _describe_key(key: PynputObject) -> tuple[str | None, str | None]:
    """(name, printable char) of a pynput key; special keys have no char.

    A key pynput cannot name is a character unless its keysym says it types
    nothing: a non-ASCII letter arrives as keysym 0 when the keyboard map
    changed under the listener (xdotool and input methods remap keys to type
    it). As a character it stays inside its text burst, so a password or a
    name typed with accents is one count, not a run of bursts split by
    `keysym-0` rows that would show where its non-ASCII letters are."""
    name = getattr(key, "name", None)
    if name is not None:  # a pynput.keyboard.Key member
        if name == "space":
            return "space", " "
        if name.startswith("f") and name[1:].isdigit():
            return name.upper(), None
        return _KEY_NAMES.get(name, name), None
    char = getattr(key, "char", None)
    if char is not None and len(char) == 1 and char.isprintable():
        return char, char
    vk = getattr(key, "vk", None)
    vk = vk if isinstance(vk, int) else 0
    if vk in _FUNCTION_KEYSYMS or vk in _VENDOR_KEYSYMS:
        return f"keysym-{vk}", None
    char = (chr(vk) if vk in _LATIN1_KEYSYMS else
            chr(vk - _UNICODE_KEYSYM_BASE) if vk in _UNICODE_KEYSYMS else UNREADABLE_CHAR)
    char = char if char.isprintable() else UNREADABLE_CHAR
    return char, char


def _button_number(button: PynputObject) -> int:
    value: PynputObject = getattr(button, "value", None)
    if isinstance(value, tuple):  # pynput on X11 stores (button, ...) for some buttons
        value = value[0]
    try:
        return int(value)
    except (TypeError, ValueError):
        return {"left": 1, "middle": 2, "right": 3}.get(getattr(button, "name", ""), 0)
