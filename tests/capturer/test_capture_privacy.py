"""Privacy on the real desktop: typed secrets never reach the store, its WAL or
its blobs; excluded windows leave only blind spots; password fields are never
read, not even inside an explicit recording."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from support.apps import app_named, center, find, focus
from support.daemon import CaptureProcess, query, settle
from testbed.executables import executable

pytestmark = pytest.mark.desktop

SECRET = "Zebra-Quartz-9431"
PASSWORD = "hunter2-Velvet-77"


def store_bytes(db: Path) -> dict[str, bytes]:
    """The database, its WAL and shared-memory files, and every blob's bytes."""
    found = {}
    for suffix in ("", "-wal", "-shm", "-journal"):
        path = Path(f"{db}{suffix}")
        if path.exists():
            found[path.name] = path.read_bytes()
    for sha, data in query(db, "SELECT sha256, data FROM blobs"):
        found[f"blob {sha[:12]}"] = bytes(data)
    return found


def assert_absent(db: Path, *needles: str) -> None:
    for where, data in store_bytes(db).items():
        for needle in needles:
            for encoded in (needle.encode("utf-8"), needle.encode("utf-16-le")):
                assert encoded not in data, f"{needle!r} found in {where}"


def gdbus(desktop, method: str, *args: str) -> subprocess.CompletedProcess:
    return desktop.run([executable("gdbus"), "call", "--session", "--dest", "org.phantom.Capture1",
                        "--object-path", "/org/phantom/Capture1",
                        "--method", f"org.phantom.Capture1.{method}", *args])


def test_typed_secrets_are_nowhere_in_the_store(desktop, apps, user, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    form = app_named("phantom-form")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db, config_text="[capture]\nscreenshot_interval_seconds = 1\n") as capture:
        focus(desktop, "phantom-form")
        user.click(*center(find(form, "text", label="Name:")))
        settle()
        user.type(SECRET)
        user.click(*center(find(form, "password text", label="Password:")))
        settle()
        user.type(PASSWORD)
        user.key("Return")
        settle(2.5)  # committed, WAL not yet checkpointed
        # The password field's burst says only that something was typed there.
        assert query(db, "SELECT count, end_ms = ts_ms FROM input_events WHERE kind = 'text' "
                         "ORDER BY ts_ms") == [(len(SECRET), 0), (1, 1)]
        # Both clicks have their crops (up to three each), and no crop holds a secret.
        assert query(db, "SELECT count(DISTINCT input_id) FROM click_evidence") == [(2,)]
        assert query(db, "SELECT count(*) FROM blobs WHERE kind = 'click_crop'")[0][0] >= 2
        assert_absent(db, SECRET, PASSWORD)
        assert capture.stop() == 0
    assert_absent(db, SECRET, PASSWORD)


