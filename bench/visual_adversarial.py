"""Adversarial layouts for the visual benchmark: the screens of
fixtures/visual/ changed the way a look-alike fools a matcher, each with
the places a click may rightly go (docs/VISUAL.md §3, docs/BENCHMARKS.md).

    from bench.visual_adversarial import cases
    for case in cases(): ...

Pure pixel work on the real screenshots `bench/visual_fixtures.py`
grabbed; nothing is grabbed here, so the same files give the same cases.

- duplicated control: an exact copy of the clicked control (with its
  anti-aliased rim) 80 px away in each direction where it fits, the original
  untouched; in the window as recorded and in one grown by a third whose
  drawing did not grow (the window's growth then misleads the likely scale);
- list shifted by one row: a table's rows moved down one row (a row was
  inserted above); a click belongs to the same item at its new row, a row
  pushed out of the table is nowhere;
- swapped colours: Red and Blue swap their fills, labels kept; and two
  Save buttons, grey and blue, swap places;
- the same icon in two toolbars: a second toolbar appears with the same
  icons; both were there when recorded (in another order); an icon gone
  from the first toolbar, its twin still in the second — nowhere to click.

A case's `rights` are rectangles of the current screen; an accepted point
outside all of them is a wrong accept (an empty tuple: any accept is wrong).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "visual"
COPY_DISTANCE = 80
HALO = 2                 # a control's anti-aliased rim, copied with it
GROWTH = 4 / 3

Rect = tuple[int, int, int, int]


@dataclass(frozen=True)
class Case:
    """One re-aim: the crops come from `recorded` around `click`; the
    matcher looks at `current` (both RGB, window pixels)."""

    family: str
    name: str
    recorded: np.ndarray
    current: np.ndarray
    click: tuple[int, int]
    rights: tuple[Rect, ...]


def cases() -> Iterator[Case]:
    from PIL import Image

    data = json.loads((FIXTURES / "cases.json").read_text())
    screens = {name: np.asarray(Image.open(FIXTURES / f"{name}.png").convert("RGB")) for name in data}
    controls = {name: data[name]["controls"] for name in data}
    yield from _duplicated(screens, controls)
    yield from _shifted(screens, controls)
    yield from _swapped(screens, controls)
    yield from _toolbars(screens, controls)


def _duplicated(screens, controls) -> Iterator[Case]:
    for screen in ("canvas", "form", "notes", "calculator"):
        image = screens[screen]
        for control in controls[screen]:
            rect = tuple(control["rect"])
            for dx, dy in ((0, COPY_DISTANCE), (COPY_DISTANCE, 0), (0, -COPY_DISTANCE), (-COPY_DISTANCE, 0)):
                if not _fits(image, rect, dx, dy):
                    continue
                current = _paste(image, rect, dx, dy)
                label = f"{screen}:{control['name']} copy {dx:+d},{dy:+d}"
                yield Case("duplicated control", label, image, current, _centre(rect), (rect,))
                yield Case("duplicated control", label + " (window grown)", image, _grown(current),
                           _centre(rect), (rect,))
                if screen == "calculator":
                    break             # its keypad is dense: one copy per key


def _shifted(screens, controls) -> Iterator[Case]:
    for screen in ("widget-factory-1", "widget-factory-3"):
        image = screens[screen]
        cells = [c for c in controls[screen] if c["role"] == "table cell"]
        if not cells:
            continue
        row = 23                                   # a GTK tree view row here
        x0 = min(c["rect"][0] for c in cells) - 2
        x1 = max(c["rect"][0] + c["rect"][2] for c in cells) + 2
        y0 = min(c["rect"][1] for c in cells) - 1
        y1 = max(c["rect"][1] + c["rect"][3] for c in cells) + 1
        current = image.copy()
        current[y0 + row:y1 + row, x0:x1] = image[y0:y1, x0:x1]
        current[y0:y0 + row, x0:x1] = image[y0 + 1, x0 + 1]        # the inserted row: empty
        height = image.shape[0]
        for cell in cells:
            x, y, w, h = cell["rect"]
            moved = (x, y + row, w, h)
            rights = (moved,) if y + row + h <= min(y1 + row, height) else ()
            yield Case("list shifted by one row", f"{screen}:{cell['name'] or 'cell'}@{x},{y}", image,
                       current, _centre(cell["rect"]), rights)


def _swapped(screens, controls) -> Iterator[Case]:
    from testbed.apps.canvas_app import FILLS

    image = screens["canvas"]
    rects = {c["name"]: tuple(c["rect"]) for c in controls["canvas"]}
    fill = {name: tuple(round(255 * v) for v in rgb) for name, rgb in FILLS.items()}
    current = _recoloured(_recoloured(image, rects["red"], fill["red"], fill["blue"]),
                          rects["blue"], fill["blue"], fill["red"])
    for name in ("red", "blue"):
        yield Case("swapped colours", f"canvas:{name} fills swapped", image, current,
                   _centre(rects[name]), (rects[name],))
    # Two Save buttons, grey and blue; then they change places.
    grey = rects["save"]
    spare = (152, grey[1], grey[2], grey[3])
    blue_save = _recoloured(_moved(image, grey, spare), spare, fill["save"], fill["blue"])
    recorded = blue_save
    swapped = _recoloured(_recoloured(recorded, spare, fill["blue"], fill["save"]), grey, fill["save"],
                          fill["blue"])
    yield Case("swapped colours", "canvas:grey Save, the two Saves swapped", recorded, swapped,
               _centre(grey), (spare,))
    yield Case("swapped colours", "canvas:blue Save, the two Saves swapped", recorded, swapped,
               _centre(spare), (grey,))


def _toolbars(screens, controls) -> Iterator[Case]:
    image = screens["widget-factory-2"]
    icons = [tuple(c["rect"]) for c in controls["widget-factory-2"] if c["name"] in ("New", "Save", "Search")
             and c["rect"][1] < 150]
    icons.sort()
    x0, y0 = icons[0][0] - 3, icons[0][1] - 3
    x1, y1 = icons[-1][0] + icons[-1][2] + 3, icons[0][1] + icons[0][3] + 3
    strip = image[y0:y1, x0:x1]
    at = (420, 560)                               # inside the plain "Right" pane
    second = image.copy()
    second[at[1]:at[1] + strip.shape[0], at[0]:at[0] + strip.shape[1]] = strip
    names = ("New", "Save", "Search")
    moved = [(at[0] + (r[0] - x0), at[1] + (r[1] - y0), r[2], r[3]) for r in icons]
    for name, rect in zip(names, icons):
        yield Case("same icon in two toolbars", f"widget-factory-2:{name}, a second toolbar appeared", image,
                   second, _centre(rect), (rect,))
    # The second toolbar, there when recorded, holds the icons in another order.
    order = (2, 0, 1)
    both = second.copy()
    for slot, source in enumerate(order):
        sx, sy, w, h = icons[source]
        tx, ty = moved[slot][0], moved[slot][1]
        both[ty:ty + h, tx:tx + w] = image[sy:sy + h, sx:sx + w]
    theirs = {names[source]: moved[slot] for slot, source in enumerate(order)}
    for name, rect in zip(names, icons):
        yield Case("same icon in two toolbars", f"widget-factory-2:{name} (first toolbar), both recorded",
                   both, both, _centre(rect), (rect,))
        yield Case("same icon in two toolbars", f"widget-factory-2:{name} (second toolbar), both recorded",
                   both, both, _centre(theirs[name]), (theirs[name],))
        gone = both.copy()
        x, y, w, h = rect
        gone[y:y + h, x:x + w] = both[y0 + 1, x0 + 1]
        yield Case("same icon in two toolbars", f"widget-factory-2:{name} gone from the first toolbar",
                   both, gone, _centre(rect), ())


def _centre(rect) -> tuple[int, int]:
    x, y, w, h = rect
    return x + w // 2, y + h // 2


def _fits(image: np.ndarray, rect: Rect, dx: int, dy: int) -> bool:
    """The copy (with its rim) lies inside the screen and off the original's rim."""
    x, y, w, h = rect
    height, width = image.shape[:2]
    left, top = x + dx - HALO, y + dy - HALO
    if left < 0 or top < 0 or left + w + 2 * HALO > width or top + h + 2 * HALO > height:
        return False
    return abs(dx) >= w + 2 * HALO or abs(dy) >= h + 2 * HALO


