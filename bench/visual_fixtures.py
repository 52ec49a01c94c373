"""Grab the visual benchmark's screens once: real windows of Phantom's
fixture apps and of Debian GTK applications on a virtual desktop, saved as
PNGs under fixtures/visual/, with the clickable controls of each (from
AT-SPI, or the canvas app's own layout) in fixtures/visual/cases.json.

    python bench/visual_fixtures.py      # rewrites fixtures/visual/

The benchmark (`bench_visual.py`) and the matcher's unit tests read these
files; nothing here runs at test time. Each screen is the window alone (its
client area), so a case's coordinates are window pixels. The canvas app is
also grabbed zoomed, with a duplicated icon, a hidden one and two controls
swapped (fixtures/visual/drift.json: how each was drawn).
"""

from __future__ import annotations

import json
import os
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

OUT = Path(__file__).resolve().parents[1] / "fixtures" / "visual"
CLICKABLE = ("push button", "toggle button", "check box", "radio button", "menu item", "page tab",
             "combo box", "spin button", "text", "entry", "slider", "link", "list item",
             "table cell", "toggle", "switch", "button", "menu")
MIN_SIDE = 8


def screens():
    """(name, argv or fixture kind, wm_class, gtk4, prepare) per screen."""
    return (
        ("canvas", ("fixture", "canvas", "--geometry", "420x260+0+0"), "phantom-canvas", False, None),
        ("form", ("fixture", "form", "--geometry", "360x240+0+0"), "phantom-form", False, None),
        ("notes", ("fixture", "notes", "--geometry", "420x360+0+0"), "phantom-notes", False, None),
        ("widget-factory-1", ("argv", "gtk3-widget-factory"), "gtk3-widget-factory", False, None),
        ("widget-factory-2", ("argv", "gtk3-widget-factory"), "gtk3-widget-factory", False, "Page 2"),
        ("widget-factory-3", ("argv", "gtk3-widget-factory"), "gtk3-widget-factory", False, "Page 3"),
        ("mousepad", ("argv", "mousepad"), "mousepad", False, None),
        ("calculator", ("argv", "gnome-calculator"), "gnome-calculator", True, None),
    )


# The canvas app drawn differently from its recorded look (canvas.png), for
# the matcher's tests: (name, app arguments), laid out by the app's own rules.
DRIFTS = (
    ("canvas-zoomed", ("--geometry", "520x330+0+0", "--zoom", "1.25", "--offset", "30,20")),
    ("canvas-duplicate", ("--geometry", "520x330+0+0", "--zoom", "1.25", "--offset", "30,20",
                          "--duplicate", "star")),
    ("canvas-hidden", ("--geometry", "520x330+0+0", "--zoom", "1.25", "--offset", "30,20",
                       "--hide", "star")),
    ("canvas-swapped", ("--geometry", "420x260+0+0", "--swap", "red,blue")),
)


