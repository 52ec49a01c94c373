"""Program memory without a desktop: intent checks and keys, the calibrated
intent score, parameter shapes, the compatibility rule over assessed
candidates, retrieval on a real store with the local model, who may run
what through the front door, and the CLI's lifecycle commands and refusals."""

from __future__ import annotations

import json

import pytest

from cli import main as cli
from core.errors import ERROR_KINDS
from programs import lifecycle_store
from programs.lifecycle import RunFacts
from programs.store import save_program
from replay import intent as retrieval
from replay.api import ReplayRequest, prepare
from replay.compatibility import Assessment, decide, screen_match
from replay.intent import Hit, InvalidIntent, check_intent, intent_score, key_text
from replay.outcomes import PENDING, PLANNED, StepOutcome
from replay.params import ParameterError, bind, shape_of
from testbed.program_catalog import load_tasks, task_program

TASKS = load_tasks()


def program_of(name: str):
    return task_program(next(t for t in TASKS if t.name == name))


# -- intents ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, message", [
    ("", "the intent is empty"),
    ("  \n\t ", "the intent is empty"),
    ("x" * 301, "301 characters; at most 300"),
    ("sign up\x1b[2J", "control characters"),
    (42, "an intent is text, not int"),
])
def test_bad_intents_are_named_errors_that_send_nothing(text, message):
    with pytest.raises(InvalidIntent, match=message) as caught:
        check_intent(text)
    assert caught.value.code == "invalid_intent" and "nothing was sent" in str(caught.value)
    assert caught.value.kind.exit_status == 2 and caught.value.kind.dbus_name == "InvalidIntent"


def test_an_intent_is_folded_to_one_line():
    assert check_intent("  sign Grace\n up  ") == "sign Grace up"


def test_intent_keys_are_title_name_description_and_step_labels():
    program = program_of("expense claim")
    assert key_text(program, "claim back money I spent on a work trip") == (
        "Expense Claim: expense claim. claim back money I spent on a work trip. "
        "Amount, Purpose, Send claim")
    assert key_text(program, "") == "Expense Claim: expense claim. Amount, Purpose, Send claim"


@pytest.mark.parametrize("cosine, behind, score", [
    (0.35, 0.0, 1.0),          # the median paraphrase cosine: a full match
    (0.60, 0.0, 1.0),
    (0.22, 0.0, 0.0),          # where unrelated tasks sit
    (0.285, 0.0, 0.5),         # half way
    (0.60, 0.005, 0.5),        # half a span behind the best match in memory
    (0.60, 0.02, 0.0),         # clearly behind another program
])
def test_the_intent_score_is_calibrated_and_capped_by_the_best_match(cosine, behind, score):
    assert intent_score(cosine, behind) == pytest.approx(score)


def test_parameters_are_described_by_shape_never_by_value():
    assert shape_of(("Ada Lovelace", "Alan Turing")) == {"classes": ["letters", "spaces"],
                                                        "symbols": "", "length": [11, 12]}
    assert shape_of(("2026-03-02", "2026-03-09")) == {"classes": ["digits"], "symbols": "-",
                                                      "length": [10, 10]}
    assert shape_of(()) == {"classes": [], "symbols": "", "length": None}
    with pytest.raises(ParameterError) as caught:
        bind(program_of("sign up"), {})
    message = str(caught.value)
    assert message == "missing P0 (the Name: field: letters, spaces; 11–12 characters when recorded)"
    assert "Ada" not in message


# -- the compatibility rule -------------------------------------------------------------------
def candidate(name: str, score: float | None, failed: str | None = None, similarity: float = 0.5):
    hit = Hit(f"p-{name}", name, "", 0.4, similarity, 1.0)
    return Assessment(hit, failed, "because", {}, score)


def test_the_best_candidate_that_passed_every_gate_runs_when_it_clears_theta_and_the_margin():
    choice = decide("do it", [candidate("b", 0.80), candidate("a", 0.91),
                              candidate("c", None, "application", similarity=0.9)])
    assert choice.chosen.hit.name == "a"
    assert [a.hit.name for a in choice.assessed] == ["a", "b", "c"]


