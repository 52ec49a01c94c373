"""`phantom forget` and `phantom record discard` against the real capture
daemon on the virtual desktop: they go through Capture1.Forget while it
keeps capturing; afterwards no row, image or free page of the database or
its WAL holds what was planted in the window, its compile is empty but for
a 'forgotten' blind spot, and what came before is compiled byte for byte as
before."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from core.bus import CAPTURE, call
from core.clock import now_ms
from support.apps import app_named, center, find, focus
from support.cli import phantom
from support.daemon import CaptureProcess, query, settle

try:  # package layout
    from .test_capture_privacy import assert_absent, gdbus
except ImportError:  # rootdir layout (no __init__.py in tests/)
    from test_capture_privacy import assert_absent, gdbus

pytestmark = pytest.mark.desktop

TYPED = "Heliotrope-Vixen-3307"       # typed inside a demonstration: kept as text
IN_URL = "Saffron-Wren-1946"          # in a URL's path: kept by the URL rule
IN_TITLE = "Cobalt-Jackal-5518"       # in a window title
DISCARDED = "Amber-Falcon-6624"       # typed in a demonstration then discarded


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds")


def compiled(desktop, db: Path, since: int, until: int, fmt: str = "json") -> str:
    result = phantom(desktop, "compile", "--db", str(db), "--since", iso(since), "--until", iso(until),
                     "--format", fmt)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_forget_and_discard_through_the_running_daemon(desktop, apps, user, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    form = app_named("phantom-form")
    db = tmp_path / "store.sqlite3"
    config = '[capture]\nscreenshot_interval_seconds = 1\n[browsers]\napps = ["phantom-browser"]\n'
    with CaptureProcess(desktop, db, config_text=config) as capture:
        focus(desktop, "phantom-form")
        before = now_ms() - 1
        user.click(*center(find(form, "text", label="Email:")))
        user.type("abc")
        settle(2.6)                       # the burst closes: nothing before the window is open
        since = now_ms()
        assert gdbus(desktop, "StartRecording", "'secret demo'").returncode == 0
        user.click(*center(find(form, "text", label="Name:")))
        settle()
        user.type(TYPED)
        settle(0.5)
        assert gdbus(desktop, "StopRecording").returncode == 0
        apps("browser", "--geometry", "600x200+0+300", "--url", f"https://github.com/octocat/{IN_URL}")
        apps("notes", "--geometry", "420x320+400+60", "--title", f"Diary {IN_TITLE}")
        for wm_class in ("phantom-browser", "phantom-notes"):
            focus(desktop, wm_class)
            settle(1.2)
        until = now_ms()
        focus(desktop, "phantom-form")
        settle(1.2)
        planted = (TYPED, IN_URL, IN_TITLE)
        for needle in planted:            # stored, so that their absence later means something
            assert any(needle.encode() in data for data in _files(db)), needle

        earlier = compiled(desktop, db, before, since)
        bad = gdbus(desktop, "Forget", "'yesterday'", "'now'")   # what a shortcut would bind
        assert bad.returncode != 0 and "org.phantom.Error.InvalidWindow" in bad.stderr
        dry = phantom(desktop, "forget", "--db", str(db), "--since", iso(since), "--until", iso(until),
                      "--dry-run")
        assert dry.returncode == 0 and "'secret demo'" in dry.stdout, dry.stderr
        done = phantom(desktop, "forget", "--db", str(db), "--since", iso(since), "--until", iso(until),
                       "--yes", "--format", "json")
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["recordings"] == ["secret demo"] and report["typed_texts"] == 1
        assert report["snapshots"] >= 2 and report["scrubbed"] is True
        assert capture.alive()
        assert_absent(db, *planted)       # database, WAL and every image, the daemon still running

        document = json.loads(compiled(desktop, db, since, until))
        assert document["frames"] == []
        assert [spot["kind"] for spot in document["blind_spots"]] == ["forgotten"]
        assert "forgotten" in compiled(desktop, db, since, until, "compact")
        assert compiled(desktop, db, before, since) == earlier

        # Capture goes on after the forget; a discarded demonstration goes too.
        assert gdbus(desktop, "StartRecording", "'oops'").returncode == 0
        user.click(*center(find(form, "text", label="Name:")))
        settle()
        user.type(DISCARDED)
        settle(0.5)
        discarded = phantom(desktop, "record", "discard", "--db", str(db), "--yes")
        assert discarded.returncode == 0 and "'oops'" in discarded.stdout, discarded.stderr
        assert json.loads(call(CAPTURE, "Status")[0])["recording"] is None
        user.type("after")
        settle(2.6)
        assert capture.stop() == 0
    assert_absent(db, *planted, DISCARDED)
    assert query(db, "SELECT count(*) FROM recordings") == [(0,)]
    assert query(db, "SELECT kind FROM blind_spots WHERE kind = 'forgotten'") == [
        ("forgotten",), ("forgotten",)]
    last = query(db, "SELECT max(end_ms) FROM blind_spots WHERE kind = 'forgotten'")[0][0]
    assert query(db, "SELECT count FROM input_events WHERE kind = 'text' AND ts_ms > ?", (last,)) == [
        (5,)]


def _files(db: Path) -> list[bytes]:
    return [Path(f"{db}{suffix}").read_bytes() for suffix in ("", "-wal")
            if Path(f"{db}{suffix}").exists()]
