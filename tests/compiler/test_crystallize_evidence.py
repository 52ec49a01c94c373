"""Crystallization counts plan and replay evidence, and lists one entry per
recurring routine (issue 25, "Noise crystallized").

Passive occurrences measure recurrence; the Gittins posterior counts dry
passes of the routine's plan against the trees recorded at its occurrences
and verified replays of programs compiled from it. A planted routine padded
with unresolved clicks or chained with editor noise is one routine with
variants, not five.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.records import Action, Step
from compiler.routines.cycles import distinct
from compiler.routines.folding import fold
from compiler.routines.gate import (
    GateInputs,
    RecordedTree,
    TreeElement,
    decide,
    gate_inputs,
    plan_evidence,
    tree_wants,
)
from compiler.routines.gate.evidence import dry_pass
from compiler.routines.measures import completion_counts, timing_cv
from compiler.routines.mining import mine

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "fixtures" / "recorded" / "desktop.sqlite3"
PHANTOM = str(Path(sys.executable).with_name("phantom"))
SESSION = 10_000_000      # sessions far apart: > 90 s idle between them


def act(step: Step, ts: int) -> Action:
    return Action(step, ts, ts, 0, (f"input_events:{ts}",))


def click(app: str, role: str, label: str) -> Step:
    return Step("click", app, f"{app}/frame/{role}[@name='{label}']", role, label, True)


def typed(app: str, role: str, label: str) -> Step:
    return Step("type", app, f"{app}/frame/{role}[@name='{label}']", role, label, True)


# The planted routine: fill the sign-up form and submit (4 steps).
ROUTINE = (click("form", "text", "Name:"), typed("form", "text", "Name:"),
           click("form", "text", "Email:"), click("form", "push button", "Submit"))
NOWHERE = Step("click", "form", "", "", "", False)          # an unresolved click
NOISE = (click("mousepad", "text", "notes"), typed("mousepad", "text", "notes"),
         Step("key", "mousepad", "ctrl+s"))
AWAY = Step("switch", "firefox", "firefox")

FORM_TREE = tuple(TreeElement(s.role, s.label, None, s.target) for s in ROUTINE[::2] + ROUTINE[3:])
NOTES_TREE = (TreeElement("text", "notes", None, "mousepad/frame/text[@name='notes']"),)


def sessions_of(*shapes: tuple[Step, ...], repeat: int = 3) -> list[list[Action]]:
    """Each shape done `repeat` times, one session each, steps 2 s apart."""
    sessions = []
    for shape in shapes:
        for _ in range(repeat):
            start = len(sessions) * SESSION
            sessions.append([act(step, start + 2000 * i) for i, step in enumerate(shape)])
    return sessions


def trees(recorded: dict[str, tuple[TreeElement, ...]], *, truncated: bool = False):
    """A tree lookup: per app, the tree recorded just before each action."""
    def tree_of(app: str, ts_ms: int) -> RecordedTree | None:
        elements = recorded.get(app)
        return None if elements is None else RecordedTree(ts_ms - 100, truncated, elements)
    return tree_of


# --------------------------------------------------------------------------- folding
def test_a_planted_routine_padded_and_chained_is_listed_once_with_its_variants():
    sessions = sessions_of(ROUTINE, (NOWHERE, *ROUTINE), (*ROUTINE, NOWHERE),
                           (NOWHERE, *ROUTINE, NOWHERE), (*NOISE, *ROUTINE, AWAY))
    mined = distinct(mine(sessions), sessions)
    holding = [r for r in mined if any(r.steps[i:i + 4] == ROUTINE for i in range(r.length))]
    # the routine, padded (before and after are one cycle, one id) and chained: the bug
    assert len(holding) == 4
    folded = fold(mined)
    entries = [f for f in folded if any(f.routine.steps[i:i + 4] == ROUTINE
                                        for i in range(f.routine.length))]
    assert len(entries) == 1
    (entry,) = entries
    assert entry.routine.steps == ROUTINE and entry.routine.support == 15
    assert sorted((v.length, v.support) for v in entry.variants) == [(5, 6), (6, 3), (8, 3)]
    # every mined routine is listed or counted as a variant, none twice
    assert sorted(r.id for f in folded for r in (f.routine, *f.variants)) == sorted(r.id for r in mined)


def test_a_continuation_in_the_same_application_is_not_a_variant():
    """Filling the form then submitting is not "filling the form" padded:
    the shorter one, done alone too, is listed beside it, and only its
    padded and chained variants fold into it."""
    part = ROUTINE[:3]
    sessions = sessions_of(ROUTINE, part, (NOWHERE, *part), (*part, AWAY))
    folded = fold(distinct(mine(sessions), sessions))
    assert sorted((f.routine.steps, sorted(v.steps for v in f.variants)) for f in folded) == sorted([
        (ROUTINE, []), (part, sorted([(NOWHERE, *part), (*part, AWAY)]))])


def test_a_routine_whose_first_click_was_once_captured_unresolved_is_still_one_entry():
    """The rest of the routine is then one occurrence more frequent than the
    whole, and listed too; most of its occurrences lie inside the whole's,
    so it is the whole's variant."""
    sessions = sessions_of(ROUTINE, repeat=5) + sessions_of((NOWHERE, *ROUTINE[1:]), repeat=1)
    mined = distinct(mine(sessions), sessions)
    assert sorted((r.length, r.support) for r in mined) == [(3, 6), (4, 5)]
    (entry,) = fold(mined)
    assert entry.routine.steps == ROUTINE and [(v.steps, v.support) for v in entry.variants] == [
        (ROUTINE[1:], 6)]


