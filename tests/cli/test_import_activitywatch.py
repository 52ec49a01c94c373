"""`phantom import` of ActivityWatch history: the JSON export (as aw-server
and aw-server-rust write it) and aw-core's peewee database give the same
store; the frames' dwell per app is the AW events' durations under the
compiler's 90 s credit rule; a second import adds nothing; excluded windows
and private pages leave only a blind spot; URLs lose their secrets.

The history (tests/support/activitywatch.py writes it) is three days of the
same morning, from 08:00 UTC:

    08:00:00  gedit      600 s
    08:10:00  Firefox    300 s   pages: a pull request 120 s, then docs 180 s
    08:15:00  KeePassXC   45 s   (a password manager: excluded)
    08:15:45  Terminal   400 s   afk 08:18:00-08:20:00
              (200 s with no window event)
    08:25:45  gedit       95.5 s, then nothing until the next day
"""

from __future__ import annotations

import os
from datetime import datetime, timezone

import apsw
import pytest

from cli.main import main
from compiler.api import compile_window
from support.activitywatch import Bucket, export_python, export_rust, peewee_database, write_json

HOST = "workstation"
DAYS = ("2026-03-02", "2026-03-03", "2026-03-04")
S = 1000


def at(day: str, clock: str) -> int:
    moment = datetime.fromisoformat(f"{day}T{clock}+00:00")
    return int(moment.astimezone(timezone.utc).timestamp()) * 1000 + round(moment.microsecond / 1000)


def history(host: str = HOST, *, extra_window=(), extra_web=()) -> list[Bucket]:
    window = Bucket(f"aw-watcher-window_{host}", "currentwindow", host)
    afk = Bucket(f"aw-watcher-afk_{host}", "afkstatus", host)
    web = Bucket("aw-watcher-web-firefox", "web.tab.current", host)
    for day in DAYS:
        window.add(at(day, "08:00:00"), 600, app="gedit", title="notes.txt (~/work) - gedit")
        window.add(at(day, "08:10:00"), 300, app="Firefox", title="Pull request #7 - Mozilla Firefox")
        window.add(at(day, "08:15:00"), 45, app="KeePassXC", title="Passwords.kdbx - KeePassXC")
        window.add(at(day, "08:15:45"), 400, app="Gnome-terminal", title="alex@workstation: ~")
        window.add(at(day, "08:25:45"), 95.5, app="gedit", title="notes.txt (~/work) - gedit")
        afk.add(at(day, "08:00:00"), 1080, status="not-afk")
        afk.add(at(day, "08:18:00"), 120, status="afk")
        afk.add(at(day, "08:20:00"), 440.5, status="not-afk")
        web.add(at(day, "08:10:00"), 120, url="https://github.com/acme/app/pull/7?access_token=s3cr3t#diff",
                title="Fix the parser by alex · Pull Request #7", audible=False, incognito=False, tabCount=4)
        web.add(at(day, "08:12:00"), 180, url="https://docs.python.org/3/library/zoneinfo.html",
                title="zoneinfo — IANA time zone support", audible=False, incognito=False, tabCount=5)
    for start, seconds, data in extra_window:
        window.add(start, seconds, **data)
    for start, seconds, data in extra_web:
        web.add(start, seconds, **data)
    return [window, afk, web]


