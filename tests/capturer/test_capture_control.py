"""Controlling the running daemon: `phantom status`, pause and resume from the
CLI and over `org.phantom.Capture1` with plain gdbus calls."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.apps import focus
from support.daemon import CaptureProcess, query, settle
from testbed.executables import executable

pytestmark = pytest.mark.desktop
PHANTOM = str(Path(sys.executable).with_name("phantom"))


def phantom(desktop, *args: str) -> subprocess.CompletedProcess:
    env = dict(desktop.env, PATH=os.environ["PATH"])
    return subprocess.run([PHANTOM, *args], capture_output=True, text=True, env=env, timeout=30)


def gdbus(desktop, *args: str) -> subprocess.CompletedProcess:
    return desktop.run([executable("gdbus"), "call", "--session", "--dest", "org.phantom.Capture1",
                        "--object-path", "/org/phantom/Capture1", *args])


def test_status_pause_and_resume(desktop, apps, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        focus(desktop, "phantom-form")
        status = phantom(desktop, "status", "--format", "json")
        assert status.returncode == 0, status.stderr
        report = json.loads(status.stdout)
        assert report["daemon"]["state"] == "capturing"
        assert report["daemon"]["focused_app"] == "phantom-form"
        assert report["store"]["db"] == str(db)
        text = phantom(desktop, "status").stdout
        assert "capturing phantom-form" in text and "store:" in text

        assert phantom(desktop, "pause").stdout.strip() == "capture paused"
        assert phantom(desktop, "pause").stdout.strip() == "capture was already paused"
        paused = gdbus(desktop, "--method", "org.freedesktop.DBus.Properties.Get",
                       "org.phantom.Capture1", "Paused")
        assert paused.stdout.strip() == "(<true>,)"
        desktop.run([executable("xdotool"), "type", "--delay", "20", "unseen"])
        settle(0.5)
        resumed = gdbus(desktop, "--method", "org.phantom.Capture1.Resume")
        assert resumed.stdout.strip() == "(true,)"
        desktop.run([executable("xdotool"), "type", "--delay", "20", "seen"])
        settle(1.5)
        bad = gdbus(desktop, "--method", "org.phantom.Capture1.StartRecording", "''")
        assert "org.phantom.Error.InvalidName" in bad.stderr
        assert capture.stop() == 0

    assert query(db, "SELECT kind, reason, end_ms IS NOT NULL FROM blind_spots") == [
        ("paused", "paused by the user", 1), ("not_running", "capture stopped", 0)]
    assert query(db, "SELECT sum(count) FROM input_events") == [(4,)]
    triggers = [t for t, in query(db, "SELECT trigger FROM snapshots ORDER BY ts_ms")]
    assert "resume" in triggers  # a fresh snapshot as capture resumes


def test_pause_survives_a_restart(desktop, apps, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        assert phantom(desktop, "pause").returncode == 0
        assert capture.stop() == 0
    with CaptureProcess(desktop, db) as capture:
        focus(desktop, "phantom-form")
        status = json.loads(phantom(desktop, "status", "--format", "json").stdout)
        assert status["daemon"]["state"] == "paused"
        assert capture.stop() == 0
    assert query(db, "SELECT count(*) FROM snapshots") == [(0,)]