def test_a_chain_onto_a_piece_of_the_routine_folds_into_the_routine():
    """Another task after the routine three times, one of them after a round
    whose first click was captured unnamed: the chain mined holds only the
    rest of the routine, and is still the routine's variant."""
    after = (Step("switch", "factory", "factory"), click("factory", "text", "entry"),
             Step("key", "factory", "ctrl+a"), typed("factory", "text", "entry"))
    sessions = (sessions_of(ROUTINE) + sessions_of((*ROUTINE, *after), repeat=2)
                + sessions_of((NOWHERE, *ROUTINE[1:], *after), repeat=1))
    mined = distinct(mine(sessions), sessions)
    touching = [f for f in fold(mined) if any(s.app == "form" for s in f.routine.steps)]
    assert len(mined) > 1 and len(touching) == 1
    assert touching[0].routine.steps == ROUTINE


def test_routines_that_hold_no_other_stay_apart():
    other = (click("mail", "push button", "Write"), typed("mail", "entry", "To"),
             click("mail", "push button", "Send"))
    sessions = sessions_of(ROUTINE, other)
    assert [f.variants for f in fold(distinct(mine(sessions), sessions))] == [(), ()]


# --------------------------------------------------------------------------- evidence
def test_a_chain_of_noise_seen_three_times_is_not_crystallized_without_plan_evidence():
    chain = (*NOISE, NOWHERE, click("mousepad", "push button", "Close"), AWAY)
    sessions = sessions_of(chain)
    (routine,) = mine(sessions)
    assert routine.support == 3 and timing_cv(routine) == 0.0
    # what the gate used to count: every passive occurrence a success
    completed, begun = completion_counts(sessions, routine)
    passive = decide(GateInputs(routine.length, routine.support, 0.0, 0.0, completed, begun))
    assert passive.crystallize                       # the bug: 3/3 passive "successes"
    evidence = plan_evidence(routine, trees({"mousepad": NOTES_TREE}))
    assert (evidence.plan_passes, evidence.plan_trials) == (0, 3)   # the blind click cannot be aimed
    assert not decide(gate_inputs(routine, evidence)).crystallize
    # without the blind click, and with no tree recorded for the editor: no evidence at all
    sessions = sessions_of((*NOISE, click("mousepad", "push button", "Close"), AWAY))
    (routine,) = mine(sessions)
    assert decide(GateInputs(routine.length, routine.support, 0.0, 0.0,
                             *completion_counts(sessions, routine))).crystallize
    unrecorded = plan_evidence(routine, trees({"form": FORM_TREE}))
    assert (unrecorded.trials, unrecorded.unchecked) == (0, 3)
    decision = decide(gate_inputs(routine, unrecorded))
    assert not decision.crystallize and not decision.evidence
    assert "insufficient evidence" in decision.reason