def main() -> int:
    import mss
    import numpy as np
    from PIL import Image

    from testbed.executables import executable
    from testbed.harness import DesktopConfig, VirtualDesktop
    from testbed.waiting import wait_until

    OUT.mkdir(parents=True, exist_ok=True)
    cases = {}
    with VirtualDesktop(DesktopConfig(width=1920, height=1080)) as desktop:
        os.environ.update(desktop.env)
        from replay import live
        from replay.windows import XSession

        live.init()
        for name, (how, *argv), wm_class, gtk4, page in screens():
            app = (desktop.launch_fixture(argv[0], *argv[1:]) if how == "fixture"
                   else desktop.launch([executable(argv[0]), *argv[1:]], name=argv[0]))
            desktop.wait_for_window(wm_class, timeout=30)
            time.sleep(2.5)
            session = XSession()
            window = wait_until(partial(_first_window, session, wm_class), timeout=10, what=wm_class)
            accessible = wait_until(partial(live.accessible_window, window), timeout=10, what="accessible")
            if page:
                _open_page(accessible, page)
                time.sleep(1.5)
            with mss.MSS() as grabber:
                shot = grabber.grab({"left": window.x, "top": window.y, "width": window.width,
                                     "height": window.height})
            image = Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")
            image.save(OUT / f"{name}.png", "PNG", optimize=True)
            if name == "canvas":
                controls = _canvas_controls()
            else:
                controls = _controls(accessible, window, gtk4)
            pixels = np.asarray(image)
            cases[name] = {"size": [window.width, window.height],
                           "controls": [c for c in controls if _visible(c, pixels.shape)]}
            session.close()
            desktop.close_app(app)
            time.sleep(0.5)
        drifts = {}
        for name, args in DRIFTS:
            app = desktop.launch_fixture("canvas", *args)
            time.sleep(2.0)
            session = XSession()
            window = session.app_windows("phantom-canvas")[0]
            with mss.MSS() as grabber:
                shot = grabber.grab({"left": window.x, "top": window.y, "width": window.width,
                                     "height": window.height})
            Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX").save(
                OUT / f"{name}.png", "PNG", optimize=True)
            drifts[name] = {"size": [window.width, window.height], "args": list(args),
                            "controls": _canvas_controls(args)}
            session.close()
            desktop.close_app(app)
            time.sleep(0.5)
    (OUT / "cases.json").write_text(json.dumps(cases, indent=1, sort_keys=True) + "\n")
    (OUT / "drift.json").write_text(json.dumps(drifts, indent=1, sort_keys=True) + "\n")
    print(f"{sum(len(c['controls']) for c in cases.values())} controls on {len(cases)} screens "
          f"in {OUT}")
    return 0


def _first_window(session, wm_class: str):
    return next(iter(session.app_windows(wm_class)), None)


def _open_page(accessible, title: str) -> None:
    from core.a11y.tree import WalkLimits, walk

    result = walk(accessible, "", WalkLimits(max_nodes=2000, max_depth=30, budget_ms=5000))
    for node, element in zip(result.nodes, result.accessibles):
        if node.role in ("page tab", "radio button") and node.name == title:
            element.queryAction().doAction(0)
            return
    raise SystemExit(f"no page tab {title!r}")


def _controls(accessible, window, gtk4: bool) -> list[dict]:
    """Every showing, enabled clickable element, in window pixels."""
    from core.a11y.tree import WalkLimits, walk

    result = walk(accessible, "", WalkLimits(max_nodes=3000, max_depth=40, budget_ms=20000))
    found = []
    for node in result.nodes:
        if node.role not in CLICKABLE or None in (node.x, node.y, node.w, node.h):
            continue
        states = node.states.split(",")
        # GTK4 sets no "showing" state.
        if not ({"visible", "sensitive"} if gtk4 else {"showing", "visible", "sensitive"}) <= set(states):
            continue
        x, y = (node.x, node.y) if gtk4 else (node.x - window.x, node.y - window.y)
        if node.w < MIN_SIDE or node.h < MIN_SIDE:
            continue
        found.append({"role": node.role, "name": node.name or node.labelled_by or "",
                      "rect": [x, y, node.w, node.h]})
    return found


def _canvas_controls(args: tuple[str, ...] = ()) -> list[dict]:
    """The canvas app's controls as it draws them with these arguments."""
    import argparse

    from testbed.apps.canvas_app import layout

    parser = argparse.ArgumentParser()
    parser.add_argument("--geometry")
    parser.add_argument("--zoom", type=float, default=1.0)
    parser.add_argument("--offset", type=lambda t: tuple(int(v) for v in t.split(",")), default=(0, 0))
    parser.add_argument("--swap")
    parser.add_argument("--duplicate")
    parser.add_argument("--hide", action="append")
    parser.add_argument("--copy")
    margin = 8       # the canvas app's box margin: the drawing area starts there
    return [{"role": "drawn " + look, "name": name,
             "rect": [round(margin + x), round(margin + y), round(w), round(h)]}
            for name, (x, y, w, h, look) in layout(parser.parse_args(list(args))).items()]


def _visible(control: dict, shape) -> bool:
    x, y, w, h = control["rect"]
    return x >= 0 and y >= 0 and x + w <= shape[1] and y + h <= shape[0]


if __name__ == "__main__":
    raise SystemExit(main())
