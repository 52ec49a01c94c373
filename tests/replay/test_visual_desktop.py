"""Visual re-aiming on the virtual desktop: demonstrations on the canvas
fixture app — whose controls are drawn inside one Gtk.DrawingArea, so the
accessibility tree holds a single unnamed "drawing area" — recorded by the
real capture daemon, compiled with `phantom compile-program`, and replayed
after the window moved and the app zoomed and shifted its drawing. The
app's status label (read through AT-SPI) says which drawn control each
click hit."""

from __future__ import annotations

import json
import shutil

import pytest

from support.apps import CANVAS_MARGIN as MARGIN
from support.apps import canvas_pressed as pressed
from support.apps import focus
from support.cli import phantom
from support.daemon import CaptureProcess, query, settle, wait_for_rows

pytestmark = pytest.mark.desktop

RECORDED = ("--geometry", "420x260+40+40")
RECORDED_WINDOW = (40, 40, 420, 260)
MOVED_AND_ZOOMED = ("--geometry", "520x330+300+200", "--zoom", "1.25", "--offset", "30,20")


def control_centre(name: str, window=(40, 40)) -> tuple[int, int]:
    """Where the recorded canvas draws a control, on the desktop."""
    from testbed.apps.canvas_app import CONTROLS

    x, y, w, h, _ = CONTROLS[name]
    return window[0] + MARGIN + x + w // 2, window[1] + MARGIN + y + h // 2


def record(desktop, user, app, name: str, clicks: tuple[str, ...], hook: list | None = None) -> None:
    """One demonstration; with `hook`, the capture hook's crops of every
    click are made from a screenshot taken right before it (appended)."""
    focus(desktop, "phantom-canvas")
    before = pressed(app.pid)
    assert phantom(desktop, "record", "start", name).returncode == 0
    for control in clicks:
        if hook is not None:
            hook.append(crops_before_click(*control_centre(control)))
        user.click(*control_centre(control))
        settle(0.6)
    stopped = phantom(desktop, "record", "stop")
    assert stopped.returncode == 0, stopped.stderr
    assert pressed(app.pid) == " ".join((before, *clicks))


def crops_before_click(x: int, y: int):
    """What the capture daemon will do with the hook: the screen, grabbed,
    cropped around the click inside the recorded window."""
    import mss
    import numpy as np

    from core.visual_evidence import crop_variants

    with mss.MSS() as grabber:
        shot = grabber.grab(grabber.monitors[0])
    pixels = np.asarray(shot)[:, :, 2::-1]          # BGRA → RGB
    return crop_variants(pixels, x, y, RECORDED_WINDOW)


@pytest.fixture(scope="module")
def recorded(desktop, tmp_path_factory):
    """Two programs, each from two demonstrations by the real daemon:
    'palette' clicks Red, Blue, Star; 'star first' clicks Star, Green.
    The first 'palette' demonstration also keeps the capture hook's crops
    of each click (the daemon itself stores only the 64-pixel target crop)."""
    from replay.xinput import XTestInput

    user = XTestInput(desktop.display)
    db = tmp_path_factory.mktemp("visual") / "store.sqlite3"
    app = desktop.launch_fixture("canvas", *RECORDED)
    hook: list = []
    try:
        with CaptureProcess(desktop, db) as capture:
            # Clicks count only once the daemon has seen the canvas focused.
            focus(desktop, "phantom-canvas")
            wait_for_rows(db, "SELECT count(*) FROM snapshots WHERE app = 'phantom-canvas' "
                          "AND focused = 1", lambda rows: rows[0][0] > 0, what="a canvas snapshot")
            for demonstration in range(2):
                record(desktop, user, app, "palette", ("red", "blue", "star"),
                       hook if demonstration == 0 else None)
                record(desktop, user, app, "star first", ("star", "green"))
            assert capture.stop() == 0
    finally:
        desktop.close_app(app)
        user.close()
    reports = {}
    for name in ("palette", "star first"):
        compiled = phantom(desktop, "compile-program", name, "--db", str(db), "--format", "json")
        assert compiled.returncode == 0, compiled.stderr
        reports[name] = json.loads(compiled.stdout)
    reports["hooked"] = with_hook_evidence(db, reports["palette"]["id"], hook)
    return db, reports


