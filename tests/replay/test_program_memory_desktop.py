"""Program memory on the virtual desktop, end to end: two demonstrations
recorded by the real daemon become a candidate that agents may not run; the
person's verified replay makes it active; two runs that sent input and failed
quarantine it (a pre-flight refusal in between does not count), and agents
are refused with those runs named; the person's verified replay brings it
back; a recompile becomes active and retires its predecessor. Then requests
in words: the CLI, MCP and D-Bus find the program by intent, run it only
when its window is there and every parameter is given, and refuse — with
nothing sent — an empty intent, an intent matching nothing, a missing
window or a missing parameter."""

from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest

from support.apps import app_named, center, find, focus, form_state, type_into_form
from support.cli import PHANTOM, phantom
from support.daemon import CaptureProcess, settle
from support.mcp import McpServer, error_text
from testbed.executables import executable

pytestmark = [pytest.mark.desktop, pytest.mark.slow]

EMAIL = "team@example.org"
GEOMETRY = ("--geometry", "320x230+20+20")
INTENT = "sign Grace up as a new member"
OPPOSITE = "cancel the sign-up of Grace as a new member"   # what the program does not do


@pytest.fixture(scope="module")
def recorded(desktop, tmp_path_factory):
    """Two demonstrations of "sign up" on the form, recorded by the real daemon."""
    from replay.xinput import XTestInput

    user = XTestInput(desktop.display)
    form = desktop.launch_fixture("form", *GEOMETRY)
    db = tmp_path_factory.mktemp("program-memory") / "store.sqlite3"
    try:
        with CaptureProcess(desktop, db) as capture:
            for name in ("Ada Lovelace", "Alan Turing"):
                assert phantom(desktop, "record", "start", "sign up").returncode == 0
                focus(desktop, "phantom-form")
                type_into_form(user, name, EMAIL)
                assert phantom(desktop, "record", "stop").returncode == 0
                user.click(*center(find(app_named("phantom-form"), "push button", name="Clear")))
                settle(0.5)
            assert capture.stop() == 0
    finally:
        desktop.close_app(form)
        user.close()
    return db


@pytest.fixture
def db(recorded, tmp_path):
    copy = tmp_path / "store.sqlite3"
    shutil.copy(recorded, copy)
    return copy


def compile_program(desktop, db, *args: str) -> dict:
    compiled = phantom(desktop, "compile-program", "sign up", "--db", str(db), "--format", "json", *args)
    assert compiled.returncode == 0, compiled.stderr
    report = json.loads(compiled.stdout)
    return {**report["program"], "id": report["id"]}


def replay(desktop, db, *args: str):
    done = phantom(desktop, "replay", *args, "--db", str(db), "--format", "json")
    return done.returncode, (json.loads(done.stdout) if done.stdout.strip() else None), done.stderr


def standing(desktop, db) -> dict:
    listed = phantom(desktop, "programs", "--db", str(db), "--format", "json")
    assert listed.returncode == 0, listed.stderr
    return {row["id"]: row for row in json.loads(listed.stdout)}


