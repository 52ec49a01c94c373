"""Tests for compiler.routines.measures and compiler.tokens."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.records import Action, Step
from compiler.routines.actions import step_key
from compiler.routines.gate import GateInputs, decide, gate_inputs, measured_inputs
from compiler.routines.measures import (
    AGENT_TOKENS_PER_STEP,
    Recurrence,
    RoutineMeasures,
    completion_counts,
    coverage,
    days_seen,
    guard_coverage,
    h_task,
    h_ui,
    holdout_recurrence,
    measure,
    measure_all,
    minimal_script,
    overhead_ratios,
    plan_text,
    quadrant,
    support,
    timing_cv,
    train_days_for,
)
from compiler.routines.mining import Occurrence, Routine, mine, routine_id
from compiler.routines.occurrences import SessionIndex
from compiler.tokens import count_tokens

DAY_MS = 86_400_000


def utc_day(ts_ms: int) -> str:
    return str(ts_ms // DAY_MS)


def click(label: str, ts: int, path: str | None = None, specific: bool = True,
          app: str = "mail") -> Action:
    return Action(Step("click", app, path or f"0/{label}", "push button", label, specific),
                  ts, ts, 0, (f"input_events:{ts}",))


def typed(label: str, ts: int, text: str | None = None, path: str | None = None) -> Action:
    return Action(Step("type", "mail", path or f"0/{label}", "text", label, True), ts, ts, 0,
                  (f"input_events:{ts}",), text)


def key(combo: str, ts: int) -> Action:
    return Action(Step("key", "mail", combo), ts, ts, 0, (f"input_events:{ts}",))


def make_routine(occurrence_actions: list[list[Action]]) -> Routine:
    """A routine by hand: one session per occurrence, starting at 0."""
    occs = tuple(Occurrence(i, 0, tuple(acts)) for i, acts in enumerate(occurrence_actions))
    keys = tuple(step_key(a.step) for a in occurrence_actions[0])
    steps = tuple(a.step for a in occurrence_actions[0])
    return Routine(routine_id(keys), keys, steps, len(occs), occs)


def compose(ts: int, *, to_path: str = "0/To", subject: str | None = None,
            gaps: tuple[int, int] = (1000, 2000)) -> list[Action]:
    return [click("Write", ts), click("To", ts + gaps[0], path=to_path),
            typed("Subject", ts + gaps[0] + gaps[1], subject)]


# --------------------------------------------------------------------------- counts
def test_support_days_seen_and_guard_coverage():
    r = make_routine([compose(0), compose(DAY_MS + 5), compose(DAY_MS + 99), compose(3 * DAY_MS)])
    assert support(r) == 4
    assert days_seen(r, utc_day) == 3
    # the caller's zone decides: shifted by 12 h the first two land on one day
    assert days_seen(r, lambda ts: str((ts + DAY_MS // 2) // DAY_MS)) == 3
    assert guard_coverage(r) == 1.0
    mixed = make_routine([[click("A", 0), click("B", 1, specific=False), key("ctrl+s", 2)]] * 2)
    assert guard_coverage(mixed) == pytest.approx(1 / 3)


# --------------------------------------------------------------------------- entropy
def test_h_ui_zero_when_paths_agree():
    assert h_ui(make_routine([compose(0), compose(10_000), compose(20_000)])) == 0.0


def test_h_ui_per_position_normalisation():
    # position 1 takes four different paths in four occurrences: 2 bits / log2(4) = 1
    r = make_routine([compose(i * 10_000, to_path=f"0/{i}") for i in range(4)])
    assert h_ui(r) == pytest.approx(1 / 3)
    # two paths, two each: 1 bit / 2 bits = 0.5 at that position
    r = make_routine([compose(i * 10_000, to_path=f"0/{i % 2}") for i in range(4)])
    assert h_ui(r) == pytest.approx(0.5 / 3)


def test_h_ui_single_occurrence_is_zero():
    assert h_ui(make_routine([compose(0)])) == 0.0


def test_h_task_from_text():
    same = make_routine([compose(i * 10_000, subject="weekly report") for i in range(3)])
    assert h_task(same) == (0.0, "text")
    varied = make_routine([compose(i * 10_000, subject=f"report {i}") for i in range(3)])
    assert h_task(varied) == (pytest.approx(1.0), "text")


def test_h_task_from_lengths_buckets():
    r = make_routine([compose(i * 10_000) for i in range(4)])
    lengths = {0: 2, 10_000: 3, 20_000: 50, 30_000: 31}  # buckets 1-3, 1-3, 31+, 31+

    def typed_length(action: Action) -> int | None:
        return lengths[action.ts_ms - 3000]

    value, source = h_task(r, typed_length)
    assert source == "lengths"
    assert value == pytest.approx(0.5)
    # all in one bucket → 0
    assert h_task(r, lambda a: 7) == (0.0, "lengths")
    # boundaries: 3 | 4, 10 | 11, 30 | 31 fall in different buckets
    for low, high in ((3, 4), (10, 11), (30, 31)):
        pair = make_routine([compose(0), compose(10_000)])
        value, _ = h_task(pair, lambda a, low=low, high=high: low if a.ts_ms < 10_000 else high)
        assert value == pytest.approx(1.0)


def test_h_task_sources_none_and_unavailable():
    no_typing = make_routine([[click("A", 0), click("B", 1), key("Return", 2)]] * 3)
    assert h_task(no_typing) == (0.0, "none")
    assert h_task(make_routine([compose(0), compose(10_000)])) == (0.0, "unavailable")


def test_h_task_mixed_text_and_lengths_uses_lengths():
    r = make_routine([compose(0, subject="abcdefgh"), compose(10_000)])
    # the captured text counts by characters (8 → 4-10), the other by typed_length
    assert h_task(r, lambda a: None if a.text else 5) == (0.0, "lengths")
    assert h_task(r, lambda a: None if a.text else 2)[0] == pytest.approx(1.0)


def test_quadrants_and_threshold_boundary():
    assert quadrant(0.0, 0.0) == "Q1"
    assert quadrant(0.1, 0.9) == "Q2"
    assert quadrant(0.9, 0.1) == "Q3"
    assert quadrant(0.9, 0.9) == "Q4"
    # 0.3 itself is low: the same boundary as the §6.4 gate (1 − H_UI ≥ 0.7)
    assert quadrant(0.3, 0.3) == "Q1"
    assert quadrant(0.3000001, 0.3) == "Q3"
    passes = decide(GateInputs(3, 3, 0.3, 0.0, 10, 10)).criteria[2].passed
    assert passes and quadrant(0.3, 0.0) == "Q1"


# --------------------------------------------------------------------------- timing
def test_timing_cv_duration_weighted():
    r = make_routine([compose(0, gaps=(1000, 2000)), compose(10_000, gaps=(3000, 2000))])
    # gap 0: mean 2000, std 1000; gap 1: mean 2000, std 0 → 1000 / 4000
    assert timing_cv(r) == pytest.approx(0.25)
    steady = make_routine([compose(i * 10_000) for i in range(3)])
    assert timing_cv(steady) == 0.0
    assert timing_cv(make_routine([compose(0)])) == 0.0
    simultaneous = make_routine([compose(0, gaps=(0, 0)), compose(5, gaps=(0, 0))])
    assert timing_cv(simultaneous) == 0.0


# --------------------------------------------------------------------------- tokens and R
def test_count_tokens():
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    # special-token text is counted as text, never refused
    assert count_tokens("<|endoftext|>") > 1
    with pytest.raises(TypeError):
        count_tokens(b"bytes")  # type: ignore[arg-type]


def test_plan_and_minimal_script():
    r = make_routine([compose(0), compose(10_000), compose(20_000)])
    assert plan_text(r) == (f"routine {r.id} (3 steps)\n"
                            "1. click push button 'Write' in mail\n"
                            "2. click push button 'To' in mail\n"
                            "3. type into text 'Subject' in mail")
    assert minimal_script(r) == ("click mail push button Write\n"
                                 "click mail push button To\n"
                                 "type mail text Subject")
    k = make_routine([[key("ctrl+s", 0), key("ctrl+w", 1)]] * 2)
    assert minimal_script(k) == "key mail ctrl+s\nkey mail ctrl+w"


def test_overhead_ratios():
    r = make_routine([compose(0), compose(10_000), compose(20_000)])
    ratios = overhead_ratios(r)
    assert AGENT_TOKENS_PER_STEP == 2509
    assert ratios.agent_tokens == 3 * 2509
    assert ratios.plan_tokens == count_tokens(plan_text(r))
    assert ratios.script_tokens == count_tokens(minimal_script(r))
    assert ratios.r_inject == round(3 * 2509 / ratios.plan_tokens, 1)
    assert ratios.r_info == round(3 * 2509 / ratios.script_tokens, 1)
    assert ratios.r_info > ratios.r_inject  # the floor is cheaper than the plan


# --------------------------------------------------------------------------- outcomes, gate
def test_completion_counts_count_begun_and_completed_runs():
    full = [click("A", 0), click("B", 1), click("C", 2), click("D", 3)]
    begun = [click("A", 10), click("B", 11), click("C", 12), click("X", 13)]
    sessions = [full, full, begun, full, [click("A", 20), click("B", 21)]]
    routine = next(r for r in mine(sessions) if r.length == 4)
    assert routine.support == 3
    assert completion_counts(sessions, routine) == (3, 4)
    assert completion_counts(SessionIndex(sessions), routine) == (3, 4)
    # passive counts are recurrence, not evidence: the gate gets no outcomes from them
    inputs = gate_inputs(routine)
    assert inputs == GateInputs(steps=4, traces=3, h_ui_normalized=0.0, timing_cv=0.0,
                                successes=0, trials=0)
    assert not decide(inputs).evidence


def test_completion_counts_short_routine_uses_whole_prefix():
    sessions = [[click("A", 0), click("B", 1)]] * 3
    (routine,) = mine(sessions, min_length=2)
    assert completion_counts(sessions, routine) == (3, 3)


# --------------------------------------------------------------------------- measures record
def test_measure_record_and_to_dict():
    sessions = [compose(i * DAY_MS // 2, subject=None) for i in range(4)]
    (routine,) = mine(sessions)
    m = measure(routine, sessions, day_of=utc_day, typed_length=lambda a: 5)
    assert isinstance(m, RoutineMeasures)
    assert (m.support, m.days_seen, m.length) == (4, 2, 3)
    assert (m.h_ui, m.h_task, m.h_task_source, m.quadrant) == (0.0, 0.0, "lengths", "Q1")
    assert (m.completed, m.begun) == (4, 4)
    assert measured_inputs(m) == gate_inputs(routine)
    d = m.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert set(d) == {f.name for f in dataclasses.fields(RoutineMeasures)}
    assert measure_all([routine], sessions, day_of=utc_day, typed_length=lambda a: 5) == (m,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.support = 1  # type: ignore[misc]


def test_to_dict_rounds_to_six_decimals():
    r = make_routine([compose(i * 10_000, to_path=f"0/{i % 3}") for i in range(7)])
    d = measure(r, [list(o.actions) for o in r.occurrences], day_of=utc_day).to_dict()
    assert d["h_ui"] == round(h_ui(r), 6)
    assert d["h_ui"] != h_ui(r)


# --------------------------------------------------------------------------- recurrence
def test_coverage_is_union_over_routines():
    sessions = [[click(c, i) for i, c in enumerate("ABCDxABCDyABCD")], [click("z", 100)]]
    routines = mine(sessions, min_length=2, max_length=3, min_specific=1)
    # ABC, BCD... overlap: the union covers the three ABCD runs = 12 of 15 actions
    assert coverage(sessions, routines) == pytest.approx(12 / 15)
    assert coverage(sessions, ()) == 0.0
    assert coverage([], ()) == 0.0
    bad = Routine("x", (), (), 1, (Occurrence(5, 0, ()),))
    with pytest.raises(ValueError):
        coverage(sessions, [bad])


def test_train_days_split_is_exact():
    assert train_days_for(10) == 7  # not 8 from 0.7 * 10 = 7.000000000000001
    assert train_days_for(51) == 36
    assert train_days_for(3) == 2  # ceil(2.1) = 3 would leave nothing to hold out
    assert train_days_for(2) == 1
    assert train_days_for(1) == 1
    assert train_days_for(0) == 0
    assert train_days_for(10, 0.1) == 1


def _day(day: int, *texts: str) -> tuple[str, list[list[Action]]]:
    base = day * DAY_MS
    sessions = [[click(c, base + 1000 * i + 100_000 * j) for i, c in enumerate(text)]
                for j, text in enumerate(texts)]
    return f"2026-01-{day:02d}", sessions


def test_holdout_recurrence():
    days = [_day(d, "ABCx", "yABC") for d in range(1, 8)]           # 7 training days
    days += [_day(8, "ABCqq"), _day(9, "qqqq"), _day(10, "DEF")]    # 3 held out
    result = holdout_recurrence(list(reversed(days)))  # order of input does not matter
    assert isinstance(result, Recurrence)
    assert (result.days, result.train_days, result.test_days) == (10, 7, 3)
    assert result.split_day == "2026-01-08"
    assert result.test_actions == 5 + 4 + 3
    assert result.train_actions == 7 * 8
    assert result.covered_out_of_sample == 3
    assert result.h_out_of_sample == pytest.approx(3 / 12)
    # in-sample: ABCx and yABC cover the seven training days, ABC day 8's run
    assert result.total_actions == 68
    assert result.covered_in_sample == 56 + 3
    assert result.h_in_sample == pytest.approx(59 / 68)
    d = result.to_dict()
    assert json.loads(json.dumps(d)) == d
    # select keeps only some routines
    none = holdout_recurrence(days, select=lambda r: False)
    assert (none.h_in_sample, none.h_out_of_sample) == (0.0, 0.0)


def test_holdout_recurrence_edge_cases():
    one = holdout_recurrence([_day(1, "ABC", "ABC", "ABC")])
    assert one.h_out_of_sample is None and one.split_day is None
    assert one.h_in_sample == 1.0
    empty = holdout_recurrence([])
    assert (empty.h_in_sample, empty.h_out_of_sample, empty.days) == (0.0, None, 0)
    with pytest.raises(ValueError):
        holdout_recurrence([_day(1, "A"), _day(1, "B")])
    for bad in (0.0, 1.0, 1.5, True):
        with pytest.raises(ValueError):
            holdout_recurrence([_day(1, "A")], bad)


# --------------------------------------------------------------------------- properties
@st.composite
def corpora(draw):
    sessions, t = [], 0
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        session = []
        for _ in range(draw(st.integers(min_value=0, max_value=20))):
            sym = draw(st.sampled_from("ABC"))
            t += draw(st.integers(min_value=0, max_value=5000))
            path = f"0/{draw(st.integers(min_value=0, max_value=2))}"
            if draw(st.booleans()):
                session.append(click(sym, t, path=path))
            else:
                text = draw(st.one_of(st.none(), st.sampled_from(["a", "bb", "a"])))
                session.append(typed(sym, t, text, path=path))
        sessions.append(session)
    return sessions


@settings(max_examples=150, deadline=None)
@given(corpora())
def test_measures_are_bounded(sessions):
    routines = mine(sessions, min_support=2, min_specific=1)
    for r in routines:
        m = measure(r, sessions, day_of=utc_day, typed_length=lambda a: 4)
        assert 0.0 <= m.h_ui <= 1.0 and 0.0 <= m.h_task <= 1.0
        assert m.timing_cv >= 0.0 and math.isfinite(m.timing_cv)
        assert 0 < m.completed <= m.begun
        assert m.completed == r.support
        decide(measured_inputs(m))
    assert 0.0 <= coverage(sessions, routines) <= 1.0
