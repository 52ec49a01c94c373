"""GTK 4 on a desktop with a window manager (gnome-calculator 43, GTK 4.8 on
Debian 12), away from the screen's corner: its extents are relative to its
window, and its tooltips are X top-levels of their own.

- What lies under a screen point is asked in the window's coordinates, by
  every hit test replay makes — also the visual rung's, which re-aims a
  click whose recorded path no longer resolves (the display's click as an
  earlier capture recorded it, `frame/text`).
- A tooltip shown under the resting pointer is not a second calculator
  window: a program that switches to the calculator finds one.
"""

from __future__ import annotations

import json
import shutil
import time

import apsw
import pytest

from support.apps import app_by_pid, desktop_center, find, text_of
from support.cli import phantom
from support.daemon import CaptureProcess, settle, wait_for_rows
from testbed.executables import executable
from testbed.waiting import wait_until

pytestmark = pytest.mark.desktop

WHERE = (420, 120)          # the calculator's top-left: not the screen's


@pytest.fixture(scope="module")
def user(managed_desktop):
    from replay.xinput import XTestInput

    scripted = XTestInput(managed_desktop.display)
    yield scripted
    scripted.close()


def button(app, label: str):
    return find(app, "push button", name=f"{label} {label}")   # GTK 4.8 names it "label label"


def display(app):
    return find(app, "text", name="GtkSourceView")


def press(user, app, label: str) -> None:
    user.click(*desktop_center(button(app, label), "gnome-calculator"))
    time.sleep(0.3)


def multiply(user, app) -> None:
    for label in ("7", "×", "6", "="):
        press(user, app, label)


def record(desktop, name: str, actions) -> None:
    assert phantom(desktop, "record", "start", name).returncode == 0
    actions()
    settle(0.8)
    assert phantom(desktop, "record", "stop").returncode == 0


@pytest.fixture(scope="module")
def calculator(managed_desktop, user, tmp_path_factory):
    """The calculator at WHERE and the fixture form beside it, and two
    demonstrations of each program: "seven sixes" clicks the display
    first, then multiplies; "from the form" clicks into the form, then
    into the calculator (a switch) and multiplies."""
    desktop = managed_desktop
    process = desktop.launch([executable("gnome-calculator")], name="gnome-calculator")
    form = desktop.launch_fixture("form", "--geometry", "320x230+40+40", "--title", "Form")
    try:
        window = desktop.wait_for_window("gnome-calculator", timeout=30, pid=process.pid)
        desktop.place_window(window, *WHERE, 360, 520)
        settle(1.5)
        app, sheet = app_by_pid(process.pid), app_by_pid(form.pid)
        db = tmp_path_factory.mktemp("gtk4") / "store.sqlite3"
        with CaptureProcess(desktop, db) as capture:
            wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                          what="the daemon's first snapshot")
            for _ in range(2):
                def display_first():
                    user.click(*desktop_center(display(app), "gnome-calculator"))
                    time.sleep(0.4)
                    multiply(user, app)
                record(desktop, "seven sixes", display_first)
            for _ in range(2):
                def from_the_form():
                    user.click(*desktop_center(find(sheet, "text", label="Name:"), "phantom-form"))
                    time.sleep(0.5)
                    multiply(user, app)
                record(desktop, "from the form", from_the_form)
            assert capture.stop() == 0
        yield desktop, app, db
    finally:
        desktop.close_app(form)
        desktop.close_app(process)


def compile_program(desktop, db, name: str) -> dict:
    compiled = phantom(desktop, "compile-program", name, "--db", str(db), "--format", "json")
    assert compiled.returncode == 0, compiled.stderr
    return json.loads(compiled.stdout)["program"]


def replay(desktop, db, name: str):
    result = phantom(desktop, "replay", name, "--db", str(db), "--format", "json")
    parsed = json.loads(result.stdout) if result.stdout.strip() else None
    return result.returncode, parsed, result.stderr


def show_two(user, app) -> None:
    """Put another result on the display than the program's."""
    for label in ("1", "+", "1", "="):
        press(user, app, label)
    wait_until(lambda: text_of(display(app)) == "2", timeout=3, what="the calculator to show 2")


def calculator_window(app):
    from replay import live
    from replay.windows import XSession

    session = XSession()
    try:
        windows = session.app_windows("gnome-calculator")
    finally:
        session.close()
    assert len(windows) == 1, windows
    return live.accessible_window(windows[0])


def cut_short(db, tmp_path):
    """A copy of the store in which the display's clicks carry the path an
    earlier capture recorded for them: GTK 4 answers a point asked of the
    window with the deepest widget, and the path was built from that
    two-link chain."""
    copy = tmp_path / "store.sqlite3"
    shutil.copy(db, copy)
    connection = apsw.Connection(str(copy))
    with connection:
        connection.execute(
            "UPDATE elements SET path = 'gnome-calculator/frame/text[@name=''GtkSourceView'']' "
            "WHERE role = 'text' AND id IN (SELECT element_id FROM input_events WHERE kind = 'click')")
        assert connection.changes() >= 2
    connection.close()
    return copy


def test_the_element_under_a_screen_point_is_found_in_the_windows_coordinates(calculator):
    """Asked with no placement, as the visual rung asks it."""
    from replay import live

    desktop, app, _ = calculator
    x, y = desktop_center(display(app), "gnome-calculator")
    hit = live.element_at(x, y, calculator_window(app))
    assert hit is not None and (hit.role, hit.name) == ("text", "GtkSourceView")


def test_a_click_on_the_display_replays_through_the_visual_rung(calculator, user, tmp_path):
    desktop, app, db = calculator
    store = cut_short(db, tmp_path)
    program = compile_program(desktop, store, "seven sixes")
    first = program["steps"][0]
    assert first["target"]["path"].endswith("frame/text[@name='GtkSourceView']") and first["target"]["visual"]
    show_two(user, app)
    code, result, stderr = replay(desktop, store, "seven sixes")
    # Before the fix the visual rung read the display's screen point as
    # window coordinates: it clicked, then escalated ("postcondition failed:
    # no element to check focus on") after sending input. Now it either
    # re-aims onto the display and the sum is right, or — since the
    # look-alike rules (issue 24) refuse a display whose crops match twice —
    # refuses before anything is sent. Never input sent and a wrong state.
    if code == 0:
        assert result["steps"][0]["policy"] == "visual_reaim"
        wait_until(lambda: text_of(display(app)) == "42", timeout=3, what="the calculator to show 42")
    else:
        assert code == 4 and result["status"] == "refused" and not result["sent_input"], (result, stderr)
        assert result["escalation"]["step"] == 0 and "nothing was clicked" in result["escalation"]["reason"]


def test_a_tooltip_is_not_a_second_calculator_window(calculator, user):
    from replay.windows import XSession

    desktop, app, db = calculator
    program = compile_program(desktop, db, "from the form")
    assert {"action": "switch", "app": "gnome-calculator"}.items() <= program["steps"][2].items()
    x, y = desktop_center(button(app, "×"), "gnome-calculator")
    for step in range(6):                       # the pointer comes to rest on a key
        user.move(x - 6 + step, y)
        time.sleep(0.05)

    def tooltip():
        session = XSession()
        try:
            return [w for w in session.top_levels() if w.app == "gnome-calculator" and w.title != "Calculator"]
        finally:
            session.close()
    wait_until(tooltip, timeout=10, what="the key's tooltip")
    code, result, stderr = replay(desktop, db, "from the form")
    assert code == 0, (result, stderr)
