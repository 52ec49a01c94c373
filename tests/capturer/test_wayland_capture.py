"""Capture on a real headless sway (wlroots) with native Wayland GTK 3 apps:
focus changes switched by sway's own `focus` command become snapshots with
the app id, title, pid and monitor sway reports; a grim thumbnail is kept;
the accessibility tree is stored with extents on the screen, not relative
to the window as Wayland clients report them."""

from __future__ import annotations

import pytest

from support.daemon import query, wait_for_rows
from support.sway_capture import SwayCapture
from testbed.executables import executable
from testbed.sway import SwayDesktop

pytestmark = pytest.mark.slow

FACTORY, DEMO = "gtk3-widget-factory", "gtk3-demo"


@pytest.fixture(scope="module")
def sway():
    with SwayDesktop() as desktop:
        desktop.launch([executable(FACTORY)])
        desktop.wait_for_view(FACTORY)
        desktop.launch([executable(DEMO)])
        desktop.wait_for_view(DEMO)
        yield desktop


def focus_snapshots(db) -> list[tuple]:
    return query(db, "SELECT app, title, pid, monitor, focused FROM snapshots "
                     "WHERE trigger = 'focus' ORDER BY ts_ms, id")


def test_focus_changes_become_snapshots_with_thumbnail_and_screen_extents(sway):
    sway.command(f'[app_id="{DEMO}"] focus')
    with SwayCapture(sway) as capture:
        wait_for_rows(capture.db, "SELECT app FROM snapshots", lambda rows: (DEMO,) in rows,
                      what="the first snapshot")
        sway.command(f'[app_id="{FACTORY}"] focus')
        wait_for_rows(capture.db, "SELECT app FROM snapshots WHERE trigger = 'focus'",
                      lambda rows: rows[-1:] == [(FACTORY,)], what="the snapshot of the factory")
        wait_for_rows(capture.db, f"SELECT tree_id FROM snapshots WHERE app = '{FACTORY}' "
                      "AND tree_id IS NOT NULL", bool, what="the factory's tree")
        sway.command(f'[app_id="{DEMO}"] focus')
        wait_for_rows(capture.db, "SELECT app FROM snapshots WHERE trigger = 'focus'",
                      lambda rows: rows[-1:] == [(DEMO,)], what="the snapshot of the demo")
        assert capture.stop() == 0
    views = {view["app_id"]: view for view in sway.views()}
    db = capture.db

    snapshots = focus_snapshots(db)
    assert [app for app, *_ in snapshots] == [DEMO, FACTORY, DEMO], snapshots   # each change exactly once
    for app, title, pid, monitor, focused in snapshots:
        assert (title, pid, monitor, focused) == (views[app]["name"], views[app]["pid"], 0, 1)

    thumbnails = query(db, "SELECT b.width, b.height, b.media_type FROM snapshots s "
                           "JOIN blobs b ON b.sha256 = s.screenshot")
    assert (320, 200, "image/webp") in thumbnails       # 1280×800 scaled as X11 thumbnails are

    # The factory's frame lies where sway put the window's content (below
    # sway's title bar), not at the (0, 0) the application reports.
    view = views[FACTORY]
    origin = (view["rect"]["x"] + view["window_rect"]["x"], view["rect"]["y"] + view["window_rect"]["y"])
    assert origin[1] > 0
    frames = query(db, "SELECT e.x, e.y FROM snapshots s JOIN elements e ON e.tree_id = s.tree_id "
                       "WHERE s.app = ? AND e.depth = 0", (FACTORY,))
    assert frames and set(frames) == {origin}
    buttons = query(db, "SELECT e.x, e.y FROM snapshots s JOIN elements e ON e.tree_id = s.tree_id "
                        "WHERE s.app = ? AND e.role = 'radio button' AND e.name = 'Page 1'", (FACTORY,))
    assert buttons and all(y >= origin[1] and x >= origin[0] for x, y in buttons)
    assert query(db, "SELECT count(*) FROM snapshots s LEFT JOIN a11y_trees t ON t.id = s.tree_id "
                     "WHERE s.tree_id IS NOT NULL AND t.id IS NULL") == [(0,)]

    # No input observation on Wayland: said once, not a silent zero.
    assert query(db, "SELECT count(*) FROM input_events") == [(0,)]
    assert "no input observation on Wayland" in capture.log()
    assert query(db, "SELECT kind, reason FROM blind_spots") == [("capture_error", "input listener failed")]
