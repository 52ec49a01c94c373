"""`phantom routines`: recurring routines in the capture, their measures and
the crystallization verdicts (heuristic only, and heuristic + Gittins)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

import orjson

from ..errors import bounded
from ..parsers import Subcommands, integer, number
from .windows import add_window_arguments, window_of

if TYPE_CHECKING:
    from compiler.api import GateDecision, RoutineReport

MAX_LIMIT = 10_000
MAX_RUNS = 1_000_000_000
# Costs in tokens: a step that costs more than ten million tokens, or a
# program that costs more than a billion to review, is a typo, and past
# these the gate's arithmetic (λ* = (C_c/N + c_r)/c_v) runs into infinities.
MAX_STEP_TOKENS = 10_000_000.0
MAX_COMPILE_TOKENS = 1_000_000_000.0


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "routines", parents=[common], help="list recurring routines and whether to crystallize them",
        description="Mine recurring action n-grams (3–60 steps, ≥ 3 occurrences, ≥ 2 named "
        "targets) from the capture, measure each (support, days seen, guard coverage, H_UI/H_task "
        "quadrant, Routine Overhead Ratios, timing variation) and gate it: four structural "
        "criteria, then a Gittins index against the break-even threshold λ*, whose outcomes are "
        "dry passes of each routine's plan against the accessibility trees recorded at its "
        "occurrences and verified replays of programs compiled from it. A routine that only pads "
        "another with unresolved steps or chains another task onto it is listed as its variant. "
        "Deterministic.")
    add_window_arguments(p, nothing="the whole history")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--wide", action="store_true",
                   help="each routine on one line, its description whole at the end (for grep); "
                   "by default descriptions wrap to the terminal's width below their row")
    p.add_argument("--limit", type=integer, default=50,
                   help=f"show at most this many (0: all; up to {MAX_LIMIT}; default 50)")
    costs = p.add_argument_group("costs (agent-token equivalents; see compiler/routines/gate/costs.py)")
    costs.add_argument("--agent-tokens-per-step", type=number, default=2500.0,
                       help="c_v per step: a screenshot-driven agent step (default 2500)")
    costs.add_argument("--replay-tokens-per-step", type=number, default=1979.0,
                       help="c_r per step: what launching and checking a replay still costs (default 1979)")
    costs.add_argument("--compile-tokens", type=number, default=25000.0,
                       help="C_c: one-time cost of compiling and reviewing a program (default 25000)")
    costs.add_argument("--expected-runs", type=integer, default=100, help="N, future runs (default 100)")
    p.set_defaults(handler=run_routines)


def run_routines(args: argparse.Namespace) -> int:
    from compiler.api import CostModel, report_dict, routine_report
    from core.store.paths import resolve_db_path

    from ..progress import busy

    bounded(args.limit, 0, MAX_LIMIT, "--limit", "routines")
    bounded(args.expected_runs, 1, MAX_RUNS, "--expected-runs", "routines")
    bounded(args.agent_tokens_per_step, 1, MAX_STEP_TOKENS, "--agent-tokens-per-step", "routines")
    bounded(args.replay_tokens_per_step, 0, MAX_STEP_TOKENS, "--replay-tokens-per-step", "routines")
    bounded(args.compile_tokens, 0, MAX_COMPILE_TOKENS, "--compile-tokens", "routines")
    costs = CostModel(agent_tokens_per_step=args.agent_tokens_per_step,
                      replay_tokens_per_step=args.replay_tokens_per_step,
                      compile_tokens=args.compile_tokens, expected_runs=args.expected_runs)
    with busy("mining routines"):
        report, _ = routine_report(resolve_db_path(args.db), **window_of(args), costs=costs,
                                   limit=args.limit or None)
    if args.format == "json":
        sys.stdout.buffer.write(orjson.dumps(report_dict(report),
                                             option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n")
        return 0
    import shutil

    print(format_table(report, wide=args.wide, width=shutil.get_terminal_size((100, 24)).columns))
    return 0


def why(decision: GateDecision) -> str:
    """The verdict's reason in a word or two: the failed criteria by name,
    else what the Gittins gate concluded."""
    failed = [c.name for c in decision.criteria if not c.passed]
    if failed:
        return ",".join(failed)
    if not decision.evidence:
        return "no outcomes yet"
    if decision.lambda_star >= 1.0:
        return "never pays"
    return "index > λ*" if decision.gittins_pass else "index ≤ λ*"


def format_table(report: RoutineReport, *, wide: bool = False, width: int = 100) -> str:
    """One row per routine; its description on the lines below, wrapped to
    `width` (or, `wide`, at the end of the row, whole)."""
    import textwrap

    lines = []
    if not report.entries:
        lines.append(f"no routines: {report.actions} actions in {report.sessions} sessions, none "
                     "recurring ≥ 3 times with ≥ 2 named targets")
    else:
        header = (f"{'routine':<16} {'sup':>4} {'days':>4} {'steps':>5} {'guard':>5} {'H_UI':>5} "
                  f"{'H_task':>6} {'Q':<2} {'R_info':>7} {'R_inj':>6} {'heur':<4} {'+gitt':<5} "
                  f"{'why':<16}" + ("  what" if wide else ""))
        lines += [header.rstrip(), "-" * len(header.rstrip())]
        for entry in report.entries:
            m, d = entry.measures, entry.decision
            row = (f"r-{entry.routine.id:<14} {m.support:>4} {m.days_seen:>4} {m.length:>5} "
                   f"{m.guard_coverage:>5.2f} {m.h_ui:>5.2f} {m.h_task:>6.2f} {m.quadrant:<2} "
                   f"{m.r_info:>7.1f} {m.r_inject:>6.1f} {'yes' if d.heuristic_pass else 'no':<4} "
                   f"{'yes' if d.crystallize else 'no':<5} {why(d):<16}")
            if wide:
                lines.append(f"{row}  {entry.label}")
                continue
            lines.append(row.rstrip())
            lines += textwrap.wrap(entry.label, width=max(40, width), initial_indent="    ",
                                   subsequent_indent="      ", break_on_hyphens=False)
        if report.total_found > len(report.entries):
            lines.append(f"(+{report.total_found - len(report.entries)} more; --limit 0 shows all)")
    recurrence = report.recurrence
    if recurrence is not None:
        held = (f"{recurrence.h_out_of_sample:.1%} on the last {recurrence.test_days} day(s) "
                f"(mined on the first {recurrence.train_days})"
                if recurrence.h_out_of_sample is not None else "n/a (one day)")
        lines.append(f"recurrence h: {recurrence.h_in_sample:.1%} of {recurrence.total_actions} "
                     f"actions in-sample; held out: {held}")
    return "\n".join(lines)
