"""Phantom's browser-like fixture: an address bar named the way Firefox and
Chromium name theirs, a Go button and a page label. It lets tests check URL
capture from the address bar without shipping a real browser; `--private`
gives the window a private-browsing title to test the default exclusions."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Gtk, base_parser, set_program, start  # noqa: E402


def page_title(url: str) -> str:
    parts = urlsplit(url if "://" in url else f"https://{url}")
    tail = parts.path.strip("/").split("/")[-1] if parts.path.strip("/") else parts.hostname
    return tail or "New Tab"


def build(args: argparse.Namespace) -> Gtk.Window:
    suffix = " (Private Browsing)" if args.private else ""
    window = Gtk.Window(title=f"New Tab — Phantom Browser{suffix}")
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6, margin=8)
    window.add(box)
    address = Gtk.Entry(hexpand=True)
    address.get_accessible().set_name("Address and search bar")
    page = Gtk.Label(label="", xalign=0.0)
    page.get_accessible().set_name("Page")

    def navigate(_widget: Gtk.Widget) -> None:   # the Go button, the address bar or the window
        url = address.get_text().strip()
        page.set_text(f"Showing {url}")
        window.set_title(f"{page_title(url)} — Phantom Browser{suffix}")
        # Like a real browser, focus leaves the address bar for the page.
        go.grab_focus()

    go = Gtk.Button(label="Go")
    go.connect("clicked", navigate)
    address.connect("activate", navigate)
    bar = Gtk.Box(spacing=6)
    bar.pack_start(address, True, True, 0)
    bar.pack_start(go, False, False, 0)
    box.pack_start(bar, False, False, 0)
    box.pack_start(page, True, True, 0)
    if args.url:
        address.set_text(args.url)
        window.connect("map", navigate)
    return window


def main() -> None:
    parser = base_parser("Phantom browser-like fixture app")
    parser.add_argument("--url", help="page to show at start")
    parser.add_argument("--private", action="store_true", help="private-browsing window title")
    args = parser.parse_args()
    set_program("phantom-browser")
    start("phantom-browser", build(args), args.geometry)


if __name__ == "__main__":
    main()
