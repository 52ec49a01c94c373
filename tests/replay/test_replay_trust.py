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

from support.apps import app_by_pid, center, desktop_center, find, text_of
from support.cli import phantom
from support.daemon import CaptureProcess, settle, wait_for_rows
from support.notifications import NotificationServer
from testbed.executables import executable

pytestmark = pytest.mark.desktop

EMAIL = "team@example.org"
FORM_GEOMETRY = ("--geometry", "320x230+40+40")


@pytest.fixture(scope="module")
def user(managed_desktop):
    from replay.xinput import XTestInput

    scripted = XTestInput(managed_desktop.display)
    yield scripted
    scripted.close()


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


def launch_factory(desktop):
    """gtk3-widget-factory beside the form (it opens larger than the screen
    would leave the form visible; a click must land where a person sees)."""
    process = desktop.launch([executable("gtk3-widget-factory")], name="gtk3-widget-factory")
    window = desktop.wait_for_window("gtk3-widget-factory", timeout=30, pid=process.pid)
    desktop.place_window(window, 420, 40, 800, 700)
    return process


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
    factory = launch_factory(desktop)
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
    factory = launch_factory(desktop)
    try:
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
        submit = len(result["steps"]) - 1      # the last step, seen before the first
        assert result["escalation"]["step"] == submit and "'Submit' not found" in result["escalation"]["reason"]
        assert "Delete" in {c["label"] for c in result["escalation"]["candidates"]}
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
    compile_program(desktop, form_db, "sign up")
    wrong = phantom(desktop, "shortcut", "sign up", "--db", str(form_db), "--param", "P7=x")
    assert wrong.returncode == 2 and "P7" in wrong.stderr and not wrong.stdout
    unset = phantom(desktop, "shortcut", "sign up", "--db", str(form_db))
    assert unset.returncode == 2 and "missing P0" in unset.stderr and not unset.stdout
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


# -- mousepad: a real editor ---------------------------------------------------------------

def mousepad_text(app) -> str:
    return text_of(find(app, "text"))


@pytest.fixture
def mousepad(managed_desktop, tmp_path):
    """Mousepad editing a two-line document, with its window in front."""
    desktop = managed_desktop
    document = tmp_path / "notes.txt"
    document.write_text("line one\nline two\n")
    process = desktop.launch([executable("mousepad"), str(document)], name="mousepad")
    desktop.wait_for_window("mousepad", timeout=30)
    settle(1.5)
    app = app_by_pid(process.pid)
    yield desktop, app, document
    desktop.close_app(process)


def record(desktop, name: str, actions) -> None:
    assert phantom(desktop, "record", "start", name).returncode == 0
    actions()
    settle(0.8)
    assert phantom(desktop, "record", "stop").returncode == 0


def test_typing_inserts_at_the_caret_and_keeps_the_document(mousepad, user, tmp_path):
    """Adding an item at the end of the document, twice ("item 1", "item 2":
    closer than δ, so the field is made a parameter by hand), replayed with a
    new value: the item is added, nothing the document held is lost."""
    desktop, app, document = mousepad
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                      what="the daemon's first snapshot")
        for item in ("item 1", "item 2"):
            def add(item=item):
                click_into(user, app, "text")
                user.key("ctrl+End")
                user.type(item)
                user.key("Return")
            record(desktop, "add item", add)
        assert capture.stop() == 0
    program = compile_program(desktop, db, "add item")
    typing = next(s for s in program["steps"] if s["action"] == "type")
    assert typing["text"] == "item 1" and typing["entry"] == "insert"     # a literal by δ
    program = compile_program(desktop, db, "add item", "--param", str(typing["index"]))
    assert [p["samples"] for p in program["parameters"]] == [["item 1", "item 2"]]
    before = mousepad_text(app)
    assert before == "line one\nline two\nitem 1\nitem 2\n"
    code, result, stderr = replay(desktop, db, "add item", "--param", "P0=item 9")
    assert code == 0, (result, stderr)
    assert mousepad_text(app) == before + "item 9\n"


@pytest.fixture
def saved_twice(mousepad, user, tmp_path):
    """Two demonstrations of "save note": Save As (ctrl+shift+s), a file name
    one letter apart each time (closer than δ), Return."""
    desktop, app, document = mousepad
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                      what="the daemon's first snapshot")
        for name in ("note-a.txt", "note-b.txt"):
            def save(name=name):
                click_into(user, app, "text")
                user.key("ctrl+shift+s")
                settle(1.5)
                user.key("ctrl+a")
                user.type(str(tmp_path / name))
                user.key("Return")
            record(desktop, "save note", save)
        assert capture.stop() == 0
    assert (tmp_path / "note-a.txt").exists() and (tmp_path / "note-b.txt").exists()
    return desktop, app, db


