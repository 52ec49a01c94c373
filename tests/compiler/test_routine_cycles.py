"""One routine per loop: a loop gone round four times is one routine, named
the same in every window that holds it, and found by that name there."""

from __future__ import annotations

from compiler.records import Action, Step
from compiler.routines.cycles import distinct, find, natural_starts
from compiler.routines.ids import canonical_rotation, routine_id
from compiler.routines.mining import mine

FORM, BROWSER = "phantom-form", "phantom-browser"


def step(symbol: str) -> Step:
    """S: switch to the form; N, E: fields typed into; A: select all; U: submit;
    lower case: the browser."""
    if symbol == "S":
        return Step("switch", FORM, FORM)
    if symbol == "A":
        return Step("key", FORM, "ctrl+a")
    app = BROWSER if symbol.islower() else FORM
    return Step("click", app, f"/{symbol}", "push button", symbol, True)


def stream(*texts: str) -> list[list[Action]]:
    sessions, t = [], 0
    for text in texts:
        session = []
        for symbol in text:
            session.append(Action(step(symbol), t, t, 0, (f"input_events:{t}",)))
            t += 1000
        sessions.append(session)
    return sessions


def labels(routine) -> str:
    return "".join("S" if k[0] == "switch" else "A" if k[0] == "key" else k[3] for k in routine.keys)


LOOP = "SNAEAU"  # switch to the form, fill two fields (select all first), submit


def test_the_four_times_loop_is_one_routine_started_where_the_work_starts():
    sessions = stream("x" + LOOP * 4 + "y")
    mined = mine(sessions)
    assert len({r.id for r in mined}) == 1 and len(mined) > 1  # rotations, all one id
    (routine,) = distinct(mined, sessions)
    assert labels(routine) == LOOP and routine.support == 4
    assert natural_starts(routine, sessions) == 4


def test_every_rotation_has_the_id_of_the_canonical_one():
    keys = tuple(mine(stream(LOOP * 4))[0].keys)
    rotations = {routine_id(keys[i:] + keys[:i]) for i in range(len(keys))}
    assert rotations == {routine_id(canonical_rotation(keys))}
    assert routine_id(keys) != routine_id(tuple(reversed(keys)))


def test_a_pattern_that_only_happens_inside_the_loop_is_not_reported_again():
    # the fifth, unfinished round makes "SNAEA" more frequent than the loop, so
    # the miner keeps it; it never happens outside the loop's stretch
    sessions = stream(LOOP * 4 + "SNAEA")
    mined = mine(sessions)
    assert any(labels(r) == "SNAEA" for r in mined)
    assert [labels(r) for r in distinct(mined, sessions)] == [LOOP]


def test_a_pattern_that_also_happens_elsewhere_stays():
    sessions = stream(LOOP * 4, "qNAEp", "rNAEs", "tNAEv")
    shown = {labels(r) for r in distinct(mine(sessions), sessions)}
    assert shown == {LOOP, "NAE"}


def test_the_id_seen_in_one_window_finds_the_routine_in_another():
    """In the wider window the loop is always entered from the browser, so
    the miner reports the longer 'b then the loop' and absorbs the loop
    itself; the loop is still found by its id, counted by the miner's rule."""
    day = stream(LOOP * 3)
    (seen,) = distinct(mine(day), day)
    wider = stream("b" + LOOP, "c", "b" + LOOP, "b" + LOOP)
    mined = mine(wider)
    assert seen.id not in {r.id for r in mined}
    found = find(seen.id, mined, wider)
    assert found is not None and found.id == seen.id
    assert labels(found) == LOOP and found.support == 3
    assert find("000000000000", mined, wider) is None
