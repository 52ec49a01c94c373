"""Applications the accessibility bus does not show: xmessage (Xaw, which has
no AT-SPI support at all) and mousepad started with NO_AT_BRIDGE=1 (GTK,
hidden on purpose). `phantom doctor` names each with its toolkit and the
fix, and the capture records the stretch it spends in one as a blind spot
that says the same — never an empty tree passed off as a window with no
controls."""

from __future__ import annotations

import pytest

from support.cli import phantom
from support.daemon import CaptureProcess, settle, wait_for_rows
from testbed.executables import executable
from testbed.waiting import wait_until

pytestmark = pytest.mark.desktop


@pytest.fixture(scope="module")
def user(desktop):
    from replay.xinput import XTestInput

    scripted = XTestInput(desktop.display)
    yield scripted
    scripted.close()


def test_doctor_and_capture_name_the_toolkit_of_an_unexposed_app(desktop, user, tmp_path):
    from core.a11y.exposure import of_process
    from replay import live

    message = desktop.launch([executable("xmessage"), "-geometry", "300x80+700+100", "unexposed"], name="xmessage")
    hidden = desktop.launch([executable("mousepad"), str(tmp_path / "notes.txt")], name="mousepad",
                            extra_env={"NO_AT_BRIDGE": "1"})
    form = desktop.launch_fixture("form", "--geometry", "320x230+40+40")
    try:
        desktop.wait_for_window("xmessage", timeout=20)
        desktop.wait_for_window("mousepad", timeout=30)
        wait_until(lambda: live.application_of(form.pid), timeout=10, what="the form on the bus")
        settle(1.0)
        assert of_process(message.pid).toolkit.startswith("Xaw")

        doctor = phantom(desktop, "doctor", "--db", str(tmp_path / "store.sqlite3"))
        (line,) = [line for line in doctor.stdout.splitlines() if line[4:18].strip() == "applications"]
        assert line.startswith("!!")
        assert f"xmessage (xmessage, pid {message.pid}) — Xaw (X athena widgets): Xaw has no AT-SPI support" in line
        assert f"pid {hidden.pid}) — GTK 3: started with NO_AT_BRIDGE=1" in line
        assert "phantom-form" not in line                     # on the bus: not named
        assert doctor.returncode == 0                         # a warning, not a failure

        db = tmp_path / "store.sqlite3"
        user.click(200, 150)           # the form has the keyboard (no window manager: focus follows the pointer)
        with CaptureProcess(desktop, db) as capture:
            wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                          what="the daemon's first snapshot")
            user.click(850, 140)                              # into xmessage's window
            rows = wait_for_rows(
                db, "SELECT reason FROM blind_spots WHERE kind = 'no_accessibility'",
                lambda rows: any("Xaw" in reason for (reason,) in rows), timeout=15,
                what="a blind spot naming Xaw")
            assert any(reason.startswith("no_app: xmessage, Xaw (X athena widgets)") for (reason,) in rows)
            assert capture.stop() == 0
    finally:
        for app in (form, hidden, message):
            desktop.close_app(app)
