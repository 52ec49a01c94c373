"""The search index: brought up to date from the rows added since, found by
title, URL, walk label and click label with evidence, and gone with the rows
a forget erases (tokens included: secure-delete)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from compiler.api import search
from core.store import open_store
from core.store.forget import forget_window
from core.store.search_index import catch_up, pending, update_index

T0 = 1_772_438_400_000  # 2026-03-02T08:00Z
MINUTE = 60_000


class Store:
    """A store written row by row, ids counted up as the writer does."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connection = open_store(path)
        self.ids = {name: itertools.count(1) for name in ("snapshots", "trees", "elements", "inputs")}

    def walk(self, ts: int, app: str, *labels: str) -> int:
        tree = next(self.ids["trees"])
        self.connection.execute("INSERT INTO a11y_trees VALUES (?, ?, ?, ?, NULL, 5)",
                                (tree, ts, app, len(labels)))
        for ordinal, label in enumerate(labels):
            self.element(tree, label, ordinal)
        return tree

    def element(self, tree: int | None, label: str, ordinal: int = 0) -> int:
        element = next(self.ids["elements"])
        self.connection.execute(
            "INSERT INTO elements(id, tree_id, depth, ordinal, role, name, path) "
            "VALUES (?, ?, 1, ?, 'push button', ?, ?)", (element, tree, ordinal, label, f"/{ordinal}"))
        return element

    def snapshot(self, ts: int, app: str, title: str, url: str | None = None,
                 tree: int | None = None, monitor: int = 0) -> int:
        snapshot = next(self.ids["snapshots"])
        self.connection.execute(
            "INSERT INTO snapshots(id, ts_ms, utc_offset_min, tz_name, monitor, trigger, app, title, "
            "url, tree_id) VALUES (?, ?, 60, 'Europe/Berlin', ?, 'focus', ?, ?, ?, ?)",
            (snapshot, ts, monitor, app, title, url, tree))
        return snapshot

    def click(self, ts: int, element: int) -> int:
        row = next(self.ids["inputs"])
        self.connection.execute(
            "INSERT INTO input_events(id, ts_ms, end_ms, monitor, kind, count, element_id, resolution) "
            "VALUES (?, ?, ?, 0, 'click', 1, ?, 'exact')", (row, ts, ts, element))
        return row


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "phantom.sqlite3")
    tree = s.walk(T0, "firefox", "Submit invoice", "Cancel")
    s.snapshot(T0, "firefox", "Invoices — Northwind Portal", "https://portal.example/invoices", tree)
    s.snapshot(T0 + MINUTE, "firefox", "Invoices — Northwind Portal", "https://portal.example/invoices",
               tree)
    s.snapshot(T0 + 30 * MINUTE, "gedit", "notes.txt - gedit")
    s.click(T0 + MINUTE + 5000, s.element(None, "Pay now"))
    s.walk(T0 + 40 * MINUTE, "gedit", "Save")  # the newest walk waits for its elements
    yield s
    s.connection.close()


def found(path: Path, text: str, **window):
    result, _ = search(path, text, **window)
    return [(s.app, s.matched, s.text, s.snapshots, s.inputs) for s in result.stretches]


def test_titles_urls_walk_labels_and_clicks_are_found_with_their_rows(store):
    assert pending(store.connection) == 5   # 3 snapshots, 1 walk (not the newest), 1 click
    assert catch_up(store.connection) == 5 and pending(store.connection) == 0
    assert found(store.path, "northwind portal") == [
        ("firefox", "title", "Invoices — Northwind Portal", (1, 2), ())]
    assert found(store.path, "portal.example") == [
        ("firefox", "url", "https://portal.example/invoices", (1, 2), ())]
    assert found(store.path, "submit") == [("firefox", "label", "Submit invoice", (1, 2), ())]
    assert found(store.path, "pay") == [("firefox", "clicked", "Pay now", (), (1,))]
    assert {hit[1] for hit in found(store.path, "invoi")} == {"title", "label"}  # prefixes
    assert found(store.path, "gedit notes") == [("gedit", "title", "notes.txt - gedit", (3,), ())]
    assert found(store.path, "northwind", since="2026-03-02T08:10Z", until="2026-03-02T09:00Z") == []


