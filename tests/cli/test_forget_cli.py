"""`phantom forget`, `record discard`, `programs delete` and `export` on a
store no daemon writes to: what they say, what they ask, what they leave.
The desktop test with the real daemon is tests/capturer/test_forget_desktop.py."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from core.store import BlobRow, ElementRow, InputEventRow, RecordingRow, SnapshotRow, StoreWriter, TreeRow, open_store

PHANTOM = str(Path(sys.executable).with_name("phantom"))
SECRET = "Ultramarine-Otter-5821"      # in the titles, labels and images of the second day
TYPED = "Typed-Only-In-The-Demo-77"     # typed inside its demonstration
OLD_TOKEN = "Reset-Tok3n-0418"          # in URLs written before capture sanitised them
DAY_A, DAY_B = 1_714_953_600_000, 1_715_040_000_000   # 2024-05-06 and 2024-05-07, 00:00 UTC
HOUR, MIN = 3_600_000, 60_000


def day_of_rows(w: StoreWriter, start: int, secret: str | None, recording: int | None) -> None:
    """An hour in a text editor and a browser, from 09:00 UTC."""
    base = start + 9 * HOUR
    for i in range(90):
        ts = base + i * 40_000
        app, title = ("gedit", f"notes {secret or 'plain'}.txt") if i % 3 else ("firefox", "Docs")
        url = (f"https://docs.python.org/3/library/{'asyncio' if i % 2 else 'json'}.html"
               f"?token={OLD_TOKEN}") if app == "firefox" else None
        screenshot = None
        if i % 30 == 0:
            screenshot = f"{start}{i}".ljust(64, "0")
            w.submit(BlobRow(screenshot, "thumbnail", "image/webp", 32, 20,
                             f"pixels {secret or 'plain'} {i}".encode() * 20, ts))
        tree = None
        if i == 10:
            tree = w.ids.next("a11y_trees")
            w.submit(TreeRow(tree, ts, app, 1, None, 5))
            w.submit(ElementRow(w.ids.next("elements"), tree, None, 0, 0, "label",
                                f"label {secret or 'plain'}", "", None, "", 0, 0, 9, 9, "gedit/label"))
        w.submit(SnapshotRow(w.ids.next("snapshots"), ts, 0, "UTC", 0, "heartbeat", app,
                             f"{app}.App", None, None, title, url, 0, 1, screenshot, tree))
        w.submit(InputEventRow(w.ids.next("input_events"), ts + 1000, ts + 5000, 0, "text", 12))
    if recording is not None:
        w.submit(RecordingRow(recording, "sign up", base + 20 * MIN, base + 25 * MIN))
        w.submit(InputEventRow(w.ids.next("input_events"), base + 21 * MIN, base + 22 * MIN, 0, "text",
                               len(TYPED), recording_id=recording, text=TYPED))


@pytest.fixture
def env(tmp_path) -> dict:
    cache = tmp_path / "cache" / "phantom" / "days"
    cache.mkdir(parents=True)
    (cache / "2024-05-07.json").write_text("a compiled day")
    keep = {k: v for k, v in os.environ.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY")}
    return {**keep, "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_RUNTIME_DIR": str(tmp_path),
            "TZ": "UTC"}


@pytest.fixture
def store(tmp_path) -> Path:
    db = tmp_path / "phantom.sqlite3"
    writer = StoreWriter(db, commit_interval=None)
    day_of_rows(writer, DAY_A, None, None)
    day_of_rows(writer, DAY_B, SECRET, 1)
    writer.flush()
    writer.close()
    connection = open_store(db)
    with connection:
        connection.execute("INSERT INTO programs VALUES ('p-0000000000aa', 'sign up', 'demonstration', ?, "
                           "1, ?)", (DAY_B + 10 * HOUR, orjson.dumps({"origin": ["recording:1"],
                                                                      "text": TYPED}).decode()))
        connection.execute("INSERT INTO programs VALUES ('p-0000000000bb', 'tidy', 'routine', ?, 3, "
                           "'{\"origin\": []}')", (DAY_A,))
    connection.close()
    return db


def run(env: dict, *args: str, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    return subprocess.run([PHANTOM, *args], capture_output=True, text=True, env=env, stdin=stdin,
                          timeout=120)


def raw(db: Path) -> bytes:
    return b"".join(Path(f"{db}{s}").read_bytes() for s in ("", "-wal") if Path(f"{db}{s}").exists())


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def test_forget_a_day_asks_erases_every_copy_and_leaves_the_other_day_byte_identical(store, env):
    before_a = run(env, "compile", "--db", str(store), "--day", "2024-05-06", "--format", "json")
    assert before_a.returncode == 0 and before_a.stdout.count('"app"') > 0
    untouched = raw(store)
    assert SECRET.encode() in untouched

    dry = run(env, "forget", "--db", str(store), "--day", "2024-05-07", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would go: 90 snapshots" in dry.stdout and "'sign up'" in dry.stdout
    assert "sign up (p-0000000000aa)" in dry.stdout and raw(store) == untouched

    unasked = run(env, "forget", "--db", str(store), "--day", "2024-05-07")
    assert unasked.returncode == 2 and "--yes" in one_line(unasked) and raw(store) == untouched

    done = run(env, "forget", "--db", str(store), "--day", "2024-05-07", "--yes", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["snapshots"], report["input_events"], report["typed_texts"], report["images"],
            report["scrubbed"]) == (90, 91, 1, 3, True)
    # the planted cache file and the compiled day the first compile cached
    assert report["caches"] == 2
    assert SECRET.encode() not in raw(store) and TYPED.encode() not in raw(store)
    assert not [p for p in (Path(env["XDG_CACHE_HOME"]) / "phantom").rglob("*") if p.is_file()]

    forgotten = json.loads(run(env, "compile", "--db", str(store), "--day", "2024-05-07",
                               "--format", "json").stdout)
    assert forgotten["frames"] == []
    assert [(s["kind"], s["start"][11:16], s["end"][11:16]) for s in forgotten["blind_spots"]] == [
        ("forgotten", "00:00", "00:00")]
    compact = run(env, "compile", "--db", str(store), "--day", "2024-05-07").stdout
    assert "nothing captured" in compact and "forgotten 00:00-00:00" in compact
    after_a = run(env, "compile", "--db", str(store), "--day", "2024-05-06", "--format", "json")
    assert after_a.stdout == before_a.stdout
    programs = run(env, "programs", "--db", str(store), "--format", "json")
    assert [p["id"] for p in json.loads(programs.stdout)] == ["p-0000000000bb"]


def test_export_writes_what_is_stored_and_nothing_more(store, env, tmp_path):
    out = tmp_path / "audit.jsonl"
    exported = run(env, "export", "--db", str(store), "--day", "2024-05-06", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["export"] == "phantom" and lines[0]["since"].startswith("2024-05-06T00:00")
    tables = [line["table"] for line in lines[1:]]
    assert tables.count("snapshots") == 90 and tables.count("input_events") == 90
    assert tables.count("blobs") == 3 and "data_base64" not in lines[-1]
    assert tables.count("programs") == 1 and SECRET not in out.read_text()
    urls = {line["url"] for line in lines[1:] if line["table"] == "snapshots" and line["url"]}
    assert urls == {"https://docs.python.org/3/library/asyncio.html",
                    "https://docs.python.org/3/library/json.html"}
    images = run(env, "export", "--db", str(store), "--day", "2024-05-06", "--images")
    assert images.stdout.count('"data_base64"') == 3
    with_secret = run(env, "export", "--db", str(store), "--day", "2024-05-07").stdout
    assert TYPED in with_secret  # the demonstration's text is stored, so it is exported
    bad = run(env, "export", "--db", str(store), "--since", "teatime")
    assert bad.returncode == 2 and "not a time: 'teatime'" in one_line(bad)
    until_now = run(env, "export", "--db", str(store), "--since", "2024-05-07T00:00")
    assert until_now.returncode == 0 and TYPED in until_now.stdout  # a start alone: until now


def test_an_export_whose_reader_stops_early_ends_quietly(store, env):
    """`phantom export | head -1`: the reader closes the pipe after one line.
    The export's read transaction must end before its connection closes, or
    Python prints an "Exception ignored" traceback at exit."""
    export = subprocess.Popen([PHANTOM, "export", "--db", str(store), "--day", "2024-05-06"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert export.stdout is not None and export.stderr is not None
    first = export.stdout.readline()
    export.stdout.close()
    errors = export.stderr.read().decode()
    assert export.wait(timeout=120) == 1
    assert json.loads(first)["export"] == "phantom"
    assert errors == "", errors


def test_a_demonstration_goes_with_what_was_captured_while_it_ran(store, env):
    unknown = run(env, "forget", "--db", str(store), "--recording", "nope", "--yes")
    assert unknown.returncode == 1 and "no demonstration named 'nope'" in one_line(unknown)
    done = run(env, "forget", "--db", str(store), "--recording", "sign up", "--yes", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["recordings"] == ["sign up"] and report["typed_texts"] == 1
    assert report["until_ms"] - report["since_ms"] == 5 * MIN + 1
    assert TYPED.encode() not in raw(store) and SECRET.encode() in raw(store)
    nothing = run(env, "record", "discard", "--db", str(store), "--yes")
    assert nothing.returncode == 1 and "no demonstration to discard" in one_line(nothing)


def test_record_discard_takes_the_last_demonstration(store, env):
    discarded = run(env, "record", "discard", "--db", str(store), "--yes")
    assert discarded.returncode == 0, discarded.stderr
    assert "discarded" in discarded.stdout and "'sign up'" in discarded.stdout
    assert TYPED.encode() not in raw(store) and SECRET.encode() in raw(store)


def test_programs_delete_removes_every_version_of_a_name_or_one_id(store, env):
    unknown = run(env, "programs", "delete", "nope", "--db", str(store), "--yes")
    assert unknown.returncode == 1 and "no program named" in one_line(unknown)
    unasked = run(env, "programs", "delete", "sign up", "--db", str(store))
    assert unasked.returncode == 2 and "--yes" in one_line(unasked)
    deleted = run(env, "programs", "delete", "sign up", "--db", str(store), "--yes")
    assert deleted.returncode == 0 and "deleted 1 program" in deleted.stdout, deleted.stderr
    by_id = run(env, "programs", "delete", "p-0000000000bb", "--db", str(store), "--yes")
    assert by_id.returncode == 0, by_id.stderr
    assert json.loads(run(env, "programs", "--db", str(store), "--format", "json").stdout) == []
    assert TYPED.encode() in raw(store)  # the demonstration stays; only the program went
    assert b'"text":"' + TYPED.encode() not in raw(store)


def test_bad_windows_are_one_line(store, env):
    for args, fragment in ((["--since", "teatime"], "not a time"),
                           (["--since", "2024-05-07T10:00", "--until", "2024-05-07T09:00"], "reversed"),
                           (["--day", "yesterday-ish"], "not a date"),
                           (["--recording", "sign up", "--until", "2024-05-07T09:00"], "--until")):
        result = run(env, "forget", "--db", str(store), *args, "--yes")
        assert result.returncode in (1, 2) and fragment in one_line(result), (args, result.stderr)
