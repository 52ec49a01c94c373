"""`phantom import` (nocta/screenpipe history into the store) and `phantom
doctor` (what works here)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli import phantom as phantom_on
from support.goldens import FIXTURES

PHANTOM = str(Path(sys.executable).with_name("phantom"))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PHANTOM, *args], capture_output=True, text=True, timeout=300)


def test_import_brings_nocta_history_into_the_store(tmp_path):
    nocta = tmp_path / "nocta.sqlite3"
    assert run("synth", "--days", "1", "--db", str(nocta), "--layout", "nocta").returncode == 0
    store = tmp_path / "store.sqlite3"
    imported = run("import", str(nocta), "--db", str(store))
    assert imported.returncode == 0, imported.stderr
    direct = json.loads(run("compile", "--db", str(nocta), "--day", "2026-03-02", "--format", "json",
                            "--no-inferred").stdout)
    through = json.loads(run("compile", "--db", str(store), "--day", "2026-03-02", "--format", "json",
                             "--no-inferred").stdout)
    assert len(through["frames"]) == len(direct["frames"]) > 0
    assert [f["app"] for f in through["frames"]] == [f["app"] for f in direct["frames"]]
    assert [f["input"] for f in through["frames"]] == [f["input"] for f in direct["frames"]]


TOKEN = "Tok3n-Wh1sper-4417"
PASSWORD = "Pa55-Velvet-9032"
LEAKY_URL = (f"https://alice:{PASSWORD}@www.youtube.com/watch?v=dQw4w9WgXcQ&token={TOKEN}"
             f"&code={TOKEN}#code={TOKEN}")
CLEAN_URL = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"


def nocta_history(path: Path, url: str) -> Path:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE frames (id INTEGER PRIMARY KEY, timestamp TEXT, app_name TEXT, "
                       "window_name TEXT, browser_url TEXT)")
    connection.executemany("INSERT INTO frames VALUES (?, ?, 'firefox', 'Video', ?)",
                           [(i + 1, f"2026-03-02T08:00:{i * 10:02d}.000000", url) for i in range(3)])
    connection.commit()
    connection.close()
    return path


def test_import_stores_only_what_capture_would_have_stored(tmp_path):
    source = nocta_history(tmp_path / "nocta.sqlite3", LEAKY_URL)
    store = tmp_path / "store.sqlite3"
    imported = run("import", str(source), "--db", str(store))
    assert imported.returncode == 0, imported.stderr
    raw = b"".join(Path(f"{store}{suffix}").read_bytes()
                   for suffix in ("", "-wal") if Path(f"{store}{suffix}").exists())
    for secret in (TOKEN, PASSWORD):
        assert secret.encode() not in raw
    connection = sqlite3.connect(store)
    assert connection.execute("SELECT DISTINCT url FROM snapshots").fetchall() == [(CLEAN_URL,)]
    connection.close()


def test_import_refuses_a_phantom_store_and_a_missing_file(tmp_path):
    result = run("import", str(FIXTURES / "recorded" / "desktop.sqlite3"), "--db", str(tmp_path / "s.sqlite3"))
    assert result.returncode == 1 and "is a Phantom store, not another recorder's history" in result.stderr
    missing = run("import", str(tmp_path / "absent.sqlite3"), "--db", str(tmp_path / "s.sqlite3"))
    assert missing.returncode == 1 and len(missing.stderr.strip().splitlines()) == 1


@pytest.mark.desktop
def test_doctor_on_a_working_desktop(desktop, tmp_path):
    result = phantom_on(desktop, "doctor", "--db", str(tmp_path / "store.sqlite3"))
    lines = dict((line[4:18].strip(), line[:3].strip()) for line in result.stdout.splitlines())
    assert lines["display"] == "ok" and lines["session bus"] == "ok" and lines["accessibility"] == "ok"
    assert lines["store"] == "ok" and lines["config"] == "ok" and lines["capture"] == "!!"
    assert result.returncode == 0


def test_doctor_without_a_display_fails():
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS")}
    result = subprocess.run([PHANTOM, "doctor"], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 1 and "DISPLAY is not set" in result.stdout
