"""Phantom's second fixture app, to switch to: a notes list with a title entry,
a text area and New/Save/Delete buttons. The window title follows the
selected note, so title-change snapshots can be tested."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Gtk, apply_font, base_parser, set_program, start  # noqa: E402


def build(args: argparse.Namespace) -> Gtk.Window:
    base_title = args.title or "Phantom Notes"
    window = Gtk.Window(title=base_title)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6, margin=10)
    window.add(box)

    notes = Gtk.ListBox()
    notes.get_accessible().set_name("Notes")
    title_label = Gtk.Label(label="Title:", xalign=1.0)
    title_entry = Gtk.Entry(hexpand=True)
    title_label.set_mnemonic_widget(title_entry)
    body = Gtk.TextView()
    body.get_accessible().set_name("Body")
    status = Gtk.Label(label="0 notes", xalign=0.0)
    status.get_accessible().set_name("Status")

    def refresh_status() -> None:
        status.set_text(f"{len(notes.get_children())} notes")

    def on_new(_button: Gtk.Button) -> None:
        title_entry.set_text("")
        body.get_buffer().set_text("")
        window.set_title(f"New note — {base_title}")

    def on_save(_button: Gtk.Button) -> None:
        title = title_entry.get_text() or "Untitled"
        row = Gtk.Label(label=title, xalign=0.0)
        notes.add(row)
        row.show()
        window.set_title(f"{title} — {base_title}")
        refresh_status()

    def on_delete(_button: Gtk.Button) -> None:
        selected = notes.get_selected_row()
        if selected is not None:
            notes.remove(selected)
            refresh_status()

    header = Gtk.Box(spacing=6)
    header.pack_start(title_label, False, False, 0)
    header.pack_start(title_entry, True, True, 0)
    buttons = Gtk.Box(spacing=6)
    for label, handler in (("New", on_new), ("Save", on_save), ("Delete", on_delete)):
        button = Gtk.Button(label=label)
        button.connect("clicked", handler)
        buttons.pack_start(button, False, False, 0)
    box.pack_start(header, False, False, 0)
    box.pack_start(body, True, True, 0)
    box.pack_start(buttons, False, False, 0)
    box.pack_start(notes, True, True, 0)
    box.pack_start(status, False, False, 0)
    return window


def main() -> None:
    parser = base_parser("Phantom notes fixture app")
    parser.add_argument("--banner", help="a label shown above the notes (text the app displays)")
    args = parser.parse_args()
    set_program("phantom-notes")
    window = build(args)
    if args.banner:
        box = window.get_child()
        banner = Gtk.Label(label=args.banner)
        box.pack_start(banner, False, False, 0)
        box.reorder_child(banner, 0)
    apply_font(args.font_px)
    start("phantom-notes", window, args.geometry)


if __name__ == "__main__":
    main()