def test_the_lifecycle_end_to_end(desktop, apps, db):
    first = compile_program(desktop, db)
    assert standing(desktop, db)[first["id"]]["state"] == "candidate"
    form = apps("form", *GEOMETRY)
    settle(1.0)
    with McpServer(db, env=dict(desktop.env)) as server:
        # A candidate: agents neither see nor run it, and nothing reaches the form.
        assert server.call("phantom_programs").structured_content == {"programs": []}
        refused = error_text(server.call("phantom_replay", {"program": "sign up",
                                                            "parameters": {"P0": "Mallory"}}))
        assert refused.startswith("not_active:") and "nothing was sent" in refused
        assert form_state() == ("", "", "Ready")

        # The person's verified run makes it active.
        code, result, stderr = replay(desktop, db, "sign up", "--param", "P0=Grace Hopper")
        assert code == 0, (result, stderr)
        assert result["state"] == "active" and result["verification"] == "end_state"
        assert result["lifecycle"] == [f"{first['id']} candidate → active: a verified run (end_state)"]
        assert [p["id"] for p in server.call("phantom_programs").structured_content["programs"]] == [
            first["id"]]
        desktop.close_app(form)

        # Two runs that sent input and failed quarantine it; one that sent nothing does not count.
        form = apps("form", *GEOMETRY, "--submit-fails")
        settle(1.0)
        code, result, _ = replay(desktop, db, "sign up", "--param", "P0=Failing Once")
        assert (code, result["status"], result["sent_input"]) == (1, "failed", True)
        assert result["state"] == "active"               # one counted failure: still active
        failed_first = result["run_id"]
        desktop.close_app(form)
        form = apps("form", *GEOMETRY, "--no-submit")
        settle(1.0)
        code, result, _ = replay(desktop, db, "sign up", "--param", "P0=Nobody")
        assert (code, result["sent_input"], result["state"]) == (3, False, "active")
        assert form_state() == ("", "", "Ready")
        desktop.close_app(form)
        form = apps("form", *GEOMETRY, "--submit-fails")
        settle(1.0)
        agent = server.call("phantom_replay", {"program": "sign up", "parameters": {"P0": "Failing Twice"}})
        assert not agent.is_error, agent
        result = agent.structured_content
        assert (result["status"], result["state"]) == ("failed", "quarantined")
        reason = f"failed 2 times in a row (runs {failed_first}, {result['run_id']})"
        assert result["lifecycle"] == [f"{first['id']} active → quarantined: {reason}"]
        desktop.close_app(form)

        # Quarantined: agents are refused with the reason; nothing reaches the form.
        form = apps("form", *GEOMETRY)
        settle(1.0)
        assert server.call("phantom_programs").structured_content == {"programs": []}
        refused = error_text(server.call("phantom_replay", {"program": "sign up",
                                                            "parameters": {"P0": "Mallory"}}))
        assert refused.startswith(f"quarantined: program {first['id']} is quarantined ({reason})")
        assert form_state() == ("", "", "Ready")
        row = standing(desktop, db)[first["id"]]
        assert (row["state"], row["successes"], row["failures"]) == ("quarantined", 1, 2)

        # The person's verified run brings it back.
        code, result, _ = replay(desktop, db, "sign up", "--param", "P0=Back Again")
        assert code == 0 and result["state"] == "active"
        assert result["lifecycle"] == [
            f"{first['id']} quarantined → active: a verified run the person started (cli)"]
        desktop.close_app(form)

        # A recompile is a candidate successor: agents keep the active one until it is verified.
        second = compile_program(desktop, db, "--relax-title")
        assert second["id"] != first["id"]
        assert standing(desktop, db)[second["id"]]["derived_from"] == first["id"]
        form = apps("form", *GEOMETRY)
        settle(1.0)
        agent = server.call("phantom_replay", {"program": "sign up", "parameters": {"P0": "Agent Run"}})
        assert agent.structured_content["program_id"] == first["id"], agent
        desktop.close_app(form)
        form = apps("form", *GEOMETRY)
        settle(1.0)
        code, result, _ = replay(desktop, db, "sign up", "--param", "P0=Person Run")
        assert code == 0 and result["program_id"] == second["id"]
        assert result["lifecycle"] == [
            f"{second['id']} candidate → active: a verified run (end_state)",
            f"{first['id']} active → deprecated: replaced by {second['id']}, its recompile"]
        rows = standing(desktop, db)
        assert (rows[first["id"]]["state"], rows[first["id"]]["replaced_by"]) == ("deprecated", second["id"])
        desktop.close_app(form)
    code, result, stderr = replay(desktop, db, first["id"], "--param", "P0=Old")
    assert code == 4 and result is None and f"is deprecated (replaced by {second['id']}" in stderr


@pytest.fixture
def described(desktop, db):
    """The program, active and described in words."""
    program = compile_program(desktop, db)
    for argv in (("promote", "sign up"), ("describe", "sign up", "register a new member on the form")):
        done = phantom(desktop, "programs", *argv, "--db", str(db))
        assert done.returncode == 0, done.stderr
    return db, program


def test_a_request_in_words_runs_only_a_compatible_program_with_every_parameter(desktop, apps, described):
    db, program = described
    code, shortlist, stderr = replay(desktop, db, "--intent", "water the office plants")
    assert code == 4 and shortlist["candidates"] == [] and "no compatible program" in stderr
    code, shortlist, stderr = replay(desktop, db, "--intent", INTENT, "--param", "P0=Grace Hopper")
    assert code == 4 and "application gate" in stderr and "phantom-form is not running" in stderr
    assert [(c["id"], c["failed_gate"]) for c in shortlist["candidates"]] == [(program["id"], "application")]
    form = apps("form", *GEOMETRY)
    settle(1.0)
    code, _, stderr = replay(desktop, db, "--intent", INTENT)
    assert code == 2 and f"the intent chose sign up ({program['id']}): missing P0" in stderr
    assert form_state() == ("", "", "Ready")
    # The opposite of what it does, its window open: the intent gate refuses, the shortlist comes back.
    code, shortlist, stderr = replay(desktop, db, "--intent", OPPOSITE, "--param", "P0=Grace Hopper")
    assert code == 4 and len(stderr.strip().splitlines()) == 1 and "intent gate" in stderr
    assert [(c["id"], c["failed_gate"]) for c in shortlist["candidates"]] == [(program["id"], "intent")]
    assert shortlist["candidates"][0]["why"].startswith("intent gate: the request asks to cancel")
    assert form_state() == ("", "", "Ready")
    code, result, stderr = replay(desktop, db, "--intent", INTENT, "--param", "P0=Grace Hopper", "--dry-run")
    assert code == 0 and result["status"] == "dry_run" and result["intent_gate"] == "its words name sign"
    assert form_state() == ("", "", "Ready")
    code, result, stderr = replay(desktop, db, "--intent", INTENT, "--param", "P0=Grace Hopper")
    assert code == 0, (result, stderr)
    assert result["intent"] == INTENT and result["compatibility"] >= 0.75
    assert result["program_id"] == program["id"]
    assert form_state() == ("Grace Hopper", EMAIL, f"Submitted: Grace Hopper <{EMAIL}>")
    desktop.close_app(form)


