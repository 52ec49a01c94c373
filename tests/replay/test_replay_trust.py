"""Replay on a desktop with a window manager, used as people use one: another
application in front when the replay starts, windows switched by clicking
into them, a look-alike window of the same application, two replays at
once, a shortcut that names nothing. Input must reach only the program's
window; a refusal sends nothing; success is reported only when the end state
was reached.
"""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from support.apps import center, find, text_of
from support.cli import phantom
from support.daemon import CaptureProcess, settle

pytestmark = pytest.mark.desktop

EMAIL = "team@example.org"
FORM_GEOMETRY = ("--geometry", "320x230+40+40")


@pytest.fixture(scope="module")
def user(managed_desktop):
    from replay.xinput import XTestInput

    scripted = XTestInput(managed_desktop.display)
    yield scripted
    scripted.close()


def app_by_pid(pid: int, timeout: float = 10.0):
    """The AT-SPI application of one process (several fixture forms may run)."""
    from replay import live
    from testbed.waiting import wait_until

    return wait_until(lambda: live.application_of(pid), timeout=timeout, what=f"AT-SPI app of pid {pid}")


def form_fields(app) -> tuple[str, str, str]:
    return (text_of(find(app, "text", label="Name:")), text_of(find(app, "text", label="Email:")),
            text_of(find(app, "label", name="Status")))


def click_into(user, app, role: str, **which) -> None:
    """Click a control as a person does (focusing its window by the click)."""
    user.click(*center(find(app, role, **which)))
    time.sleep(0.3)


def fill_with_keys(user, app, name: str, email: str) -> None:
    """Click into each field, select what is there, type; then Submit — a
    demonstration with key steps (ctrl+a) that replay sends through XTest."""
    for label, value in (("Name:", name), ("Email:", email)):
        click_into(user, app, "text", label=label)
        user.key("ctrl+a")
        user.type(value)
    click_into(user, app, "push button", name="Submit")
    time.sleep(0.6)


def launch_form(desktop, *args: str):
    app = desktop.launch_fixture("form", *FORM_GEOMETRY, *args)
    return app, app_by_pid(app.pid)


@pytest.fixture(scope="module")
def form_store(managed_desktop, user, tmp_path_factory):
    """Two demonstrations on a form titled "Form", recorded by the real
    daemon while gtk3-widget-factory is also open; each begins by clicking
    into the form (the factory had the keyboard)."""
    desktop = managed_desktop
    db = tmp_path_factory.mktemp("trust-form") / "store.sqlite3"
    factory = desktop.launch(["gtk3-widget-factory"], name="gtk3-widget-factory")
    desktop.wait_for_window("gtk3-widget-factory", timeout=30)
    process, form = launch_form(desktop, "--title", "Form")
    settle(1.5)
    try:
        with CaptureProcess(desktop, db) as capture:
            for name in ("Ada Lovelace", "Alan Turing"):
                assert phantom(desktop, "record", "start", "sign up").returncode == 0
                fill_with_keys(user, form, name, EMAIL)
                assert phantom(desktop, "record", "stop").returncode == 0
                click_into(user, form, "push button", name="Clear")
            assert capture.stop() == 0
    finally:
        desktop.close_app(process)
        desktop.close_app(factory)
    return db


def compile_program(desktop, db, name: str, *args: str) -> dict:
    compiled = phantom(desktop, "compile-program", name, "--db", str(db), "--format", "json", *args)
    assert compiled.returncode == 0, compiled.stderr
    return json.loads(compiled.stdout)["program"]


def replay(desktop, db, name: str, *args: str):
    result = phantom(desktop, "replay", name, "--db", str(db), "--format", "json", *args)
    parsed = json.loads(result.stdout) if result.stdout.strip() else None
    return result.returncode, parsed, result.stderr


@pytest.fixture
def form_db(form_store, tmp_path):
    import shutil

    copy = tmp_path / "store.sqlite3"
    shutil.copy(form_store, copy)
    return copy


