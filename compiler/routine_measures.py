"""Per-routine measures: what a mined routine is worth and how safe it is to
replay (phantom.md §6, activity-frames.md §7).

Every function here is pure and reads a `compiler.routines.mining.Routine`
(and, where it says so, the sessions the routine was mined from). Nothing depends on a
clock, a locale or iteration order: local dates come from a `day_of`
function the caller passes in (zones are the caller's business), floats are
summed in a fixed order, and `RoutineMeasures.to_dict` rounds to 6 decimals
for the canonical JSON the CLI renders.

The measures
------------
support, days_seen
    Counted (non-overlapping) occurrences, and on how many distinct local
    dates an occurrence started — a routine seen 40 times on one afternoon
    is a burst, not a habit.
guard_coverage
    Share of the routine's steps anchored on something replay can check
    before acting: a resolved accessibility element or a URL
    (`Step.specific`). activity-frames §7 reports a median of 0.415; the
    rest of the steps can only be replayed blind.
h_ui, h_task, quadrant
    The entropy decomposition of phantom.md §6.5, normalised per step
    position (see `h_ui`, `h_task`, `quadrant`).
timing_cv
    Timing stability for the §6.4 gate (see `timing_cv`).
r_inject, r_info
    Routine Overhead Ratios of activity-frames §7 (see `overhead_ratios`).
successes, trials
    A passive proxy for the Gittins gate's observed outcomes (see
    `observed_outcomes`).

Recurrence h (activity-frames §7) is a property of a set of routines over a
corpus, not of one routine: `coverage` and `holdout_recurrence`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from compiler.routines.actions import step_key
from compiler.routines.mining import MAX_LENGTH, MIN_LENGTH, MIN_SPECIFIC, MIN_SUPPORT, Routine, mine
from compiler.routines.occurrences import SessionIndex

from .records import Action, Step
from .tokens import count_tokens

__all__ = [
    "AGENT_TOKENS_PER_STEP",
    "QUADRANT_THRESHOLD",
    "LENGTH_BUCKETS",
    "OverheadRatios",
    "Recurrence",
    "RoutineMeasures",
    "coverage",
    "days_seen",
    "guard_coverage",
    "h_task",
    "h_ui",
    "holdout_recurrence",
    "measure",
    "measure_all",
    "minimal_script",
    "observed_outcomes",
    "overhead_ratios",
    "plan_text",
    "quadrant",
    "support",
    "timing_cv",
    "train_days_for",
]

# activity-frames §7 cost model at a 1512×982 capture: image + context read +
# reasoning tokens per screenshot-driven agent step (the paper rounds to 2,500).
IMAGE_TOKENS = 1_979
CONTEXT_TOKENS = 350
REASONING_TOKENS = 180
AGENT_TOKENS_PER_STEP = IMAGE_TOKENS + CONTEXT_TOKENS + REASONING_TOKENS  # 2,509

# Quadrant boundary on both normalised entropy axes; see `quadrant`.
QUADRANT_THRESHOLD = 0.3

# Typed-length buckets (keys) used as the H_task proxy when text was not captured.
LENGTH_BUCKETS: tuple[tuple[int, int | None, str], ...] = (
    (1, 3, "1-3"), (4, 10, "4-10"), (11, 30, "11-30"), (31, None, "31+"))

# Ratio of the recurrence split: the first ceil(0.7·n) days train (activity-frames §7).
TRAIN_FRACTION = 0.7

_DECIMALS = 6

DayOf = Callable[[int], str]
TypedLength = Callable[[Action], "int | None"]
KeyFn = Callable[[Step], Hashable]


def _round(x: float) -> float:
    return round(float(x), _DECIMALS) + 0.0  # + 0.0: never "-0.0" in JSON


# -- counts ------------------------------------------------------------------------------------
def support(routine: Routine) -> int:
    """Non-overlapping occurrences counted by the miner (`Routine.support`)."""
    return routine.support


def days_seen(routine: Routine, day_of: DayOf) -> int:
    """Distinct local dates on which an occurrence started. `day_of(ts_ms)`
    maps a UTC millisecond time to a local date string in the capture's
    zone; the caller owns that choice."""
    return len({day_of(occ.actions[0].ts_ms) for occ in routine.occurrences})


def guard_coverage(routine: Routine) -> float:
    """Share of steps anchored on an accessibility target or a URL — the
    steps whose precondition replay can verify (`Step.specific`)."""
    if not routine.steps:
        return 0.0
    return sum(1 for step in routine.steps if step.specific) / len(routine.steps)


# -- entropy decomposition (phantom.md §6.5) ------------------------------------------------
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

    Passive capture records counts, not content (DESIGN.md, Privacy), so the
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


# -- timing --------------------------------------------------------------------------------
def timing_cv(routine: Routine) -> float:
    """Coefficient of variation of step durations (phantom.md §6.4, gate ≤ 0.4).

    A step's duration is the gap from its start to the next step's start
    (the last step has no observable end in passive capture). Per gap
    position i we take the mean and the population standard deviation
    across occurrences; the routine's CV is Σ std_i / Σ mean_i. Weighting
    by duration this way keeps a jittery 200 ms gap from dominating a
    routine whose long steps are steady, which an average of per-gap CVs
    would let it do. 0.0 with fewer than 2 occurrences or 2 steps, or when
    all gaps are 0."""
    k, n = routine.support, routine.length
    if k < 2 or n < 2:
        return 0.0
    stds, means = [], []
    for i in range(n - 1):
        gaps = [occ.actions[i + 1].ts_ms - occ.actions[i].ts_ms for occ in routine.occurrences]
        mean = math.fsum(gaps) / k
        means.append(mean)
        stds.append(math.sqrt(math.fsum((g - mean) ** 2 for g in gaps) / k))
    total = math.fsum(means)
    if total <= 0.0:
        return 0.0
    return math.fsum(stds) / total


# -- routine overhead ratios (activity-frames §7) ----------------------------------------
def plan_text(routine: Routine) -> str:
    """The compact plan an agent would be injected with: a header naming the
    routine, then one line per step in words (`Step.describe`)."""
    lines = [f"routine {routine.id} ({routine.length} steps)"]
    lines += [f"{i}. {step.describe()}" for i, step in enumerate(routine.steps, 1)]
    return "\n".join(lines)


def minimal_script(routine: Routine) -> str:
    """The information-theoretic floor: only the step keys, one per line,
    their non-empty fields joined by a space. A key is exactly what makes
    two steps the same step, so nothing shorter still names the routine;
    no header, no prose."""
    lines = []
    for k in routine.keys:
        fields = k if isinstance(k, tuple) else (k,)
        lines.append(" ".join(str(f) for f in fields if str(f)))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class OverheadRatios:
    """R = modelled agent tokens / tokens of a replacement, to 1 decimal."""

    agent_tokens: int
    plan_tokens: int
    script_tokens: int
    r_inject: float
    r_info: float


def overhead_ratios(routine: Routine) -> OverheadRatios:
    """Routine Overhead Ratios (activity-frames §7).

    Numerator: steps × 2,509 tokens, the modelled cost of a
    screenshot-driven agent doing the routine itself (1,979 image + 350
    context read + 180 reasoning at 1512×982). It is an upper bound: it
    assumes a fresh screenshot every step and no prompt caching.
    R_inject divides it by the cl100k_base tokens of `plan_text` (what
    injecting the plan costs instead); R_info by those of `minimal_script`
    (the floor any encoding of the routine must pay)."""
    agent = routine.length * AGENT_TOKENS_PER_STEP
    plan = count_tokens(plan_text(routine))
    script = count_tokens(minimal_script(routine))
    return OverheadRatios(agent, plan, script,
                          round(agent / max(plan, 1), 1), round(agent / max(script, 1), 1))


# -- observed outcomes -------------------------------------------------------------------------
def _index(sessions: Sequence[Sequence[Action]] | SessionIndex, key: KeyFn) -> SessionIndex:
    return sessions if isinstance(sessions, SessionIndex) else SessionIndex(sessions, key)


def observed_outcomes(sessions: Sequence[Sequence[Action]] | SessionIndex, routine: Routine,
                      key: KeyFn = step_key) -> tuple[int, int]:
    """(successes, trials) for the Gittins gate, read off passive data.

    There are no replay outcomes before a routine is replayed, but the user
    has been running it by hand. A *trial* is a place where the user began
    the routine: a non-overlapping occurrence of its first min(3, n) step
    keys. A *success* is a begun run that went to the end: a full
    occurrence. Every full occurrence starts with the prefix and disjoint
    full occurrences give disjoint prefixes, so successes ≤ trials. The
    proxy measures how reliably this sequence completes once started — an
    abandoned or branching routine gets a low rate — not how reliably a
    replay of it succeeds; it says nothing about UI drift. Pass the
    sessions the routine was mined from (or their `SessionIndex`)."""
    index = _index(sessions, key)
    prefix = routine.keys[:min(3, routine.length)]
    return len(index.find(routine.keys)), len(index.find(prefix))


# -- everything for one routine ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RoutineMeasures:
    """All per-routine measures; see the module docstring for each."""

    routine_id: str
    length: int
    support: int
    days_seen: int
    guard_coverage: float
    h_ui: float
    h_task: float
    h_task_source: str
    quadrant: str
    timing_cv: float
    agent_tokens: int
    plan_tokens: int
    script_tokens: int
    r_inject: float
    r_info: float
    successes: int
    trials: int

    def to_dict(self) -> dict:
        """JSON-safe builtins; floats rounded to 6 decimals (canonical JSON)."""
        return {
            "routine_id": self.routine_id,
            "length": self.length,
            "support": self.support,
            "days_seen": self.days_seen,
            "guard_coverage": _round(self.guard_coverage),
            "h_ui": _round(self.h_ui),
            "h_task": _round(self.h_task),
            "h_task_source": self.h_task_source,
            "quadrant": self.quadrant,
            "timing_cv": _round(self.timing_cv),
            "agent_tokens": self.agent_tokens,
            "plan_tokens": self.plan_tokens,
            "script_tokens": self.script_tokens,
            "r_inject": _round(self.r_inject),
            "r_info": _round(self.r_info),
            "successes": self.successes,
            "trials": self.trials,
        }


def measure(routine: Routine, sessions: Sequence[Sequence[Action]] | SessionIndex, *,
            day_of: DayOf, typed_length: TypedLength | None = None,
            key: KeyFn = step_key) -> RoutineMeasures:
    """Every measure of one routine mined from `sessions`."""
    ui = h_ui(routine)
    task, source = h_task(routine, typed_length)
    ratios = overhead_ratios(routine)
    successes, trials = observed_outcomes(sessions, routine, key)
    return RoutineMeasures(
        routine_id=routine.id,
        length=routine.length,
        support=routine.support,
        days_seen=days_seen(routine, day_of),
        guard_coverage=guard_coverage(routine),
        h_ui=ui,
        h_task=task,
        h_task_source=source,
        quadrant=quadrant(ui, task),
        timing_cv=timing_cv(routine),
        agent_tokens=ratios.agent_tokens,
        plan_tokens=ratios.plan_tokens,
        script_tokens=ratios.script_tokens,
        r_inject=ratios.r_inject,
        r_info=ratios.r_info,
        successes=successes,
        trials=trials,
    )


def measure_all(routines: Sequence[Routine], sessions: Sequence[Sequence[Action]], *,
                day_of: DayOf, typed_length: TypedLength | None = None,
                key: KeyFn = step_key) -> tuple[RoutineMeasures, ...]:
    """`measure` for many routines of one corpus, keying the sessions once."""
    index = _index(sessions, key)
    return tuple(measure(r, index, day_of=day_of, typed_length=typed_length, key=key)
                 for r in routines)


# -- recurrence h (activity-frames §7) --------------------------------------------------------
def _covered(lengths: Sequence[int], spans) -> int:
    """Positions covered by the union of (session, start, length) spans."""
    marks = [bytearray(n) for n in lengths]
    for si, start, n in spans:
        if not 0 <= si < len(marks) or start < 0 or start + n > len(marks[si]):
            raise ValueError(f"occurrence ({si}, {start}, {n}) lies outside the sessions")
        marks[si][start:start + n] = b"\x01" * n
    return sum(m.count(1) for m in marks)


def coverage(sessions: Sequence[Sequence[Action]], routines: Sequence[Routine]) -> float:
    """Recurrence h: the share of all actions in `sessions` that lie inside a
    counted occurrence of one of `routines` (union of covered positions /
    total actions; 0.0 for no actions). The routines' occurrences index into
    these sessions, so pass the sessions they were mined from."""
    lengths = [len(s) for s in sessions]
    total = sum(lengths)
    if total == 0:
        return 0.0
    spans = ((o.session_index, o.start, len(o.actions)) for r in routines for o in r.occurrences)
    return _covered(lengths, spans) / total


@dataclass(frozen=True, slots=True)
class Recurrence:
    """Recurrence h in-sample and on a temporal holdout (activity-frames §7).

    `h_in_sample`: routines mined on every day, coverage of every day.
    `h_out_of_sample`: routines mined on the first `train_days` days only,
    their key sequences counted on the later days, coverage of those days'
    actions — a routine has to have been learnt before it can be used.
    None when there is no later day. `split_day` is the first held-out day."""

    h_in_sample: float
    h_out_of_sample: float | None
    split_day: str | None
    days: int
    train_days: int
    test_days: int
    total_actions: int
    train_actions: int
    test_actions: int
    covered_in_sample: int
    covered_out_of_sample: int
    routines_in_sample: int
    routines_train: int

    def to_dict(self) -> dict:
        return {
            "h_in_sample": _round(self.h_in_sample),
            "h_out_of_sample": None if self.h_out_of_sample is None
            else _round(self.h_out_of_sample),
            "split_day": self.split_day,
            "days": self.days,
            "train_days": self.train_days,
            "test_days": self.test_days,
            "total_actions": self.total_actions,
            "train_actions": self.train_actions,
            "test_actions": self.test_actions,
            "covered_in_sample": self.covered_in_sample,
            "covered_out_of_sample": self.covered_out_of_sample,
            "routines_in_sample": self.routines_in_sample,
            "routines_train": self.routines_train,
        }


def train_days_for(days: int, train_fraction: float = TRAIN_FRACTION) -> int:
    """ceil(train_fraction · days), computed exactly (0.7 · 10 is 7, not the
    float 7.000000000000001 whose ceiling is 8), then kept within
    [1, days − 1] so that both sides are non-empty when there are ≥ 2 days."""
    if days <= 0:
        return 0
    if days == 1:
        return 1
    wanted = math.ceil(Fraction(repr(float(train_fraction))) * days)
    return min(max(wanted, 1), days - 1)


def holdout_recurrence(sessions_by_day: Sequence[tuple[str, Sequence[Sequence[Action]]]],
                       train_fraction: float = TRAIN_FRACTION, *,
                       min_support: int = MIN_SUPPORT, min_length: int = MIN_LENGTH,
                       max_length: int = MAX_LENGTH, min_specific: int = MIN_SPECIFIC,
                       key: KeyFn = step_key,
                       select: Callable[[Routine], bool] | None = None) -> Recurrence:
    """In-sample and temporal-holdout recurrence h.

    `sessions_by_day` holds (local date, that day's sessions); days are
    ordered by their date string (ISO dates sort chronologically) and must
    be distinct. The first ceil(train_fraction · n) days train (at least one
    day, and at least one day is held out when n ≥ 2). `select` optionally
    keeps only some mined routines (for example the delegable ones — those
    the gate would crystallize) on both sides."""
    if isinstance(train_fraction, bool) or not isinstance(train_fraction, (int, float)) \
            or not 0.0 < float(train_fraction) < 1.0:
        raise ValueError(f"train_fraction must be in (0, 1), got {train_fraction!r}")
    days = sorted(((str(day), tuple(tuple(s) for s in sess)) for day, sess in sessions_by_day),
                  key=lambda item: item[0])
    labels = [day for day, _ in days]
    if len(set(labels)) != len(labels):
        raise ValueError("sessions_by_day names a day more than once")
    params = dict(min_support=min_support, min_length=min_length, max_length=max_length,
                  min_specific=min_specific, key=key)
    keep = select if select is not None else (lambda routine: True)

    every = [s for _, sess in days for s in sess]
    all_routines = [r for r in mine(every, **params) if keep(r)]
    total = sum(len(s) for s in every)
    covered_all = _covered([len(s) for s in every],
                           ((o.session_index, o.start, len(o.actions))
                            for r in all_routines for o in r.occurrences))

    n_train = train_days_for(len(days), train_fraction)
    train = [s for _, sess in days[:n_train] for s in sess]
    test = [s for _, sess in days[n_train:] for s in sess]
    train_routines = [r for r in mine(train, **params) if keep(r)] if train else []
    index = SessionIndex(test, key)
    test_total = index.total_actions
    spans = ((si, start, r.length) for r in train_routines for si, start in index.find(r.keys))
    covered_test = _covered([len(s) for s in index.sessions], spans)

    return Recurrence(
        h_in_sample=covered_all / total if total else 0.0,
        h_out_of_sample=(covered_test / test_total if test_total else 0.0)
        if n_train < len(days) else None,
        split_day=labels[n_train] if n_train < len(days) else None,
        days=len(days),
        train_days=n_train,
        test_days=len(days) - n_train,
        total_actions=total,
        train_actions=sum(len(s) for s in train),
        test_actions=test_total,
        covered_in_sample=covered_all,
        covered_out_of_sample=covered_test,
        routines_in_sample=len(all_routines),
        routines_train=len(train_routines),
    )