def test_agents_find_a_program_by_intent_with_parameter_shapes(desktop, apps, described):
    db, program = described
    apps("form", *GEOMETRY)
    settle(1.0)
    with McpServer(db, env=dict(desktop.env)) as server:
        found = server.call("phantom_find_program", {"intent": INTENT})
        assert not found.is_error, found
        choice = found.structured_content
        assert choice["program"]["id"] == program["id"] and choice["program"]["compatibility"] >= 0.75
        assert choice["program"]["parameters"] == [{"name": "P0", "field": "Name:", "step": 1, "shape": {
            "classes": ["letters", "spaces"], "symbols": "", "length": [11, 12]}}]
        assert "Ada" not in json.dumps(choice)
        assert choice["candidates"][0]["failed_gate"] is None
        missing = error_text(server.call("phantom_replay", {"intent": INTENT}))
        assert missing.startswith("invalid_parameter: the intent chose sign up") and "missing P0" in missing
        nothing = error_text(server.call("phantom_find_program", {"intent": "water the office plants"}))
        assert nothing.startswith("no_compatible_program:")
        refused = error_text(server.call("phantom_replay", {"intent": OPPOSITE,
                                                            "parameters": {"P0": "Edsger Dijkstra"}}))
        assert refused.startswith("no_compatible_program:") and "nothing was sent" in refused
        (candidate,) = json.loads(refused.split(" shortlist: ", 1)[1])
        assert (candidate["id"], candidate["failed_gate"], candidate["app"]) == (
            program["id"], "intent", "phantom-form")
        assert form_state() == ("", "", "Ready")
        ran = server.call("phantom_replay", {"intent": INTENT, "parameters": {"P0": "Edsger Dijkstra"}})
        assert not ran.is_error and ran.structured_content["status"] == "success", ran
    assert form_state()[2] == f"Submitted: Edsger Dijkstra <{EMAIL}>"


def gdbus(desktop, method: str, *args: str):
    return desktop.run([executable("gdbus"), "call", "--session", "--dest", "org.phantom.Replay1", "--object-path",
                        "/org/phantom/Replay1", "--method", f"org.phantom.Replay1.{method}", *args],
                       timeout=120)


def test_a_shortcut_asks_in_words_over_dbus(desktop, apps, described):
    db, program = described
    service = subprocess.Popen([PHANTOM, "replay-service", "--db", str(db), "--idle-timeout", "60"],
                               env=desktop.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        from testbed.waiting import wait_until

        wait_until(lambda: gdbus(desktop, "ListPrograms").returncode == 0, timeout=30,
                   what="the replay service on the bus")
        empty = gdbus(desktop, "ReplayIntent", "''", "@a{ss} {}")
        assert empty.returncode != 0 and "org.phantom.Error.InvalidIntent" in empty.stderr
        wrong = gdbus(desktop, "FindProgram", "'sign up'", "'a second argument'")
        assert wrong.returncode != 0 and "org.phantom.Error.InvalidArguments" in wrong.stderr
        nothing = gdbus(desktop, "FindProgram", "'42'")
        assert nothing.returncode != 0 and "org.phantom.Error.NoCompatibleProgram" in nothing.stderr
        closed = gdbus(desktop, "FindProgram", f"'{INTENT}'")
        assert closed.returncode != 0 and "org.phantom.Error.NoCompatibleProgram" in closed.stderr
        assert "application gate" in closed.stderr
        apps("form", *GEOMETRY)
        settle(1.0)
        refused = gdbus(desktop, "ReplayIntent", f"'{OPPOSITE}'", "{'P0': 'Barbara Liskov'}")
        assert refused.returncode != 0 and "org.phantom.Error.NoCompatibleProgram" in refused.stderr
        assert " shortlist: " in refused.stderr and program["id"] in refused.stderr
        assert "intent gate" in refused.stderr and form_state()[2] == "Ready"
        found = gdbus(desktop, "FindProgram", f"'{INTENT}'")
        assert found.returncode == 0, found.stderr
        assert program["id"] in found.stdout and '\\"shape\\"' in found.stdout
        ran = gdbus(desktop, "ReplayIntent", f"'{INTENT}'", "{'P0': 'Barbara Liskov'}")
        assert ran.returncode == 0 and "'success'" in ran.stdout, ran.stderr
        assert form_state()[2] == f"Submitted: Barbara Liskov <{EMAIL}>"
    finally:
        service.terminate()
        service.wait(10)
    time.sleep(0.2)
