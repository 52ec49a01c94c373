"""Demonstrations recorded by the real daemon on real GTK apps, compiled into
programs and replayed on the live desktop — and refused or escalated, with a
reason and no input sent, when the screen no longer matches."""

from __future__ import annotations

import json

import pytest

from support.apps import app_named, center, find, focus, form_state, text_of, type_into_form
from support.cli import phantom
from support.daemon import CaptureProcess, settle
from testbed.executables import executable

pytestmark = pytest.mark.desktop

EMAIL = "team@example.org"


def record_form_fill(desktop, user, name: str) -> None:
    assert phantom(desktop, "record", "start", "fill form").returncode == 0
    focus(desktop, "phantom-form")
    type_into_form(user, name, EMAIL)
    stopped = phantom(desktop, "record", "stop")
    assert stopped.returncode == 0, stopped.stderr
    user.click(*center(find(app_named("phantom-form"), "push button", name="Clear")))  # outside the recording
    settle(0.5)


@pytest.fixture(scope="module")
def recorded_form(desktop, tmp_path_factory):
    """Two demonstrations of the form, recorded once for this module by the
    real daemon and compiled into a program."""
    from replay.xinput import XTestInput

    user = XTestInput(desktop.display)
    app = desktop.launch_fixture("form", "--geometry", "320x230+20+20")
    db = tmp_path_factory.mktemp("recorded-form") / "store.sqlite3"
    try:
        with CaptureProcess(desktop, db) as capture:
            record_form_fill(desktop, user, "Ada Lovelace")
            record_form_fill(desktop, user, "Alan Turing")
            assert capture.stop() == 0
    finally:
        desktop.close_app(app)
        user.close()
    compiled = phantom(desktop, "compile-program", "fill form", "--db", str(db), "--format", "json")
    assert compiled.returncode == 0, compiled.stderr
    return db, json.loads(compiled.stdout)


@pytest.fixture
def form_program(recorded_form, tmp_path):
    """A private copy of the recorded store (replays add telemetry to it)."""
    import shutil

    db, report = recorded_form
    copy = tmp_path / "store.sqlite3"
    shutil.copy(db, copy)
    return copy, report


def replay(desktop, db, *args):
    result = phantom(desktop, "replay", "fill form", "--db", str(db), "--format", "json", *args)
    return result.returncode, (json.loads(result.stdout) if result.stdout.strip() else None), result.stderr


def test_two_demonstrations_compile_to_one_parameter_and_replay_with_a_new_value(desktop, apps, form_program):
    db, report = form_program
    program = report["program"]
    assert [p["name"] for p in program["parameters"]] == ["P0"]
    assert program["parameters"][0]["samples"] == ["Ada Lovelace", "Alan Turing"]
    typed = [s for s in program["steps"] if s["action"] == "type"]
    assert [s["text"] for s in typed] == ["$P0", EMAIL]
    apps("form", "--geometry", "320x230+20+20")
    code, result, _ = replay(desktop, db, "--param", "P0=Grace Hopper")
    assert code == 0, result
    assert result["status"] == "success" and result["vlm_calls"] == 0
    assert {s["policy"] for s in result["steps"]} == {"direct"}
    assert form_state() == ("Grace Hopper", EMAIL, f"Submitted: Grace Hopper <{EMAIL}>")
    runs = json.loads(phantom(desktop, "runs", "--last", "--db", str(db), "--format", "json").stdout)
    assert runs[0]["status"] == "success" and runs[0]["steps"]
    assert all(step["vlm_calls"] == 0 for step in runs[0]["steps"])


def test_label_drift_replays_through_the_embedding_match(desktop, apps, form_program):
    db, _ = form_program
    apps("form", "--geometry", "320x230+20+20", "--submit-label", "Submit v2")
    code, result, _ = replay(desktop, db, "--param", "P0=Barbara Liskov")
    assert code == 0, result
    submit = result["steps"][-1]
    assert submit["policy"] == "embed_match_then_act" and submit["score"] >= 0.85
    assert form_state()[2] == f"Submitted: Barbara Liskov <{EMAIL}>"


def test_layout_drift_replays_directly_at_re_derived_coordinates(desktop, apps, form_program):
    db, _ = form_program
    apps("form", "--geometry", "384x276+300+200")  # moved, and 20 % larger
    code, result, _ = replay(desktop, db, "--param", "P0=Donald Knuth")
    assert code == 0, result
    assert {s["policy"] for s in result["steps"]} == {"direct"}
    assert form_state()[2] == f"Submitted: Donald Knuth <{EMAIL}>"


