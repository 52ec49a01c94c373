"""Retention with roll-up on a three-day synthetic store: the old day is
compiled into the roll-up before its raw rows go, compiles from there
(marked), still counts for routines, and the kept days compile byte for
byte as before; images, the byte budget, dry runs, forgetting a rolled day
and converting an older store."""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import apsw
import pytest

import core.clock
from cli.main import main
from compiler.api import compile_window, render, routine_report
from compiler.budget import estimate_tokens
from compiler.render.compact import DEFAULT_BUDGET
from compiler.rollup import decode_actions, decode_document, encode_actions, encode_document
from compiler.routines.actions import derive_actions
from core.store.retention import file_bytes

PHANTOM = str(Path(sys.executable).with_name("phantom"))
NOW = int(datetime(2026, 3, 4, 15, 0, tzinfo=timezone.utc).timestamp() * 1000)  # day 3, afternoon
DAYS = ("2026-03-02", "2026-03-03", "2026-03-04")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "three.sqlite3"
    subprocess.run([PHANTOM, "synth", "--days", "3", "--seed", "7", "--db", str(path)], check=True,
                   capture_output=True, timeout=600)
    return path


@pytest.fixture
def store(corpus, tmp_path, monkeypatch) -> Path:
    path = tmp_path / "phantom.sqlite3"
    shutil.copy(corpus, path)
    monkeypatch.setattr(core.clock, "now_ms", lambda: NOW)
    return path


def config(tmp_path: Path, **settings) -> str:
    path = tmp_path / "config.toml"
    path.write_text("[retention]\n" + "".join(f"{k} = {v}\n" for k, v in settings.items()))
    return str(path)


def compiled(store: Path, day: str, fmt: str = "json") -> bytes:
    return render(compile_window(store, day=day, cache=False), fmt)


def test_keeping_a_day_rolls_up_the_oldest_and_leaves_the_rest_byte_identical(store, tmp_path, capsys):
    before = {day: compiled(store, day) for day in DAYS}
    block = compiled(store, DAYS[0], "compact").decode()
    report, _ = routine_report(store)
    size = file_bytes(store)
    assert main(["retention", "run", "--db", str(store), "--config", config(tmp_path, raw_days=1)]) == 0
    out = capsys.readouterr().out
    assert "rolled up 1 day(s), 2026-03-02 to 2026-03-02" in out
    # a third of the raw capture went, and the space went back to the disk
    assert file_bytes(store) < size * 0.75
    for day in DAYS[1:]:
        assert compiled(store, day) == before[day]
    note = "window: from the roll-up: this day's raw rows were removed by retention"
    # the note's line is paid from the same token budget: give it its tokens, and the
    # rest of the block is the raw day's, byte for byte
    rolled = render(compile_window(store, day=DAYS[0], cache=False), "compact",
                    budget=DEFAULT_BUDGET + estimate_tokens(note + "\n")).decode().splitlines()
    assert rolled[1] == note
    assert rolled[:1] + rolled[2:] == block.splitlines()
    first = compile_window(store, day=DAYS[0], cache=False).document
    assert first.frames and first.inferred is not None
    after, _ = routine_report(store)
    assert [(e.routine.id, e.measures.support, e.measures.days_seen) for e in after.entries] == \
        [(e.routine.id, e.measures.support, e.measures.days_seen) for e in report.entries]
    whole = render(compile_window(store, since=DAYS[0], until="2026-03-05", cache=False),
                   "compact").decode()
    assert "window: 1 day(s) from the roll-up" in whole and "== 2026-03-02 Mon" in whole
    connection = apsw.Connection(str(store))
    assert connection.execute("SELECT count(*) FROM snapshots WHERE ts_ms < ?",
                              (compile_window(store, day=DAYS[1]).window.since_ms,)).get == 0
    assert connection.execute("SELECT day FROM rollup_days").fetchall() == [(DAYS[0],)]