def test_a_routine_whose_plan_resolves_in_its_recorded_trees_gets_successes():
    sessions = sessions_of(ROUTINE, repeat=4)
    (routine,) = mine(sessions)
    assert tree_wants([routine]) == tuple(sorted(
        ("form", a.ts_ms) for s in sessions for a in s))
    evidence = plan_evidence(routine, trees({"form": FORM_TREE}))
    assert (evidence.plan_passes, evidence.plan_trials, evidence.unchecked) == (4, 4, 0)
    decision = decide(gate_inputs(routine, evidence))
    assert (decision.successes, decision.trials) == (4, 4) and decision.crystallize

    # a target the recorded window did not hold is a failed pass ...
    missing = FORM_TREE[:-1]
    assert plan_evidence(routine, trees({"form": missing})).plan_passes == 0
    assert plan_evidence(routine, trees({"form": missing})).plan_trials == 4
    # ... unless the walk was cut short, or predates an earlier step: no evidence then
    assert plan_evidence(routine, trees({"form": missing}, truncated=True)).unchecked == 4

    def stale(app: str, ts_ms: int) -> RecordedTree:
        return RecordedTree(ts_ms - 10_000, False, missing)   # walked before the step before
    assert dry_pass(routine.steps, routine.occurrences[0].actions, stale) is None


def test_two_elements_of_one_role_and_label_resolve_by_path_or_not_at_all():
    sessions = sessions_of(ROUTINE)
    (routine,) = mine(sessions)
    twin = TreeElement("push button", "Submit", None, "form/frame/panel/push button[@name='Submit']")
    assert plan_evidence(routine, trees({"form": (*FORM_TREE, twin)})).plan_passes == 3
    moved = tuple(e._replace(path=e.path + "x") if e.label == "Submit" else e for e in FORM_TREE)
    assert plan_evidence(routine, trees({"form": (*moved, twin)})).plan_passes == 0


def test_a_verified_replay_raises_the_posterior_and_a_failed_one_lowers_it():
    sessions = sessions_of(ROUTINE)
    (routine,) = mine(sessions)
    tree_of = trees({"form": FORM_TREE})
    before = decide(gate_inputs(routine, plan_evidence(routine, tree_of)))
    verified = plan_evidence(routine, tree_of, {routine.id: ("success", "dry_run", "running")})
    assert (verified.replay_successes, verified.replay_trials) == (1, 1)
    after = decide(gate_inputs(routine, verified))
    assert after.posterior_alpha == before.posterior_alpha + 1
    assert after.gittins_index > before.gittins_index
    failed = decide(gate_inputs(routine, plan_evidence(routine, tree_of, {routine.id: ("escalated",)})))
    assert failed.posterior_beta == before.posterior_beta + 1
    assert failed.gittins_index < before.gittins_index


# --------------------------------------------------------------------------- from the store
@pytest.fixture()
def recorded_store(tmp_path):
    db = tmp_path / "desktop.sqlite3"
    shutil.copyfile(RECORDED, db)
    return db