def test_a_save_that_hits_replace_is_a_failure_not_a_success(saved_twice, tmp_path):
    desktop, app, db = saved_twice
    program = compile_program(desktop, db, "save note")
    assert program["parameters"] == []             # the names are closer than δ: a fixed literal
    code, result, stderr = replay(desktop, db, "save note")
    assert code == 1, (result, stderr)
    assert result["status"] == "failed" and result["sent_input"] is True
    assert "left open" in result["escalation"]["reason"]
    runs = json.loads(phantom(desktop, "runs", "--last", "--db", str(db), "--format", "json").stdout)
    assert runs[0]["status"] == "failed"


def test_a_save_under_a_new_name_is_verified_by_the_title(saved_twice, tmp_path):
    desktop, app, db = saved_twice
    draft = compile_program(desktop, db, "save note")
    typing = next(s for s in draft["steps"] if s["action"] == "type")
    program = compile_program(desktop, db, "save note", "--param", str(typing["index"]))
    assert program["end_state"]["title_parameters"] == ["P0"]
    target = tmp_path / "note-c.txt"
    code, result, stderr = replay(desktop, db, "save note", "--param", f"P0={target}")
    assert code == 0, (result, stderr)
    assert result["verification"] == "end_state" and target.exists()


# -- the replay service: two callers at once, and notifications -----------------------------

