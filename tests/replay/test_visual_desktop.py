"""Visual re-aiming on the virtual desktop: demonstrations on the canvas
fixture app — whose controls are drawn inside one Gtk.DrawingArea, so the
accessibility tree holds a single unnamed "drawing area" — recorded by the
real capture daemon (which keeps three crops around every click: target,
context, wide), compiled with `phantom compile-program`, and replayed
after the window moved and the app zoomed and shifted its drawing. The
app's status label (read through AT-SPI) says which drawn control each
click hit."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from support.apps import CANVAS_MARGIN as MARGIN
from support.apps import canvas_pressed as pressed
from support.apps import focus
from support.cli import phantom
from support.daemon import CaptureProcess, query, settle, wait_for_rows
from testbed.executables import executable

pytestmark = pytest.mark.desktop

RECORDED = ("--geometry", "420x260+40+40")
RECORDED_WINDOW = (40, 40, 420, 260)
MOVED_AND_ZOOMED = ("--geometry", "520x330+300+200", "--zoom", "1.25", "--offset", "30,20")
TWINS = ("--duplicate", "star")        # a second star, drawn where the heart was


def control_centre(name: str, window=(40, 40), zoom: float = 1.0, offset=(0, 0)) -> tuple[int, int]:
    """Where the canvas draws a control (the heart: its place), on the desktop."""
    from testbed.apps.canvas_app import CONTROLS

    x, y, w, h, _ = CONTROLS[name]
    return (round(window[0] + MARGIN + offset[0] + (x + w // 2) * zoom),
            round(window[1] + MARGIN + offset[1] + (y + h // 2) * zoom))


def record(desktop, user, app, name: str, clicks: tuple[str, ...], expected: tuple[str, ...] = ()) -> None:
    """One demonstration clicking the places of `clicks`; `expected` is what
    the app reports pressed, where that differs."""
    focus(desktop, "phantom-canvas")
    before = pressed(app.pid)
    assert phantom(desktop, "record", "start", name).returncode == 0
    for control in clicks:
        user.click(*control_centre(control))
        settle(0.6)
    stopped = phantom(desktop, "record", "stop")
    assert stopped.returncode == 0, stopped.stderr
    assert pressed(app.pid) == " ".join((before, *(expected or clicks)))


def canvas_seen(db, after: int = 0) -> int:
    """Clicks count only once the daemon has seen the canvas focused (in a
    snapshot after row `after`); that snapshot's id."""
    rows = wait_for_rows(db, "SELECT coalesce(max(id), 0) FROM snapshots WHERE app = 'phantom-canvas' "
                         "AND focused = 1", lambda rows: rows[0][0] > after, what="a canvas snapshot")
    return rows[0][0]


@pytest.fixture(scope="module")
def recorded(desktop, tmp_path_factory):
    """Three programs, each from two demonstrations by the real daemon:
    'palette' clicks Red, Blue, Star and 'star first' Star, Green on the
    canvas as it is; 'twin' clicks the right-hand one of two identical stars
    (`--duplicate star`), then Green."""
    from replay.xinput import XTestInput
    from testbed.waiting import wait_until

    user = XTestInput(desktop.display)
    db = tmp_path_factory.mktemp("visual") / "store.sqlite3"
    try:
        with CaptureProcess(desktop, db) as capture:
            app = desktop.launch_fixture("canvas", *RECORDED)
            twins = None
            try:
                focus(desktop, "phantom-canvas")
                canvas_seen(db)
                for _ in range(2):
                    record(desktop, user, app, "palette", ("red", "blue", "star"))
                    record(desktop, user, app, "star first", ("star", "green"))
                before = query(db, "SELECT max(id) FROM snapshots")[0][0]
                # Started before the first one closes, so that X gives its
                # window another id (a reused one is another test's subject).
                twins = desktop.launch_fixture("canvas", *RECORDED, *TWINS, wait=False)
                wait_until(lambda: len(desktop.run([executable("xdotool"), "search", "--onlyvisible", "--class",
                                                    "phantom-canvas"]).stdout.split()) == 2,
                           timeout=15, what="the second canvas window")
            finally:
                desktop.close_app(app)
            try:
                focus(desktop, "phantom-canvas")
                canvas_seen(db, before)
                for _ in range(2):
                    record(desktop, user, twins, "twin", ("heart", "green"), ("star", "green"))
            finally:
                desktop.close_app(twins)
            assert capture.stop() == 0
    finally:
        user.close()
    reports = {}
    for name in ("palette", "star first", "twin"):
        compiled = phantom(desktop, "compile-program", name, "--db", str(db), "--format", "json")
        assert compiled.returncode == 0, compiled.stderr
        reports[name] = json.loads(compiled.stdout)
    return db, reports


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