def _paste(image: np.ndarray, rect: Rect, dx: int, dy: int) -> np.ndarray:
    x, y, w, h = rect
    out = image.copy()
    x0, y0, x1, y1 = x - HALO, y - HALO, x + w + HALO, y + h + HALO
    out[y0 + dy:y1 + dy, x0 + dx:x1 + dx] = image[y0:y1, x0:x1]
    return out


def _moved(image: np.ndarray, rect: Rect, to: Rect) -> np.ndarray:
    return _paste(image, rect, to[0] - rect[0], to[1] - rect[1])


def _grown(image: np.ndarray) -> np.ndarray:
    """The window a third larger, its drawing where it was (the new area
    filled as its edge)."""
    height, width = image.shape[:2]
    return np.pad(image, ((0, round(height * (GROWTH - 1))), (0, round(width * (GROWTH - 1))), (0, 0)),
                  mode="edge")


def _recoloured(image: np.ndarray, rect: Rect, old: tuple[int, ...], new: tuple[int, ...]) -> np.ndarray:
    """Inside `rect`, pixels near colour `old` moved by `new − old` (the
    fill changes, the label and the frame stay)."""
    x, y, w, h = rect
    out = image.copy()
    area = out[y:y + h, x:x + w].astype(np.int16)
    near = np.abs(area - np.array(old, dtype=np.int16)).sum(axis=2) < 60
    area[near] += np.array(new, dtype=np.int16) - np.array(old, dtype=np.int16)
    out[y:y + h, x:x + w] = np.clip(area, 0, 255).astype(np.uint8)
    return out
