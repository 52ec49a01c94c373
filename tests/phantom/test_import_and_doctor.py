"""`phantom import` (nocta/screenpipe history into the store) and `phantom
doctor` (what works here)."""

from __future__ import annotations

import json
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
