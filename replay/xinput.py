"""Real pointer and keyboard input through the XTest extension.

Replay falls back to this when an AT-SPI action cannot do a step, and the
scripted user of tests, benchmarks and the demo drives the desktop with it:
events injected here are indistinguishable from a person's to the X server,
the applications and the capture daemon's RECORD listener.

A replay passes `before_press`: it is called before every key and button
press (once per key combination) and may raise to stop the event — that is
where replay checks the keyboard and pointer still go to the program's window.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from Xlib import XK, X, display
from Xlib.ext import xtest

# Characters whose keysym name differs from the character itself.
_CHAR_KEYSYMS = {
    " ": "space", "\n": "Return", "\t": "Tab", "-": "minus", "_": "underscore", ".": "period",
    ",": "comma", "@": "at", "/": "slash", ":": "colon", ";": "semicolon", "'": "apostrophe",
    '"': "quotedbl", "!": "exclam", "?": "question", "(": "parenleft", ")": "parenright",
    "+": "plus", "=": "equal", "<": "less", ">": "greater", "#": "numbersign", "$": "dollar",
    "%": "percent", "&": "ampersand", "*": "asterisk", "[": "bracketleft", "]": "bracketright",
    "{": "braceleft", "}": "braceright", "\\": "backslash", "|": "bar", "~": "asciitilde",
    "`": "grave", "^": "asciicircum",
}
_MODIFIER_KEYSYMS = {"ctrl": "Control_L", "shift": "Shift_L", "alt": "Alt_L", "super": "Super_L"}


class XInputError(RuntimeError):
    """A key or character that the current keyboard map cannot produce."""


class XTestInput:
    """One display connection for injecting input. Not thread-safe: use one
    instance per thread."""

    def __init__(self, display_name: str | None = None, *,
                 before_press: Callable[[str], None] | None = None) -> None:
        self._display = display.Display(display_name or os.environ.get("DISPLAY"))
        self._shift = self._keycode("Shift_L")
        self.before_press = before_press
        self.presses = 0    # key and button presses sent so far

    def _check(self, kind: str) -> None:
        if self.before_press is not None:
            self.before_press(kind)

    def close(self) -> None:
        self._display.close()

    # -- pointer ------------------------------------------------------------------
    def move(self, x: int, y: int) -> None:
        xtest.fake_input(self._display, X.MotionNotify, x=int(x), y=int(y))
        self._display.sync()

    def click(self, x: int, y: int, button: int = 1, *, settle: float = 0.03,
              hold: float = 0.06) -> None:
        """Move, wait `settle`, press, hold the button `hold` seconds (about
        what a person's click takes), release."""
        self.move(x, y)
        time.sleep(settle)
        self._check("button")
        self.presses += 1
        xtest.fake_input(self._display, X.ButtonPress, button)
        self._display.sync()
        time.sleep(hold)
        xtest.fake_input(self._display, X.ButtonRelease, button)
        self._display.sync()

    def scroll(self, x: int, y: int, steps: int = 1, down: bool = True) -> None:
        self.move(x, y)
        button = 5 if down else 4
        self._check("button")
        self.presses += 1
        for _ in range(steps):
            xtest.fake_input(self._display, X.ButtonPress, button)
            xtest.fake_input(self._display, X.ButtonRelease, button)
        self._display.sync()

    def pointer(self) -> tuple[int, int]:
        reply = self._display.screen().root.query_pointer()
        return reply.root_x, reply.root_y

    # -- keyboard ----------------------------------------------------------------
    def key(self, combo: str) -> None:
        """Press a key or a combination: 'Return', 'ctrl+s', 'ctrl+shift+t'."""
        *modifiers, name = combo.split("+") if combo != "+" else ["plus"]
        codes = [self._keycode(_MODIFIER_KEYSYMS.get(m.lower(), m)) for m in modifiers]
        shifted_key, key = self._keycode_for_name(name)
        if shifted_key and self._shift not in codes:
            codes.append(self._shift)
        self._check("key")
        self.presses += 1
        for code in codes:
            xtest.fake_input(self._display, X.KeyPress, code)
        xtest.fake_input(self._display, X.KeyPress, key)
        xtest.fake_input(self._display, X.KeyRelease, key)
        for code in reversed(codes):
            xtest.fake_input(self._display, X.KeyRelease, code)
        self._display.sync()

    def type(self, text: str, *, delay: float = 0.02) -> None:
        """Type text one key at a time, like a person (with shift as needed).
        Every character is checked first: one the keyboard map cannot
        produce raises XInputError before any key is pressed, never half way."""
        self.check_typable(text)
        for char in text:
            self.key(_CHAR_KEYSYMS.get(char, char))
            if delay:
                time.sleep(delay)

    def check_typable(self, text: str) -> None:
        """Raise XInputError naming the first character of `text` that no
        key of the current keyboard map produces."""
        for char in dict.fromkeys(text):
            self._keycode_for_name(_CHAR_KEYSYMS.get(char, char))

    def _keycode(self, keysym_name: str) -> int:
        keysym = XK.string_to_keysym(keysym_name)
        code = self._display.keysym_to_keycode(keysym) if keysym else 0
        if not code:
            raise XInputError(f"no key produces {keysym_name!r} on this keyboard map")
        return code

    def _keycode_for_name(self, name: str) -> tuple[bool, int]:
        """(needs shift, keycode) for a keysym name or single character."""
        keysym = XK.string_to_keysym(name)
        if not keysym and len(name) == 1:
            keysym = ord(name)
        if not keysym:
            raise XInputError(f"unknown key {name!r}")
        for code, index in self._display.keysym_to_keycodes(keysym):
            if index in (0, 1):
                return index == 1, code
        raise XInputError(f"no key produces {name!r} on this keyboard map")
