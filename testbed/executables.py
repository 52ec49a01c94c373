"""Every executable the tests, the benchmarks and the demo start, with the
Debian package it comes from.

A machine a developer has worked on for weeks holds packages nobody
remembers installing, so a suite that passes there proves nothing about a
fresh Debian machine. This table is the guard: `executable(name)` is the only
way `testbed/`, `tests/` and `bench/` name a program to start, a missing one
fails with its package named (never a skip), and
`tests/test_executables_registry.py` holds the table to the Makefile's package
lists, to `dpkg -S` and to the call sites.

`needed_by` says which of the Makefile's lists installs the package:
`base` (what `make demo` and `make lint` need: the virtual desktop itself)
or `test` (the real applications, window managers and tools the tests and
benchmarks drive).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .processes import DesktopError

__all__ = ["EXECUTABLES", "Executable", "MissingExecutable", "executable"]


@dataclass(frozen=True, slots=True)
class Executable:
    """One executable, by the name it is started by (or its absolute path
    when it is not on PATH), and where it comes from."""

    name: str
    package: str
    needed_by: Literal["base", "test"]
    path: str | None = None       # for programs outside PATH (libexec)

    def locate(self) -> str | None:
        """The program's path on this machine, or None."""
        if self.path is not None:
            return self.path if Path(self.path).is_file() else None
        return shutil.which(self.name)


class MissingExecutable(DesktopError):
    """An executable a test or benchmark needs is not installed."""


def _table(*entries: Executable) -> dict[str, Executable]:
    return {e.name: e for e in entries}


EXECUTABLES: dict[str, Executable] = _table(
    # The virtual desktop (testbed/harness.py) and the shortcut line the demo runs.
    Executable("Xvfb", "xvfb", "base"),
    Executable("xdpyinfo", "x11-utils", "base"),
    Executable("xprop", "x11-utils", "base"),
    Executable("xdotool", "xdotool", "base"),
    Executable("xrandr", "x11-xserver-utils", "base"),
    Executable("xsetroot", "x11-xserver-utils", "base"),
    Executable("dbus-daemon", "dbus-daemon", "base"),
    Executable("dbus-send", "dbus-bin", "base"),
    Executable("gdbus", "libglib2.0-bin", "base"),
    Executable("at-spi-bus-launcher", "at-spi2-core", "base", path="/usr/libexec/at-spi-bus-launcher"),
    Executable("python3", "python3-minimal", "base", path="/usr/bin/python3"),
    Executable("sh", "dash", "base", path="/bin/sh"),
    # Real applications the tests and benchmarks drive.
    Executable("openbox", "openbox", "test"),
    Executable("gtk3-widget-factory", "gtk-3-examples", "test"),
    Executable("gtk4-widget-factory", "gtk-4-examples", "test"),
    Executable("gnome-calculator", "gnome-calculator", "test"),
    Executable("mousepad", "mousepad", "test"),
    Executable("gnome-terminal", "gnome-terminal", "test"),
    Executable("firefox-esr", "firefox-esr", "test"),
    Executable("xmessage", "x11-utils", "test"),
    # The browser the web view's tests drive (Selenium; Debian 12 has no geckodriver).
    Executable("chromium", "chromium", "test"),
    Executable("chromedriver", "chromium-driver", "test"),
    # The headless Wayland desktop (testbed/sway.py) and its tools.
    Executable("sway", "sway", "test"),
    Executable("swaymsg", "sway", "test"),
    Executable("grim", "grim", "test"),
    Executable("wtype", "wtype", "test"),
    Executable("Xwayland", "xwayland", "test"),
    Executable("gtk3-demo", "gtk-3-examples", "test"),
    # Tools the tests use to look at what Phantom did, or to put it in a corner.
    Executable("tesseract", "tesseract-ocr", "test"),
    Executable("systemd-analyze", "systemd", "test"),
    Executable("busctl", "systemd", "test"),
    Executable("faketime", "faketime", "test"),
    # The library `faketime` preloads, preloaded directly: a clock that a file sets mid-run
    # (the wrapper's FAKETIME would win over FAKETIME_TIMESTAMP_FILE).
    Executable("libfaketime.so.1", "libfaketime", "test",
               path="/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
    Executable("bwrap", "bubblewrap", "test"),
    Executable("unshare", "util-linux", "test"),
    Executable("setpriv", "util-linux", "test"),
    Executable("mount", "mount", "test"),
    Executable("umount", "mount", "test"),
    Executable("useradd", "passwd", "test"),
    # The package tools `tests/test_executables_registry.py` asks where a program comes from.
    Executable("dpkg", "dpkg", "test"),
    Executable("dpkg-query", "dpkg", "test"),
    Executable("apt-cache", "apt", "test"),
)


def executable(name: str) -> str:
    """The path to start `name` by; `MissingProgram` naming its Debian
    package when it is not installed. An unregistered name is a mistake in
    the caller (add it to `EXECUTABLES`), reported as such."""
    entry = EXECUTABLES.get(name)
    if entry is None:
        raise KeyError(f"{name!r} is not in testbed.executables.EXECUTABLES: add it with its Debian package")
    found = entry.locate()
    if found is None:
        raise MissingExecutable(f"{name} is not installed: it comes with the Debian package {entry.package} "
                             f"(`make {'demo' if entry.needed_by == 'base' else 'test'}` installs it)")
    return found

