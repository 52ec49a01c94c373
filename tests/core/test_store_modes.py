"""File modes, tried as an unprivileged user (as root a chmod proves
nothing): capture's start takes group and other bits off the store, its
directory, the config file and its directory, and never adds a bit — a store
the person made read-only stays read-only, capture refuses it in one line,
and the read commands go on working."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from support.unprivileged import Unprivileged

MAKE_STORE = ("import sys; from core.store import SnapshotRow, StoreWriter; "
              "w = StoreWriter(sys.argv[1], commit_interval=None); "
              "w.submit(SnapshotRow(w.ids.next('snapshots'), 1772438400000, 0, 'UTC', 0, 'focus', "
              "'gedit', 'gedit.Gedit', None, None, 'notes', None, 0, 1, None, None)); "
              "w.flush(); w.close()")


@pytest.fixture
def user():
    person = Unprivileged()
    yield person
    person.remove()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def make_store(user: Unprivileged) -> Path:
    db = user.home / "data" / "phantom" / "phantom.sqlite3"
    made = user.python(MAKE_STORE, str(db))
    assert made.returncode == 0, made.stderr
    return db


def one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def test_capture_start_takes_group_and_other_bits_off_and_adds_none(user):
    db = make_store(user)
    config = user.home / "config" / "phantom" / "config.toml"
    assert user.run("mkdir", "-p", str(config.parent)).returncode == 0
    assert user.run("touch", str(config)).returncode == 0
    user.chmod(db.parent, 0o755)
    user.chmod(db, 0o644)
    user.chmod(config.parent, 0o775)
    user.chmod(config, 0o444)  # the person made it read-only: it stays so
    started = user.phantom("capture")  # no DISPLAY: it stops right after the files
    assert started.returncode != 0 and "DISPLAY is not set" in one_line(started)
    assert (mode(db.parent), mode(db), mode(config.parent), mode(config)) == (
        0o700, 0o600, 0o700, 0o400)


def test_a_store_made_read_only_stays_so_capture_refuses_it_and_readers_work(user):
    db = make_store(user)
    user.chmod(db, 0o444)
    refused = user.phantom("capture", "--display", ":999")
    assert refused.returncode == 1
    assert "read-only (mode 0400)" in one_line(refused) and "never makes" in refused.stderr
    assert mode(db) == 0o400  # the other bits went; no write bit came
    compiled = user.phantom("compile", "--day", "2026-03-02", "--format", "json")
    assert compiled.returncode == 0 and '"app": "gedit"' in compiled.stdout, compiled.stderr
    status = user.phantom("status", "--format", "json")
    assert status.returncode == 0 and '"snapshots": 1' in status.stdout, status.stderr
    exported = user.phantom("export", "--day", "2026-03-02")
    assert exported.returncode == 0 and '"table":"snapshots"' in exported.stdout, exported.stderr
    forgetting = user.phantom("forget", "--day", "2026-03-02", "--yes")
    assert forgetting.returncode != 0 and "read-only" in one_line(forgetting)
    assert mode(db) == 0o400


def test_a_read_only_store_directory_is_refused_for_writing_too(user):
    db = make_store(user)
    user.chmod(db.parent, 0o500)
    refused = user.phantom("capture", "--display", ":999")
    assert refused.returncode == 1 and "directory" in one_line(refused)
    assert mode(db.parent) == 0o500
    compiled = user.phantom("compile", "--day", "2026-03-02")
    assert compiled.returncode == 0 and "1 app" in compiled.stdout, compiled.stderr
    user.chmod(db.parent, 0o700)  # so the fixture can clean up as anyone
