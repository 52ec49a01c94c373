"""Shared start-up for the fixture apps: argument parsing for geometry and the
program class, so tests can place windows and tell apps apart by WM_CLASS."""

from __future__ import annotations

import argparse
import signal

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def base_parser(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--title", help="window title")
    parser.add_argument("--geometry", help="WIDTHxHEIGHT+X+Y")
    parser.add_argument("--font-px", type=int, help="font size of every widget, in pixels "
                        "(large text is what makes a downscaled thumbnail readable)")
    return parser


def apply_font(size_px: int | None) -> None:
    """Every widget's text at `size_px`, through a CSS provider."""
    if not size_px:
        return
    provider = Gtk.CssProvider()
    provider.load_from_data(f"* {{ font-size: {int(size_px)}px; }}".encode())
    Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), provider,
                                             Gtk.STYLE_PROVIDER_PRIORITY_USER)


def start(prgname: str, window: Gtk.Window, geometry: str | None) -> None:
    """Name the program (WM_CLASS), place the window and run the main loop
    until the window closes or SIGTERM arrives."""
    if geometry:
        size, _, rest = geometry.partition("+")
        width, height = (int(v) for v in size.split("x"))
        x, _, y = rest.partition("+")
        window.set_default_size(width, height)
        window.move(int(x or 0), int(y or 0))
    window.connect("destroy", Gtk.main_quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, Gtk.main_quit)
    window.show_all()
    Gtk.main()


def set_program(prgname: str) -> None:
    """Must run before any window exists: GLib's prgname becomes WM_CLASS."""
    GLib.set_prgname(prgname)
    Gdk.set_program_class(prgname)
