"""Phantom's form fixture: a small GTK3 form with labelled entries, a password
field and Submit/Clear buttons. The status label says what was submitted, so a
test can prove through AT-SPI that a replay changed the app's state.

Drift switches let tests change the form under a recorded program:
`--submit-label "Submit v2"` (label drift), `--duplicate-submit` (ambiguous
target), `--no-submit` (removed target), `--geometry` (layout drift).
`--rows N` adds N more labelled fields ("Field 1:" …) in a scrolled pane, for
a window with hundreds of accessible nodes (the replay benchmark).
`--submit-fails` makes Submit answer with an error dialog instead of
submitting (a run that sent its input and still did not do the job).
`--fields "Amount,Purpose"` replaces the Name/Email/Password fields with
these (plain entries), so one app can stand for many kinds of form (the
program-memory benchmark); the status line shows the first two.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Gtk, base_parser, set_program, start  # noqa: E402


def build(args: argparse.Namespace) -> Gtk.Window:
    window = Gtk.Window(title=args.title or "Phantom Form")
    grid = Gtk.Grid(column_spacing=8, row_spacing=8, margin=12)
    if args.rows:
        outer = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        outer.pack_start(grid, False, False, 0)
        extra = Gtk.Grid(column_spacing=8, row_spacing=4, margin=12)
        for row in range(args.rows):
            label = Gtk.Label(label=f"Field {row + 1}:", xalign=1.0)
            entry = Gtk.Entry(hexpand=True)
            label.set_mnemonic_widget(entry)
            extra.attach(label, 0, row, 1, 1)
            extra.attach(entry, 1, row, 1, 1)
        scrolled = Gtk.ScrolledWindow(vexpand=True)
        scrolled.add(extra)
        outer.pack_start(scrolled, True, True, 0)
        window.add(outer)
    else:
        window.add(grid)
    entries = {}
    fields = ([(label.strip(), False) for label in args.fields.split(",") if label.strip()]
              if args.fields else [("Name", False), ("Email", False), ("Password", True)])
    for row, (label_text, secret) in enumerate(fields):
        label = Gtk.Label(label=f"{label_text}:", xalign=1.0)
        entry = Gtk.Entry(hexpand=True)
        if secret:
            entry.set_visibility(False)
        # The mnemonic widget sets AT-SPI's LABELLED_BY relation: the entry's
        # own accessible name stays empty, as in most real GTK forms.
        label.set_mnemonic_widget(entry)
        grid.attach(label, 0, row, 1, 1)
        grid.attach(entry, 1, row, 2, 1)
        entries[label_text] = entry

    status = Gtk.Label(label="Ready", xalign=0.0)
    status.get_accessible().set_name("Status")

    first, second = (list(entries.values()) + [None, None])[:2]

    def on_submit(_button: Gtk.Button) -> None:
        if args.submit_fails:
            dialog = Gtk.MessageDialog(transient_for=window, modal=True,
                                       message_type=Gtk.MessageType.ERROR,
                                       buttons=Gtk.ButtonsType.OK, text="Could not submit")
            dialog.format_secondary_text("The server did not answer.")
            dialog.connect("response", lambda d, _r: d.destroy())
            dialog.show()
            return
        shown = f" <{second.get_text()}>" if second is not None else ""
        status.set_text(f"Submitted: {first.get_text()}{shown}")
        # The status label's accessible name is fixed; its text is the value.
        window.set_title(f"{args.title or 'Phantom Form'} — sent")

    def on_clear(_button: Gtk.Button) -> None:
        for entry in entries.values():
            entry.set_text("")
        status.set_text("Cleared")

    buttons = Gtk.Box(spacing=8)
    if not args.no_submit:
        submit_count = 2 if args.duplicate_submit else 1
        for _ in range(submit_count):
            submit = Gtk.Button(label=args.submit_label)
            submit.connect("clicked", on_submit)
            buttons.pack_start(submit, False, False, 0)
    clear = Gtk.Button(label="Clear")
    clear.connect("clicked", on_clear)
    buttons.pack_start(clear, False, False, 0)
    grid.attach(buttons, 1, len(fields), 2, 1)
    grid.attach(status, 0, len(fields) + 1, 3, 1)
    return window


def main() -> None:
    parser = base_parser("Phantom form fixture app")
    parser.add_argument("--submit-label", default="Submit")
    parser.add_argument("--duplicate-submit", action="store_true")
    parser.add_argument("--no-submit", action="store_true")
    parser.add_argument("--submit-fails", action="store_true")
    parser.add_argument("--rows", type=int, default=0)
    parser.add_argument("--fields", help="comma-separated field labels instead of Name,Email,Password")
    args = parser.parse_args()
    set_program("phantom-form")
    start("phantom-form", build(args), args.geometry)


if __name__ == "__main__":
    main()
