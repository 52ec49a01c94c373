"""Tests for compiler.routines.mining: the level-wise miner against a brute-force
reference that enumerates every window."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.records import Action, Step
from compiler.routines.actions import step_key
from compiler.routines.mining import Occurrence, Routine, mine, routine_id
from compiler.routines.occurrences import SessionIndex, count_occurrences


# --------------------------------------------------------------------------- reference
def _greedy(keyed_sessions, pattern):
    """(session, start) of non-overlapping occurrences, greedy from the left."""
    n = len(pattern)
    found = []
    for si, ks in enumerate(keyed_sessions):
        i = 0
        while i + n <= len(ks):
            if tuple(ks[i:i + n]) == pattern:
                found.append((si, i))
                i += n
            else:
                i += 1
    return found


def mine_bruteforce(sessions, *, min_support=3, min_length=3, max_length=60, min_specific=2,
                    key=step_key):
    """Every window of every session, counted, filtered, made maximal.

    Returns [(keys, support, ((session, start), ...))] in the miner's order.
    A key is specific when some action carrying it is specific."""
    keyed = [[key(a.step) for a in s] for s in sessions]
    specific = {key(a.step) for s in sessions for a in s if a.step.specific}
    candidates = set()
    for ks in keyed:
        for n in range(min_length, max_length + 1):
            for i in range(len(ks) - n + 1):
                candidates.add(tuple(ks[i:i + n]))
    kept = {}
    for pattern in candidates:
        occ = _greedy(keyed, pattern)
        if len(occ) >= min_support and len({k for k in pattern if k in specific}) >= min_specific:
            kept[pattern] = occ

    def contains(big, small):
        return any(big[i:i + len(small)] == small for i in range(len(big) - len(small) + 1))

    result = []
    for pattern, occ in kept.items():
        if any(len(other) > len(pattern) and len(kept[other]) == len(occ)
               and contains(other, pattern) for other in kept):
            continue
        result.append((pattern, len(occ), tuple(occ)))
    result.sort(key=lambda r: (-r[1], -len(r[0]), routine_id(r[0]), repr(tuple(r[0]))))
    return result


def _summary(routines):
    return [(r.keys, r.support, tuple((o.session_index, o.start) for o in r.occurrences))
            for r in routines]


# --------------------------------------------------------------------------- helpers
def act(symbol: str, ts: int = 0, specific: bool = True, app: str = "app") -> Action:
    """A click on the element `symbol` (label and path are the symbol)."""
    return Action(Step("click", app, symbol, "push button", symbol, specific), ts, ts, 0,
                  (f"input_events:{ts}",))


def sessions_of(*strings: str, specific: bool = True) -> list[list[Action]]:
    out, t = [], 0
    for text in strings:
        session = []
        for ch in text:
            session.append(act(ch, t, specific))
            t += 1000
        out.append(session)
    return out


def labels(routine: Routine) -> str:
    return "".join(k[3] for k in routine.keys)


# --------------------------------------------------------------------------- property
@st.composite
def corpora(draw):
    alphabet = draw(st.integers(min_value=1, max_value=4))
    specific = [draw(st.booleans()) for _ in range(alphabet)]
    # a few keys also occur non-specific (same key, other flag): "any" rule
    mixed = draw(st.booleans())
    n_sessions = draw(st.integers(min_value=0, max_value=5))
    sessions, t = [], 0
    for _ in range(n_sessions):
        length = draw(st.integers(min_value=0, max_value=25))
        session = []
        for _ in range(length):
            sym = draw(st.integers(min_value=0, max_value=alphabet - 1))
            flag = specific[sym] if not mixed else (specific[sym] or draw(st.booleans()))
            session.append(act(chr(ord("A") + sym), t, flag))
            t += 1
        sessions.append(session)
    min_length = draw(st.integers(min_value=1, max_value=4))
    params = dict(
        min_support=draw(st.integers(min_value=1, max_value=4)),
        min_length=min_length,
        max_length=draw(st.integers(min_value=min_length, max_value=min_length + 6)),
        min_specific=draw(st.integers(min_value=0, max_value=3)),
    )
    return sessions, params


@settings(max_examples=400, deadline=None)
@given(corpora())
def test_mine_matches_bruteforce(case):
    sessions, params = case
    assert _summary(mine(sessions, **params)) == mine_bruteforce(sessions, **params)


@settings(max_examples=150, deadline=None)
@given(corpora())
def test_count_occurrences_matches_reference(case):
    sessions, _ = case
    keyed = [[step_key(a.step) for a in s] for s in sessions]
    for r in mine(sessions, min_support=1, min_length=1, max_length=5, min_specific=0):
        found = count_occurrences(sessions, r.keys)
        assert [(o.session_index, o.start) for o in found] == _greedy(keyed, r.keys)
        assert len(found) == r.support


# --------------------------------------------------------------------------- tables
def test_empty_input():
    assert mine([]) == ()
    assert mine([[], []]) == ()
    assert count_occurrences([], (("click", "app", "push button", "A"),)) == ()


def test_one_action_sessions():
    sessions = sessions_of(*("A" * 1 for _ in range(10)))
    assert mine(sessions) == ()
    assert [labels(r) for r in mine(sessions, min_length=1, min_specific=1)] == ["A"]
    assert mine(sessions, min_length=1, min_specific=1)[0].support == 10


def test_no_repeats():
    assert mine(sessions_of("ABCDEFGHIJ", "KLMNOPQRST")) == ()


def test_overlapping_repeats_are_counted_once():
    # ABABABAB: "ABA" occurs at 0, 2, 4 overlapping; non-overlapping only 0 and 4
    sessions = sessions_of("ABABABAB")
    got = {labels(r): r.support for r in mine(sessions, min_support=2, min_length=3)}
    assert got == {"ABAB": 2}  # ABA, BAB (2 each) are inside ABAB with equal support
    # with support 3 nothing of length ≥ 3 survives, though overlapping windows would give 3
    assert mine(sessions, min_support=3) == ()
    assert {labels(r): r.support
            for r in mine(sessions, min_support=3, min_length=2)} == {"AB": 4, "BA": 3}


def test_pattern_split_across_sessions_is_not_counted():
    whole = sessions_of("ABCxABCyABC")
    split = sessions_of("ABCxABCyAB", "C")
    assert [labels(r) for r in mine(whole)] == ["ABC"]
    assert mine(split) == ()


def test_maximality_equal_support_absorbs_larger_support_survives():
    # ABCD three times; ABC once more on its own → ABC has support 4, kept
    sessions = sessions_of("ABCDxABCDyABCDzABC")
    got = [(labels(r), r.support) for r in mine(sessions)]
    assert got == [("ABC", 4), ("ABCD", 3)]
    # without the extra ABC, only ABCD (BCD, ABC absorbed at equal support)
    got = [(labels(r), r.support) for r in mine(sessions_of("ABCDxABCDyABCD"))]
    assert got == [("ABCD", 3)]


def test_max_length_caps_and_keeps_the_capped_pattern():
    sessions = sessions_of("ABCDEF", "ABCDEF", "ABCDEF")
    assert [labels(r) for r in mine(sessions, max_length=4)] == ["ABCD", "BCDE", "CDEF"]
    assert [labels(r) for r in mine(sessions)] == ["ABCDEF"]


def test_min_specific_counts_distinct_specific_keys():
    # ABA has two distinct keys; only A is specific → 1 distinct specific key
    sessions = [[act("A", 0), act("B", 1, specific=False), act("A", 2)] for _ in range(3)]
    assert mine(sessions, min_support=3, min_specific=2) == ()
    assert len(mine(sessions, min_support=3, min_specific=1)) == 1
    # a repeated specific key still counts once: ABA names two targets, not three
    assert mine(sessions_of("ABA", "ABA", "ABA"), min_specific=3) == ()
    assert len(mine(sessions_of("ABA", "ABA", "ABA"), min_specific=2)) == 1


def test_routine_record():
    sessions = sessions_of("xABC", "ABCy", "zzABC")
    (routine,) = mine(sessions)
    assert routine.keys == tuple(step_key(act(c).step) for c in "ABC")
    assert routine.length == 3 and routine.support == 3
    assert [(o.session_index, o.start) for o in routine.occurrences] == [(0, 1), (1, 0), (2, 2)]
    assert routine.occurrences[2].actions == tuple(sessions[2][2:5])
    expected = hashlib.sha256(json.dumps([list(k) for k in routine.keys], separators=(",", ":"))
                              .encode()).hexdigest()[:12]
    assert routine.id == expected == routine_id(routine.keys)
    with pytest.raises(dataclasses.FrozenInstanceError):
        routine.support = 4  # type: ignore[misc]


def test_representative_step_is_most_common_full_step():
    def at(path: str, ts: int) -> Action:
        return Action(Step("click", "app", path, "push button", "OK", True), ts, ts, 0, ())

    sessions = []
    for i, path in enumerate(["0/1", "0/2", "0/2", "0/1"]):
        sessions.append([act("A", 10 * i), at(path, 10 * i + 1), act("B", 10 * i + 2)])
    (routine,) = mine(sessions)
    # 2 vs 2: the tie goes to the smaller path
    assert routine.steps[1].target == "0/1"
    (routine,) = mine(sessions[1:])
    assert routine.steps[1].target == "0/2"


def test_order_and_determinism_of_key_encoding():
    first = mine(sessions_of("ABC", "DEF", "ABC", "DEF", "ABC", "DEF", "DEF", "GHI", "GHI",
                             "GHI"))
    # −support first, then −length, then id
    assert [(labels(r), r.support) for r in first][0] == ("DEF", 4)
    assert sorted(labels(r) for r in first[1:]) == ["ABC", "GHI"]
    assert [r.id for r in first[1:]] == sorted(r.id for r in first[1:])
    # another session order (so other first-seen keys) gives the same routines
    again = mine(sessions_of("GHI", "DEF", "DEF", "GHI", "ABC", "DEF", "ABC", "GHI", "DEF",
                             "ABC"))
    assert [(r.id, r.keys, r.support) for r in again] == [(r.id, r.keys, r.support)
                                                         for r in first]


def test_input_not_mutated_and_tuples_accepted():
    sessions = sessions_of("ABC", "ABC", "ABC")
    frozen = tuple(tuple(s) for s in sessions)
    assert _summary(mine(frozen)) == _summary(mine(sessions))
    assert sessions == [list(s) for s in frozen]


def test_custom_key_function():
    sessions = sessions_of("ABC", "ABC", "ABC")
    by_kind = mine(sessions, key=lambda s: (s.kind,), min_specific=1, min_length=3,
                   max_length=3)
    assert [(r.keys, r.support) for r in by_kind] == [((("click",),) * 3, 3)]


def test_bad_parameters():
    for bad in (dict(min_support=0), dict(min_length=0), dict(min_length=5, max_length=4),
                dict(min_specific=-1), dict(min_support=2.5), dict(min_length=True)):
        with pytest.raises(ValueError):
            mine([], **bad)
    with pytest.raises(ValueError):
        count_occurrences(sessions_of("AB"), ())


def test_session_index_reuses_keys():
    sessions = sessions_of("ABCABxABC", "AB")
    index = SessionIndex(sessions)
    assert index.total_actions == 11
    keys = tuple(step_key(act(c).step) for c in "AB")
    assert index.find(keys) == [(0, 0), (0, 3), (0, 6), (1, 0)]
    occ = index.occurrences(keys + (step_key(act("C").step),))
    assert occ == (Occurrence(0, 0, tuple(sessions[0][0:3])),
                   Occurrence(0, 6, tuple(sessions[0][6:9])))


def test_long_periodic_session_is_counted_exactly():
    text = "AB" * 500
    sessions = sessions_of(text)
    routines = mine(sessions, max_length=8, min_support=3)
    assert _summary(routines) == mine_bruteforce(sessions, max_length=8, min_support=3)
    got = {labels(r): r.support for r in routines}
    # odd lengths are absorbed (ABA counts like ABAB); even ones keep growing support gaps
    assert got == {"ABAB": 250, "BABA": 249, "ABABAB": 166, "BABABA": 166,
                   "ABABABAB": 125, "BABABABA": 124}
