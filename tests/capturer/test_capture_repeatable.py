"""The same scripted demonstration, recorded by a fresh capture daemon five
times, compiles to the same program five times.

The demonstration is gnome-calculator's (GTK 4) away from the screen's
corner: click the display (near its lower edge, where GTK 4 answers the
window's hit test with the display itself, skipping the levels between),
type a number, select it with shift+Home, type over it, Return. Every
run's click must carry the display's whole path — however the toolkit
answered and whether or not the daemon had walked the window yet — and
every run's shift+Home must stay shift+Home.
"""

from __future__ import annotations

import json
import time

import pytest

from support.apps import app_by_pid, desktop_center, find
from support.cli import phantom
from support.daemon import CaptureProcess, settle
from testbed.executables import executable

pytestmark = pytest.mark.desktop

RUNS = 5
DISPLAY = ("gnome-calculator/frame/panel/panel/panel[2]/panel/panel[1]/panel/scroll pane/"
           "text[@name='GtkSourceView']")


@pytest.fixture(scope="module")
def user(managed_desktop):
    from replay.xinput import XTestInput

    scripted = XTestInput(managed_desktop.display)
    yield scripted
    scripted.close()


def demonstrate(desktop, user, app) -> None:
    assert phantom(desktop, "record", "start", "select and retype").returncode == 0
    x, y = desktop_center(find(app, "text", name="GtkSourceView"), "gnome-calculator")
    user.click(x, y + 19)
    time.sleep(0.4)
    user.type("12", delay=0.02)
    user.key("shift+Home")
    user.type("7*6", delay=0.02)
    user.key("Return")
    settle(0.8)
    assert phantom(desktop, "record", "stop").returncode == 0


def steps_of(program: dict) -> list[tuple]:
    return [(s["action"], (s["target"] or {}).get("path"), s["key"], s["text"], s.get("parameter"), s["entry"])
            for s in program["steps"]]


def test_five_recordings_of_one_demonstration_compile_to_one_program(managed_desktop, user, tmp_path):
    desktop = managed_desktop
    process = desktop.launch([executable("gnome-calculator")], name="gnome-calculator")
    try:
        window = desktop.wait_for_window("gnome-calculator", timeout=30, pid=process.pid)
        desktop.place_window(window, 420, 120, 360, 520)
        settle(1.0)
        app = app_by_pid(process.pid)
        programs = []
        for run in range(RUNS):
            db = tmp_path / f"run{run}.sqlite3"
            with CaptureProcess(desktop, db) as capture:
                for _ in range(2):
                    demonstrate(desktop, user, app)
                assert capture.stop() == 0
            compiled = phantom(desktop, "compile-program", "select and retype", "--db", str(db),
                               "--format", "json")
            assert compiled.returncode == 0, compiled.stderr
            programs.append(steps_of(json.loads(compiled.stdout)["program"]))
    finally:
        desktop.close_app(process)
    assert all(program == programs[0] for program in programs), json.dumps(programs, indent=1)
    actions = [(action, path, key) for action, path, key, *_ in programs[0]]
    assert ("click", DISPLAY, None) in actions and ("key", None, "shift+Home") in actions, programs[0]