def test_keys_reach_only_the_program_window_when_another_app_is_in_front(managed_desktop, user,
                                                                         form_db):
    desktop = managed_desktop
    program = compile_program(desktop, form_db, "sign up")
    assert program["guard"]["title_tokens"] == ["Form"]
    assert [s["key"] for s in program["steps"] if s["action"] == "key"] == ["ctrl+a", "ctrl+a"]
    process, form = launch_form(desktop, "--title", "Form")
    factory = desktop.launch(["gtk3-widget-factory"], name="gtk3-widget-factory")
    try:
        desktop.wait_for_window("gtk3-widget-factory", timeout=30)
        settle(1.5)
        gallery = app_by_pid(factory.pid)
        entry = find(gallery, "text")
        click_into(user, gallery, "text")          # the factory is in front, its entry has the keyboard
        user.key("ctrl+a")
        user.type("mine")
        code, result, stderr = replay(desktop, form_db, "sign up", "--param", "P0=Grace Hopper")
        assert code == 0, (result, stderr)
        assert result["status"] == "success" and result["verification"] == "end_state"
        assert form_fields(form) == ("Grace Hopper", EMAIL, f"Submitted: Grace Hopper <{EMAIL}>")
        assert text_of(entry) == "mine"             # not one key reached the other app
    finally:
        desktop.close_app(factory)
        desktop.close_app(process)


def test_a_look_alike_window_receives_nothing(managed_desktop, form_db):
    """Recorded on "Form" with Submit; replayed into the same app showing
    "Invoice" with Delete: the title guard refuses, and with the title guard
    relaxed the whole-plan pre-flight sees Submit → Delete before any input."""
    desktop = managed_desktop
    process, invoice = launch_form(desktop, "--title", "Invoice", "--submit-label", "Delete")
    try:
        settle(1.0)
        compile_program(desktop, form_db, "sign up")
        code, result, _ = replay(desktop, form_db, "sign up", "--param", "P0=Mallory")
        assert (code, result["status"], result["code"]) == (4, "refused", "guard_mismatch")
        assert "Form" in result["escalation"]["reason"] and result["sent_input"] is False
        compile_program(desktop, form_db, "sign up", "--relax-title")
        code, result, _ = replay(desktop, form_db, "sign up", "--param", "P0=Mallory")
        assert code == 3 and result["status"] == "escalated" and result["sent_input"] is False
        assert "Delete" in result["escalation"]["reason"]
        assert form_fields(invoice) == ("", "", "Ready")
    finally:
        desktop.close_app(process)


def test_two_forms_that_fit_are_ambiguous_unless_one_is_named(managed_desktop, form_db):
    desktop = managed_desktop
    compile_program(desktop, form_db, "sign up")
    first, first_app = launch_form(desktop, "--title", "Form A")
    second, second_app = launch_form(desktop, "--title", "Form B")
    try:
        settle(1.0)
        code, result, _ = replay(desktop, form_db, "sign up", "--param", "P0=Nobody")
        assert (code, result["code"]) == (4, "ambiguous_window")
        assert "Form A" in result["escalation"]["reason"] and "Form B" in result["escalation"]["reason"]
        assert form_fields(first_app)[0] == form_fields(second_app)[0] == ""
        code, result, _ = replay(desktop, form_db, "sign up", "--param", "P0=Barbara Liskov",
                                 "--window", "Form B")
        assert code == 0, result
        assert form_fields(second_app)[0] == "Barbara Liskov" and form_fields(first_app)[0] == ""
    finally:
        desktop.close_app(first)
        desktop.close_app(second)


def test_a_shortcut_that_cannot_work_fails_when_it_is_made(managed_desktop, form_db):
    desktop = managed_desktop
    missing = phantom(desktop, "shortcut", "nope", "--db", str(form_db))
    assert missing.returncode == 1 and "no program named" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1 and not missing.stdout
    wrong = phantom(desktop, "shortcut", "sign up", "--db", str(form_db), "--param", "P7=x")
    assert wrong.returncode == 2 and "P7" in wrong.stderr and not wrong.stdout
    compile_program(desktop, form_db, "sign up")
    line = phantom(desktop, "shortcut", "sign up", "--db", str(form_db), "--param", "P0=Ada")
    assert line.returncode == 0 and line.stdout.startswith("gdbus call --session")


def test_a_replay_while_a_demonstration_is_recorded_is_refused(managed_desktop, form_db, tmp_path):
    desktop = managed_desktop
    compile_program(desktop, form_db, "sign up")
    process, form = launch_form(desktop, "--title", "Form")
    try:
        with CaptureProcess(desktop, tmp_path / "live.sqlite3"):
            assert phantom(desktop, "record", "start", "something else").returncode == 0
            code, result, stderr = replay(desktop, form_db, "sign up", "--param", "P0=Nobody")
            assert code == 5 and "being recorded" in stderr and result is None
            assert phantom(desktop, "record", "stop").returncode == 0
        assert form_fields(form) == ("", "", "Ready")
    finally:
        desktop.close_app(process)