@pytest.fixture(autouse=True)
def no_user_config(tmp_path, monkeypatch):
    """The exclusion rules come from the test's own config home, never the user's."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("PHANTOM_DB", raising=False)


def phantom(*argv: str) -> int:
    return main(list(argv))


def dwell_by_app(store, day: str) -> dict[str, int]:
    document = compile_window(store, day=day, tz="UTC").document
    totals: dict[str, int] = {}
    for frame in document.frames:
        totals[frame.app] = totals.get(frame.app, 0) + frame.active_ms
    return totals


def rows(store, sql: str) -> list[tuple]:
    connection = apsw.Connection(f"file:{store}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        return list(connection.execute(sql))
    finally:
        connection.close()


def sources(tmp_path) -> dict[str, object]:
    buckets = history()
    return {"python export": write_json(tmp_path / "aw-buckets-export.json", export_python(buckets)),
            "rust export": write_json(tmp_path / "aw-rust-export.json", export_rust(buckets)),
            "peewee database": peewee_database(tmp_path / "peewee-sqlite.v2.db", buckets)}


def test_both_formats_import_the_same_history_and_it_compiles(tmp_path, capsys):
    stores = {}
    for name, source in sources(tmp_path).items():
        stores[name] = tmp_path / f"{name.replace(' ', '-')}.sqlite3"
        assert phantom("import", str(source), "--db", str(stores[name])) == 0
        out, err = capsys.readouterr()
        assert err == "" and out.startswith("imported 156 snapshots, 0 input events and 3 blind spots from the "
                                            "ActivityWatch ")
    documents = {name: [(f.app, f.site, f.start_ms, f.end_ms, f.active_ms, f.titles)
                        for day in DAYS for f in compile_window(store, day=day, tz="UTC").document.frames]
                 for name, store in stores.items()}
    assert documents["python export"] == documents["rust export"] == documents["peewee database"]
    assert len(documents["python export"]) == 3 * 5


def test_dwell_per_app_is_the_event_durations_under_the_90_second_credit_rule(tmp_path):
    """Per day: gedit 600 s + 95.5 s (nothing follows the second event within
    300 s, so its end earns nothing); Firefox 300 s, its events' durations: the
    password manager that follows leaves no snapshot but a blind spot from
    08:15:00, and dwell ends where a blind spot starts (its 45 s are not the
    browser's) — the rule live capture follows; the terminal 400 s − 120 s afk +
    90 s of the 200 s gap after it (its end snapshot, capped). The import
    has no input rows, so no time is made idle for want of input."""
    store = tmp_path / "store.sqlite3"
    assert phantom("import", str(sources(tmp_path)["python export"]), "--db", str(store)) == 0
    for day in DAYS:
        assert dwell_by_app(store, day) == {"gedit": 695_500, "Firefox": 300_000, "Gnome-terminal": 370_000}


def test_afk_makes_idle_snapshots_and_the_browser_pages_come_from_the_web_bucket(tmp_path):
    store = tmp_path / "store.sqlite3"
    assert phantom("import", str(sources(tmp_path)["peewee database"]), "--db", str(store)) == 0
    day = DAYS[0]
    idle = rows(store, f"SELECT ts_ms, trigger FROM snapshots WHERE idle = 1 AND ts_ms < {at(day, '12:00:00')} "
                       "ORDER BY ts_ms")
    assert idle[0] == (at(day, "08:18:00"), "idle") and idle[-1][0] < at(day, "08:20:00")
    assert [t for t, in rows(store, f"SELECT trigger FROM snapshots WHERE ts_ms = {at(day, '08:20:00')}")] == ["active"]
    urls = rows(store, "SELECT DISTINCT url FROM snapshots WHERE url IS NOT NULL ORDER BY url")
    assert urls == [("https://docs.python.org/3/library/zoneinfo.html",), ("https://github.com/acme/app/pull/7",)]
    firefox = [f for f in compile_window(store, day=day, tz="UTC").document.frames if f.app == "Firefox"]
    assert [f.site for f in firefox] == ["github.com", "docs.python.org"]
    assert firefox[0].pages[0].entity == "acme/app#7"


def test_importing_twice_adds_nothing_whichever_format_comes_second(tmp_path, capsys):
    paths = sources(tmp_path)
    store = tmp_path / "store.sqlite3"
    count = ("SELECT (SELECT count(*) FROM snapshots), (SELECT count(*) FROM blind_spots), "
             "(SELECT count(*) FROM import_keys)")
    assert phantom("import", str(paths["python export"]), "--db", str(store)) == 0
    first = rows(store, count)
    assert first == [(156, 3, 15)]   # 52 snapshots a day, one key per window event
    capsys.readouterr()
    for again in ("python export", "peewee database", "rust export"):
        assert phantom("import", str(paths[again]), "--db", str(store)) == 0
        assert rows(store, count) == first
        assert capsys.readouterr().out.startswith("imported 0 snapshots, 0 input events and 0 blind spots")
    later = Bucket(f"aw-watcher-window_{HOST}", "currentwindow", HOST)
    later.add(at("2026-03-05", "09:00:00"), 60, app="gedit", title="notes.txt (~/work) - gedit")
    grown = write_json(tmp_path / "grown.json", export_python(history() + [later]))
    assert phantom("import", str(grown), "--db", str(store)) == 0
    assert rows(store, count) == [(156 + 3, 3, 16)]   # start, heartbeat at +30 s, end


def test_an_excluded_window_leaves_only_an_excluded_blind_spot(tmp_path):
    store = tmp_path / "store.sqlite3"
    assert phantom("import", str(sources(tmp_path)["rust export"]), "--db", str(store)) == 0
    spots = rows(store, "SELECT start_ms, end_ms, kind, reason, monitor FROM blind_spots ORDER BY start_ms")
    assert spots == [(at(day, "08:15:00"), at(day, "08:15:45"), "excluded", "password manager (keepassxc)", 0)
                     for day in DAYS]
    everything = rows(store, "SELECT app || title || coalesce(url, '') FROM snapshots")
    assert not [text for text, in everything if "KeePass" in text or "kdbx" in text]
    document = compile_window(store, day=DAYS[0], tz="UTC").document
    assert "KeePassXC" not in {f.app for f in document.frames}
    assert [(n.kind, n.detail) for n in document.blind_spots] == [("excluded", "password manager (keepassxc)")]


def test_the_persons_own_rules_private_pages_and_url_secrets_apply_to_imports(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[[privacy.exclude]]\nname = "banking"\ntitle_regex = "(?i)online banking"\n',
                      encoding="utf-8")
    day = DAYS[0]
    buckets = history(extra_window=[
        (at(day, "09:00:00"), 60, {"app": "Firefox", "title": "Online Banking - Mozilla Firefox"}),
        (at(day, "09:01:00"), 60, {"app": "Firefox", "title": "Mozilla Firefox"}),
        (at(day, "09:02:00"), 60, {"app": "Firefox", "title": "Mozilla Firefox"}),
    ], extra_web=[
        (at(day, "09:01:00"), 60, {"url": "https://mail.example.com/inbox", "title": "Inbox", "incognito": True}),
        (at(day, "09:02:00"), 60, {"url": "https://user:pw@shop.example.com/cart?item=3&session=abc&sig=x#top",
                                   "title": "Cart", "incognito": False}),
    ])
    source = write_json(tmp_path / "export.json", export_python(buckets))
    store = tmp_path / "store.sqlite3"
    assert phantom("import", str(source), "--db", str(store), "--config", str(config)) == 0
    extra = f"BETWEEN {at(day, '09:00:00')} AND {at(day, '09:03:00')}"
    assert rows(store, f"SELECT start_ms, end_ms, reason FROM blind_spots WHERE start_ms {extra} "
                       "ORDER BY start_ms") == [(at(day, "09:00:00"), at(day, "09:01:00"), "banking"),
                                                (at(day, "09:01:00"), at(day, "09:02:00"), "private browser window")]
    assert rows(store, f"SELECT DISTINCT url FROM snapshots WHERE ts_ms {extra}") == [
        ("https://shop.example.com/cart",)]
    assert not rows(store, "SELECT 1 FROM snapshots WHERE title LIKE '%Banking%' OR url LIKE '%mail.example%'")


def test_a_history_of_several_hosts_needs_a_choice(tmp_path, capsys):
    source = write_json(tmp_path / "export.json", export_python(history() + history("laptop")[:1]))
    store = tmp_path / "store.sqlite3"
    assert phantom("import", str(source), "--db", str(store)) == 1
    err = capsys.readouterr().err
    assert err == "phantom: the history holds windows of 2 hosts (laptop, workstation); choose one with --host\n"
    assert not store.exists()
    assert phantom("import", str(source), "--db", str(store), "--host", "laptop") == 0
    assert rows(store, "SELECT count(*) FROM snapshots") == [(150,)]   # its window bucket alone: no afk points
    assert phantom("import", str(source), "--db", str(store), "--host", "desk") == 1
    assert "no window history of host 'desk'" in capsys.readouterr().err


@pytest.mark.parametrize(("content", "message"), [
    (b"{\"buckets\": 3}", "is JSON but not an ActivityWatch export (no 'buckets')"),
    (b"{\"buckets\": {\"a\": [1]}}", "bucket 'a' is not an ActivityWatch bucket"),
    (b"{\"buckets\": {}}", "has no window history"),
    (b"{not json", "is not JSON"),
    (b"hello", "is neither a SQLite database"),
])
def test_what_is_not_activitywatch_history_is_refused_in_one_line(tmp_path, capsys, content, message):
    source = tmp_path / "bad.json"
    source.write_bytes(content)
    assert phantom("import", str(source), "--db", str(tmp_path / "store.sqlite3")) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_options_are_usage_errors(tmp_path, capsys):
    source = sources(tmp_path)["python export"]
    assert phantom("import", str(source), "--db", str(tmp_path / "s.sqlite3"), "--tz", "Mars/Olympus") == 2
    assert "unknown time zone 'Mars/Olympus'" in capsys.readouterr().err
    assert phantom("import", str(source), "--db", str(tmp_path / "s.sqlite3"), "--config",
                   str(tmp_path / "absent.toml")) == 2
    assert "no such config file" in capsys.readouterr().err
    assert not (tmp_path / "s.sqlite3").exists()


def test_local_times_follow_the_zone_given(tmp_path):
    store = tmp_path / "store.sqlite3"
    assert phantom("import", str(sources(tmp_path)["python export"]), "--db", str(store),
                   "--tz", "Europe/Berlin") == 0
    assert rows(store, "SELECT DISTINCT utc_offset_min, tz_name FROM snapshots") == [(60, "Europe/Berlin")]


def test_an_import_waits_for_no_running_daemon_it_refuses(tmp_path, capsys):
    from capturer.single_instance import InstanceLock

    store = tmp_path / "store.sqlite3"
    lock = InstanceLock(store)
    lock.acquire()
    try:
        assert phantom("import", str(sources(tmp_path)["python export"]), "--db", str(store)) == 1
    finally:
        lock.release()
    err = capsys.readouterr().err
    assert f"(pid {os.getpid()})" in err and "stop it while importing" in err and err.count("\n") == 1


def test_progress_shows_on_a_terminal_only(tmp_path, monkeypatch, capsys):
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    source = sources(tmp_path)["python export"]
    terminal, piped = Terminal(), sys.stderr
    monkeypatch.setattr(sys, "stderr", terminal)
    assert phantom("import", str(source), "--db", str(tmp_path / "a.sqlite3")) == 0
    assert "writing" in terminal.getvalue() or "committing" in terminal.getvalue()
    monkeypatch.setattr(sys, "stderr", piped)
    assert phantom("import", str(source), "--db", str(tmp_path / "b.sqlite3")) == 0
    assert capsys.readouterr().err == ""
