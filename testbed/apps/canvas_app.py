"""Phantom's canvas fixture: buttons drawn with cairo inside one
`Gtk.DrawingArea`, so the accessibility tree shows a single unnamed
"drawing area" and nothing in it — the case only a visual match can replay
(docs/VISUAL.md). A status label (accessible name "Status") lists what was
pressed, so a test can prove through AT-SPI which drawn control a click hit.

Drift switches change the drawing under a recorded program:
`--zoom 1.25` scales everything the app draws, `--offset DX,DY` shifts it
inside the window, `--swap red,blue` draws each of two controls where the
other one was, `--duplicate star` draws a second star where the heart was
(two identical icons side by side), `--hide NAME` leaves a control out,
`--copy NAME,DX,DY` draws an identical second NAME that much beside the
first (it reports as "NAME-copy" when pressed).
`--print-layout` writes the controls' rectangles (window coordinates) as
JSON on stdout once the window is shown, for tests and benchmarks.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import Gdk, Gtk, base_parser, set_program, start  # noqa: E402

if TYPE_CHECKING:
    import cairo

# name: (x, y, width, height, look) at zoom 1, in drawing-area coordinates.
CONTROLS = {
    "red": (24, 56, 96, 40, "button"),
    "green": (144, 56, 96, 40, "button"),
    "blue": (264, 56, 96, 40, "button"),
    "star": (24, 136, 40, 40, "star"),
    "heart": (84, 136, 40, 40, "heart"),
    "save": (264, 136, 96, 40, "button"),
}
FILLS = {"red": (0.80, 0.20, 0.18), "green": (0.22, 0.62, 0.30), "blue": (0.20, 0.38, 0.80),
         "save": (0.35, 0.35, 0.38)}
CANVAS = (384, 200)

# name: (x, y, width, height, look) as drawn now, in drawing-area coordinates.
Layout = dict[str, tuple[float, float, float, float, str]]


def layout(args: argparse.Namespace) -> Layout:
    """Where each control is drawn now, in drawing-area coordinates, and what it looks like."""
    # Each control's CONTROLS entry as a list, edited in place below.
    placed: dict[str, list[Any]] = {name: list(spec) for name, spec in CONTROLS.items()}
    if args.swap:
        first, second = args.swap.split(",")
        placed[first][:2], placed[second][:2] = CONTROLS[second][:2], CONTROLS[first][:2]
    if args.duplicate:
        # The look of the duplicated control, drawn in its right-hand neighbour's place.
        neighbour = "heart" if args.duplicate == "star" else None
        if neighbour is None:
            raise SystemExit("--duplicate supports 'star' (drawn where the heart was)")
        placed[neighbour][4] = CONTROLS[args.duplicate][4]
    for name in args.hide or ():
        placed.pop(name, None)
    if args.copy:
        name, dx_copy, dy_copy = args.copy.split(",")
        x, y, w, h, look = CONTROLS[name]
        # A button's look is its label and fill: the copy keeps both.
        placed[name + "-copy"] = [x + int(dx_copy), y + int(dy_copy), w, h,
                                  look if look != "button" else "copy:" + name]
    dx, dy = args.offset
    zoom = args.zoom
    return {name: (dx + x * zoom, dy + y * zoom, w * zoom, h * zoom, look)
            for name, (x, y, w, h, look) in placed.items()}


def pressed_name(name: str, look: str) -> str:
    """A duplicate reports as the control it looks like; a copy as itself."""
    if name.endswith("-copy"):
        return name
    return name if look in ("button", name) else look


def draw(cr: cairo.Context, controls: Layout, zoom: float, dx: float, dy: float) -> None:
    cr.set_source_rgb(0.97, 0.97, 0.95)
    cr.paint()
    cr.set_source_rgb(0.25, 0.25, 0.28)
    # FONT_SLANT_NORMAL and FONT_WEIGHT_BOLD by value: cairo itself reaches
    # this app only through PyGObject's draw signal, so it is not imported.
    cr.select_font_face("DejaVu Sans", cast("cairo.FontSlant", 0), cast("cairo.FontWeight", 1))
    cr.set_font_size(15 * zoom)
    cr.move_to(dx + 24 * zoom, dy + 36 * zoom)
    cr.show_text("Palette")
    for name, (x, y, w, h, look) in controls.items():
        if look == "button" or look.startswith("copy:"):
            original = look.partition(":")[2] or name
            _button(cr, x, y, w, h, original.capitalize(), FILLS[original], zoom)
        else:
            _icon(cr, x, y, w, h, look, zoom)


def _rounded(cr: cairo.Context, x: float, y: float, w: float, h: float, r: float) -> None:
    cr.new_sub_path()
    cr.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    cr.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    cr.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    cr.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    cr.close_path()


def _button(cr: cairo.Context, x: float, y: float, w: float, h: float, text: str,
            fill: tuple[float, float, float], zoom: float) -> None:
    _rounded(cr, x, y, w, h, 6 * zoom)
    cr.set_source_rgb(*fill)
    cr.fill_preserve()
    cr.set_source_rgb(0.15, 0.15, 0.15)
    cr.set_line_width(1.5 * zoom)
    cr.stroke()
    cr.set_source_rgb(1, 1, 1)
    cr.set_font_size(15 * zoom)
    extents = cr.text_extents(text)
    cr.move_to(x + (w - extents.width) / 2 - extents.x_bearing,
               y + (h - extents.height) / 2 - extents.y_bearing)
    cr.show_text(text)


def _icon(cr: cairo.Context, x: float, y: float, w: float, h: float, look: str, zoom: float) -> None:
    _rounded(cr, x, y, w, h, 5 * zoom)
    cr.set_source_rgb(0.88, 0.88, 0.90)
    cr.fill_preserve()
    cr.set_source_rgb(0.45, 0.45, 0.50)
    cr.set_line_width(1.0 * zoom)
    cr.stroke()
    cx, cy, r = x + w / 2, y + h / 2, min(w, h) * 0.36
    if look == "star":
        for i in range(10):
            radius = r if i % 2 == 0 else r * 0.45
            angle = -math.pi / 2 + i * math.pi / 5
            point = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
            (cr.move_to if i == 0 else cr.line_to)(*point)
        cr.close_path()
        cr.set_source_rgb(0.93, 0.68, 0.10)
    else:  # heart
        cr.move_to(cx, cy + r * 0.9)
        cr.curve_to(cx - r * 1.4, cy - r * 0.1, cx - r * 0.6, cy - r * 1.1, cx, cy - r * 0.35)
        cr.curve_to(cx + r * 0.6, cy - r * 1.1, cx + r * 1.4, cy - r * 0.1, cx, cy + r * 0.9)
        cr.close_path()
        cr.set_source_rgb(0.85, 0.18, 0.35)
    cr.fill()


def build(args: argparse.Namespace) -> Gtk.Window:
    window = Gtk.Window(title=args.title or "Phantom Canvas")
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6, margin=8)
    window.add(box)
    controls = layout(args)
    dx, dy = args.offset
    area = Gtk.DrawingArea()
    area.set_size_request(int(dx + CANVAS[0] * args.zoom), int(dy + CANVAS[1] * args.zoom))
    area.add_events(Gdk.EventMask.BUTTON_PRESS_MASK)
    status = Gtk.Label(label="Pressed:", xalign=0.0)
    status.get_accessible().set_name("Status")
    pressed: list[str] = []

    def on_press(_widget: Gtk.Widget, event: Gdk.EventButton) -> bool:
        if event.button != 1 or event.type != Gdk.EventType.BUTTON_PRESS:
            return False
        for name, (x, y, w, h, look) in controls.items():
            if x <= event.x < x + w and y <= event.y < y + h:
                pressed.append(pressed_name(name, look))
                status.set_text("Pressed: " + " ".join(pressed))
                break
        return True

    area.connect("draw", lambda _w, cr: draw(cr, controls, args.zoom, dx, dy))
    area.connect("button-press-event", on_press)
    box.pack_start(area, True, True, 0)
    box.pack_start(status, False, False, 0)
    if args.print_layout:
        def report(*_args: object) -> bool:
            ox, oy = area.translate_coordinates(window, 0, 0)
            rects = {name: [round(ox + x, 1), round(oy + y, 1), round(w, 1), round(h, 1), look]
                     for name, (x, y, w, h, look) in controls.items()}
            print(json.dumps(rects, sort_keys=True), flush=True)
            return False
        window.connect("map-event", report)
    return window


def _offset(text: str) -> tuple[int, int]:
    x, _, y = text.partition(",")
    return int(x), int(y or 0)


def main() -> None:
    parser = base_parser("Phantom canvas fixture app (controls drawn in a Gtk.DrawingArea)")
    parser.add_argument("--zoom", type=float, default=1.0)
    parser.add_argument("--offset", type=_offset, default=(0, 0), metavar="DX,DY")
    parser.add_argument("--swap", metavar="A,B")
    parser.add_argument("--duplicate", metavar="NAME")
    parser.add_argument("--hide", action="append", metavar="NAME")
    parser.add_argument("--copy", metavar="NAME,DX,DY")
    parser.add_argument("--print-layout", action="store_true")
    args = parser.parse_args()
    set_program("phantom-canvas")
    start("phantom-canvas", build(args), args.geometry)


if __name__ == "__main__":
    main()
