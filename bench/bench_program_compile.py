"""Benchmark: compiling a program from demonstrations.

Run from the repository root:

    python bench/bench_program_compile.py [--traces 5] [--steps 30] [--runs 20]

Builds, in memory and deterministically, `--traces` demonstrations of a
`--steps`-step form task (clicks on named buttons and fields, typing into
three fields whose text differs between demonstrations and into others
whose text does not, a save shortcut), with a few noise clicks inserted into
some demonstrations at fixed positions. Measures `compile_program` end to
end (alignment, parameter detection, conditions, canonical JSON round trip
and id): the median wall time of `--runs` runs. As the baseline, in the
same run, the same compile with a naive alignment — a pure-Python O(n·m)
longest-common-subsequence table per pair, for the medoid and for the
matches — and the ratio. Both must give the same program. Target: ≤ 50 ms
for 5 × 30. Timings go to stdout only; nothing here is asserted except that
the two alignments agree.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

from compiler.programs.align import align_traces  # noqa: E402
from compiler.programs.build import compile_aligned, compile_program  # noqa: E402
from compiler.programs.traces import Trace, TraceAction  # noqa: E402
from compiler.records import Action, Step  # noqa: E402

APP = "soffice"
FRAME = "soffice/frame[@name='Expense report']/panel"
NAMES = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
         "Donald Knuth", "Frances Allen"]
CITIES = ["Berlin", "Lisbon", "Nairobi", "Osaka", "Quito", "Tromsø", "Hobart"]
AMOUNTS = ["12.50", "740.00", "3.99", "1288.10", "61.00", "9.75", "402.20"]


def _step_plan(steps: int) -> list[tuple[str, str, int]]:
    """(kind, label, varying-field index or -1) for each step of the task."""
    plan: list[tuple[str, str, int]] = []
    varying = 0
    n = 0
    while len(plan) < steps:
        slot = n % 6
        if slot == 0:
            plan.append(("click", f"Section {n}", -1))
        elif slot in (1, 3):
            field = f"Field {n}"
            plan.append(("click", field, -1))
            if len(plan) < steps:
                plan.append(("type", field, varying if varying < 3 and slot == 1 else -1))
                varying += slot == 1
        elif slot == 4:
            plan.append(("key", "ctrl+s", -1))
        else:
            plan.append(("click", f"Next {n}", -1))
        n += 1
    return plan[:steps]


def _action(kind: str, label: str, ts: int, text: str | None = None) -> TraceAction:
    if kind == "key":
        step = Step("key", APP, label)
    else:
        role = "text" if label.startswith("Field") else "push button"
        step = Step(kind, APP, f"{FRAME}/{role}[@name='{label}']", role, label, True)
    return TraceAction(Action(step, ts, ts + 100, 0, (f"input_events:{ts}",), text),
                       x=100 + ts % 700 if kind == "click" else None,
                       y=200 + ts % 300 if kind == "click" else None)


def demonstrations(traces: int, steps: int) -> tuple[Trace, ...]:
    plan = _step_plan(steps)
    result = []
    for t in range(traces):
        actions = []
        ts = 1_000_000 * (t + 1)
        for position, (kind, label, varying) in enumerate(plan):
            if t % 2 == 1 and position in (7, 19):        # noise: a stray click
                actions.append(_action("click", f"Help {t}-{position}", ts))
                ts += 700
            text = None
            if kind == "type":
                pool = (NAMES, CITIES, AMOUNTS)[varying] if varying >= 0 else None
                text = pool[t % len(pool)] if pool else f"constant text {position}"
            actions.append(_action(kind, label, ts, text))
            ts += 900
        result.append(Trace(f"bench:{t}", tuple(actions)))
    return tuple(result)


# -- the naive baseline ----------------------------------------------------------------------
def _lcs_table(a, b) -> list[list[int]]:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(len(b) - 1, -1, -1):
            row[j] = below[j + 1] + 1 if a[i] == b[j] else max(below[j], row[j + 1])
    return table


def naive_matches(reference, other) -> list[int]:
    table = _lcs_table(reference, other)
    matched = [-1] * len(reference)
    i = j = 0
    while i < len(reference) and j < len(other):
        if reference[i] == other[j] and table[i][j] == table[i + 1][j + 1] + 1:
            matched[i] = j
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return matched


def naive_medoid(codes) -> int:
    totals = [0] * len(codes)
    for i in range(len(codes)):
        for j in range(i + 1, len(codes)):
            distance = len(codes[i]) + len(codes[j]) - 2 * _lcs_table(codes[i], codes[j])[0][0]
            totals[i] += distance
            totals[j] += distance
    return min(range(len(codes)), key=lambda i: (totals[i], i))


def naive_compile(name, traces):
    aligned = align_traces(traces, match=naive_matches, pick=naive_medoid)
    return compile_aligned(name, traces, aligned, source="demonstration")


def _median_ms(function, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--traces", type=int, default=5)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)

    traces = demonstrations(args.traces, args.steps)
    fast = compile_program("bench", traces, source="demonstration")
    slow = naive_compile("bench", traces)
    same = fast.program == slow.program and fast.program.id == slow.program.id
    if not same:
        print("the naive alignment gave a different program", file=sys.stderr)
        return 1

    compile_ms = _median_ms(lambda: compile_program("bench", traces, source="demonstration"), args.runs)
    naive_ms = _median_ms(lambda: naive_compile("bench", traces), args.runs)
    align_ms = _median_ms(lambda: align_traces(traces), args.runs)
    naive_align_ms = _median_ms(lambda: align_traces(traces, match=naive_matches, pick=naive_medoid),
                                args.runs)
    program = fast.program
    print(f"program compile: {args.traces} traces × {args.steps} steps "
          f"({sum(len(t.actions) for t in traces)} actions), median of {args.runs} runs")
    print(f"  result: {len(program.steps)} steps, {len(program.parameters)} parameters, "
          f"{fast.dropped_steps} dropped, id {program.id}")
    print(f"  compile_program (rapidfuzz Indel)   {compile_ms:8.2f} ms   target ≤ 50 ms")
    print(f"  compile, naive O(n·m) alignment     {naive_ms:8.2f} ms   ratio {naive_ms / compile_ms:5.1f}×")
    print(f"  alignment only, rapidfuzz           {align_ms:8.2f} ms")
    print(f"  alignment only, naive               {naive_align_ms:8.2f} ms   ratio "
          f"{naive_align_ms / align_ms:5.1f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
