"""Every command on a store that is damaged, empty, on a read-only mount or
made read-only with chmod (as an unprivileged user: root writes through a
chmod 444), on the virtual desktop: one line and a non-zero exit where the
store cannot serve, the read commands working where it can, and a damaged
store salvaged by `phantom doctor --repair`."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from support.daemon import PHANTOM, CaptureProcess, query
from support.damage import damage_page, leaf_pages
from support.mounts import remount_read_only, tmpfs
from support.unprivileged import Unprivileged

pytestmark = pytest.mark.desktop

FIXTURE_STORE = Path(__file__).resolve().parents[2] / "fixtures" / "recorded" / "desktop.sqlite3"
DAY = "2026-11-29"
READS = (("status",), ("compile", "--day", DAY), ("routines",), ("runs",), ("programs",))


def phantom(desktop, *args: str) -> subprocess.CompletedProcess:
    """The real command, on the test desktop."""
    return subprocess.run([PHANTOM, *args], env=dict(desktop.env, PATH=os.environ["PATH"]),
                          capture_output=True, text=True, timeout=120)


def one_line(result: subprocess.CompletedProcess, *fragments: str) -> str:
    assert result.returncode not in (0, 70) and result.returncode > 0, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def test_a_damaged_store_is_refused_in_one_line_and_repaired_keeping_the_original(desktop, tmp_path):
    db = tmp_path / "store.sqlite3"
    shutil.copy(FIXTURE_STORE, db)
    pages = leaf_pages(db, "snapshots")
    damage_page(db, pages[len(pages) // 2])
    one_line(phantom(desktop, "capture", "--no-dbus", "--db", str(db)), "is damaged", "phantom doctor --repair")
    one_line(phantom(desktop, "compile", "--day", DAY, "--db", str(db)), "is damaged", "phantom doctor --repair")
    doctor = phantom(desktop, "doctor", "--db", str(db))
    [line] = [line for line in doctor.stdout.splitlines() if line[3:].startswith(" store")]
    assert line.startswith("!!") and "damaged" in line and "phantom doctor --repair" in line

    repaired = phantom(desktop, "doctor", "--repair", "--db", str(db))
    assert repaired.returncode == 0, repaired.stderr
    assert "repaired" in repaired.stdout and "damage met in snapshots" in repaired.stdout
    [kept] = list(tmp_path.glob("store.sqlite3.damaged-*[0-9]Z"))
    assert kept.stat().st_size == FIXTURE_STORE.stat().st_size     # the original, untouched
    assert query(db, "PRAGMA quick_check") == [("ok",)]
    assert phantom(desktop, "compile", "--day", DAY, "--db", str(db)).returncode == 0
    capture = CaptureProcess(desktop, db, extra_args=("--no-dbus",)).start()
    assert capture.stop() == 0


def test_an_empty_file_is_refused_by_every_command_and_left_alone(desktop, tmp_path):
    db = tmp_path / "store.sqlite3"
    db.touch()
    for args in (("capture", "--no-dbus"), *READS):
        one_line(phantom(desktop, *args, "--db", str(db)), "empty file (0 bytes)")
    assert db.stat().st_size == 0


@pytest.fixture
def read_only_mount(tmp_path):
    """The fixture store on a tmpfs remounted read-only (tests run as root, as CI does)."""
    with tmpfs(tmp_path / "ro", "8m") as mount:
        shutil.copy(FIXTURE_STORE, mount / "store.sqlite3")
        remount_read_only(mount)
        yield mount / "store.sqlite3"


def test_a_store_on_a_read_only_mount_serves_every_read_and_refuses_capture(desktop, read_only_mount):
    db = read_only_mount
    one_line(phantom(desktop, "capture", "--no-dbus", "--db", str(db)), "read-only")
    for args in READS:
        result = phantom(desktop, *args, "--db", str(db))
        assert result.returncode == 0 and not result.stderr, (args, result.stderr)


def test_a_chmod_444_store_stays_read_only_for_an_unprivileged_user(desktop):
    user = Unprivileged()       # nobody (or a user made for the test), with a home it owns
    user.env = {**desktop.env, **user.env}
    try:
        db = user.home / "store.sqlite3"
        shutil.copy(FIXTURE_STORE, db)
        if user.account is not None:
            os.chown(db, user.account.pw_uid, user.account.pw_gid)
        os.chmod(db, 0o444)
        probe = user.run("sh", "-c", f"echo x >> {db}")
        assert probe.returncode != 0          # the kernel refuses this user a write: the test means something
        one_line(user.phantom("capture", "--no-dbus", "--db", str(db)), "is read-only (mode 04")
        for args in READS:
            result = user.phantom(*args, "--db", str(db))
            assert result.returncode == 0 and not result.stderr, (args, result.stderr)
        assert stat.S_IMODE(db.stat().st_mode) & 0o222 == 0   # never made writable again
        assert not Path(f"{db}-wal").exists() or stat.S_IMODE(Path(f"{db}-wal").stat().st_mode) & 0o222 == 0
    finally:
        user.remove()
