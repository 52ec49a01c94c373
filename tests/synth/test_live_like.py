"""`phantom synth --live-like`: the same activity as the default corpus,
plus what only the live daemon writes — every input linked to the snapshot
of the window that received it, clicks' targets inline and their visual
evidence (three crops with click_evidence rows) — reproducible to the byte,
and without changing a byte of the default corpus."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from compiler.records import Capture
from compiler.routines.actions import derive_actions
from compiler.sources import CaptureSource
from core.store import open_sqlite_readonly
from synth import SynthError, synthesize
from synth.calendar import active_days
from synth.day import plan_day
from synth.live_like import HIT_SETTLE_MS, snapshot_links

REPO = Path(__file__).resolve().parents[2]
SEED = 11
# the columns both stores share, and the ones a live-like store adds
SNAPSHOT_COLUMNS = ("id, ts_ms, utc_offset_min, tz_name, monitor, trigger, app, wm_class, pid, executable, title, "
                    "url, idle, focused, screenshot, tree_id")
INPUT_COLUMNS = "id, ts_ms, end_ms, monitor, kind, count, key, button, x, y, element_id, resolution"


@pytest.fixture(scope="module")
def stores(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("live")
    plain, live = folder / "plain.sqlite3", folder / "live.sqlite3"
    synthesize(plain, days=1, seed=SEED)
    summary = synthesize(live, days=1, seed=SEED, live_like=True)
    assert summary.live_like
    return plain, live


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_reproducible_to_the_byte_across_processes(tmp_path):
    digests = []
    for hash_seed, zone in (("1", "America/New_York"), ("2", "UTC")):
        out = tmp_path / f"{hash_seed}.sqlite3"
        code = "import sys; from synth import synthesize; synthesize(sys.argv[1], days=1, seed=5, live_like=True)"
        subprocess.run([sys.executable, "-c", code, str(out)], cwd=REPO, check=True, timeout=300,
                       env={**os.environ, "PYTHONHASHSEED": hash_seed, "TZ": zone})
        digests.append(sha256(out))
    assert digests[0] == digests[1]
    synthesize(tmp_path / "plain.sqlite3", days=1, seed=5)
    assert sha256(tmp_path / "plain.sqlite3") != digests[0]


def test_the_same_activity_as_the_default_corpus(stores):
    plain, live = (open_sqlite_readonly(path) for path in stores)
    for table, columns in (("snapshots", SNAPSHOT_COLUMNS), ("input_events", INPUT_COLUMNS),
                           ("a11y_trees", "*"), ("elements", "*"), ("blind_spots", "*")):
        query = f"SELECT {columns} FROM {table} ORDER BY 1"
        assert list(plain.execute(query)) == list(live.execute(query)), table
    assert plain.execute("SELECT count(*) FROM input_events WHERE snapshot_id IS NOT NULL").get == 0
    assert plain.execute("SELECT count(*) FROM click_evidence").get == 0
    document = orjson.loads(live.execute("SELECT value FROM meta WHERE key = 'synth_manifest'").get)
    assert document["live_like"] is True
    assert "live_like" not in orjson.loads(plain.execute("SELECT value FROM meta WHERE key = 'synth_manifest'").get)


def test_every_input_names_its_windows_snapshot(stores):
    db = open_sqlite_readonly(stores[1])
    assert db.execute("SELECT count(*) FROM input_events WHERE snapshot_id IS NULL").get == 0
    assert db.execute("SELECT count(*) FROM snapshots WHERE window_id IS NULL").get == 0
    # named: the latest snapshot of its window when the row is final, the window's first one for
    # a window not seen before; never one of another window
    later = db.execute("SELECT count(*) FROM input_events i JOIN snapshots s ON s.id = i.snapshot_id "
                       "WHERE s.ts_ms > CASE i.kind WHEN 'click' THEN i.ts_ms + ? ELSE i.end_ms END",
                       (HIT_SETTLE_MS,)).get
    assert later < 10
    plan = plan_day(SEED, active_days(synth_start(), 1, "Europe/Berlin")[0], 1)
    ids = list(range(1, len(plan.snapshots) + 1))
    links = snapshot_links(plan, ids)
    for event, link in zip(plan.inputs, links):
        assert link is not None
        assert plan.snapshots[link - 1].window == event.window
    # a click that brings a window forward names that window, not the one that had focus
    forward = [(event, link) for event, link in zip(plan.inputs, links)
               if event.kind == "click" and plan.snapshots[link - 1].app != event.app]
    assert forward and all(event.resolution == "none" for event, _ in forward)


def test_clicks_carry_their_target_and_three_crops(stores):
    db = open_sqlite_readonly(stores[1])
    assert db.execute("PRAGMA integrity_check").get == "ok"
    assert list(db.execute("PRAGMA foreign_key_check")) == []
    clicks, cropped = db.execute("SELECT count(*), count(crop) FROM input_events WHERE kind = 'click'").get
    # a click the page put below the monitor's edge has no pictures, as in the daemon
    assert cropped >= 0.8 * clicks
    assert db.execute("SELECT count(*) FROM input_events WHERE kind != 'click' AND crop IS NOT NULL").get == 0
    assert db.execute("SELECT count(*) FROM input_events i WHERE crop IS NOT NULL AND crop != "
                      "(SELECT blob FROM click_evidence e WHERE e.input_id = i.id AND kind = 'target')").get == 0
    kinds = dict(db.execute("SELECT kind, count(*) FROM click_evidence GROUP BY kind"))
    assert kinds == {"target": cropped, "context": cropped, "wide": cropped}
    # each crop holds its click where its ratios say, inside the window that received it
    bad = db.execute(
        "SELECT count(*) FROM click_evidence e JOIN input_events i ON i.id = e.input_id JOIN blobs b ON "
        "b.sha256 = e.blob WHERE abs(e.x + e.ratio_x * e.width - 0.5 - i.x) > 0.02 "
        "OR abs(e.y + e.ratio_y * e.height - 0.5 - i.y) > 0.02 OR b.width != e.width OR b.height != e.height "
        "OR e.x < e.window_x OR e.x + e.width > e.window_x + e.window_w OR b.kind != 'click_crop'").get
    assert bad == 0
    assert db.execute("SELECT count(*) FROM input_events i JOIN elements e ON e.id = i.element_id WHERE "
                      "i.kind = 'click' AND (i.target_path IS NOT e.path OR i.target_role IS NOT e.role "
                      "OR i.target_name IS NOT coalesce(nullif(e.name, ''), e.labelled_by, ''))").get == 0
    assert db.execute("SELECT count(*) FROM input_events WHERE kind = 'click' AND element_id IS NOT NULL "
                      "AND target_path IS NULL").get == 0
    # no image is kept that nothing names
    assert db.execute("SELECT count(*) FROM blobs WHERE kind = 'click_crop' AND sha256 NOT IN "
                      "(SELECT blob FROM click_evidence)").get == 0


def test_the_compiler_places_switches_at_the_click_that_brought_the_window_forward(stores):
    def switch_times(path: Path) -> set[int]:
        with CaptureSource(path) as source:
            capture: Capture = source.read(0, 2**62)
        return {action.ts_ms for action in derive_actions(capture) if action.step.kind == "switch"}

    plain, live = (switch_times(path) for path in stores)
    moved = live - plain
    assert len(moved) >= 10 and len(plain) - len(plain & live) == len(moved)


def test_cli_option_and_its_refusal(tmp_path, capsys):
    from cli.main import main

    out = tmp_path / "live.sqlite3"
    assert main(["synth", "--days", "1", "--seed", "3", "--live-like", "--db", str(out)]) == 0
    assert "live-like" in capsys.readouterr().out
    assert main(["synth", "--days", "1", "--layout", "nocta", "--live-like", "--db", str(tmp_path / "n.sqlite3")]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--live-like" in err and "Traceback" not in err
    assert not (tmp_path / "n.sqlite3").exists()
    with pytest.raises(SynthError, match="live-like"):
        synthesize(tmp_path / "n.sqlite3", days=1, layout="nocta", live_like=True)
    with pytest.raises(SystemExit):
        main(["synth", "--help"])
    assert "--live-like" in capsys.readouterr().out


def synth_start():
    from synth import DEFAULT_START

    return DEFAULT_START
