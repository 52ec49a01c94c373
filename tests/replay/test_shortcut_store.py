"""A keyboard shortcut as a person sets one up: `phantom install --db PATH`
names the store once, `phantom shortcut` prints the line to bind, and the
line — run by the desktop's shortcut runner, which sees only its exit status
— reaches that store and exits non-zero when the replay did not succeed.
The replay service is started by D-Bus activation from the installed file
and reads the chosen store on every call."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from programs.store import save_program
from support.cli import phantom
from support.programs import EMAIL, form_program
from testbed.executables import executable
from testbed.harness import VirtualDesktop

pytestmark = pytest.mark.desktop


def escalating_program():
    """The form program with a Submit button the form does not have: it types,
    then escalates at its last step (a result, not an error, for Replay)."""
    program = form_program()
    last = program.steps[-1]
    target = dataclasses.replace(last.target, path=last.target.path.replace("Submit", "Send"),
                                 name="Send")
    steps = program.steps[:-1] + (dataclasses.replace(last, target=target),)
    return dataclasses.replace(program, name="send form", steps=steps, id="").with_id()


def shortcut_line(desktop, *args: str) -> str:
    printed = phantom(desktop, "shortcut", *args)
    assert printed.returncode == 0, printed.stderr
    line = printed.stdout.strip()
    assert "org.phantom.Replay1.ReplayChecked" in line and "\n" not in line
    return line


def run_line(desktop, line: str) -> subprocess.CompletedProcess:
    return desktop.run([executable("sh"), "-c", line], timeout=120)


def form_status(desktop) -> str:
    """The fixture form's Status label, read through AT-SPI by a fresh process."""
    probe = ("from testbed.scripted_user import app_named, find, text_of;"
             "print(text_of(find(app_named('phantom-form'), 'label', name='Status')))")
    return desktop.run([sys.executable, "-c", probe], timeout=30).stdout.strip()


def test_the_shortcut_line_reaches_the_installed_store_and_tells_failure(tmp_path):
    store = tmp_path / "my stores" / "work.sqlite3"
    store.parent.mkdir()
    with VirtualDesktop() as desktop:
        installed = phantom(desktop, "install", "--db", str(store))
        assert installed.returncode == 0, installed.stderr
        recorded = Path(desktop.env["XDG_CONFIG_HOME"]) / "phantom" / "store"
        assert recorded.read_text().strip() == str(store)
        capture_unit = (Path(desktop.env["XDG_CONFIG_HOME"]) / "systemd" / "user"
                        / "phantom-capture.service").read_text()
        assert f'"-{store.parent}"' in capture_unit   # the sandbox lets the units write there
        save_program(store, form_program(), created_ms=1_795_990_000_000)
        save_program(store, escalating_program(), created_ms=1_795_990_000_001)

        good = shortcut_line(desktop, "fill form", "--param", "P0=Grace Hopper")
        bad = shortcut_line(desktop, "send form", "--param", "P0=Alan Turing")
        form = desktop.launch_fixture("form", "--geometry", "320x230+20+20")
        try:
            done = run_line(desktop, good)
            assert done.returncode == 0, done.stderr
            assert done.stdout.startswith("('success',")
            assert form_status(desktop) == f"Submitted: Grace Hopper <{EMAIL}>"
            escalated = run_line(desktop, bad)
            assert escalated.returncode != 0
            assert "org.phantom.Error.Escalated" in escalated.stderr, escalated.stderr
            assert "send form escalated at step 3" in escalated.stderr
            assert "phantom runs --last" in escalated.stderr
        finally:
            desktop.close_app(form)

        # A store chosen after the service started is the one its next call reaches.
        other = tmp_path / "other.sqlite3"
        save_program(other, dataclasses.replace(form_program(), name="other form", id="").with_id(),
                     created_ms=1_795_990_000_002)
        assert phantom(desktop, "install", "--db", str(other)).returncode == 0
        listed = desktop.run([executable("gdbus"), "call", "--session", "--dest", "org.phantom.Replay1",
                              "--object-path", "/org/phantom/Replay1", "--method",
                              "org.phantom.Replay1.ListPrograms"], timeout=60)
        assert listed.returncode == 0, listed.stderr
        assert "'other form'" in listed.stdout and "'fill form'" not in listed.stdout