@pytest.fixture
def service(managed_desktop, form_db):
    """`phantom replay-service` on the desktop's session bus, serving a copy
    of the recorded store with "sign up" compiled."""
    from support.cli import PHANTOM
    from testbed.waiting import wait_until

    desktop = managed_desktop
    compile_program(desktop, form_db, "sign up")
    process = subprocess.Popen([PHANTOM, "replay-service", "--db", str(form_db), "--idle-timeout", "60"],
                               env=desktop.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_until(lambda: gdbus(desktop, "ListPrograms").returncode == 0, timeout=30,
               what="the replay service on the bus")
    yield desktop, form_db
    process.terminate()
    process.wait(10)


def gdbus(desktop, method: str, *args: str, background: bool = False):
    argv = [executable("gdbus"), "call", "--session", "--dest", "org.phantom.Replay1", "--object-path",
            "/org/phantom/Replay1", "--method", f"org.phantom.Replay1.{method}", *args]
    if background:
        return subprocess.Popen(argv, env=desktop.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
    return desktop.run(argv, timeout=90)


@pytest.mark.parametrize("first", ["dbus", "cli"])
def test_two_replays_at_once_one_runs_and_the_other_is_busy(service, first):
    desktop, db = service
    process, form = launch_form(desktop, "--title", "Form")
    try:
        settle(1.0)
        cli = ["phantom", "replay", "sign up", "--db", str(db), "--format", "json", "--param", "P0=From CLI"]
        bus = ("Replay", "'sign up'", "{'P0': 'From DBus'}")
        from support.cli import PHANTOM

        def start_cli():
            return subprocess.Popen([PHANTOM, *cli[1:]], env=desktop.env, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        if first == "dbus":
            a = gdbus(desktop, *bus, background=True)
            time.sleep(0.15)
            b = start_cli()
        else:
            b = start_cli()
            time.sleep(0.15)
            a = gdbus(desktop, *bus, background=True)
        bus_out, bus_err = a.communicate(timeout=90)
        cli_out, cli_err = b.communicate(timeout=90)
        bus_ok = a.returncode == 0 and "'success'" in bus_out
        cli_ok = b.returncode == 0
        assert bus_ok != cli_ok, (bus_out, bus_err, cli_out, cli_err)
        if bus_ok:
            assert b.returncode == 5 and "another replay is running" in cli_err
            winner = "From DBus"
        else:
            assert "org.phantom.Error.Busy" in bus_err
            winner = "From CLI"
        assert form_fields(form) == (winner, EMAIL, f"Submitted: {winner} <{EMAIL}>")
    finally:
        desktop.close_app(process)


def test_a_shortcut_replay_that_escalates_posts_a_notification(service):
    from testbed.waiting import wait_until

    desktop, _ = service
    server = NotificationServer()
    process, form = launch_form(desktop, "--title", "Form", "--no-submit")
    try:
        settle(1.0)
        answer = gdbus(desktop, "Replay", "'sign up'", "{'P0': 'Nobody'}")
        assert answer.returncode == 0 and "'escalated'" in answer.stdout, answer.stderr
        summary, body = wait_until(lambda: server.received[0] if server.received else None,
                                   timeout=10, what="a desktop notification")
        assert summary == "Phantom stopped: sign up" and "Submit" in body and "Nothing was sent" in body
        assert form_fields(form) == ("", "", "Ready")
    finally:
        desktop.close_app(process)
        server.close()


# -- GTK 4: gnome-calculator --------------------------------------------------------------

def calculator_button(app, label: str):
    return find(app, "push button", name=f"{label} {label}")   # GTK 4.8 names it "label label"


def calculator_display(app) -> str:
    return text_of(find(app, "text", name="GtkSourceView"))


def press(user, app, label: str) -> None:
    """Click a gnome-calculator button where it is on the desktop (GTK 4)."""
    user.click(*desktop_center(calculator_button(app, label), "gnome-calculator"))
    time.sleep(0.3)


def test_a_gtk4_demonstration_replays(managed_desktop, user, tmp_path):
    """Recorded by clicking gnome-calculator's buttons (GTK 4: window-relative
    extents), compiled, replayed after the display shows something else."""
    from testbed.waiting import wait_until

    desktop = managed_desktop
    process = desktop.launch([executable("gnome-calculator")], name="gnome-calculator")
    try:
        window = desktop.wait_for_window("gnome-calculator", timeout=30)
        desktop.run([executable("xdotool"), "windowmove", "--sync", str(window), "200", "100"])
        settle(1.5)
        calculator = app_by_pid(process.pid)
        db = tmp_path / "store.sqlite3"
        with CaptureProcess(desktop, db) as capture:
            wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                          what="the daemon's first snapshot")
            for _ in range(2):
                def multiply():
                    for label in ("7", "×", "6", "="):
                        press(user, calculator, label)
                record(desktop, "seven sixes", multiply)
            assert capture.stop() == 0
        program = compile_program(desktop, db, "seven sixes")
        assert [s["target"]["name"] for s in program["steps"] if s["action"] == "click"] == \
            ["7 7", "× ×", "6 6", "= ="]
        for label in ("1", "+", "1", "="):
            press(user, calculator, label)
        wait_until(lambda: calculator_display(calculator) == "2", timeout=3, what="the calculator to show 2")
        code, result, stderr = replay(desktop, db, "seven sixes")
        assert code == 0, (result, stderr)
        # gnome-calculator evaluates on a worker thread: "=" shows its
        # result up to ~0.2 s after the click was taken.
        wait_until(lambda: calculator_display(calculator) == "42", timeout=3, what="the calculator to show 42")
    finally:
        desktop.close_app(process)


# -- Qt, with its accessibility switched on --------------------------------------------------

def test_a_qt_demonstration_replays(managed_desktop, user, tmp_path):
    """A Qt 5 form (PyQt5) whose top-level is a `filler`: recorded, compiled
    with its name field made a parameter, replayed with a new value."""
    from testbed.harness import APPS_DIR

    desktop = managed_desktop
    process = desktop.launch([executable("python3"), str(APPS_DIR / "qt_form_app.py"), "--geometry",
                              "320x170+60+60"], name="phantom-qt-form")
    try:
        desktop.wait_for_window("phantom-qt-form", timeout=30)
        settle(1.5)
        form = app_by_pid(process.pid)
        db = tmp_path / "store.sqlite3"
        with CaptureProcess(desktop, db) as capture:
            wait_for_rows(db, "SELECT count(*) FROM snapshots", lambda rows: rows[0][0] > 0,
                          what="the daemon's first snapshot")
            for name in ("Ada", "Grace Hopper"):
                def fill(name=name):
                    click_into(user, form, "text", name="Name")
                    user.key("ctrl+a")
                    user.type(name)
                    click_into(user, form, "push button", name="Submit")
                record(desktop, "qt sign up", fill)
            assert capture.stop() == 0
        program = compile_program(desktop, db, "qt sign up")
        assert [p["samples"] for p in program["parameters"]] == [["Ada", "Grace Hopper"]]
        assert program["steps"][0]["target"]["path"].startswith("phantom-qt-form/filler/")
        code, result, stderr = replay(desktop, db, "qt sign up", "--param", "P0=Barbara")
        assert code == 0, (result, stderr)
        from testbed.waiting import wait_until

        wait_until(lambda: find(form, "label", name="Submitted: Barbara"), timeout=5,
                   what="the Qt form's status to say what was submitted")
    finally:
        desktop.close_app(process)
