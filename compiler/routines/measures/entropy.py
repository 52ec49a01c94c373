"""The entropy decomposition of phantom.md §6.5: how much a routine's UI
(H_UI) and its typed content (H_task) vary across its occurrences, each
normalised per step position, and the quadrant the pair places it in.

H_UI is what the gate's UI-stability criterion reads (1 − H_UI ≥ 0.7); the
quadrant tells plain repetition (Q1) from a template with parameters (Q2),
UI drift (Q3) and exploration (Q4). Entropies are summed in a fixed order,
so the same occurrences give the same floats.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence

from compiler.records import Action

from ..mining import Routine

__all__ = ["LENGTH_BUCKETS", "QUADRANT_THRESHOLD", "TypedLength", "h_task", "h_ui", "quadrant"]

# Quadrant boundary on both normalised entropy axes; see `quadrant`.
QUADRANT_THRESHOLD = 0.3

# Typed-length buckets (keys) used as the H_task proxy when text was not captured.
LENGTH_BUCKETS: tuple[tuple[int, int | None, str], ...] = (
    (1, 3, "1-3"), (4, 10, "4-10"), (11, 30, "11-30"), (31, None, "31+"))

TypedLength = Callable[[Action], "int | None"]


def _entropy_bits(values: Sequence[Hashable]) -> float:
    """Shannon entropy of the empirical distribution, summed in a fixed order."""
    total = len(values)
    if total == 0:
        return 0.0
    counts = sorted(Counter(values).values())
    return -math.fsum((c / total) * math.log2(c / total) for c in counts)


def _normalised(values: Sequence[Hashable]) -> float:
    """Entropy divided by its maximum log2(k) for k observations — reached
    when every occurrence differs. With one observation there is no
    variation to see: 0."""
    k = len(values)
    if k < 2:
        return 0.0
    return min(1.0, _entropy_bits(values) / math.log2(k))


def h_ui(routine: Routine) -> float:
    """Normalised UI entropy in [0, 1].

    phantom.md §6.5 takes the Shannon entropy of the joint (action type,
    ARIA path) distribution across traces. A single pooled distribution
    over a whole routine would be high for every routine with several
    distinct steps, stable or not, so we measure it where it means
    something: per step position, over the (kind, accessibility path) pairs
    the occurrences used there (`Step.target` — the path for clicks and
    text entry; for keys and switches the target is part of the mining key,
    so those positions never vary). Each position is normalised by
    log2(occurrences) and the positions are averaged. 0 means every
    occurrence hit the same elements; the §6.4 gate wants 1 − H_UI ≥ 0.7."""
    n = routine.length
    if n == 0 or routine.support < 2:
        return 0.0
    per_position = [
        _normalised([(occ.actions[i].step.kind, occ.actions[i].step.target)
                     for occ in routine.occurrences])
        for i in range(n)
    ]
    return math.fsum(per_position) / n


def _length_bucket(length: int | None) -> str:
    if length is None:
        return "unknown"
    if length <= 0:
        return "0"
    for low, high, name in LENGTH_BUCKETS:
        if length >= low and (high is None or length <= high):
            return name
    raise AssertionError("unreachable")  # pragma: no cover


def h_task(routine: Routine, typed_length: TypedLength | None = None) -> tuple[float, str]:
    """Normalised task entropy in [0, 1] and what it was computed from.

    phantom.md §6.5: the mean, over text-entry positions, of the entropy of
    the values typed there — high means the content is a parameter. Each
    position is normalised by log2(occurrences) like `h_ui`.

    Passive capture records counts, not content (docs/DESIGN.md, Privacy), so the
    typed text is usually absent (`Action.text is None`). Then the typed
    *length* stands in for the value, bucketed 1–3, 4–10, 11–30, 31+ keys:
    a field that takes "ok" one day and a paragraph the next is a
    parameter, while the same short code typed every time is not. The proxy
    can only under-state variation (different texts of similar length look
    alike). `typed_length(action)` gives the key count (Action does not
    carry it); a missing length falls in an "unknown" bucket, and a
    captured text counts by its characters.

    Source flag: "text" when every typed value was captured, "lengths" when
    the proxy was used, "none" when the routine has no text entry (H_task =
    0), "unavailable" when text is missing and no `typed_length` was given
    (H_task = 0, which says nothing — read the flag)."""
    positions = [i for i, step in enumerate(routine.steps) if step.kind == "type"]
    if not positions:
        return 0.0, "none"
    actions = [[occ.actions[i] for occ in routine.occurrences] for i in positions]
    if all(a.text is not None for column in actions for a in column):
        values = [[a.text for a in column] for column in actions]
        source = "text"
    elif typed_length is None:
        return 0.0, "unavailable"
    else:
        def length_of(action: Action) -> int | None:
            measured = typed_length(action)
            if measured is None and action.text is not None:
                return len(action.text)
            return measured

        values = [[_length_bucket(length_of(a)) for a in column] for column in actions]
        source = "lengths"
    return math.fsum(_normalised(column) for column in values) / len(positions), source


def quadrant(h_ui_value: float, h_task_value: float,
             threshold: float = QUADRANT_THRESHOLD) -> str:
    """phantom.md §6.5 quadrant: Q1 low UI/low task (pure repetition), Q2 low
    UI/high task (template), Q3 high UI/low task (UI drift), Q4 high/high
    (exploratory).

    "Low" is ≤ 0.3 on the normalised axis. The paper gives no number for the
    quadrants; 0.3 is the one it does give twice. On the UI axis it is the
    §6.4 stability gate exactly (1 − H_UI ≥ 0.7 ⇔ H_UI ≤ 0.3), so Q1/Q2 are
    the routines that pass that gate and Q3/Q4 those that fail it. On the
    task axis it mirrors the §5.1 parameter threshold δ = 0.3 (a field is a
    parameter when its variation exceeds 0.3). Bounds are inclusive on the
    low side, as the gate's ≥ 0.7 is."""
    ui_low = h_ui_value <= threshold
    task_low = h_task_value <= threshold
    if ui_low:
        return "Q1" if task_low else "Q2"
    return "Q3" if task_low else "Q4"