def test_only_rows_added_since_are_indexed(store):
    catch_up(store.connection)
    store.snapshot(T0 + 50 * MINUTE, "firefox", "Quarterly invoice run")
    assert catch_up(store.connection) == 1   # the new snapshot (the newest walk still waits)
    store.walk(T0 + 55 * MINUTE, "gedit", "Open")
    assert catch_up(store.connection) == 1   # now the "Save" walk is not the newest
    assert found(store.path, "save") == []   # a walk no snapshot shows is no stretch
    assert [(hit[1], hit[3]) for hit in found(store.path, "invoice")] == [
        ("title", (4,)), ("label", (1, 2)), ("title", (1, 2))]


def test_update_index_leaves_an_older_store_alone(tmp_path):
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "recorded" / "desktop.sqlite3"
    before = fixture.read_bytes()
    assert update_index(fixture) is None
    assert fixture.read_bytes() == before
    result, _ = search(fixture, "phantom")
    assert not result.indexed and result.stretches == ()


def test_forgetting_a_window_takes_its_rows_out_of_the_index(store):
    catch_up(store.connection)
    spot_ids = itertools.count(100)
    forget_window(store.connection, store.path, T0, T0 + 10 * MINUTE, now_ms=T0 + 60 * MINUTE,
                  next_blind_spot_id=lambda: next(spot_ids))
    assert found(store.path, "northwind") == [] and found(store.path, "submit") == []
    assert found(store.path, "pay") == []
    assert found(store.path, "notes")  # outside the window: still there
    secure = [store.connection.execute(f"SELECT v FROM {name}_config WHERE k = 'secure-delete'").get
              for name in ("search_snapshots", "search_trees", "search_inputs")]
    assert secure == [1, 1, 1]


def test_forgetting_the_newest_rows_moves_that_index_back_without_rebuilding_it(store):
    catch_up(store.connection)
    spot_ids = itertools.count(100)
    forget_window(store.connection, store.path, T0 + 20 * MINUTE, T0 + 45 * MINUTE,
                  now_ms=T0 + 60 * MINUTE, next_blind_spot_id=lambda: next(spot_ids))
    # the newest snapshot (3) went: its id may be handed out again, so the
    # index goes on from the highest id left (2) — nothing is indexed again
    progress = dict(store.connection.execute("SELECT source, last_id FROM search_progress"))
    assert progress["snapshots"] == 2 and pending(store.connection) == 0
    store.ids["snapshots"] = itertools.count(3)
    store.snapshot(T0 + 50 * MINUTE, "gedit", "todo.txt - gedit")
    catch_up(store.connection)
    assert [hit[3] for hit in found(store.path, "gedit")] == [(3,)]
    assert [hit[2] for hit in found(store.path, "northwind")] == ["Invoices — Northwind Portal"]


def test_phantom_search_brings_the_index_up_to_date_and_answers(store):
    from cli.main import main

    store.connection.close()
    store.connection = open_store(store.path)
    assert pending(store.connection) == 5
    assert main(["search", "northwind", "portal", "--db", str(store.path)]) == 0
    assert pending(store.connection) == 0
    assert main(["search", "?!", "--db", str(store.path)]) == 2


def test_forgotten_tokens_leave_the_files_bytes(store):
    """The tombstones a contentless index lays over a deleted row keep its
    tokens in the segment (issue 28): after a forget they are in no byte
    of the database or its WAL — title, walk label and click label."""
    tree = store.walk(T0 + 2 * MINUTE, "mousepad", "Zinnober signup")
    store.snapshot(T0 + 2 * MINUTE, "mousepad", "Quokka-Marmalade-4471 mousepad", tree=tree)
    store.click(T0 + 2 * MINUTE + 500, store.element(None, "Xylograph firefox"))
    store.snapshot(T0 + 45 * MINUTE, "gedit", "later.txt - gedit")
    store.walk(T0 + 46 * MINUTE, "gedit", "Close")
    catch_up(store.connection)
    planted = (b"quokka", b"marmalade", b"zinnober", b"xylograph")

    def raw() -> bytes:
        return b"".join(Path(f"{store.path}{suffix}").read_bytes().lower() for suffix in ("", "-wal")
                        if Path(f"{store.path}{suffix}").exists())

    store.connection.pragma("wal_checkpoint", "TRUNCATE")
    assert all(token in raw() for token in planted)   # there, so their absence means something
    spot_ids = itertools.count(100)
    forget_window(store.connection, store.path, T0 + 2 * MINUTE, T0 + 3 * MINUTE,
                  now_ms=T0 + 60 * MINUTE, next_blind_spot_id=lambda: next(spot_ids))
    assert [token for token in planted if token in raw()] == []
    assert found(store.path, "northwind") and found(store.path, "later")   # the rest still found
    assert pending(store.connection) == 0