def test_two_close_candidates_are_a_guess_and_nothing_runs():
    choice = decide("do it", [candidate("a", 0.91), candidate("b", 0.87)])
    assert choice.chosen is None and "within 0.05" in choice.verdict


def test_a_best_score_below_theta_runs_nothing():
    choice = decide("do it", [candidate("a", 0.74), candidate("b", None, "screen")])
    assert choice.chosen is None and "0.740 < θ = 0.75" in choice.verdict
    assert "b (p-b): screen gate — because" in choice.describe()


def test_candidates_that_failed_a_gate_are_no_competition_and_are_listed():
    choice = decide("do it", [candidate("a", 0.80), candidate("b", None, "application"),
                              candidate("c", None, "score")])
    assert choice.chosen.hit.name == "a"
    choice = decide("do it", [candidate("b", None, "application"), candidate("c", None, "lifecycle")])
    assert choice.chosen is None and "no candidate passed every gate" in choice.verdict
    assert "application gate" in choice.describe() and "lifecycle gate" in choice.describe()


def outcome(index: int, policy: str, result: str = PLANNED) -> StepOutcome:
    return StepOutcome(index, "click", "", policy, result, None, None, None, 0, 0, 0, "")


def test_the_screen_term_is_the_share_of_checkable_steps_resolved_directly():
    program = program_of("sign up")           # click, type $P0, type literal, click Submit
    assert screen_match(program, [outcome(0, "direct"), outcome(1, "direct"), outcome(2, "direct"),
                                  outcome(3, "embed_match_then_act")]) == 0.75
    assert screen_match(program, [outcome(0, "direct"), outcome(1, "direct"),
                                  outcome(3, "embed_match_then_act", PENDING)]) == 1.0
    assert screen_match(program, []) == 1.0


# -- retrieval on a store, with the local model -------------------------------------------------
@pytest.fixture(scope="module")
def matcher():
    from replay.embedding import LabelMatcher

    return LabelMatcher()


@pytest.fixture
def memory_db(tmp_path):
    db = tmp_path / "phantom.sqlite3"
    for n, task in enumerate(TASKS[:8]):
        identity = save_program(db, task_program(task), created_ms=1000 + n)
        if task.description:
            lifecycle_store.describe(db, identity, task.description, 2000)
        if n < 7:                                    # the eighth stays a candidate
            lifecycle_store.promote(db, identity, 3000)
    return db


def test_active_programs_rank_by_their_keys_and_the_vectors_are_kept(memory_db, matcher):
    index = retrieval.IntentIndex(memory_db, matcher)
    ranking = index.rank("expense claim")
    assert ranking.searched == 7 and ranking.hits[0].name == "expense claim"
    assert ranking.hits[0].intent == 1.0 and ranking.hits[0].cosine > 0.5
    assert all(a.similarity >= b.similarity for a, b in zip(ranking.hits, ranking.hits[1:]))
    active = [row.program_id for row in lifecycle_store.active_intents(memory_db)]
    kept = lifecycle_store.intent_vectors(memory_db, active)
    assert set(kept) == set(active) and {model for _, model, _ in kept.values()} == {retrieval.MODEL}
    eighth = TASKS[7].name                           # a candidate is not retrieved
    assert eighth not in {h.name for h in index.rank(eighth).hits}


def test_a_request_about_nothing_stored_finds_nothing_above_lambda(memory_db, matcher):
    ranking = retrieval.IntentIndex(memory_db, matcher).rank("tune the guitar's lowest string")
    assert ranking.hits == () and ranking.best_below is not None
    assert ranking.best_below.cosine < retrieval.FIRST_STAGE


def test_the_front_door_refuses_intents_before_looking_at_any_screen(memory_db, tmp_path):
    with pytest.raises(InvalidIntent):
        prepare(memory_db, ReplayRequest(intent="   "))
    with pytest.raises(Exception) as caught:
        prepare(memory_db, ReplayRequest("sign up", intent="sign Grace up"))
    assert caught.value.code == "usage"
    empty = tmp_path / "empty.sqlite3"
    save_program(empty, program_of("sign up"), created_ms=1)     # a candidate only
    with pytest.raises(Exception) as caught:
        prepare(empty, ReplayRequest(intent="sign Grace up"))
    assert caught.value.code == "no_compatible_program"
    assert "there are no active programs" in str(caught.value) and "nothing was sent" in str(caught.value)