def test_the_store_gives_plan_passes_and_a_verified_replay_counts(recorded_store):
    """The recorded desktop fixture: its routines' plans resolve in the trees
    the capture stored; a program compiled from one and replayed with
    success (written by replay's own telemetry) adds a success."""
    from compiler.api import routine_report
    from replay.telemetry import Telemetry

    report, _ = routine_report(recorded_store)
    by_id = {e.routine.id: e for e in report.entries}
    entry = by_id["161d336cf1e3"]
    assert (entry.evidence.plan_passes, entry.evidence.plan_trials) == (3, 3)
    assert (entry.decision.successes, entry.decision.trials) == (3, 3)

    compiled = subprocess.run([PHANTOM, "compile-program", "go somewhere", "--routine", "r-161d336cf1e3",
                               "--db", str(recorded_store), "--format", "json"],
                              capture_output=True, timeout=120, env=_env())
    assert compiled.returncode == 0, compiled.stderr
    import json
    program_id = json.loads(compiled.stdout)["id"]
    telemetry = Telemetry(recorded_store)
    try:
        run = telemetry.start_run(program_id, 1, 4, {}, "cli")
        telemetry.finish_run(run, 2, "success", 4, 0, "")
    finally:
        telemetry.close()

    again, _ = routine_report(recorded_store)
    after = {e.routine.id: e for e in again.entries}["161d336cf1e3"]
    assert (after.evidence.replay_successes, after.evidence.replay_trials) == (1, 1)
    assert after.decision.posterior_alpha == entry.decision.posterior_alpha + 1
    other = {e.routine.id: e for e in again.entries}["b48f920ac2d5"]
    assert other.evidence.replay_trials == 0       # another routine's replays are not its own


def test_the_reader_gives_the_walk_around_an_instant_and_none_far_from_any(recorded_store):
    from compiler.api import routine_report
    from compiler.sources import CaptureSource

    report, _ = routine_report(recorded_store)
    routine = report.entries[0].routine
    action = next(a for a in routine.occurrences[0].actions if a.step.kind == "click" and a.step.specific)
    far = action.ts_ms + 365 * 86_400_000
    with CaptureSource(recorded_store) as source:
        found = source.trees(((action.step.app, action.ts_ms), (action.step.app, far)), ("text",))
    assert found[action.step.app, far] is None
    ts, truncated, elements = found[action.step.app, action.ts_ms]
    assert ts <= action.ts_ms + 2_000 and not truncated
    assert elements and {row[0] for row in elements} == {"text"}      # only the roles asked for
    assert action.step.target in {row[3] for row in elements}


@pytest.fixture(scope="module")
def planted_store(tmp_path_factory):
    from synth import synthesize

    db = tmp_path_factory.mktemp("planted") / "three.sqlite3"
    synthesize(db, days=3, seed=7)
    return db


def test_planted_routines_are_listed_once_each_and_their_plans_pass_in_the_walks(planted_store):
    """`phantom synth` plants routines whose targets its recorded walks hold
    (thunderbird, gedit, Firefox): each found routine is one entry, and its
    plan passes on every occurrence. The Calc routine's cell lies past the
    400-node walk of an earlier sheet: no evidence there, not a failure."""
    from compiler.api import routine_report
    from synth import planted_routines

    report, _ = routine_report(planted_store, limit=0)
    entries = {e.routine.steps: e for e in report.entries}
    found = [truth for truth in planted_routines(7, 3) if truth.expect_found]
    assert found and len(report.entries) == len(found)
    for truth in found:
        steps = next(s for s in entries if sorted(s) == sorted(truth.steps))  # one rotation of it
        entry = entries[steps]
        assert entry.variants == ()
        evidence = entry.evidence
        if truth.name == "copy_calc_value_to_slack":
            assert (evidence.plan_trials, evidence.unchecked) == (0, entry.routine.support), truth.name
        else:
            assert evidence.plan_passes == evidence.plan_trials == entry.routine.support, truth.name
        assert (entry.decision.successes, entry.decision.trials) == (evidence.successes, evidence.trials)


def _env() -> dict[str, str]:
    import os
    return {**os.environ, "PYTHONPATH": str(ROOT)}
