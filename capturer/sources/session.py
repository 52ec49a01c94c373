"""The kind of desktop session capture serves, chosen once at start.

X11 is what it always was. A Wayland session is served when its compositor
is one Phantom can ask: sway (its IPC socket, `$SWAYSOCK`). Any other
Wayland session — GNOME's Mutter, KDE's KWin, another wlroots compositor
without sway's IPC — is refused at start with one line naming what is and
is not supported, never run as a daemon that records nothing: through
Xwayland it would see only the X clients, and black screenshots. The
choice is made from the environment the desktop gives its programs
(`XDG_SESSION_TYPE`, `WAYLAND_DISPLAY`, `SWAYSOCK`, `XDG_CURRENT_DESKTOP`),
and the factories of the chosen kind are what the daemon runs with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from core.errors import PhantomError

if TYPE_CHECKING:
    from . import Sources

SUPPORTED = "Phantom captures X11 sessions and sway (wlroots, through sway's IPC)"
NOT_BUILT = {"gnome": "GNOME on Wayland (its Shell extension is not built yet)",
             "kde": "KDE Plasma on Wayland (its KWin script is not built yet)"}


class UnsupportedSession(PhantomError):
    code = "unavailable"


@dataclass(frozen=True, slots=True)
class Session:
    """What capture runs against. `display` names it in status lines and
    keys what is per desktop: the X display, or the Wayland socket name."""

    kind: Literal["x11", "sway"]
    display: str
    swaysock: str = ""

    def describe(self) -> str:
        return f"X11 display {self.display}" if self.kind == "x11" else f"sway on {self.display}"

    def sources(self) -> Sources:
        from . import Sources, sway_sources

        return Sources() if self.kind == "x11" else sway_sources(self.swaysock)


def detect(environ: Mapping[str, str], display: str | None = None) -> Session:
    """The session to capture; `display` (`--display`) asks for that X display.
    UnsupportedSession, one line, for a session Phantom cannot serve."""
    if display:
        return Session("x11", display)
    session_type = environ.get("XDG_SESSION_TYPE", "").casefold()
    wayland = environ.get("WAYLAND_DISPLAY", "")
    x_display = environ.get("DISPLAY", "")
    if session_type == "x11" and x_display:
        return Session("x11", x_display)
    if wayland or session_type == "wayland":
        swaysock = environ.get("SWAYSOCK", "")
        if swaysock:
            return Session("sway", wayland or "wayland-0", swaysock)
        raise UnsupportedSession(refusal(environ))
    if x_display:
        return Session("x11", x_display)
    raise UnsupportedSession("DISPLAY is not set, nor WAYLAND_DISPLAY: phantom capture records an X11 "
                             "or a sway session (run it inside the desktop session or pass --display)")


def refusal(environ: Mapping[str, str]) -> str:
    """The one line for a Wayland session without a compositor Phantom can ask."""
    desktop = environ.get("XDG_CURRENT_DESKTOP", "").casefold()
    named = next((text for key, text in NOT_BUILT.items() if key in desktop), None)
    what = named or f"this Wayland compositor ({desktop or 'unnamed'}, no SWAYSOCK)"
    return (f"cannot capture {what}: {SUPPORTED}; GNOME and KDE Wayland are not built yet — "
            "refusing rather than recording only Xwayland windows")
