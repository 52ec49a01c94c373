"""`phantom import` of a screenpipe / nocta capture: the privacy rules hide
excluded windows and the input that went to them, URLs lose their secrets,
and a second import adds nothing. Databases in screenpipe's own layout
(tests/support/screenpipe.py)."""

from __future__ import annotations

import apsw
import pytest

from cli.main import main
from support.screenpipe import ScreenpipeDb

T0 = 1_772_438_400_000   # 2026-03-02 08:00:00 UTC
S = 1000


@pytest.fixture(autouse=True)
def no_user_config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("PHANTOM_DB", raising=False)


def capture(path):
    db = ScreenpipeDb(path)
    editor = db.frame(T0, "Mousepad", "notes.txt - Mousepad")
    vault = db.frame(T0 + 10 * S, "KeePassXC", "Passwords.kdbx - KeePassXC", trigger="app_switch")
    db.frame(T0 + 25 * S, "KeePassXC", "Passwords.kdbx - KeePassXC", trigger="click")
    browser = db.frame(T0 + 40 * S, "Firefox", "Shop - Mozilla Firefox",
                       url="https://shop.example.com/pay?amount=3&token=abc#card")
    db.event(T0 + 2 * S, "click", app="Mousepad", frame_id=editor, role="AXButton", name="Save")
    db.event(T0 + 12 * S, "click", app="KeePassXC", frame_id=vault, role="AXButton", name="Copy password")
    db.event(T0 + 13 * S, "key", text="ctrl+c")                  # no link: the vault's frame is nearest
    db.event(T0 + 42 * S, "text", app="Firefox", frame_id=browser, text="4111 1111")
    db.close()
    return path


def rows(store, sql):
    connection = apsw.Connection(f"file:{store}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        return list(connection.execute(sql))
    finally:
        connection.close()


def test_an_excluded_window_and_its_input_leave_only_a_blind_spot(tmp_path, capsys):
    store = tmp_path / "store.sqlite3"
    assert main(["import", str(capture(tmp_path / "screenpipe.sqlite3")), "--db", str(store)]) == 0
    assert capsys.readouterr().out.startswith("imported 2 snapshots, 2 input events and 1 blind spots")
    assert rows(store, "SELECT app, title, url FROM snapshots ORDER BY ts_ms") == [
        ("Mousepad", "notes.txt - Mousepad", None),
        ("Firefox", "Shop - Mozilla Firefox", "https://shop.example.com/pay")]
    assert rows(store, "SELECT start_ms, end_ms, kind, reason FROM blind_spots") == [
        (T0 + 10 * S, T0 + 40 * S, "excluded", "password manager (keepassxc)")]
    assert rows(store, "SELECT ts_ms, kind, count, text FROM input_events ORDER BY ts_ms") == [
        (T0 + 2 * S, "click", 1, None), (T0 + 42 * S, "text", 9, None)]
    assert not rows(store, "SELECT 1 FROM elements WHERE name LIKE '%password%'")


def test_importing_the_same_capture_twice_adds_nothing(tmp_path, capsys):
    source = capture(tmp_path / "screenpipe.sqlite3")
    store = tmp_path / "store.sqlite3"
    count = ("SELECT (SELECT count(*) FROM snapshots), (SELECT count(*) FROM input_events), "
             "(SELECT count(*) FROM blind_spots), (SELECT count(*) FROM import_keys)")
    assert main(["import", str(source), "--db", str(store)]) == 0
    assert rows(store, count) == [(2, 2, 1, 6)]     # 2 frames + 2 events + 2 hidden frames keyed
    capsys.readouterr()
    assert main(["import", str(source), "--db", str(store)]) == 0
    assert rows(store, count) == [(2, 2, 1, 6)]
    assert capsys.readouterr().out.endswith("; 4 records were imported before\n")
