"""Why an application's windows have no accessibility tree, in words a person
can act on.

An X11 window whose process is not on the AT-SPI bus leaves Phantom with its
title and input counts only: no click targets, no typed fields, no replay.
Most often the cause is the toolkit. GTK exposes itself unless told not to
(`NO_AT_BRIDGE=1`); Qt, Chromium/Electron and Firefox only when accessibility
is switched on; Java needs a bridge package; Xaw (the X athena widgets, as in
xmessage) and Tk have no AT-SPI support at all. The toolkit is read from the
shared libraries the process has mapped (/proc/PID/maps), which is what a
person would check by hand, and costs one file read, once per process.

`explain` is pure (libraries and environment in, an `Exposure` out); `of_process`
is the I/O edge. Both `phantom doctor` and the capture daemon's blind-spot
reason use them, so the two always name the same cause.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Exposure:
    """What a process's toolkit means for its accessibility tree."""

    toolkit: str            # "GTK 3", "Qt 5", "Xaw", … or "unknown toolkit"
    supported: bool         # can it expose a tree at all?
    fix: str                # what to do, or why nothing can be done

    def describe(self) -> str:
        return f"{self.toolkit}: {self.fix}"


# (library file name pattern, toolkit, supported, fix). First match wins, so
# an embedding toolkit comes before the one it embeds (a Qt app linking GTK
# for its file dialogs is a Qt app).
_GTK = "GTK exposes its windows by default: the app may still be starting, or was started with NO_AT_BRIDGE=1"
_QT = "switch accessibility on: QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 in the session environment"
_NONE = "has no AT-SPI support: only titles and input counts are captured"
_TOOLKITS: tuple[tuple[str, str, bool, str], ...] = (
    (r"libjvm\.so", "Java", True,
     "install the AT-SPI bridge (libatk-wrapper-java) and start Java with it"),
    (r"libxul\.so", "Firefox (Gecko)", True,
     "switch accessibility on (GNOME_ACCESSIBILITY=1, or accessibility.force_disabled = 0 in about:config)"),
    (r"libQt6Gui\.so", "Qt 6", True, _QT),
    (r"libQt5Gui\.so", "Qt 5", True, _QT),
    (r"libcef\.so|libelectron|/chrome(-sandbox)?$|libchrome", "Chromium/Electron", True,
     "start it with --force-renderer-accessibility"),
    (r"libgtk-4\.so", "GTK 4", True, _GTK),
    (r"libgtk-3\.so", "GTK 3", True, _GTK),
    (r"libgtk-x11-2\.0\.so", "GTK 2", True, "install the GTK 2 bridge (libatk-adaptor) and restart it"),
    (r"libtk8\.\d\.so", "Tk", False, f"Tk {_NONE}"),
    (r"libXaw7?\.so", "Xaw (X athena widgets)", False, f"Xaw {_NONE}"),
)
_COMPILED = tuple((re.compile(pattern), toolkit, supported, fix) for pattern, toolkit, supported, fix in _TOOLKITS)
UNKNOWN = Exposure("unknown toolkit", False,
                   "no accessibility toolkit found in the process: only titles and input counts are captured")


def explain(libraries: Iterable[str], environ: Mapping[str, str] | None = None) -> Exposure:
    """The toolkit these mapped libraries belong to and what it takes to
    expose it; `NO_AT_BRIDGE=1` in the environment is named as the cause."""
    names = tuple(libraries)
    exposure = UNKNOWN
    for pattern, toolkit, supported, fix in _COMPILED:
        if any(pattern.search(name) for name in names):
            exposure = Exposure(toolkit, supported, fix)
            break
    if environ is not None and environ.get("NO_AT_BRIDGE") == "1" and exposure.supported:
        return Exposure(exposure.toolkit, True, "started with NO_AT_BRIDGE=1, which hides it: restart it without")
    return exposure


def of_process(pid: int) -> Exposure | None:
    """`explain` for a running process; None when it cannot be read (gone,
    or another user's)."""
    try:
        with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as maps:
            libraries = {line.rsplit(None, 1)[-1] for line in maps if "/" in line}
    except OSError:
        return None
    return explain(libraries, _environ(pid))


def _environ(pid: int) -> dict[str, str] | None:
    try:
        with open(f"/proc/{pid}/environ", "rb") as raw:
            entries = raw.read().split(b"\0")
    except OSError:
        return None
    pairs = (entry.decode("utf-8", "replace").partition("=") for entry in entries if b"=" in entry)
    return {name: value for name, _, value in pairs}


def process_name(pid: int) -> str:
    """The process's command name, for messages (`comm`), or the pid."""
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as comm:
            return comm.read().strip() or str(pid)
    except OSError:
        return str(pid)


__all__ = ["Exposure", "UNKNOWN", "explain", "of_process", "process_name"]