def test_agents_are_refused_what_is_not_active_with_the_reason(memory_db):
    candidate_name = TASKS[7].name
    with pytest.raises(Exception) as caught:
        prepare(memory_db, ReplayRequest(candidate_name, {"P0": "x"}, trigger="mcp"))
    assert caught.value.code == "not_active"
    values = {f"P{i}": "x" for i in range(len(TASKS[7].samples))}
    assert prepare(memory_db, ReplayRequest(candidate_name, values)).program.name == candidate_name
    quarantined = lifecycle_store.runnable(memory_db, "sign up", "mcp")
    for run_id in (1, 2):
        lifecycle_store.record_run(memory_db, quarantined,
                                   RunFacts(run_id, "failed", True, "", "mcp", 5000 + run_id))
    with pytest.raises(Exception) as caught:
        prepare(memory_db, ReplayRequest("sign up", {"P0": "Grace"}, trigger="mcp"))
    assert caught.value.code == "quarantined" and "failed 2 times in a row (runs 1, 2)" in str(caught.value)
    assert prepare(memory_db, ReplayRequest("sign up", {"P0": "Grace"}, trigger="dbus")).values == {
        "P0": "Grace"}


def test_a_match_that_undoes_what_the_step_did_is_never_the_same_step():
    from replay.verbs import same_effect

    assert not same_effect("Create invoice", "Void invoice")   # cosine 0.855 in the catalog
    assert not same_effect("Print badge", "Revoke badge")
    assert not same_effect("Apply", "Withdraw application")


def test_every_new_refusal_has_an_exit_status_and_a_dbus_name():
    for code, status, name in (("not_active", 4, "NotActive"), ("quarantined", 4, "Quarantined"),
                               ("deprecated", 4, "Deprecated"), ("invalid_intent", 2, "InvalidIntent"),
                               ("no_compatible_program", 4, "NoCompatibleProgram"),
                               ("invalid_transition", 1, "InvalidTransition")):
        kind = ERROR_KINDS[code]
        assert (kind.exit_status, kind.dbus_error) == (status, f"org.phantom.Error.{name}")


# -- the CLI ----------------------------------------------------------------------------------
def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_programs_promote_deprecate_describe_delete(tmp_path, capsys):
    db = str(tmp_path / "phantom.sqlite3")
    first = save_program(db, program_of("sign up"), created_ms=1000)
    code, out, _ = run_cli(capsys, "programs", "--db", db, "promote", "sign up")
    assert code == 0 and out == f"{first} candidate → active: promoted by the person\n"
    code, _, err = run_cli(capsys, "programs", "promote", "sign up", "--db", db)
    assert code == 1 and err == f"phantom: program {first} is already active\n"
    code, out, _ = run_cli(capsys, "programs", "describe", "sign up", "register a member", "--db", db)
    assert code == 0 and out == f"{first} described\n"
    code, out, _ = run_cli(capsys, "programs", "--db", db)
    assert "active" in out and '— "register a member"' in out
    code, out, _ = run_cli(capsys, "programs", "deprecate", first, "--db", db)
    assert code == 0 and out == f"{first} active → deprecated: deprecated on request\n"
    code, _, err = run_cli(capsys, "replay", "sign up", "--param", "P0=x", "--db", db)
    assert code == 4 and "is deprecated (deprecated on request)" in err and len(err.splitlines()) == 1
    code, out, _ = run_cli(capsys, "programs", "--db", db, "--format", "json")
    (row,) = json.loads(out)
    assert (row["state"], row["description"], row["state_reason"]) == (
        "deprecated", "register a member", "deprecated on request")
    code, out, _ = run_cli(capsys, "programs", "delete", "sign up", "--db", db, "--yes")
    assert code == 0 and first in out and "deleted 1 program(s)" in out
    code, _, err = run_cli(capsys, "programs", "delete", "sign up", "--db", db, "--yes")
    assert code == 1 and "no program named" in err


