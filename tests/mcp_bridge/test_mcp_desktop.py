"""The whole loop through MCP on the virtual desktop: record two
demonstrations through the real capture daemon, compile them, replay with a
new value — and, where the screen no longer matches, get the escalation back
as a result the agent can act on, with nothing sent."""

from __future__ import annotations

import pytest

from support.apps import app_named, center, find, focus, form_state, type_into_form
from support.cli import phantom
from support.daemon import CaptureProcess, settle
from support.mcp import McpServer, error_text

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

EMAIL = "team@example.org"
GEOMETRY = ("--geometry", "320x230+20+20")


def test_record_compile_replay_and_escalate_over_mcp(desktop, apps, user, tmp_path):
    db = tmp_path / "phantom.sqlite3"
    env = dict(desktop.env)  # DISPLAY and the session bus: what a desktop host passes
    form = desktop.launch_fixture("form", *GEOMETRY)
    try:
        with CaptureProcess(desktop, db) as capture, McpServer(db, env=env) as server:
            for name in ("Ada Lovelace", "Alan Turing"):
                started = server.call("phantom_record", {"name": "fill form"})
                assert not started.is_error, started
                assert started.structured_content["recording"] is True
                focus(desktop, "phantom-form")
                type_into_form(user, name, EMAIL)
                stopped = server.call("phantom_stop_record")
                assert not stopped.is_error, stopped
                assert stopped.structured_content["name"] == "fill form"
                user.click(*center(find(app_named("phantom-form"), "push button", name="Clear")))
                settle(0.5)
            assert "no recording is in progress" in error_text(server.call("phantom_stop_record"))
            assert capture.stop() == 0
    finally:
        desktop.close_app(form)

    with McpServer(db, env=env) as server:
        compiled = server.call("phantom_compile_program", {"name": "fill form"})
        assert not compiled.is_error, compiled
        report = compiled.structured_content
        assert [p["name"] for p in report["parameters"]] == ["P0"]
        assert report["parameters"][0]["shape"]["length"] == [11, 12] and report["state"] == "candidate"

        plain = apps("form", *GEOMETRY)
        # A new program is a candidate: the agent may run it once the person has vouched for it.
        refused = error_text(server.call("phantom_replay", {"program": "fill form",
                                                            "parameters": {"P0": "Grace Hopper"}}))
        assert refused.startswith("not_active:") and form_state() == ("", "", "Ready")
        promoted = phantom(desktop, "programs", "promote", "fill form", "--db", str(db))
        assert promoted.returncode == 0, promoted.stderr
        replayed = server.call("phantom_replay", {"program": "fill form",
                                                  "parameters": {"P0": "Grace Hopper"}})
        assert not replayed.is_error, replayed
        result = replayed.structured_content
        assert result["status"] == "success" and result["vlm_calls"] == 0, result
        assert form_state() == ("Grace Hopper", EMAIL, f"Submitted: Grace Hopper <{EMAIL}>")
    desktop.close_app(plain)

    # A form without its Submit button: an escalation, returned as data.
    apps("form", *GEOMETRY, "--no-submit")
    with McpServer(db, env=env) as server:
        replayed = server.call("phantom_replay", {"program": report["id"],
                                                  "parameters": {"P0": "Nobody"}})
        assert not replayed.is_error, replayed
        result = replayed.structured_content
        assert result["status"] == "escalated" and result["sent_input"] is False
        escalation = result["escalation"]
        assert escalation["step"] == len(result["steps"]) - 1
        assert "not found by path" in escalation["reason"]
        assert isinstance(escalation["candidates"], list)
        assert form_state() == ("", "", "Ready")
        assert "missing P0" in error_text(server.call("phantom_replay", {"program": "fill form"}))
