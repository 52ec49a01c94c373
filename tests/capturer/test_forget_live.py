"""A forget of the last minutes through the running daemon (issue 28): the
window that has focus was last seen inside the forgotten stretch, so what
is typed into it 0.3–1.8 s later must name a snapshot taken after the
forget — every character counted, no foreign-key error, and the daemon
exits 0. The forgotten window title leaves no byte behind: not in the
database, its WAL, its images, the search index's segments or the compiled
cache."""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from core.clock import now_ms
from support.apps import app_named, center, find, focus
from support.cli import phantom
from support.daemon import CaptureProcess, query, settle

try:  # package layout
    from .test_capture_privacy import assert_absent
except ImportError:  # rootdir layout (no __init__.py in tests/)
    from test_capture_privacy import assert_absent

pytestmark = pytest.mark.desktop

IN_TITLE = "Tamarind-Osprey-8842"
# Typed after the forget: (seconds after it returned, text)
AFTER = ((0.3, "abcdefghijklmno"), (0.7, "pqrstuvwxyzabcd"), (1.1, "efghijklmnopqrs"),
         (1.5, "tuvwxyzabcdefgh"), (1.8, "ijklmnopqrstuvw"))


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds")


def cache_bytes(desktop) -> bytes:
    root = Path(desktop.env["XDG_CACHE_HOME"]) / "phantom"
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file()) if root.is_dir() else b""


def test_typing_right_after_a_forget_is_all_counted_and_the_forgotten_title_is_gone(
        desktop, apps, user, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    apps("notes", "--geometry", "420x320+400+60", "--title", f"Diary {IN_TITLE}")
    form = app_named("phantom-form")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db, config_text="[capture]\nscreenshot_interval_seconds = 1\n") as capture:
        since = now_ms()
        focus(desktop, "phantom-notes")
        settle(1.2)
        focus(desktop, "phantom-form")
        user.click(*center(find(form, "text", label="Email:")))
        user.type("before")
        settle(2.8)                       # the burst closes; the form was last seen inside the window
        # The title reaches the search index and the compiled cache before it is forgotten.
        assert phantom(desktop, "search", "Tamarind", "--db", str(db)).returncode == 0
        assert phantom(desktop, "compile", "--db", str(db), "--since", iso(since),
                       "--until", iso(now_ms())).returncode == 0
        assert IN_TITLE.encode() in cache_bytes(desktop)
        assert IN_TITLE.split("-")[0].lower().encode() in b"".join(
            Path(f"{db}{s}").read_bytes().lower() for s in ("", "-wal") if Path(f"{db}{s}").exists())

        done = phantom(desktop, "forget", "--db", str(db), "--since", iso(since), "--until", iso(now_ms()),
                       "--yes", "--format", "json")
        assert done.returncode == 0, done.stderr
        forgotten_at = time.monotonic()
        report = json.loads(done.stdout)
        assert report["snapshots"] >= 2 and report["scrubbed"] is True
        for delay, text in AFTER:
            time.sleep(max(0.0, forgotten_at + delay - time.monotonic()))
            user.type(text, delay=0.005)
        settle(2.8)                       # the last burst closes
        assert capture.alive()
        assert capture.stop() == 0, capture.log()[-800:]
    log = capture.log()
    assert "FOREIGN KEY" not in log and "could not be saved" not in log and "commit failed" not in log, log
    assert IN_TITLE not in log
    end = query(db, "SELECT max(end_ms) FROM blind_spots WHERE kind = 'forgotten'")[0][0]
    typed = sum(len(text) for _, text in AFTER)
    assert query(db, "SELECT sum(count) FROM input_events WHERE kind = 'text' AND ts_ms >= ?", (end,)) == [
        (typed,)]
    # Each of those rows names the form's snapshot taken after the forget.
    linked = query(db, "SELECT s.trigger, s.app, s.ts_ms >= ? FROM input_events i JOIN snapshots s "
                       "ON s.id = i.snapshot_id WHERE i.kind = 'text' AND i.ts_ms >= ?", (end, end))
    assert linked and all(row[2] for row in linked), linked
    assert {app for _, app, _ in linked} == {"phantom-form"}
    assert query(db, "SELECT count(*) FROM input_events WHERE snapshot_id IS NULL AND ts_ms >= ?",
                 (end,)) == [(0,)]
    assert_absent(db, IN_TITLE)
    raw = b"".join(Path(f"{db}{s}").read_bytes().lower() for s in ("", "-wal") if Path(f"{db}{s}").exists())
    assert IN_TITLE.split("-")[0].lower().encode() not in raw    # the index's lower-cased tokens too
    assert IN_TITLE.encode() not in cache_bytes(desktop)