def test_a_dry_run_changes_nothing(store, tmp_path, capsys):
    content = store.read_bytes()
    assert main(["retention", "run", "--db", str(store), "--config",
                 config(tmp_path, raw_days=1, image_days=1), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would roll up 1 day(s), 2026-03-02 to 2026-03-02, removing 2,481 snapshots" in out
    assert "would remove" in out and "image(s)" in out
    assert store.read_bytes() == content


def test_a_byte_budget_takes_more_old_days_but_never_today(store, tmp_path, capsys):
    assert main(["retention", "run", "--db", str(store), "--config",
                 config(tmp_path, max_store_mb=1)]) == 0
    assert "rolled up 2 day(s), 2026-03-02 to 2026-03-03" in capsys.readouterr().out
    assert compile_window(store, day=DAYS[2], cache=False).document.frames  # today stays raw
    assert "from the roll-up" in compile_window(store, day=DAYS[1]).window.note


def test_old_images_go_and_the_rows_that_showed_them_stay(store, tmp_path):
    connection = apsw.Connection(str(store))
    images = connection.execute("SELECT count(*) FROM blobs").get
    snapshots = connection.execute("SELECT count(*) FROM snapshots").get
    assert main(["retention", "run", "--db", str(store), "--config", config(tmp_path, image_days=1)]) == 0
    assert 0 < connection.execute("SELECT count(*) FROM blobs").get < images
    assert connection.execute("SELECT count(*) FROM snapshots").get == snapshots
    assert connection.execute("SELECT count(*) FROM snapshots WHERE screenshot IS NOT NULL AND "
                              "screenshot NOT IN (SELECT sha256 FROM blobs)").get == 0


def test_forgetting_a_rolled_up_day_forgets_its_roll_up(store, tmp_path):
    assert main(["retention", "run", "--db", str(store), "--config", config(tmp_path, raw_days=1)]) == 0
    assert main(["forget", "--db", str(store), "--day", DAYS[0], "--yes"]) == 0
    document = compile_window(store, day=DAYS[0], cache=False).document
    assert document.frames == () and [n.kind for n in document.blind_spots] == ["forgotten"]
    connection = apsw.Connection(str(store))
    assert connection.execute("SELECT count(*) FROM rollup_days").get == 0


def test_an_older_store_is_converted_to_incremental_auto_vacuum_once(store, tmp_path):
    connection = apsw.Connection(str(store))
    connection.pragma("auto_vacuum", 0)
    connection.execute("VACUUM")
    assert connection.pragma("auto_vacuum") == 0
    connection.close()
    assert main(["retention", "run", "--db", str(store), "--config", config(tmp_path, raw_days=2)]) == 0
    assert apsw.Connection(str(store)).pragma("auto_vacuum") == 2


def test_no_settings_keep_everything(store, tmp_path, capsys):
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    assert main(["retention", "run", "--db", str(store), "--config", str(empty)]) == 0
    assert "everything is kept" in capsys.readouterr().out


def test_the_roll_up_encoding_gives_back_the_same_records(corpus):
    from compiler.api import read_window

    document = compile_window(corpus, day=DAYS[0], cache=False).document
    assert decode_document(encode_document(document)) == document
    capture, _ = read_window(corpus, day=DAYS[0])
    actions = derive_actions(capture)
    assert decode_actions(encode_actions(actions)) == tuple(a._replace(text=None) for a in actions)


def _blob(connection, sha: str, created_ms: int) -> None:
    connection.execute("INSERT INTO blobs(sha256, kind, media_type, width, height, data, created_ms) "
                       "VALUES (?, 'click_crop', 'image/png', 64, 64, ?, ?)", (sha, sha.encode(), created_ms))


def test_a_clicks_crops_go_with_it_and_a_programs_crops_stay(store, tmp_path):
    """The first day's click keeps three crops (click_evidence) and a saved
    program re-aims by a crop of that day: retention removes the click with
    its crops and leaves no row pointing at a removed one, and the program's
    crop stays whatever its age (its replay would lose its visual rung)."""
    connection = apsw.Connection(str(store))
    day_one = int(datetime(2026, 3, 2, 10, tzinfo=timezone.utc).timestamp() * 1000)
    (click,) = connection.execute("SELECT id FROM input_events WHERE kind = 'click' AND ts_ms >= ? "
                                  "ORDER BY ts_ms LIMIT 1", (day_one,)).fetchone()
    for kind in ("target", "context", "wide"):
        _blob(connection, f"{kind}-crop", day_one)
        connection.execute("INSERT INTO click_evidence VALUES (?, ?, ?, 0, 0, 64, 64, 0.5, 0.5, "
                           "NULL, NULL, NULL, NULL)", (click, kind, f"{kind}-crop"))
    _blob(connection, "program-crop", day_one)
    connection.execute("INSERT INTO programs VALUES ('p-1', 'old chore', 'demonstration', ?, 1, ?)",
                       (day_one, '{"steps": [{"crop": "program-crop", "crops": [{"blob": "program-crop"}]}]}'))
    for settings in ({"raw_days": 1}, {"image_days": 1}):
        assert main(["retention", "run", "--db", str(store), "--config", config(tmp_path, **settings)]) == 0
        assert connection.execute("SELECT count(*) FROM click_evidence").get == 0
        assert connection.execute("SELECT count(*) FROM blobs WHERE sha256 LIKE '%-crop'").fetchall() == [(1,)]
        assert connection.execute("SELECT sha256 FROM blobs WHERE sha256 = 'program-crop'").get == "program-crop"
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
