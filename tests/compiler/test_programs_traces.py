"""Traces from recordings and from mined routines."""

from __future__ import annotations

from test_programs_fixtures import (
    APP,
    CROP_NAME,
    EMAIL,
    HELP,
    NAME,
    PASSWORD,
    SUBMIT,
    CaptureBuilder,
    fill_form,
    form_capture,
)

from compiler.programs.build import compile_program
from compiler.programs.traces import Recording, merge_type_bursts, recording_traces, routine_traces
from compiler.routines.actions import derive_actions, sessions
from compiler.routines.mining import mine


def kinds(trace):
    return [(a.step.kind, a.step.label or a.step.target, a.text) for a in trace.actions]


def test_recording_keeps_its_own_inputs_and_switches_inside_it():
    builder = CaptureBuilder().snapshot(500)
    builder.click(800, HELP, recording=None)                      # before: not in the recording
    recording = fill_form(builder, 1000, 7, "Ada", "ada@example.org")
    builder.click(1500, HELP, recording=None)                     # not the recording's
    builder.snapshot(2500, "Notes", title="notes").snapshot(2600)  # a detour, inside
    builder.snapshot(9000, "Terminal", title="term")              # after it ended
    (trace,) = recording_traces(builder.build(), (recording,))
    assert trace.origin == "recording:7"
    assert kinds(trace) == [("click", "Name", None), ("type", "Name", "Ada"), ("switch", "Notes", None),
                            ("switch", APP, None), ("click", "Email", None),
                            ("type", "Email", "ada@example.org"), ("click", "Submit", None)]


def test_app_comes_from_the_snapshot_before_the_recording():
    capture, recordings = form_capture([("Ada", "a@x")])
    (trace,) = recording_traces(capture, recordings)
    assert {a.step.app for a in trace.actions} == {APP}
    assert all(a.step.kind != "switch" for a in trace.actions)   # focus did not move


def test_the_start_window_is_the_one_that_received_the_first_click():
    """A click into an unfocused window lands before focus moves: the trace
    starts in the window the click's own snapshot names, not the one left."""
    builder = CaptureBuilder().snapshot(500, "Terminal", title="term")
    builder.snapshot(1100, title="Sign up — Form", focused=False, trigger="input")   # the receiver
    recording = fill_form(builder, 1000, 7, "Ada", "ada@example.org")
    builder.snapshot(1200, title="Sign up — Form")                      # focus arrives after the click
    receiver = builder.snapshots[1].id
    builder.inputs[0] = builder.inputs[0]._replace(snapshot_id=receiver)
    (trace,) = recording_traces(builder.build(), (recording,))
    assert trace.start is not None and (trace.start.app, trace.start.title) == (APP, "Sign up — Form")


def test_clicks_carry_position_crop_and_element():
    capture, recordings = form_capture([("Ada", "a@x")])
    first = recording_traces(capture, recordings)[0].actions[0]
    assert (first.x, first.y, first.crop, first.element) == (100, 200, CROP_NAME, NAME)
    typed = recording_traces(capture, recordings)[0].actions[1]
    assert (typed.x, typed.crop, typed.element) == (None, None, NAME)


def test_split_bursts_into_one_field_merge():
    builder = CaptureBuilder().snapshot(500)
    builder.click(1000, NAME, recording=1)
    builder.type(1100, NAME, "Ada ", recording=1)
    builder.type(4000, NAME, "Love", recording=1)                 # after a pause
    builder.type(7000, NAME, "lace", recording=1)
    builder.type(8000, EMAIL, "a@x", recording=1)                 # another field: not merged
    builder.click(9000, SUBMIT, recording=1)
    (trace,) = recording_traces(builder.build(), (Recording(1, "r", 900, 9500),))
    assert kinds(trace) == [("click", "Name", None), ("type", "Name", "Ada Lovelace"),
                            ("type", "Email", "a@x"), ("click", "Submit", None)]
    merged = trace.actions[1].action
    assert len(merged.evidence) == 3 and merged.ts_ms == 1100 and merged.end_ms == 7500


def test_merge_with_an_unknown_part_is_unknown():
    builder = CaptureBuilder().snapshot(500)
    builder.type(1100, NAME, "Ada", recording=1).type(4000, NAME, None, recording=1)
    (trace,) = recording_traces(builder.build(), (Recording(1, "r", 900, 9500),))
    assert kinds(trace) == [("type", "Name", None)]
    assert merge_type_bursts(trace.actions) == trace.actions


def test_password_field_becomes_a_parameter_never_an_empty_literal():
    builder = CaptureBuilder().snapshot(500)
    recordings = []
    for n in range(2):
        start = 1000 + n * 20_000
        builder.click(start + 100, PASSWORD, recording=n + 1)
        builder.type(start + 200, PASSWORD, None, recording=n + 1, count=9)   # never stored
        builder.click(start + 3000, SUBMIT, recording=n + 1)
        recordings.append(Recording(n + 1, "login", start, start + 5000))
    report = compile_program("login", recording_traces(builder.build(), recordings),
                             source="demonstration")
    step = report.program.steps[1]
    assert step.action == "type" and step.text == "$P0" and step.text != ""
    assert report.program.parameters[0].samples == () and report.program.parameters[0].field == "Password"


def test_stopping_the_recorder_from_a_terminal_is_trimmed():
    builder = CaptureBuilder().snapshot(500)
    fill_form(builder, 1000, 1, "Ada", "a@x")
    builder.snapshot(5500, "Terminal", title="~")
    builder.type(5600, None, "phantom record stop", recording=1)
    builder.key(5900, "Return", recording=1)
    (trace,) = recording_traces(builder.build(), (Recording(1, "r", 1000, 6000),))
    assert [a.step.kind for a in trace.actions] == ["click", "type", "click", "type", "click"]


def routine_capture():
    """Three sessions (2 minutes apart) of: switch to Form, click Name, type,
    click Submit — captured passively (no text)."""
    builder = CaptureBuilder()
    for n in range(3):
        start = 1_000_000 + n * 300_000
        builder.snapshot(start, "Terminal", title="~").snapshot(start + 1000, APP)
        builder.click(start + 2000, NAME, x=100 + n, y=200)
        builder.type(start + 2500, NAME, None, count=5)
        builder.click(start + 5000, SUBMIT, x=300, y=400)
    return builder.build()


def test_routine_traces_and_program():
    capture = routine_capture()
    routines = mine(sessions(derive_actions(capture)))
    routine = next(r for r in routines if any(s.kind == "type" for s in r.steps))
    traces = routine_traces(routine, capture)
    assert len(traces) == routine.support == 3
    assert traces[0].origin == f"routine:r-{routine.id}#1" and traces[2].origin.endswith("#3")
    report = compile_program("routine", traces, source="routine")
    program = report.program
    typed = [s for s in program.steps if s.action == "type"]
    assert typed and all(s.parameter for s in typed)
    assert all(p.samples == () and p.mean_distance is None for p in program.parameters)
    assert program.source == "routine" and program.traces == 3
    clicks = [s for s in program.steps if s.action == "click"]
    assert clicks[0].target.x == 100 and clicks[0].target.path == NAME.path


def test_routine_traces_without_the_capture_have_no_positions():
    capture = routine_capture()
    routine = mine(sessions(derive_actions(capture)))[0]
    for trace in routine_traces(routine):
        assert all(a.x is None and a.element is None for a in trace.actions)
