"""Faults and layouts on a real headless sway (and `phantom doctor` naming
it): two outputs are two monitors; sway exiting under a running capture is a
`display_lost` blind spot (never a traceback, never silence), and a capture
killed with SIGKILL leaves a store the next run opens and carries on."""

from __future__ import annotations

import signal

import pytest

from support.daemon import PHANTOM, query, wait_for_rows
from support.sway_capture import SwayCapture
from testbed.executables import executable
from testbed.processes import terminate
from testbed.sway import SwayDesktop

pytestmark = pytest.mark.slow


def test_sway_exiting_under_capture_is_a_display_lost_blind_spot():
    with SwayDesktop() as sway:
        sway.launch([executable("gtk3-demo")])
        sway.wait_for_view("gtk3-demo")
        doctor = sway.run([PHANTOM, "doctor"], timeout=60)
        assert "ok  display        sway on wayland-" in doctor.stdout, doctor.stdout
        with SwayCapture(sway) as capture:
            wait_for_rows(capture.db, "SELECT app FROM snapshots", bool, what="a snapshot")
            terminate(next(p for p in sway._started if p.name == "sway"))
            spots = wait_for_rows(capture.db, "SELECT kind, reason FROM blind_spots WHERE kind = 'display_lost'",
                                  bool, what="the display_lost blind spot")
            assert capture.stop() == 0
        assert spots == [("display_lost", "sway unreachable")], spots
        assert "Traceback" not in capture.log()


def test_a_killed_capture_leaves_a_store_the_next_run_carries_on():
    with SwayDesktop() as sway:
        sway.launch([executable("gtk3-demo")])
        sway.wait_for_view("gtk3-demo")
        first = SwayCapture(sway)
        with first:
            wait_for_rows(first.db, "SELECT app FROM snapshots", bool, what="a snapshot")
            assert first.process is not None
            first.process.send_signal(signal.SIGKILL)
            assert first.process.wait(10) == -signal.SIGKILL
        before = query(first.db, "SELECT count(*) FROM snapshots")[0][0]
        second = SwayCapture(sway)
        second.db = first.db
        second.args[second.args.index(str(second.workdir / "store.sqlite3"))] = str(first.db)
        with second:
            wait_for_rows(first.db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > before,
                          what="a snapshot of the second run")
            assert second.stop() == 0
        assert query(first.db, "PRAGMA integrity_check") == [("ok",)]
        assert query(first.db, "PRAGMA foreign_key_check") == []
        assert query(first.db, "SELECT count(*) FROM snapshots WHERE app = 'gtk3-demo'")[0][0] > before


def test_each_sway_output_is_a_monitor():
    """Two outputs side by side: a window on the right one is captured on
    monitor 1, with that output's thumbnail (grim -o HEADLESS-2)."""
    with SwayDesktop(outputs=2) as sway:
        sway.command("focus output HEADLESS-1")
        sway.launch([executable("gtk3-demo")])
        sway.wait_for_view("gtk3-demo")
        sway.command("focus output HEADLESS-2")
        sway.launch([executable("gtk3-widget-factory")])
        view = sway.wait_for_view("gtk3-widget-factory")
        assert view["rect"]["x"] >= 1280, view["rect"]
        with SwayCapture(sway) as capture:
            wait_for_rows(capture.db, "SELECT app FROM snapshots", bool, what="a snapshot")
            sway.command('[app_id="gtk3-demo"] focus')
            wait_for_rows(capture.db, "SELECT app FROM snapshots WHERE trigger = 'focus'",
                          lambda rows: rows[-1:] == [("gtk3-demo",)], what="the demo's snapshot")
            sway.command('[app_id="gtk3-widget-factory"] focus')
            wait_for_rows(capture.db, "SELECT app FROM snapshots WHERE trigger = 'focus'",
                          lambda rows: rows[-1:] == [("gtk3-widget-factory",)], what="the factory's snapshot")
            assert capture.stop() == 0
        monitors = dict(query(capture.db, "SELECT app, monitor FROM snapshots WHERE trigger = 'focus'"))
        assert monitors == {"gtk3-demo": 0, "gtk3-widget-factory": 1}, monitors
        shots = query(capture.db, "SELECT DISTINCT s.monitor FROM snapshots s JOIN blobs b ON b.sha256 = s.screenshot")
        assert (1,) in shots, shots


def test_a_no_pictures_window_is_black_in_the_thumbnail():
    """The X11 thumbnail rules on sway: a window of a `no_pictures` app is
    painted black where sway shows it, the rest of the screen is kept."""
    from io import BytesIO

    from PIL import Image, ImageStat

    with SwayDesktop() as sway:
        sway.launch([executable("gtk3-demo")])
        sway.wait_for_view("gtk3-demo")
        sway.launch([executable("gtk3-widget-factory")])
        sway.wait_for_view("gtk3-widget-factory")
        sway.command('[app_id="gtk3-widget-factory"] focus')
        views = {view["app_id"]: view for view in sway.views()}
        config = '[privacy]\nno_pictures = ["gtk3-demo"]\n'
        with SwayCapture(sway, config_text=config) as capture:
            rows = wait_for_rows(capture.db, "SELECT b.data, b.width FROM snapshots s "
                                 "JOIN blobs b ON b.sha256 = s.screenshot", bool, what="a thumbnail")
            assert capture.stop() == 0
    image = Image.open(BytesIO(rows[0][0])).convert("L")
    scale = rows[0][1] / 1280

    def mean(x: int, y: int, width: int, height: int) -> float:
        box = (round(x * scale) + 1, round(y * scale) + 1,
               round((x + width) * scale) - 1, round((y + height) * scale) - 1)
        return ImageStat.Stat(image.crop(box)).mean[0]

    demo, factory = views["gtk3-demo"], views["gtk3-widget-factory"]
    rect, title = demo["rect"], demo["deco_rect"]["height"]
    assert title > 0   # sway draws the demo's title bar (the factory draws its own header)
    assert mean(rect["x"], rect["y"], rect["width"], rect["height"]) < 8
    assert mean(rect["x"], rect["y"] - title, rect["width"], title) < 8     # its title is hidden too
    assert mean(factory["rect"]["x"], factory["rect"]["y"], factory["rect"]["width"], factory["rect"]["height"]) > 60