def with_hook_evidence(db, program_id: str, hook: list) -> str:
    """The 'palette' program with the hook's three crops per click instead
    of the lifted target crop, stored beside it; its id."""
    from compiler.programs.evidence import visual_of, with_visual
    from compiler.programs.store import load_program, save_program
    from core.store import open_store
    from core.store.records import BlobRow, insert_sql

    connection = open_store(db)
    try:
        with connection:
            for variants in hook:
                for v in variants:
                    connection.execute(insert_sql(BlobRow), BlobRow(
                        v.sha256, "click_crop", "image/png", v.width, v.height, v.png, 0).values())
    finally:
        connection.close()
    program = load_program(db, program_id)
    hooked = with_visual(program, {i: visual_of(variants, RECORDED_WINDOW)
                                   for i, variants in enumerate(hook)})
    return save_program(db, hooked, created_ms=0)


@pytest.fixture
def store(recorded, tmp_path):
    """A private copy of the recorded store (replays add telemetry to it)."""
    db, reports = recorded
    copy = tmp_path / "store.sqlite3"
    shutil.copy(db, copy)
    return copy, reports


def replay(desktop, db, program: str, *args: str):
    result = phantom(desktop, "replay", program, "--db", str(db), "--format", "json", *args)
    return result.returncode, (json.loads(result.stdout) if result.stdout.strip() else None), result.stderr


def test_the_programs_carry_the_daemons_click_crops_as_visual_evidence(store):
    _, reports = store
    steps = reports["palette"]["program"]["steps"]
    assert [s["action"] for s in steps] == ["click", "click", "click"]
    for step in steps:
        target = step["target"]
        assert target["role"] == "drawing area" and target["name"] == "" and target["label"] == ""
        crops = target["visual"]["crops"]
        assert [c["kind"] for c in crops] == ["target"] and crops[0]["blob"] == target["crop"]
        assert (crops[0]["width"], crops[0]["height"]) == (64, 64)


def test_a_moved_and_zoomed_drawing_replays_through_the_visual_rung(desktop, apps, store):
    db, _ = store
    app = apps("canvas", *MOVED_AND_ZOOMED)
    code, result, stderr = replay(desktop, db, "palette")
    assert code == 0, (result, stderr)
    assert result["status"] == "success" and result["sent_input"] is True
    assert pressed(app.pid) == "Pressed: red blue star"
    for step in result["steps"]:
        visual = step["visual"]
        assert step["policy"] == "visual_reaim" and step["dispatch"] == "xtest_pointer"
        assert visual["verdict"] == "accepted" and visual["score"] >= 0.78 and visual["margin"] >= 0.02
        assert visual["scale"] == pytest.approx(1.25, abs=0.04)
        assert visual["shift"][0] > 250 and visual["shift"][1] > 150      # the window moved
    rows = query(db, "SELECT policy, outcome, score, runner_up, reason FROM replay_steps "
                     "WHERE run_id = ? ORDER BY step_index", (result["run_id"],))
    assert [(r[0], r[1]) for r in rows] == [("visual_reaim", "ok")] * 3
    assert all(r[2] >= 0.78 and r[3] is not None and "margin" in r[4] and "scale 1.2" in r[4]
               and "shift (+" in r[4] for r in rows)


def test_the_capture_hooks_three_crops_replay_the_same_way(desktop, apps, store):
    from compiler.programs.store import load_program

    db, reports = store
    program = load_program(db, reports["hooked"])
    assert [[c.kind for c in s.target.visual.crops] for s in program.steps] == [
        ["target", "context", "wide"]] * 3
    app = apps("canvas", *MOVED_AND_ZOOMED)
    code, result, stderr = replay(desktop, db, reports["hooked"])
    assert code == 0 and result["status"] == "success", (result, stderr)
    assert pressed(app.pid) == "Pressed: red blue star"
    assert {s["policy"] for s in result["steps"]} == {"visual_reaim"}


