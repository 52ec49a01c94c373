"""Capture on a real headless sway (wlroots): a native Wayland GTK 3 app
(gtk3-widget-factory), a native GTK 4 one (gnome-calculator) and an X
client on sway's Xwayland (xmessage). Focus changes switched by sway's own
`focus` command become snapshots with the app id (or X class), title, pid
and monitor sway reports, each exactly once; a grim thumbnail is kept; the
accessibility tree is stored with extents on the screen, not relative to
the window as Wayland clients report them; `phantom compile` gives a frame
for each app."""

from __future__ import annotations

import json
import subprocess

import pytest

from capturer.sources.wayland.extents import wayland_origin
from capturer.sources.wayland.tree import window_info
from core.a11y.screen import extents_to_screen
from support.daemon import PHANTOM, query, wait_for_rows
from support.sway_capture import SwayCapture
from testbed.executables import executable
from testbed.sway import SwayDesktop

pytestmark = pytest.mark.slow

FACTORY, CALCULATOR, XMESSAGE = "gtk3-widget-factory", "org.gnome.Calculator", "Xmessage"
# What capture names each: the app id, or the X class, case-folded (as on X11).
NAMES = {FACTORY: "gtk3-widget-factory", CALCULATOR: "org.gnome.calculator", XMESSAGE: "xmessage"}


@pytest.fixture(scope="module")
def sway():
    with SwayDesktop() as desktop:
        desktop.launch([executable(FACTORY)])
        desktop.wait_for_view(FACTORY)
        desktop.launch([executable("gnome-calculator")])
        desktop.wait_for_view(CALCULATOR)
        desktop.launch_xwayland([executable("xmessage"), "an X client"], XMESSAGE)
        yield desktop


def test_idle_is_the_compositor_s_word(sway):
    """sway's org_kde_kwin_idle says idle after the threshold without input,
    and resumed at the next key (wtype, through virtual-keyboard)."""
    focus(sway, FACTORY)
    with SwayCapture(sway, config_text="[capture]\nidle_after_seconds = 1\n") as capture:
        # Idle within a second without input: the first snapshot may already say so.
        wait_for_rows(capture.db, "SELECT id FROM snapshots WHERE idle = 1", bool, what="an idle snapshot")
        assert sway.run([executable("wtype"), "x"]).returncode == 0
        wait_for_rows(capture.db, "SELECT id FROM snapshots WHERE trigger = 'active' AND idle = 0", bool,
                      what="an active snapshot after the key")
        assert capture.stop() == 0
    assert "the compositor says resumed" in capture.log()
    rows = query(capture.db, "SELECT trigger, idle FROM snapshots ORDER BY ts_ms, id")
    first_idle = next(i for i, (_, idle) in enumerate(rows) if idle)
    assert ("active", 0) in rows[first_idle:], rows


def focus(sway: SwayDesktop, which: str) -> None:
    if which == XMESSAGE:
        sway.command(f'[class="{XMESSAGE}"] focus')
    else:
        sway.command(f'[app_id="{which}"] focus')


def test_focus_changes_become_snapshots_with_thumbnail_and_screen_extents(sway):
    order = [CALCULATOR, FACTORY, XMESSAGE, CALCULATOR]
    focus(sway, order[0])
    with SwayCapture(sway) as capture:
        for index, which in enumerate(order):
            if index:
                focus(sway, which)
            wait_for_rows(capture.db, "SELECT app FROM snapshots WHERE trigger = 'focus'",
                          lambda rows, which=which: rows[-1:] == [(NAMES[which],)],
                          what=f"the snapshot of {which}")
            if which == FACTORY:
                wait_for_rows(capture.db, f"SELECT tree_id FROM snapshots WHERE app = '{NAMES[FACTORY]}' "
                              "AND tree_id IS NOT NULL", bool, what="the factory's tree")
        assert capture.stop() == 0
    views = {NAMES[view.get("app_id") or view["window_properties"]["class"]]: view for view in sway.views()}
    db = capture.db

    snapshots = query(db, "SELECT app, wm_class, title, pid, monitor, focused FROM snapshots "
                          "WHERE trigger = 'focus' ORDER BY ts_ms, id")
    assert [app for app, *_ in snapshots] == [NAMES[w] for w in order], snapshots   # each change once
    for app, _wm_class, title, pid, monitor, focused in snapshots:
        assert (title, pid, monitor, focused) == (views[app]["name"], views[app]["pid"], 0, 1)
    assert {wm_class for app, wm_class, *_ in snapshots if app == "xmessage"} == {"xmessage.Xmessage"}

    thumbnails = query(db, "SELECT b.width, b.height, b.media_type FROM snapshots s "
                           "JOIN blobs b ON b.sha256 = s.screenshot")
    assert (320, 200, "image/webp") in thumbnails       # 1280×800 scaled as X11 thumbnails are

    # The factory's frame lies where sway put the window's content (below
    # sway's title bar), not at the (0, 0) the application reports.
    view = views[NAMES[FACTORY]]
    origin = (view["rect"]["x"] + view["window_rect"]["x"], view["rect"]["y"] + view["window_rect"]["y"])
    assert origin[1] > 0
    frames = query(db, "SELECT e.x, e.y, e.w, e.h FROM snapshots s JOIN elements e ON e.tree_id = s.tree_id "
                       "WHERE s.app = ? AND e.depth = 0", (NAMES[FACTORY],))
    # The application says its frame is at (0, 0) of its window.
    placed = wayland_origin(None, window_info(view).x, window_info(view).y)
    assert frames and {extents_to_screen(placed, (0, 0, w, h)) for *_, w, h in frames} == set(frames)
    assert {(x, y) for x, y, *_ in frames} == {origin}
    # Its parts too (GTK's "not laid out" place, -2**31, stays as it is).
    inside = query(db, "SELECT e.x, e.y FROM snapshots s JOIN elements e ON e.tree_id = s.tree_id "
                       "WHERE s.app = ? AND e.depth > 0 AND e.x > ? AND e.y > ?", (NAMES[FACTORY], -2**31, -2**31))
    assert inside and all(x >= origin[0] and y >= origin[1] for x, y in inside), inside
    assert origin in inside   # the header bar, at the window's own (0, 0)
    assert query(db, "SELECT count(*) FROM snapshots s LEFT JOIN a11y_trees t ON t.id = s.tree_id "
                     "WHERE s.tree_id IS NOT NULL AND t.id IS NULL") == [(0,)]

    # No input observation on Wayland: said once, not a silent zero.
    assert query(db, "SELECT count(*) FROM input_events") == [(0,)]
    assert "no input observation on Wayland" in capture.log()
    spots = query(db, "SELECT kind, reason FROM blind_spots ORDER BY id")
    assert ("capture_error", "input listener failed") in spots
    # The X client on Xwayland is judged as on X11: Xaw exposes no tree.
    assert [kind for kind, reason in spots if "xmessage" in reason] == ["no_accessibility"]
    assert spots[-1] == ("not_running", "capture stopped")   # the clean stop's closing row
    assert len(spots) == 3, spots

    compiled = subprocess.run([PHANTOM, "compile", "--db", str(db), "--format", "json"],
                              capture_output=True, text=True, timeout=60)
    assert compiled.returncode == 0, compiled.stderr
    frames = [(frame["app"], frame["monitor"]) for frame in json.loads(compiled.stdout)["frames"]]
    assert {app for app, _ in frames} == set(NAMES.values()) and {m for _, m in frames} == {0}, frames
