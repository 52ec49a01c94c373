"""compile_program: steps, targets, parameters, conditions, guard, ids."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pytest
from rapidfuzz.distance import Levenshtein
from test_programs_fixtures import (
    APP,
    CROP_EMAIL,
    CROP_NAME,
    CROP_SUBMIT,
    EMAIL,
    FRAME,
    NAME,
    SUBMIT,
    act,
    form_capture,
    trace,
)

from compiler.programs.build import compile_program, report_dict
from compiler.programs.errors import ProgramCompileError
from compiler.programs.records import from_json, program_id, to_json
from compiler.programs.traces import Trace, TraceAction, recording_traces
from compiler.programs.variance import DELTA, decide, mean_pairwise_distance
from compiler.records import Action, Step


def form_report(pairs, name="sign up"):
    capture, recordings = form_capture(pairs)
    return compile_program(name, recording_traces(capture, recordings), source="demonstration")


ADA = ("Ada Lovelace", "ada@example.org")
ALAN = ("Alan Turing", "ada@example.org")


# -- the sign-up form ----------------------------------------------------------------------
def test_form_fill_compiles_to_five_steps_with_one_parameter():
    report = form_report([ADA, ALAN])
    program = report.program
    assert [s.action for s in program.steps] == ["click", "type", "click", "type", "click"]
    assert [s.index for s in program.steps] == [0, 1, 2, 3, 4]
    assert [p.name for p in program.parameters] == ["P0"]
    p0 = program.parameters[0]
    assert (p0.step, p0.field, p0.samples) == (1, "Name", ("Ada Lovelace", "Alan Turing"))
    assert p0.mean_distance == pytest.approx(Levenshtein.normalized_distance("Ada Lovelace", "Alan Turing"))
    assert program.steps[1].text == "$P0" and program.steps[1].parameter == "P0"
    assert program.steps[3].text == "ada@example.org" and program.steps[3].parameter is None
    assert program.source == "demonstration" and program.traces == 2
    assert program.origin == ("recording:1", "recording:2")
    assert program.dropped_steps == report.dropped_steps == 0


def test_every_type_step_distance_is_reported():
    report = form_report([ADA, ALAN])
    assert [(d.step, d.field, d.parameterized) for d in report.distances] == [
        (1, "Name", True), (3, "Email", False)]
    assert report.distances[0].distance == pytest.approx(0.833333)
    assert report.distances[1].distance == 0.0
    steps = report.program.steps
    assert steps[1].distance == report.distances[0].distance
    assert steps[3].distance == 0.0 and steps[3].samples == ("ada@example.org", "ada@example.org")
    assert all(s.distance is None for s in steps if s.action != "type")


def test_targets_carry_path_role_label_index_and_click_evidence():
    steps = form_report([ADA, ALAN]).program.steps
    name = steps[0].target
    assert (name.app, name.path, name.role, name.name, name.label, name.index) == (
        APP, NAME.path, "text", "", "Name", None)
    assert (name.x, name.y, name.crop) == (100, 200, CROP_NAME)
    assert name.display == "Name"
    assert steps[2].target.crop == CROP_EMAIL and steps[2].target.path == EMAIL.path
    submit = steps[4].target
    assert (submit.path, submit.role, submit.name, submit.label, submit.index) == (
        SUBMIT.path, "push button", "Submit", "", 2)
    assert (submit.x, submit.y, submit.crop) == (300, 400, CROP_SUBMIT)
    typed = steps[1].target           # typing has a field, not a position
    assert typed.path == NAME.path and (typed.x, typed.y, typed.crop) == (None, None, None)


def test_conditions_per_step():
    steps = form_report([ADA, ALAN]).program.steps
    pre = [s.precondition.kind for s in steps]
    assert pre == ["aria_path_resolves"] * 5
    post = [(s.postcondition.kind, s.postcondition.expect) for s in steps]
    assert post == [("state_delta", "focus"), ("state_delta", "value"), ("state_delta", "focus"),
                    ("state_delta", "value"), ("none", "")]
    assert steps[1].postcondition.label == "Name" and steps[1].postcondition.role == "text"


def test_guard_and_app():
    program = form_report([ADA, ALAN]).program
    assert program.app == APP
    assert program.guard.app == APP and program.guard.window_role == "frame"
    assert program.guard.start_path == NAME.path


def test_id_is_stable_and_depends_on_the_name():
    first, again = form_report([ADA, ALAN]), form_report([ADA, ALAN])
    assert first.program.id == again.program.id == program_id(first.program)
    assert first.program.id.startswith("p-") and len(first.program.id) == 14
    assert to_json(first.program) == to_json(again.program)
    other = form_report([ADA, ALAN], name="sign up (copy)")
    assert other.program.id != first.program.id


def test_canonical_json_round_trip():
    program = form_report([ADA, ALAN]).program
    body = to_json(program)
    loaded = from_json(body, expected_id=program.id)
    assert loaded == program and loaded.id == program.id
    assert to_json(loaded) == body
    assert b"\n" not in body and b'"id":' not in body


def test_report_dict_is_plain_and_complete():
    report = form_report([ADA, ALAN])
    plain = report_dict(report)
    assert plain["id"] == report.program.id and plain["delta"] == DELTA
    assert [d["step"] for d in plain["distances"]] == [1, 3]
    assert plain["program"]["steps"][1]["text"] == "$P0"


def test_three_traces_no_warning_about_two():
    report = form_report([ADA, ALAN, ("Grace Hopper", "ada@example.org")])
    assert report.program.traces == 3
    assert not any("only two" in w for w in report.warnings)
    assert any("only two" in w for w in form_report([ADA, ALAN]).warnings)


# -- the δ threshold -----------------------------------------------------------------------
def test_exactly_at_threshold_stays_literal():
    values = ["abcdefghij", "xyzdefghij"]
    assert Levenshtein.normalized_distance(*values) == DELTA
    decision = decide(values, 0)
    assert not decision.parameter and decision.literal == "abcdefghij"
    assert decision.distance == DELTA


def test_just_above_threshold_is_a_parameter():
    values = ["abcdefghijklm", "wxyzefghijklm"]          # 4 / 13 ≈ 0.3077
    distance = Levenshtein.normalized_distance(*values)
    assert DELTA < distance < DELTA + 0.01
    decision = decide(values, 0)
    assert decision.parameter and decision.literal is None and decision.distance == pytest.approx(distance)


def test_threshold_is_decided_exactly_not_in_floats():
    """Pairwise distances 0.4, 0.2, 0.3: the mean is exactly 0.3, but summing
    the floats gives 0.30000000000000004 — a float comparison would make this
    field a parameter."""
    values = ["cbccaababb", "dcccbababd", "cbccbababc"]
    floats = [Levenshtein.normalized_distance(a, b) for a, b in combinations(values, 2)]
    assert sum(floats) / 3 > DELTA
    assert not decide(values, 1).parameter
    assert decide(values, 1).literal == "dcccbababd"       # the reference's value
    assert mean_pairwise_distance(values) == pytest.approx(sum(floats) / 3, abs=1e-12)


def test_mean_pairwise_distance_edges():
    assert mean_pairwise_distance(["", ""]) == 0.0
    assert mean_pairwise_distance(["same", "same", "same"]) == 0.0
    assert mean_pairwise_distance(["", "abc"]) == 1.0
    assert mean_pairwise_distance(["only one"]) == 0.0
    values = ["report-2024.pdf", "report-2025.pdf", "invoice.txt", "notes"]
    expected = sum(Levenshtein.normalized_distance(a, b) for a, b in combinations(values, 2)) / 6
    assert mean_pairwise_distance(values) == pytest.approx(expected, abs=1e-12)


def test_near_threshold_fields_are_flagged():
    traces = [Trace(f"t{n}", (act("click", "Name", ts=1), act("type", "Name", text=text, ts=2,
                                                                   role="text")))
              for n, text in enumerate(["abcdefghij", "xyzdefghij"])]
    report = compile_program("near", traces, source="demonstration")
    assert report.program.steps[1].text == "abcdefghij"
    assert any("within 0.05 of δ" in w and "a literal" in w for w in report.warnings)


def test_parameters_are_numbered_in_step_order():
    def demo(n, first, second, third):
        return Trace(f"t{n}", (act("type", "A", text=first, ts=1, role="text"),
                               act("type", "B", text=second, ts=2, role="text"),
                               act("type", "C", text=third, ts=3, role="text")))
    report = compile_program("three", [demo(0, "alpha", "same", "one thing"),
                                       demo(1, "omega", "same", "other stuff")],
                             source="demonstration")
    assert [(p.name, p.step, p.field) for p in report.program.parameters] == [
        ("P0", 0, "A"), ("P1", 2, "C")]
    assert [s.text for s in report.program.steps] == ["$P0", "same", "$P1"]


# -- unknown text --------------------------------------------------------------------------
def test_unknown_text_is_always_a_parameter():
    capture, recordings = form_capture([("Ada", None), ("Ada", None)])
    report = compile_program("pw", recording_traces(capture, recordings), source="demonstration")
    email = report.program.steps[3]
    assert email.text == "$P0" and email.samples == () and email.distance is None
    assert report.program.parameters[0].samples == () and report.program.parameters[0].mean_distance is None
    assert report.program.steps[1].text == "Ada"
    assert report.distances[1].distance is None and report.distances[1].parameterized
    assert any("was not recorded" in w for w in report.warnings)


def test_constant_looking_like_a_parameter_becomes_one():
    traces = [Trace(f"t{n}", (act("type", "Price", text="$Price 10", ts=1, role="text"),
                              act("click", "OK", ts=2))) for n in range(2)]
    report = compile_program("price", traces, source="demonstration")
    assert report.program.steps[0].text == "$P0"
    assert report.program.parameters[0].samples == ("$Price 10", "$Price 10")
    assert any("would read as a parameter" in w for w in report.warnings)


# -- other step kinds and weak targets -----------------------------------------------------
def test_keys_and_switches():
    def demo(n):
        return Trace(f"t{n}", (act("switch", "Editor", app="Editor", ts=0),
                               act("click", "Save", app="Editor", ts=1),
                               act("key", "ctrl+s", app="Editor", ts=2)))
    program = compile_program("save", [demo(0), demo(1)], source="demonstration").program
    switch, click, key = program.steps
    assert (switch.action, switch.app, switch.target) == ("switch", "Editor", None)
    assert (key.action, key.key, key.app, key.target) == ("key", "ctrl+s", "Editor", None)
    assert switch.precondition.kind == key.precondition.kind == "always_true"
    assert switch.postcondition.kind == key.postcondition.kind == "none"
    assert program.app == "Editor" and program.guard.start_path == click.target.path


def unresolved_click(ts, x=None, y=None):
    return TraceAction(Action(Step("click", APP, "", "", "", False), ts, ts, 0, (f"input_events:{ts}",)),
                       x=x, y=y)


def test_unresolved_click_is_always_true_and_flagged():
    traces = [Trace(f"t{n}", (act("click", "Open", ts=0), unresolved_click(1, 50, 60))) for n in range(2)]
    report = compile_program("blind", traces, source="demonstration")
    step = report.program.steps[1]
    assert step.precondition.kind == "always_true" and step.postcondition.kind == "none"
    assert (step.target.path, step.target.x, step.target.y) == ("", 50, 60)
    assert any(w.startswith("step 1:") and "no captured target" in w for w in report.warnings)


def test_label_only_target_uses_embedding_match():
    labelled = TraceAction(Action(Step("click", APP, "", "push button", "OK", True), 1, 1, 0, ("x:1",)))
    traces = [Trace(f"t{n}", (act("click", "Open", ts=0), labelled)) for n in range(2)]
    step = compile_program("label", traces, source="demonstration").program.steps[1]
    assert step.precondition.kind == "embedding_match" and step.precondition.label == "OK"
    assert step.target.name == "OK" and step.target.path == ""


def test_zone_click_is_flagged():
    zone = TraceAction(Action(Step("click", APP, f"{FRAME}/panel[@name='Canvas']", "panel", "", False),
                              1, 1, 0, ("x:1",)), x=5, y=6)
    traces = [Trace(f"t{n}", (act("click", "Open", ts=0), zone)) for n in range(2)]
    report = compile_program("zone", traces, source="demonstration")
    assert report.program.steps[1].precondition.kind == "aria_path_resolves"
    assert any("zone" in w and w.startswith("step 1:") for w in report.warnings)


def test_click_followed_by_typing_into_it_expects_focus():
    cell = act("click", "Amount", role="table cell", ts=1)
    typed = act("type", "Amount", role="table cell", text="12", ts=2)
    traces = [Trace(f"t{n}", (cell, typed)) for n in range(2)]
    step = compile_program("cell", traces, source="demonstration").program.steps[0]
    assert (step.postcondition.kind, step.postcondition.expect) == ("state_delta", "focus")


def test_password_field_type_has_no_value_postcondition():
    typed = TraceAction(Action(Step("type", APP, f"{FRAME}/password text[@label='Password']",
                                    "password text", "Password", True), 1, 1, 0, ("x:1",)))
    traces = [Trace(f"t{n}", (act("click", "Log in", ts=0), typed)) for n in range(2)]
    step = compile_program("login", traces, source="demonstration").program.steps[1]
    assert step.text == "$P0" and step.postcondition.kind == "none"
    assert step.precondition.kind == "aria_path_resolves"


def test_target_path_is_the_one_most_demonstrations_agree_on():
    moved = replace(act("click", "Go", ts=1), action=Action(
        Step("click", APP, f"{FRAME}/filler/push button[@name='Go']", "push button", "Go", True),
        1, 1, 0, ("x:1",)))
    usual = act("click", "Go", ts=1)
    start = act("click", "Start", ts=0)
    traces = [Trace("t0", (start, moved)), Trace("t1", (start, usual)), Trace("t2", (start, usual))]
    step = compile_program("go", traces, source="demonstration").program.steps[1]
    assert step.target.path == usual.step.target


# -- errors --------------------------------------------------------------------------------
@pytest.mark.parametrize("traces, message", [
    ([], "record at least two demonstrations"),
    ([trace("a", "A", "B")], "record at least two demonstrations"),
    ([trace("a", "A", "B"), Trace("empty", ())], "empty has no actions"),
    ([trace("a", "A", "B"), trace("b", "C", "D")], "share no steps"),
])
def test_compile_errors_are_one_line(traces, message):
    with pytest.raises(ProgramCompileError) as caught:
        compile_program("x", traces, source="demonstration")
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_bad_name_and_source():
    traces = [trace("a", "A"), trace("b", "A")]
    with pytest.raises(ProgramCompileError, match="name"):
        compile_program("  ", traces, source="demonstration")
    with pytest.raises(ProgramCompileError, match="source"):
        compile_program("x", traces, source="magic")


def test_same_id_across_processes_hash_seeds_and_zones():
    import os
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    script = ("from test_programs_compile import form_report, ADA, ALAN\n"
              "print(form_report([ADA, ALAN]).program.id)")
    ids = set()
    for seed, zone in (("1", "UTC"), ("2", "Asia/Tokyo"), ("3", "America/Lima")):
        env = dict(os.environ, PYTHONHASHSEED=seed, TZ=zone, LC_ALL="C",
                   PYTHONPATH=os.pathsep.join([str(here.parents[1]), str(here)]))
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                             check=True).stdout.strip()
        ids.add(out)
    assert ids == {form_report([ADA, ALAN]).program.id}
