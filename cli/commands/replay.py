"""`phantom replay` and `phantom runs`: replay a program on the live desktop
through the guarded policy engine, and show replay telemetry."""

from __future__ import annotations

import argparse
import json

from ..errors import EXIT_USAGE, CliError
from ..parsers import Subcommands, integer

MAX_RUNS = 10_000


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "replay", parents=[common], help="replay a program on the live desktop",
        description="Replay a compiled program step by step where the screen still matches: the "
        "recorded accessibility path, else a local embedding match that keeps the step's meaning, "
        "else stop and escalate with a reason. Input goes only to the program's own window (given "
        "the keyboard first, re-checked before every key and click), only after the whole plan "
        "was checked, and success is reported only when the demonstrations' end state is reached. "
        "Exit 0 on success, 1 when the run failed its verification, 2 for bad parameters, 3 on "
        "escalation, 4 when refused (wrong or ambiguous window, ambiguous screen, a deprecated "
        "program, no compatible program for an intent), 5 when busy (another replay or a "
        "recording holds the desktop). With --intent instead of a program, the active programs "
        "are ranked by how well their name, description and step labels fit the words, and the "
        "best one runs only if it passes every gate (its window is there, its whole plan fits "
        "the screen) with a compatibility score of at least 0.75 and no close second; otherwise "
        "nothing runs and the candidates are listed with the gate each failed.")
    p.add_argument("program", nargs="?", default="",
                   help="program name (the newest with that name that is not deprecated) or id (p-…)")
    p.add_argument("--intent", metavar="WORDS",
                   help="what to do, in words, instead of a program name, e.g. 'sign Grace up on "
                   "the form'; every parameter of the program it finds must still be given")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter value, e.g. --param 'P0=Ada Lovelace' (repeatable)")
    p.add_argument("--dry-run", action="store_true",
                   help="find the program's window and check every step its starting screen must "
                   "hold; send nothing (steps behind a screen change show as 'pending')")
    p.add_argument("--window", metavar="TITLE",
                   help="when several windows of the application fit the program, use the one whose "
                   "title contains TITLE")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=run_replay)

    p = sub.add_parser("runs", parents=[common], help="show replay telemetry",
                       description="Replay runs with per-step policy, scores and latency "
                       "(vlm_calls is always 0).")
    p.add_argument("--last", action="store_true", help="only the most recent run, with its steps")
    p.add_argument("--limit", type=integer, default=20, help=f"at most this many runs (1–{MAX_RUNS}, default 20)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(handler=run_runs)


def run_replay(args: argparse.Namespace) -> int:
    from core.store.paths import resolve_db_path
    from replay.api import ReplayRequest, replay
    from replay.params import parse_assignments
    from replay.results import EXIT_CODES, result_dict, result_lines

    if bool(args.program) == (args.intent is not None):
        raise CliError("phantom replay: give a program or --intent WORDS (one of them)", EXIT_USAGE)
    request = ReplayRequest(args.program, parse_assignments(args.param), dry_run=args.dry_run,
                            trigger="cli", window=args.window, intent=args.intent)
    result = replay(resolve_db_path(args.db), request)
    if args.format == "json":
        print(json.dumps(result_dict(result), sort_keys=True, indent=2))
    else:
        for line in result_lines(result):
            print(line)
    return EXIT_CODES[result.status]


def run_runs(args: argparse.Namespace) -> int:
    from core.store.paths import resolve_db_path
    from replay.telemetry import read_runs

    if not 1 <= args.limit <= MAX_RUNS:
        raise CliError(f"phantom runs: --limit must be between 1 and {MAX_RUNS}", EXIT_USAGE)
    records = read_runs(resolve_db_path(args.db), limit=1 if args.last else args.limit)
    if args.format == "json":
        print(json.dumps(records, sort_keys=True, indent=2))
        return 0
    if not records:
        print("no replay runs yet")
        return 0
    for run in records:
        duration = (run["finished_ms"] - run["started_ms"]) if run["finished_ms"] else None
        print(f"run {run['id']}: {run['program']} ({run['program_id']}) {run['status']}, "
              f"{run['steps_done']}/{run['steps_total']} steps"
              + (f", {duration} ms" if duration is not None else "")
              + f", via {run['trigger']}" + (f" — {run['reason']}" if run["reason"] else ""))
        if args.last or len(records) == 1:
            for step in run["steps"]:
                score = f" score {step['score']:.3f}" if step["score"] is not None else ""
                print(f"  step {step['index']:>2} {step['policy']:<21} {step['outcome']:<20} "
                      f"{(step['dispatch'] or '-'):<20} {step['latency_ms']:>4} ms{score} "
                      f"vlm_calls={step['vlm_calls']}")
    return 0
