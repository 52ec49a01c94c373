"""The program's window as people leave it, under a window manager:
minimised. A refusal names what is wrong with the window — not that the
application is not running — and sends nothing.
"""

from __future__ import annotations

import json

import pytest

from programs.store import save_program
from support.apps import find, text_of
from support.cli import phantom
from support.daemon import settle
from support.programs import form_program
from testbed.executables import executable

pytestmark = pytest.mark.desktop


def test_a_minimised_window_is_named_as_minimised_and_gets_nothing(managed_desktop, tmp_path):
    from replay import live
    from testbed.waiting import wait_until

    desktop = managed_desktop
    db = tmp_path / "store.sqlite3"
    save_program(db, form_program(), created_ms=1_795_990_000_000)
    process = desktop.launch_fixture("form", "--title", "Form", "--geometry", "320x230+40+40")
    try:
        window = desktop.wait_for_window("phantom-form")
        settle(1.0)
        form = wait_until(lambda: live.application_of(process.pid), timeout=10, what="the form")
        assert desktop.run([executable("xdotool"), "windowminimize", "--sync", str(window)]).returncode == 0
        settle(0.5)
        for dry in ((), ("--dry-run",)):
            result = phantom(desktop, "replay", "fill form", "--db", str(db), "--format", "json",
                             "--param", "P0=Ada", *dry)
            parsed = json.loads(result.stdout)
            assert (result.returncode, parsed["status"], parsed["code"]) == (4, "refused", "guard_mismatch")
            reason = parsed["escalation"]["reason"]
            assert "'Form'" in reason and "is minimised" in reason and "not running" not in reason
            assert parsed["sent_input"] is False
        assert text_of(find(form, "text", label="Name:")) == ""
    finally:
        desktop.close_app(process)