def test_recording_keeps_text_but_never_a_password(desktop, apps, user, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    form = app_named("phantom-form")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        focus(desktop, "phantom-form")
        started = gdbus(desktop, "StartRecording", "'fill form'")
        assert started.returncode == 0, started.stderr
        user.click(*center(find(form, "text", label="Name:")))
        settle()
        user.type("Ada Lovelace")
        user.click(*center(find(form, "password text", label="Password:")))
        settle()
        user.type(PASSWORD)
        user.click(*center(find(form, "push button", name="Submit")))
        settle(0.8)
        stopped = gdbus(desktop, "StopRecording")
        assert stopped.returncode == 0 and "'fill form'" in stopped.stdout
        again = gdbus(desktop, "StopRecording")
        assert "org.phantom.Error.NotRecording" in again.stderr
        assert capture.stop() == 0
    rows = query(db, "SELECT e.role, i.count, i.text, i.recording_id, i.end_ms = i.ts_ms "
                     "FROM input_events i JOIN elements e ON e.id = i.element_id "
                     "WHERE i.kind = 'text' ORDER BY i.ts_ms")
    assert rows == [("text", 12, "Ada Lovelace", 1, 0), ("password text", 1, None, 1, 1)]
    assert query(db, "SELECT name, end_ms > start_ms FROM recordings") == [("fill form", 1)]
    assert_absent(db, PASSWORD)


EXCLUDE_NOTES = '[[privacy.exclude]]\nname = "notes are private"\napp = "phantom-notes"\n'


def test_excluded_app_leaves_only_blind_spots(desktop, apps, user, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    apps("notes", "--geometry", "420x320+400+60", "--title", "Diary of Secrets")
    notes = app_named("phantom-notes")
    db = tmp_path / "store.sqlite3"
    config = EXCLUDE_NOTES + "[capture]\nscreenshot_interval_seconds = 1\n"
    with CaptureProcess(desktop, db, config_text=config) as capture:
        focus(desktop, "phantom-form")
        user.type("abc")
        settle(1.2)
        focus(desktop, "phantom-notes")
        user.click(*center(find(notes, "text", label="Title:")))
        settle()
        user.type("private words")
        user.click(*center(find(notes, "push button", name="Save")))
        settle(1.2)
        focus(desktop, "phantom-form")
        user.type("xyz")
        settle(1.2)
        assert capture.stop() == 0

    assert {row[0] for row in query(db, "SELECT app FROM snapshots")} == {"phantom-form"}
    assert query(db, "SELECT count(*) FROM elements WHERE path LIKE 'phantom-notes%'") == [(0,)]
    assert query(db, "SELECT count(*) FROM a11y_trees WHERE app = 'phantom-notes'") == [(0,)]
    spots = query(db, "SELECT kind, reason, start_ms, end_ms FROM blind_spots WHERE kind != 'not_running'")
    assert [(kind, reason) for kind, reason, _, _ in spots] == [("excluded", "notes are private")]
    _, _, start, end = spots[0]
    assert end is not None and end > start
    inside = query(db, "SELECT count(*) FROM input_events WHERE ts_ms BETWEEN ? AND ?", (start, end))
    assert inside == [(0,)]
    assert query(db, "SELECT sum(count) FROM input_events") == [(6,)]  # abc + xyz only
    assert_absent(db, "Diary of Secrets", "private words")


def test_private_browser_window_is_excluded_by_default_and_urls_are_captured(desktop, apps, tmp_path):
    apps("browser", "--geometry", "500x200+0+0", "--url", "https://github.com/phantom/replay/pull/7")
    db = tmp_path / "store.sqlite3"
    config = '[browsers]\napps = ["phantom-browser"]\n'
    with CaptureProcess(desktop, db, config_text=config) as capture:
        focus(desktop, "phantom-browser")
        settle(0.5)
        apps("browser", "--geometry", "500x200+0+300", "--private", "--url", "https://bank.example/")
        private = desktop.run([executable("xdotool"), "search", "--sync", "--onlyvisible", "--name",
                               "Private Browsing"], timeout=15).stdout.split()
        assert len(private) == 1
        desktop.run([executable("xdotool"), "windowfocus", "--sync", private[0]])
        settle(0.8)
        assert capture.stop() == 0
    assert query(db, "SELECT DISTINCT url FROM snapshots") == [
        ("https://github.com/phantom/replay/pull/7",)]
    assert query(db, "SELECT kind, reason FROM blind_spots") == [("excluded", "private browser window"),
                                                                 ("not_running", "capture stopped")]
    assert_absent(db, "bank.example")


def test_non_ascii_text_is_one_burst_that_shows_no_shape(desktop, apps, user, tmp_path):
    """xdotool types letters missing from the keyboard map by remapping a
    spare key, which the listener sees as keysym 0: they are counted as the
    text they are, not as key rows splitting the burst where they stand."""
    apps("form", "--geometry", "300x220+0+0")
    form = app_named("phantom-form")
    db = tmp_path / "store.sqlite3"
    typed = "Grüße-Paß-ñ"
    with CaptureProcess(desktop, db) as capture:
        focus(desktop, "phantom-form")
        user.click(*center(find(form, "text", label="Name:")))
        settle()
        desktop.run([executable("xdotool"), "type", "--delay", "40", typed])
        settle(2.5)
        assert capture.stop() == 0
    assert query(db, "SELECT kind, count, key FROM input_events WHERE kind != 'click'") == [
        ("text", len(typed), None)]


URL_TOKEN, URL_CODE, URL_FRAGMENT, URL_PASSWORD = (
    "Tok3n-Larkspur-6610", "C0de-Meridian-2271", "Frag-Quillon-8052", "Pw-Bramble-4490")


def test_urls_keep_no_credentials_tokens_codes_or_fragments(desktop, apps, user, tmp_path):
    reset = (f"https://bob:{URL_PASSWORD}@accounts.example.org/reset?token={URL_TOKEN}"
             f"&code={URL_CODE}#code={URL_FRAGMENT}")
    video = (f"https://alice:{URL_PASSWORD}@www.youtube.com/watch?v=dQw4w9WgXcQ&token={URL_TOKEN}"
             f"&code={URL_CODE}&t=42#{URL_FRAGMENT}")
    apps("browser", "--geometry", "700x200+0+0", "--url", reset)
    browser = app_named("phantom-browser")
    db = tmp_path / "store.sqlite3"
    config = '[browsers]\napps = ["phantom-browser"]\n'
    with CaptureProcess(desktop, db, config_text=config) as capture:
        focus(desktop, "phantom-browser")
        settle(0.5)
        user.click(*center(find(browser, "text", name="Address and search bar")))
        user.key("ctrl+a")
        user.type(video)
        user.key("Return")
        settle(1.5)
        assert_absent(db, URL_TOKEN, URL_CODE, URL_FRAGMENT, URL_PASSWORD, "bob:", "alice:")
        assert capture.stop() == 0
    assert query(db, "SELECT DISTINCT url FROM snapshots ORDER BY url") == [
        ("https://accounts.example.org/reset",), ("https://www.youtube.com/watch?v=dQw4w9WgXcQ",)]
    assert_absent(db, URL_TOKEN, URL_CODE, URL_FRAGMENT, URL_PASSWORD, "bob:", "alice:")