@pytest.mark.parametrize("argv, status, message", [
    (["replay"], 2, "give a program or --intent WORDS"),
    (["replay", "sign up", "--intent", "sign Grace up"], 2, "give a program or --intent WORDS"),
    (["replay", "--intent", "   "], 2, "the intent is empty"),
    (["replay", "--intent", "x" * 400], 2, "at most 300"),
    (["replay", "--intent", "sign Grace up"], 4, "there are no active programs"),
])
def test_replay_by_intent_refusals_are_one_line(tmp_path, capsys, argv, status, message):
    db = str(tmp_path / "phantom.sqlite3")
    save_program(db, program_of("sign up"), created_ms=1000)
    code, out, err = run_cli(capsys, *argv, "--db", db)
    assert code == status and message in err and len(err.strip().splitlines()) == 1 and not out


def test_replay_by_intent_that_no_program_does_prints_the_shortlist_and_runs_nothing(tmp_path, capsys):
    """The CLI's side of the intent gate: one line on stderr, exit 4, the
    ranked shortlist on stdout (as text or JSON), no run and no DISPLAY
    needed — the gate refused before anything looked at the screen."""
    from replay.telemetry import read_runs
    from testbed.fixture_programs import calculator_program

    db = str(tmp_path / "phantom.sqlite3")
    calc = save_program(db, calculator_program(), created_ms=1000)
    lifecycle_store.promote(db, calc, 2000)
    for dry in ((), ("--dry-run",)):
        code, out, err = run_cli(capsys, "replay", "--intent", "divide 100 by 7", *dry, "--db", db)
        assert code == 4 and len(err.strip().splitlines()) == 1
        assert err.startswith("phantom: no compatible program for 'divide 100 by 7': none of the 1 closest "
                              "programs does what the request asks (intent gate)")
        assert out.splitlines() == [
            f"1. calc 4x9+2 ({calc}) in gnome-calculator; takes no parameters; failed the intent gate",
            "   why: intent gate: the request asks to divide; calc 4x9+2 does not (its own words name "
            "multiply)"]
    code, out, _ = run_cli(capsys, "replay", "--intent", "divide 100 by 7", "--format", "json", "--db", db)
    shortlist = json.loads(out)
    assert code == 4 and shortlist["intent"] == "divide 100 by 7"
    assert [(c["id"], c["failed_gate"]) for c in shortlist["candidates"]] == [(calc, "intent")]
    assert read_runs(db, limit=10) == []


def test_a_dry_run_by_intent_shows_the_gates_verdict():
    from replay.outcomes import RunResult
    from replay.results import result_dict, result_lines

    result = RunResult(None, "p-0123456789ab", "calc 4x9+2", "dry_run", (), None, 12, False,
                       intent="multiply 4 by 9 and add 2", compatibility=0.9,
                       intent_gate="values bind: '4' → constant")
    lines = result_lines(result)
    assert lines[:2] == ["intent 'multiply 4 by 9 and add 2' → calc 4x9+2 (p-0123456789ab), compatibility 0.900",
                         "intent gate: passed — values bind: '4' → constant"]
    assert result_dict(result)["intent_gate"] == "values bind: '4' → constant"


def test_a_label_at_spi_repeats_is_keyed_once_and_the_program_is_unchanged():
    """AT-SPI names a button '4 4' (name and child text): the intent key
    says it once; the stored body, and so the program's id, keep it."""
    from dataclasses import replace

    program = program_of("expense claim")
    steps = list(program.steps)
    at = next(i for i, s in enumerate(steps) if s.target is not None and s.target.name == "Send claim")
    steps[at] = replace(steps[at], target=replace(steps[at].target, name="Send claim Send claim"))
    doubled = replace(program, steps=tuple(steps))
    assert key_text(doubled, "") == "Expense Claim: expense claim. Amount, Purpose, Send claim"
    assert doubled.steps[at].target.name == "Send claim Send claim"
