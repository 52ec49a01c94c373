"""Placing a switch at the first input into the window it switched to
(`compiler.routines.actions._switches_at_first_input`): the same answer as
the plain definition, and work that grows linearly with the switches and
linked inputs — counted in comparisons of timestamps, never in seconds
(issue 27: the pass restarted its search for every switch, 83 % of a
20-day compile)."""

from __future__ import annotations

import random

from compiler.records import Action, Step
from compiler.routines.actions import SWITCH_LEAD_MS, _switches_at_first_input

APPS = ("firefox", "thunderbird", "code", "terminal", "calc")


def naive(switches: tuple[Action, ...], linked: list[tuple[int, str]]) -> list[Action]:
    """The definition, read literally: for every switch, scan every linked
    input from the start (the pass as it was before issue 27)."""
    if not linked:
        return list(switches)
    linked = sorted(linked)
    moved = []
    previous = None
    for action in switches:
        app = action.step.app
        earliest = next((ts for ts, into in linked
                         if into == app and (previous is None or ts > previous)
                         and action.ts_ms - SWITCH_LEAD_MS <= ts < action.ts_ms), None)
        previous = action.ts_ms
        moved.append(action._replace(ts_ms=earliest - 1, end_ms=earliest - 1) if earliest is not None else action)
    return moved


class Counted(int):
    """A timestamp that counts every ordering comparison made with it."""

    comparisons = 0

    def __lt__(self, other: object) -> bool:
        Counted.comparisons += 1
        return int(self) < other  # type: ignore[operator]

    def __le__(self, other: object) -> bool:
        Counted.comparisons += 1
        return int(self) <= other  # type: ignore[operator]

    def __gt__(self, other: object) -> bool:
        Counted.comparisons += 1
        return int(self) > other  # type: ignore[operator]

    def __ge__(self, other: object) -> bool:
        Counted.comparisons += 1
        return int(self) >= other  # type: ignore[operator]


def switch(app: str, ts: int, row: int) -> Action:
    return Action(Step("switch", app, app), ts, ts, 0, (f"snapshots:{row}",))


def a_day(rng: random.Random, switches: int, per_switch: int, *, counted: bool = False,
          ordered: bool = True) -> tuple[tuple[Action, ...], list[tuple[int, str]]]:
    """Switches every few seconds, each with up to `per_switch` linked
    inputs around it (some into the window switched to, shortly before the
    switch: the click that brought it forward), in time order like
    `derive_actions` makes them unless `ordered` is false."""
    stamp = Counted if counted else int
    actions, linked = [], []
    t = 1_000_000
    for row in range(switches):
        t += rng.randint(1, 12_000)
        app = rng.choice(APPS)
        actions.append(switch(app, t, row))
        for _ in range(rng.randint(0, per_switch)):
            linked.append((stamp(t + rng.randint(-SWITCH_LEAD_MS - 2_000, 9_000)), rng.choice((app, *APPS))))
    if ordered:
        linked.sort()
    else:
        rng.shuffle(actions)
        rng.shuffle(linked)
    return tuple(actions), linked


def comparisons(switches: tuple[Action, ...], linked: list[tuple[int, str]], place=_switches_at_first_input) -> int:
    Counted.comparisons = 0
    place(switches, list(linked))
    return Counted.comparisons


def test_same_answer_as_the_definition_on_random_days():
    rng = random.Random(27)
    for trial in range(400):
        switches, linked = a_day(rng, rng.randint(0, 60), rng.randint(0, 6), ordered=trial % 4 != 3)
        if trial % 5 == 0:   # ties: inputs and switches in the same millisecond
            linked = [(ts - ts % 1_000, app) for ts, app in linked]
            switches = tuple(s._replace(ts_ms=s.ts_ms - s.ts_ms % 1_000) for s in switches)
        assert _switches_at_first_input(switches, list(linked)) == naive(switches, list(linked)), trial


def test_a_switch_moves_to_the_click_that_brought_its_window_forward():
    switches = (switch("code", 10_000, 1), switch("firefox", 20_000, 2), switch("code", 30_000, 3))
    linked = [(19_000, "firefox"), (19_500, "firefox"), (29_000, "firefox"), (24_000, "code"), (26_000, "code")]
    moved = _switches_at_first_input(switches, linked)
    assert [a.ts_ms for a in moved] == [10_000, 18_999, 25_999]   # 24,000 is too early: more than 5 s before
    # an input before the previous switch is not this switch's
    assert [a.ts_ms for a in _switches_at_first_input(switches[1:], [(19_000, "code")])] == [20_000, 30_000]


def test_work_grows_linearly_with_switches_and_inputs():
    rng = random.Random(7)
    small = a_day(rng, 1_000, 4, counted=True)
    large = a_day(rng, 10_000, 4, counted=True)
    size_small = len(small[0]) + len(small[1])
    size_large = len(large[0]) + len(large[1])
    ours_small, ours_large = comparisons(*small), comparisons(*large)
    # a few comparisons per switch and per input, at either size
    assert ours_small <= 6 * size_small
    assert ours_large <= 6 * size_large
    assert ours_large / ours_small <= 1.2 * size_large / size_small
    # the counter does see quadratic work: the literal definition blows the bound at 1,000 switches
    assert comparisons(*small, place=naive) > 20 * 6 * size_small