@pytest.mark.parametrize("drift, status, code, reason", [
    (("--no-submit",), "escalated", 3, "not found by path"),
    (("--duplicate-submit",), "refused", 4, "ambiguous"),
])
def test_removed_and_ambiguous_targets_stop_before_any_input(desktop, apps, form_program, drift,
                                                             status, code, reason):
    db, _ = form_program
    apps("form", "--geometry", "320x230+20+20", *drift)
    exit_code, result, _ = replay(desktop, db, "--param", "P0=Nobody")
    assert (exit_code, result["status"]) == (code, status)
    assert reason in result["escalation"]["reason"] and result["escalation"]["step"] == len(result["steps"]) - 1
    assert result["sent_input"] is False
    assert form_state() == ("", "", "Ready")  # nothing typed, nothing pressed


def test_wrong_application_and_bad_parameters_send_nothing(desktop, apps, form_program):
    db, _ = form_program
    apps("notes")  # the form is not running
    code, result, _ = replay(desktop, db, "--param", "P0=Nobody")
    assert code == 4 and result["status"] == "refused" and "not running" in result["escalation"]["reason"]
    apps("form", "--geometry", "320x230+20+20")
    for args, fragment in ((("--param", "P9=x"), "has no parameter 'P9'"),
                           ((), "missing P0"),
                           (("--param", "P0"), "expected NAME=VALUE")):
        result = phantom(desktop, "replay", "fill form", "--db", str(db), *args)
        assert result.returncode == 2 and fragment in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert form_state() == ("", "", "Ready")


def test_unknown_and_corrupt_programs_are_clear_errors(desktop, form_program):
    db, report = form_program
    unknown = phantom(desktop, "replay", "no such program", "--db", str(db))
    assert unknown.returncode == 1 and "no such program" in unknown.stderr.lower()
    import apsw

    connection = apsw.Connection(str(db))
    connection.execute("UPDATE programs SET body = '{\"format\": 1, \"steps\": 7}'")
    connection.close()
    corrupt = phantom(desktop, "replay", "fill form", "--db", str(db), "--param", "P0=x")
    assert corrupt.returncode == 1 and report["id"] in corrupt.stderr
    assert "Traceback" not in corrupt.stderr


WIDGET_ENTRY = "text"


def test_the_same_on_a_debian_gtk_application(desktop, apps, user, tmp_path):
    """gtk3-widget-factory (Debian's gtk-3-examples): type into its first entry
    and toggle its first check box, twice with different text; replay with new
    text; the entry and the check box prove it through AT-SPI."""
    process = desktop.launch([executable("gtk3-widget-factory")], name="gtk3-widget-factory")
    try:
        desktop.wait_for_window("gtk3-widget-factory", timeout=30, pid=process.pid)
        _replay_into_the_factory(desktop, user, tmp_path)
    finally:
        desktop.close_app(process)     # left open, it took the place of the next module's factory


def _replay_into_the_factory(desktop, user, tmp_path) -> None:
    settle(2.0)
    factory = app_named("gtk3-widget-factory")
    db = tmp_path / "store.sqlite3"

    def entry():
        return find(factory, WIDGET_ENTRY)

    def check_box():
        """The first enabled one: the factory shows disabled check boxes first."""
        from replay import live

        boxes = live.candidates(live.TreeView(live.main_window(factory)), "check box")
        return next(b.accessible for b in boxes
                    if b.name == "checkbutton" and "sensitive" in b.states())

    def checked() -> bool:
        import pyatspi

        return check_box().getState().contains(pyatspi.STATE_CHECKED)

    with CaptureProcess(desktop, db) as capture:
        for value in ("alpha one", "beta two"):
            assert phantom(desktop, "record", "start", "factory entry").returncode == 0
            focus(desktop, "gtk3-widget-factory")
            user.click(*center(entry()))
            settle()
            user.key("ctrl+a")
            user.type(value)
            user.click(*center(check_box()))
            settle(0.6)
            assert phantom(desktop, "record", "stop").returncode == 0
        assert capture.stop() == 0
    compiled = phantom(desktop, "compile-program", "factory entry", "--db", str(db), "--format", "json")
    assert compiled.returncode == 0, compiled.stderr
    program = json.loads(compiled.stdout)["program"]
    assert [p["samples"] for p in program["parameters"]] == [["alpha one", "beta two"]]
    before = checked()
    result = phantom(desktop, "replay", "factory entry", "--db", str(db), "--format", "json",
                     "--param", "P0=gamma three")
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["status"] == "success"
    assert text_of(entry()) == "gamma three"
    assert checked() != before, result.stdout
