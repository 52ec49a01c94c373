"""Visual re-aiming with a window manager (openbox), as a shortcut runs it:
another application lies over the canvas when the replay starts. The run
raises the canvas and gives it the keyboard before it looks, so the picture
is the canvas's own; a dry run, which only looks, reports the covered steps
as pending instead of failing them."""

from __future__ import annotations

import json

import pytest

from support.apps import CANVAS_MARGIN as MARGIN
from support.apps import canvas_pressed as pressed
from support.cli import phantom
from support.daemon import CaptureProcess, settle, wait_for_rows

pytestmark = pytest.mark.desktop

CANVAS = ("--geometry", "420x260+60+60")


def centre(window, name: str) -> tuple[int, int]:
    from testbed.apps.canvas_app import CONTROLS

    x, y, w, h, _ = CONTROLS[name]
    return window.x + MARGIN + x + w // 2, window.y + MARGIN + y + h // 2


def canvas_window():
    from replay.windows import XSession
    from testbed.waiting import wait_until

    session = XSession()
    try:
        return wait_until(lambda: next(iter(session.app_windows("phantom-canvas")), None), timeout=10,
                          what="the canvas window")
    finally:
        session.close()


@pytest.fixture(scope="module")
def palette(managed_desktop, tmp_path_factory):
    """'palette' (Red, Blue, Star) demonstrated twice under openbox."""
    from replay.xinput import XTestInput

    desktop = managed_desktop
    user = XTestInput(desktop.display)
    db = tmp_path_factory.mktemp("visual-managed") / "store.sqlite3"
    app = desktop.launch_fixture("canvas", *CANVAS)
    try:
        settle(1.0)
        window = canvas_window()
        with CaptureProcess(desktop, db) as capture:
            for _ in range(2):
                user.click(window.x + 4, window.y + window.height - 4)     # focus it, as a person does
                # Clicks count only once the daemon has seen the canvas focused.
                wait_for_rows(db, "SELECT count(*) FROM snapshots WHERE app = 'phantom-canvas' "
                              "AND focused = 1", lambda rows: rows[0][0] > 0, what="a canvas snapshot")
                settle(0.5)
                assert phantom(desktop, "record", "start", "palette").returncode == 0
                for control in ("red", "blue", "star"):
                    user.click(*centre(window, control))
                    settle(0.6)
                assert phantom(desktop, "record", "stop").returncode == 0
            assert capture.stop() == 0
        assert pressed(app.pid) == "Pressed: red blue star red blue star"
    finally:
        desktop.close_app(app)
        user.close()
    compiled = phantom(desktop, "compile-program", "palette", "--db", str(db), "--format", "json")
    assert compiled.returncode == 0, compiled.stderr
    steps = json.loads(compiled.stdout)["program"]["steps"]
    assert len(steps) == 3 and all(s["target"]["visual"]["crops"] for s in steps)
    return db


def test_a_replay_raises_the_covered_canvas_before_it_looks(managed_desktop, apps, palette):
    canvas = apps("canvas", *CANVAS, "--zoom", "1.25", "--offset", "30,20")
    settle(1.0)
    apps("form", "--geometry", "320x230+140+120")           # over the canvas, and focused
    settle(1.0)
    dry = phantom(managed_desktop, "replay", "palette", "--db", str(palette), "--dry-run",
                  "--format", "json")
    result = json.loads(dry.stdout)
    assert dry.returncode == 0 and result["status"] == "dry_run", dry.stdout + dry.stderr
    assert result["steps"][0]["outcome"] == "pending" and "lies over" in result["steps"][0]["reason"]
    run = phantom(managed_desktop, "replay", "palette", "--db", str(palette), "--format", "json")
    result = json.loads(run.stdout)
    assert run.returncode == 0 and result["status"] == "success", run.stdout + run.stderr
    assert {s["policy"] for s in result["steps"]} == {"visual_reaim"}
    assert pressed(canvas.pid) == "Pressed: red blue star"