def test_every_canvas_click_carries_the_daemons_three_crops_and_the_window(store):
    db, reports = store
    steps = reports["palette"]["program"]["steps"]
    assert [s["action"] for s in steps] == ["click", "click", "click"]
    for step in steps:
        target = step["target"]
        assert target["role"] == "drawing area" and target["name"] == "" and target["label"] == ""
        visual = target["visual"]
        crops = visual["crops"]
        assert [(c["kind"], c["width"], c["height"]) for c in crops] == [
            ("target", 64, 64), ("context", 128, 128), ("wide", 256, 256)]
        assert crops[0]["blob"] == target["crop"] and visual["window"] == list(RECORDED_WINDOW)
        for crop in crops:       # each holds the click where its ratio (4 digits) says
            assert crop["x"] + crop["ratio_x"] * crop["width"] == pytest.approx(target["x"] + 0.5, abs=0.02)
            assert crop["y"] + crop["ratio_y"] * crop["height"] == pytest.approx(target["y"] + 0.5, abs=0.02)
    # In the store: three rows for every click of the six demonstrations,
    # each crop a lossless WebP blob; the click's own row names its target crop.
    clicks = query(db, "SELECT count(*) FROM input_events WHERE kind = 'click' AND recording_id IS NOT NULL")
    rows = query(db, "SELECT e.kind, b.media_type, i.crop = e.blob FROM click_evidence e JOIN blobs b ON "
                     "b.sha256 = e.blob JOIN input_events i ON i.id = e.input_id WHERE i.recording_id "
                     "IS NOT NULL")
    assert clicks == [(14,)] and len(rows) == 3 * 14
    assert set(rows) == {("target", "image/webp", 1), ("context", "image/webp", 0), ("wide", "image/webp", 0)}


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


def test_identical_twins_recorded_side_by_side_are_told_apart_by_their_surroundings(desktop, apps,
                                                                                      store):
    """Both stars were there when recorded, and the person clicked the
    right-hand one: its target crop matches both, the larger crops (the
    other star on its left, empty canvas on its right) only that one."""
    db, _ = store
    app = apps("canvas", *MOVED_AND_ZOOMED, *TWINS)
    code, result, stderr = replay(desktop, db, "twin")
    assert code == 0 and result["status"] == "success", (result, stderr)
    assert pressed(app.pid) == "Pressed: star green"
    twin = result["steps"][0]["visual"]
    assert twin["verdict"] == "accepted" and twin["variant"] in ("context", "wide")
    assert tuple(twin["point"]) == pytest.approx(control_centre("heart", (300, 200), 1.25, (30, 20)),
                                                 abs=3)


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


def test_a_twin_that_was_not_there_when_recorded_is_refused_and_nothing_is_clicked(desktop, apps,
                                                                                   store):
    """Recorded with the heart beside the star: now a second star stands
    there, and which of the two the person meant is unknown — the recorded
    crops show the heart in its place, no second star."""
    db, _ = store
    app = apps("canvas", *MOVED_AND_ZOOMED, *TWINS)
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


def test_an_identical_copy_beside_the_recorded_button_is_never_clicked(desktop, apps, store):
    """The window is larger than when recorded (the drawing is not), and an
    identical Blue stands 80 px below the original, which is where it was:
    the target crop matches both, and the recorded pictures show no second
    Blue there. The run must click neither copy nor call itself verified."""
    db, _ = store
    app = apps("canvas", "--geometry", "560x360+40+40", "--copy", "blue,0,80")
    code, result, stderr = replay(desktop, db, "palette")
    assert "blue-copy" not in pressed(app.pid), (result, stderr)
    assert code != 0 and result["status"] != "success", (result, stderr)
    step = next(s for s in result["steps"] if s["index"] == 1)
    assert step["visual"]["verdict"] == "ambiguous", step


