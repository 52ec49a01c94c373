"""Typed-text recording never starts unannounced, and a whole history is
never erased on a caller's word alone — against the real capture daemon on
the virtual desktop, with a stand-in notification server on its bus.

- `Capture1.StartRecording` over D-Bus (a shortcut's `gdbus`) and
  `phantom_record` over MCP post a desktop notification naming the calling
  process and what started it (for `phantom mcp`, the agent's host: here
  the test process), and `phantom status` says who started the recording.
- `Capture1.Forget` of more than a day (`2000…2100`) is refused with
  `org.phantom.Error.ConfirmationRequired` and erases nothing;
  `ForgetConfirmed` is what a front end calls after asking the person."""

from __future__ import annotations

import json
import os
import sys

import pytest

from support.apps import focus
from support.cli import phantom
from support.daemon import CaptureProcess, query, wait_for_rows
from support.mcp import McpServer
from support.notifications import NotificationServer
from testbed.executables import executable
from testbed.waiting import wait_until

try:  # package layout
    from .test_capture_privacy import gdbus
except ImportError:  # rootdir layout (no __init__.py in tests/)
    from test_capture_privacy import gdbus

pytestmark = pytest.mark.desktop


@pytest.fixture
def notifications(desktop):
    server = NotificationServer()
    yield server
    server.close()


def recording_notices(server: NotificationServer) -> list[tuple[str, str]]:
    return [(summary, body) for summary, body in server.received if "recording what you type" in summary]


def test_a_recording_started_over_dbus_is_announced_with_its_caller_and_shown_in_status(
        desktop, apps, notifications, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        started = gdbus(desktop, "StartRecording", "'quiet one'")
        assert started.returncode == 0, started.stderr
        summary, body = wait_until(lambda: (recording_notices(notifications) or [None])[0], timeout=15,
                                   what="a notification that recording started")
        gdbus_exe = os.path.realpath(executable("gdbus"))
        assert "'quiet one'" in summary
        assert f"Started by {gdbus_exe} (pid " in body and "gdbus call" in body, body
        assert ", started by " in body, body          # and what ran the gdbus

        status = json.loads(phantom(desktop, "status", "--format", "json").stdout)["daemon"]
        assert status["recording"] == "quiet one"
        assert status["recording_started_by"].startswith(gdbus_exe), status
        text = phantom(desktop, "status").stdout
        assert "recording demonstration 'quiet one' (typed text is kept), started by " + gdbus_exe in text

        assert gdbus(desktop, "StopRecording").returncode == 0
        after = json.loads(phantom(desktop, "status", "--format", "json").stdout)["daemon"]
        assert after["recording"] is None and after["recording_started_by"] is None
        assert capture.stop() == 0


def test_a_recording_started_by_an_agent_names_the_process_that_started_phantom_mcp(
        desktop, notifications, tmp_path):
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture, McpServer(db, env=dict(desktop.env)) as server:
        started = server.call("phantom_record", {"name": "agent demo"})
        assert not started.is_error, started
        summary, body = wait_until(lambda: (recording_notices(notifications) or [None])[0], timeout=15,
                                   what="a notification that recording started")
        assert "'agent demo'" in summary and "phantom mcp" in body, body
        host = f"started by {os.path.realpath(sys.executable)} (pid {os.getpid()}"   # this test: the MCP host
        assert host in body, body
        assert not server.call("phantom_stop_record").is_error
        assert capture.stop() == 0


def test_forgetting_more_than_a_day_needs_confirmation(desktop, apps, tmp_path):
    apps("form", "--geometry", "300x220+0+0")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        focus(desktop, "phantom-form")
        stored = wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                               what="a snapshot on disk")[0][0]
        everything = ("'2000-01-01T00:00:00+00:00'", "'2100-01-01T00:00:00+00:00'")
        refused = gdbus(desktop, "Forget", *everything)
        assert refused.returncode != 0 and "org.phantom.Error.ConfirmationRequired" in refused.stderr, refused
        assert "ForgetConfirmed" in refused.stderr
        assert query(db, "SELECT count(*) FROM snapshots")[0][0] >= stored     # nothing went
        assert "forgotten" not in [kind for kind, in query(db, "SELECT kind FROM blind_spots")]

        confirmed = gdbus(desktop, "ForgetConfirmed", *everything)
        assert confirmed.returncode == 0, confirmed.stderr
        assert "forgotten" in [kind for kind, in query(db, "SELECT kind FROM blind_spots")]
        assert capture.alive()
        assert capture.stop() == 0