def test_the_same_control_drawn_where_another_used_to_be_is_not_clicked_by_mistake(desktop, apps,
                                                                                     store):
    db, _ = store
    app = apps("canvas", *RECORDED, "--swap", "red,blue")
    code, result, stderr = replay(desktop, db, "palette")
    assert code == 0, (result, stderr)
    assert pressed(app.pid) == "Pressed: red blue star"       # not "blue red star"
    red, blue = (s["visual"]["point"] for s in result["steps"][:2])
    assert tuple(red) == pytest.approx(control_centre("blue"), abs=2)
    assert tuple(blue) == pytest.approx(control_centre("red"), abs=2)


def test_two_identical_icons_side_by_side_are_refused_and_nothing_is_clicked(desktop, apps, store):
    db, _ = store
    app = apps("canvas", *MOVED_AND_ZOOMED, "--duplicate", "star")
    code, result, _ = replay(desktop, db, "star first")
    assert (code, result["status"], result["sent_input"]) == (4, "refused", False)
    assert result["escalation"]["step"] == 0 and "ambiguous" in result["escalation"]["reason"]
    assert result["steps"][0]["visual"]["verdict"] == "ambiguous"
    assert pressed(app.pid) == "Pressed:"


def test_a_target_that_is_gone_escalates_with_its_best_score_and_nothing_is_clicked(desktop, apps,
                                                                                     store):
    db, _ = store
    app = apps("canvas", *MOVED_AND_ZOOMED, "--hide", "star")
    code, result, _ = replay(desktop, db, "star first")
    assert (code, result["status"], result["sent_input"]) == (3, "escalated", False)
    step = result["steps"][0]
    assert step["visual"]["verdict"] == "not_found" and 0 < step["score"]
    assert f"{step['score']:.3f}" in result["escalation"]["reason"]
    assert pressed(app.pid) == "Pressed:"


def test_a_dry_run_re_aims_every_step_on_one_picture_and_sends_nothing(desktop, apps, store):
    db, _ = store
    app = apps("canvas", *MOVED_AND_ZOOMED)
    code, result, _ = replay(desktop, db, "palette", "--dry-run")
    assert (code, result["status"], result["sent_input"]) == (0, "dry_run", False)
    assert [(s["policy"], s["outcome"]) for s in result["steps"]] == [("visual_reaim", "planned")] * 3
    assert all(s["visual"]["verdict"] == "accepted" for s in result["steps"])
    assert pressed(app.pid) == "Pressed:"


def test_a_missing_crop_blob_escalates_with_a_reason_and_never_clicks_at_the_recorded_place(
        desktop, apps, store):
    import apsw

    db, reports = store
    connection = apsw.Connection(str(db))
    for step in reports["palette"]["program"]["steps"]:
        connection.execute("DELETE FROM blobs WHERE sha256 = ?", (step["target"]["visual"]["crops"][0]["blob"],))
    connection.close()
    app = apps("canvas", *RECORDED)          # exactly where it was: a blind click would hit Red
    code, result, _ = replay(desktop, db, "palette")
    assert (code, result["status"], result["sent_input"]) == (3, "escalated", False)
    assert "missing from the store" in result["escalation"]["reason"]
    assert len(result["escalation"]["reason"].splitlines()) == 1
    assert pressed(app.pid) == "Pressed:"


def test_a_window_off_screen_escalates_and_nothing_is_clicked(desktop, apps, store):
    db, _ = store
    app = apps("canvas", "--geometry", "420x260+1500+900")    # the screen is 1280×800
    code, result, _ = replay(desktop, db, "palette")
    assert (code, result["status"], result["sent_input"]) == (3, "escalated", False)
    assert "off-screen" in result["escalation"]["reason"]
    assert pressed(app.pid) == "Pressed:"