def as_before_storage(db, out) -> dict[str, str]:
    """A copy of `db` as the daemon stored it before lossless WebP crops and
    migration 6: every click crop re-encoded as the PNG it was (level 6),
    every row naming one renamed to that PNG's digest, and the images in the
    WITHOUT ROWID table of schema 1. The map of new digest → old digest."""
    import hashlib
    import io

    import apsw
    from PIL import Image

    shutil.copy(db, out)
    connection = apsw.Connection(str(out))   # foreign keys off: the rows move one at a time
    renamed: dict[str, str] = {}
    try:
        with connection:
            rows = connection.execute("SELECT sha256, kind, media_type, width, height, data, created_ms "
                                      "FROM blobs").fetchall()
            connection.execute("DROP TABLE blobs")
            connection.execute("CREATE TABLE blobs (sha256 TEXT PRIMARY KEY, kind TEXT NOT NULL CHECK (kind IN "
                               "('thumbnail', 'click_crop')), media_type TEXT NOT NULL, width INTEGER NOT NULL, "
                               "height INTEGER NOT NULL, data BLOB NOT NULL, created_ms INTEGER NOT NULL) "
                               "WITHOUT ROWID")
            for sha, kind, media_type, width, height, data, created in rows:
                if kind == "click_crop":
                    assert media_type == "image/webp"
                    image = Image.open(io.BytesIO(data))
                    buffer = io.BytesIO()
                    image.save(buffer, "PNG", compress_level=6)
                    data, media_type = buffer.getvalue(), "image/png"
                    renamed[sha] = hashlib.sha256(data).hexdigest()
                connection.execute("INSERT INTO blobs VALUES (?, ?, ?, ?, ?, ?, ?)",
                                   (renamed.get(sha, sha), kind, media_type, width, height, data, created))
            for new, old in renamed.items():
                connection.execute("UPDATE click_evidence SET blob = ? WHERE blob = ?", (old, new))
                connection.execute("UPDATE input_events SET crop = ? WHERE crop = ?", (old, new))
    finally:
        connection.close()
    return renamed


def test_the_crops_encoding_changes_no_fact_the_compiler_and_replay_read(desktop, store, tmp_path):
    """The daemon's store (WebP crops, rowid images) beside the same store in
    the encoding before (PNG crops, WITHOUT ROWID images): the compiled day
    is byte-identical but for its input digest (which hashes the crops'
    names with the rows), each program compiles to the same body but for the
    crops' digests (which name the same pixels, alpha included), and both
    programs' crops decode to the same pixels for replay."""
    import cv2
    import numpy as np

    from replay.visual.templates import decode

    db, _ = store
    before = tmp_path / "before.sqlite3"
    renamed = as_before_storage(db, before)
    assert len(renamed) == len(set(query(db, "SELECT blob FROM click_evidence"))) > 0
    day = query(db, "SELECT min(ts_ms) FROM snapshots")[0][0]
    from datetime import datetime, timezone

    date = datetime.fromtimestamp(day / 1000, timezone.utc).strftime("%Y-%m-%d")
    digests = []
    for fmt in ("compact", "json"):
        now, then = (phantom(desktop, "compile", "--db", str(path), "--day", date, "--tz", "UTC", "--format", fmt,
                             "--no-cache") for path in (db, before))
        assert now.returncode == then.returncode == 0, (now.stderr, then.stderr)
        # The provenance digest hashes every row read, a click's crop name
        # among them: the one place the name shows. The rest is byte-identical.
        ours, theirs = (re.sub(r"sha256:[0-9a-f]+", "sha256:…", out.stdout) for out in (now, then))
        assert ours == theirs and len(ours) > 100
        digests.append((re.findall(r"sha256:[0-9a-f]+", now.stdout), re.findall(r"sha256:[0-9a-f]+", then.stdout)))
    assert all(len(ours) == len(theirs) == 1 and ours != theirs for ours, theirs in digests)
    for name in ("palette", "star first", "twin"):
        now, then = (phantom(desktop, "compile-program", name, "--db", str(path), "--format", "json")
                     for path in (db, before))
        assert now.returncode == then.returncode == 0, (now.stderr, then.stderr)
        text = now.stdout
        for new, old in renamed.items():
            text = text.replace(new, old)
        ours, theirs = json.loads(text), json.loads(then.stdout)
        for report in (ours, theirs):          # the program's id is a digest of its body
            report.pop("id"), report["program"].pop("id", None)
        assert ours == theirs
    pixels = {}
    for path in (db, before):
        for sha, data in query(path, "SELECT sha256, data FROM blobs WHERE kind = 'click_crop'"):
            template = decode(bytes(data), sha, "target", (0.5, 0.5), (0, 0))
            raw = cv2.imdecode(np.frombuffer(bytes(data), dtype=np.uint8), cv2.IMREAD_UNCHANGED)
            pixels.setdefault(renamed.get(sha, sha), []).append((template.pixels.tobytes(),
                                                                  None if template.mask is None
                                                                  else template.mask.tobytes(), raw.tobytes()))
    assert all(len(both) == 2 and both[0] == both[1] for both in pixels.values())
    sizes = [sum(len(bytes(row[0])) for row in query(path, "SELECT data FROM blobs WHERE kind = 'click_crop'"))
             for path in (db, before)]
    assert sizes[0] < 0.6 * sizes[1]     # the point of the change: the same pixels in fewer bytes
