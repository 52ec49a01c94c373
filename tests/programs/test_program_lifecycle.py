"""The lifecycle rules, hand-worked: which runs make a program active, which
count toward quarantine (only runs that sent input), who may bring a
quarantined program back, and who may run what."""

from __future__ import annotations

import pytest

from programs.lifecycle import (
    ACTIVE,
    CANDIDATE,
    DEPRECATED,
    QUARANTINED,
    LifecycleError,
    RunFacts,
    Standing,
    after_run,
    deprecate,
    promote,
    refusal,
)


def run(run_id: int, status: str, *, sent: bool = True, verification: str = "", trigger: str = "cli"
        ) -> RunFacts:
    if status == "success" and not verification:
        verification = "end_state"
    return RunFacts(run_id, status, sent, verification, trigger, 1000 + run_id)


def play(standing: Standing, *runs: RunFacts) -> tuple[Standing, list[str]]:
    moves = []
    for facts in runs:
        standing, transition = after_run(standing, facts)
        if transition is not None:
            moves.append(f"{transition.from_state}->{transition.to_state}")
    return standing, moves


def test_a_verified_run_makes_a_candidate_active_and_is_counted():
    standing, moves = play(Standing(), run(1, "success"))
    assert moves == ["candidate->active"]
    assert (standing.state, standing.successes, standing.verified_by) == (ACTIVE, 1, "end_state")
    assert standing.last_outcome == "success (end_state)" and standing.last_run_id == 1
    assert standing.state_reason == "a verified run (end_state)"


def test_a_success_without_a_verification_does_not_activate():
    standing, moves = play(Standing(), RunFacts(1, "success", True, "", "cli", 5))
    assert moves == [] and standing.state == CANDIDATE and standing.successes == 0
    assert standing.last_outcome == "success (unverified)"


def test_two_counted_failures_in_a_row_quarantine_an_active_program_with_the_runs():
    active = Standing(state=ACTIVE, successes=3)
    standing, moves = play(active, run(7, "failed"), run(8, "escalated"))
    assert moves == ["active->quarantined"]
    assert standing.failure_streak == (7, 8) and standing.failures == 2
    assert standing.state_reason == "failed 2 times in a row (runs 7, 8)"
    _, transition = after_run(Standing(state=ACTIVE, failure_streak=(7,)), run(8, "failed"))
    assert transition.runs == (7, 8) and transition.to_state == QUARANTINED


def test_runs_that_sent_nothing_neither_count_nor_reset_the_streak():
    standing, moves = play(Standing(state=ACTIVE), run(1, "failed"),
                           run(2, "refused", sent=False),      # pre-flight refusal
                           run(3, "escalated", sent=False),    # escalated before the first input
                           run(4, "failed"))
    assert moves == ["active->quarantined"] and standing.failure_streak == (1, 4)
    assert standing.failures == 2


def test_a_success_between_failures_resets_the_streak():
    standing, moves = play(Standing(state=ACTIVE), run(1, "failed"), run(2, "success"),
                           run(3, "failed"))
    assert moves == [] and standing.state == ACTIVE
    assert standing.failure_streak == (3,) and (standing.successes, standing.failures) == (1, 2)


def test_a_refusal_that_had_sent_input_counts():
    standing, _ = play(Standing(state=ACTIVE), run(1, "refused", sent=True))
    assert standing.failure_streak == (1,)


def test_a_failing_candidate_stays_a_candidate():
    standing, moves = play(Standing(), run(1, "failed"), run(2, "failed"), run(3, "failed"))
    assert moves == [] and standing.state == CANDIDATE and standing.failures == 3


def test_only_a_verified_run_the_person_starts_lifts_a_quarantine():
    quarantined = Standing(state=QUARANTINED, failure_streak=(7, 8))
    standing, moves = play(quarantined, run(9, "success", trigger="mcp"))
    assert moves == [] and standing.state == QUARANTINED and standing.failure_streak == ()
    for trigger in ("cli", "dbus"):
        standing, moves = play(quarantined, run(9, "success", trigger=trigger))
        assert moves == ["quarantined->active"] and standing.state == ACTIVE
        assert standing.state_reason == f"a verified run the person started ({trigger})"
    with pytest.raises(LifecycleError, match="only after a verified run you start"):
        promote(quarantined)


def test_promotion_vouches_for_a_candidate_and_undoes_a_deprecation():
    standing, transition = promote(Standing())
    assert (standing.state, standing.verified_by, transition.reason) == (ACTIVE, "promotion",
                                                                         "promoted by the person")
    standing, _ = promote(Standing(state=DEPRECATED, verified_by="end_state"))
    assert standing.state == ACTIVE and standing.verified_by == "end_state"
    with pytest.raises(LifecycleError, match="already active"):
        promote(Standing(state=ACTIVE))


def test_a_verified_run_outranks_a_promotion_as_evidence():
    standing, _ = play(Standing(state=ACTIVE, verified_by="promotion"),
                       run(1, "success", verification="no_new_windows"))
    assert standing.verified_by == "no_new_windows"
    standing, _ = play(standing, run(2, "success", verification="end_state"),
                       run(3, "success", verification="no_new_windows"))
    assert standing.verified_by == "end_state"


def test_deprecation_keeps_the_successor():
    standing, transition = deprecate(Standing(state=ACTIVE), "replaced by p-2", replaced_by="p-2")
    assert (standing.state, standing.replaced_by, transition.describe()) == (
        DEPRECATED, "p-2", "active → deprecated: replaced by p-2")
    with pytest.raises(LifecycleError):
        deprecate(standing, "again")


@pytest.mark.parametrize("state, person, agent", [
    (CANDIDATE, None, CANDIDATE),
    (ACTIVE, None, None),
    (QUARANTINED, None, QUARANTINED),
    (DEPRECATED, DEPRECATED, DEPRECATED),
])
def test_who_may_run_what(state, person, agent):
    standing = Standing(state=state)
    assert refusal(standing, "cli") == refusal(standing, "dbus") == person
    assert refusal(standing, "mcp") == agent
