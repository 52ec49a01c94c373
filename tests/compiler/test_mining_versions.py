"""The miner's two level-wise versions (`mining_lists` below LONG_STREAM
actions, `mining_arrays` from there on) give the same routines, byte for
byte, and both match the brute-force reference of test_mining.py. So does
the app-at-each-input lookup of the action stream, both ways around
LONG_INPUTS. A day's compile takes the plain paths (tests/cli/
test_compile_imports.py shows it never loads numpy)."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

from hypothesis import given, settings
from test_mining import _summary, corpora, mine_bruteforce, sessions_of

from compiler.routines import actions, mining
from compiler.routines.mining import mine

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from bench.bench_mining import generate  # noqa: E402


@contextmanager
def threshold(module, name: str, value: int):
    saved = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, saved)


def both(sessions, **params):
    with threshold(mining, "LONG_STREAM", sys.maxsize):
        lists = mine(sessions, **params)
    with threshold(mining, "LONG_STREAM", 0):
        arrays = mine(sessions, **params)
    return lists, arrays


@settings(max_examples=300, deadline=None)
@given(corpora())
def test_both_versions_match_the_reference_and_each_other(case):
    sessions, params = case
    lists, arrays = both(sessions, **params)
    assert lists == arrays
    assert _summary(arrays) == mine_bruteforce(sessions, **params)


def test_both_versions_agree_on_a_desktop_shaped_stream():
    sessions = generate(6000, seed=3)
    lists, arrays = both(sessions)
    assert lists == arrays and len(lists) > 20
    # representative steps and occurrences are part of the equality
    assert all(r.steps and len(r.occurrences) == r.support for r in lists)
    assert repr(lists) == repr(arrays)


def test_a_short_stream_takes_the_plain_version_and_a_long_one_the_arrays():
    calls = []

    def spy(module_name):
        module = __import__(f"compiler.routines.{module_name}", fromlist=["found_routines"])
        real = module.found_routines

        def found_routines(stream, params):
            calls.append(module_name)
            return real(stream, params)
        return module, real, found_routines

    sessions = sessions_of("ABC", "ABC", "ABC")
    for name, limit in (("mining_lists", 10), ("mining_arrays", 9)):
        module, real, fake = spy(name)
        module.found_routines = fake
        try:
            with threshold(mining, "LONG_STREAM", limit):
                assert len(mine(sessions)) == 1
        finally:
            module.found_routines = real
    assert calls == ["mining_lists", "mining_arrays"]


def test_the_app_at_each_input_is_the_same_both_ways():
    from compiler.api import read_window

    for db in (ROOT / "fixtures" / "synthetic" / "day.sqlite3",):
        capture, _ = read_window(db, day="2026-03-02")
        assert len(capture.inputs) < actions.LONG_INPUTS
        plain = actions.derive_actions(capture)
        with threshold(actions, "LONG_INPUTS", 0):
            arrays = actions.derive_actions(capture)
        assert plain == arrays and len(plain) > 1000
        by_time = actions._apps_by_time(capture.snapshots, capture.inputs)
        with threshold(actions, "LONG_INPUTS", 0):
            assert actions._apps_by_time(capture.snapshots, capture.inputs) == by_time
        assert len(set(by_time)) > 2


def test_the_app_at_each_input_on_several_monitors_both_ways():
    """Random streams on three monitors (one without focused snapshots),
    events before the first snapshot, at a snapshot's millisecond and out
    of time order: the plain lookup, the numpy one and the definition agree."""
    import random

    from compiler.records import InputEvent, Snapshot

    rng = random.Random(5)
    for _ in range(50):
        snapshots = tuple(sorted(
            (Snapshot(i, rng.randrange(0, 2_000, 10), 0, "UTC", rng.choice((0, 1, 2)), "focus",
                      rng.choice(("a", "b", "c")), "", None, False, rng.random() < 0.8)
             for i in range(rng.randrange(0, 30))), key=lambda s: (s.ts_ms, s.id)))
        inputs = [InputEvent(i, rng.randrange(-100, 2_100, 5), 0, rng.choice((0, 1, 2, 3)), "click", 1,
                             None, None, None, None, None, None, None) for i in range(rng.randrange(0, 40))]
        expected = []
        for event in inputs:
            seen = [s for s in snapshots if s.focused and s.monitor == event.monitor]
            before = [s for s in seen if s.ts_ms <= event.ts_ms]
            expected.append(before[-1].app if before else seen[0].app if seen else "")
        if not any(s.focused for s in snapshots):
            expected = [""] * len(inputs)
        plain = actions._apps_by_time(snapshots, inputs)
        with threshold(actions, "LONG_INPUTS", 0):
            assert actions._apps_by_time(snapshots, inputs) == plain
        assert plain == expected


def test_linked_inputs_take_their_window_and_the_rest_the_time_order():
    """`_apps_at` searches by time only for events whose link names no
    snapshot; the answer is the one of searching every event first."""
    from compiler.records import InputEvent, Snapshot

    snapshots = (Snapshot(1, 100, 0, "UTC", 0, "focus", "a", "", None, False, True),
                 Snapshot(2, 200, 0, "UTC", 0, "focus", "b", "", None, False, True),
                 Snapshot(3, 300, 0, "UTC", 1, "focus", "c", "", None, False, False))
    inputs = [InputEvent(i, ts, ts, 0, "click", 1, None, None, None, None, None, None, None,
                         snapshot_id=link)
              for i, (ts, link) in enumerate([(150, 3), (250, None), (50, 99), (260, 1), (120, None)])]
    by_time = actions._apps_by_time(snapshots, inputs)
    assert by_time == ["a", "b", "a", "b", "a"]
    assert actions._apps_at(snapshots, inputs) == ["c", "b", "a", "a", "a"]
    unlinked = [event._replace(snapshot_id=None) for event in inputs]
    assert actions._apps_at(snapshots, unlinked) == by_time
