"""The generator's weight tables pick exactly what the probability ladders
they replaced picked, draw for draw, so the corpus stays byte-identical."""

from __future__ import annotations

import math
import random

import pytest

from synth.rng import Weights, choose


def ladder(r: float, search: bool) -> str:
    """The browser's old ladder, as it was written."""
    if r < 0.32:
        return "link"
    elif r < 0.36:
        return "background"
    elif r < 0.50 and search:
        return "search"
    elif r < 0.56:
        return "key"
    return "nothing"


TABLE = Weights.of((32, "link"), (4, "background"), (14, "search", lambda search: search), (6, "key"),
                   (44, "nothing"))


class Fixed(random.Random):
    """A generator whose next `random()` is given."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def draws_near_the_bounds() -> list[float]:
    """Every value `random()` can return (k / 2**53) within 64 steps of each bound."""
    values = []
    for bound in (0.32, 0.36, 0.50, 0.56):
        k = math.floor(bound * 2**53)
        values += [(k + d) / 2**53 for d in range(-64, 65)]
    return values + [0.0, (2**53 - 1) / 2**53]


def test_bounds_are_the_ladders_literals():
    assert TABLE.bounds == (0.32, 0.36, 0.50, 0.56, 1.0)
    assert Weights.of((740, "a"), (170, "b"), (75, "c"), (15, "d")).bounds == (0.74, 0.91, 0.985, 1.0)


@pytest.mark.parametrize("search", [True, False])
def test_table_picks_what_the_ladder_picked(search):
    draws = draws_near_the_bounds() + [random.Random(seed).random() for seed in range(2000)]
    for r in draws:
        assert choose(Fixed(r), TABLE, search) == ladder(r, search), r


def test_a_failed_condition_hands_the_draw_to_the_next_row():
    assert choose(Fixed(0.40), TABLE, True) == "search"
    assert choose(Fixed(0.40), TABLE, False) == "key"


def test_each_choice_consumes_exactly_one_draw():
    rng, twin = random.Random(5), random.Random(5)
    for _ in range(100):
        choose(rng, TABLE, False)
        twin.random()
    assert rng.random() == twin.random()


def test_bad_tables_are_refused():
    for rows in ((), ((0, "a"),), ((1.5, "a"),), ((1, "a"), (1, "b", lambda: True))):
        with pytest.raises(ValueError):
            Weights.of(*rows)
