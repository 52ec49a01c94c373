"""`phantom replay` and `phantom runs`: replay a program on the live desktop
through the guarded policy engine, and show replay telemetry."""

from __future__ import annotations

import json

from ..errors import EXIT_USAGE, CliError


def add_parsers(sub, common) -> None:
    p = sub.add_parser(
        "replay", parents=[common], help="replay a program on the live desktop",
        description="Replay a compiled program step by step where the screen still matches: the "
        "recorded accessibility path, else a local embedding match that keeps the step's meaning, "
        "else stop and escalate with a reason. Exit 0 on success, 3 on escalation, 4 when refused "
        "(wrong application, ambiguous screen), 2 for bad parameters.")
    p.add_argument("program", help="program name (latest with that name) or id (p-…)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter value, e.g. --param 'P0=Ada Lovelace' (repeatable)")
    p.add_argument("--dry-run", action="store_true",
                   help="check the guard and resolve the steps the current screen must hold; send nothing")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=run_replay)

    p = sub.add_parser("runs", parents=[common], help="show replay telemetry",
                       description="Replay runs with per-step policy, scores and latency "
                       "(vlm_calls is always 0).")
    p.add_argument("--last", action="store_true", help="only the most recent run, with its steps")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(handler=run_runs)


def run_replay(args) -> int:
    from core.store.paths import resolve_db_path
    from compiler.programs.records import ProgramFormatError
    from compiler.programs.store import UnknownProgram, load_program
    from replay.engine import ReplayEngine
    from replay.live import LiveTreeError
    from replay.params import ParameterError, parse_assignments
    from replay.results import EXIT_CODES, result_dict, result_lines
    from replay.telemetry import Telemetry

    db = resolve_db_path(args.db)
    try:
        supplied = parse_assignments(args.param)
        program = load_program(db, args.program)
    except ParameterError as exc:
        raise CliError(f"phantom replay: {exc}", EXIT_USAGE) from None
    except (UnknownProgram, ProgramFormatError) as exc:
        raise CliError(str(exc).strip("'\"")) from None
    engine = ReplayEngine(telemetry=None if args.dry_run else Telemetry(db))
    try:
        result = engine.run(program, supplied, dry_run=args.dry_run, trigger="cli")
    except ParameterError as exc:
        raise CliError(f"phantom replay: {exc}; nothing was sent", EXIT_USAGE) from None
    except LiveTreeError as exc:
        raise CliError(str(exc)) from None
    finally:
        engine.dispatcher.close()
        if engine.telemetry is not None:
            engine.telemetry.close()
    if args.format == "json":
        print(json.dumps(result_dict(result), sort_keys=True, indent=2))
    else:
        for line in result_lines(result):
            print(line)
    return EXIT_CODES[result.status]


def run_runs(args) -> int:
    from core.store import StoreError, open_readonly
    from core.store.paths import resolve_db_path

    try:
        connection = open_readonly(resolve_db_path(args.db))
    except StoreError as exc:
        raise CliError(str(exc)) from None
    try:
        if connection.pragma("user_version") < 2:
            runs = []
        else:
            runs = list(connection.execute(
                "SELECT r.id, r.program_id, coalesce(p.name, '?'), r.started_ms, r.finished_ms, "
                "r.status, r.trigger, r.steps_total, r.steps_done, r.escalations, r.reason "
                "FROM replay_runs r LEFT JOIN programs p ON p.id = r.program_id "
                "ORDER BY r.started_ms DESC, r.id DESC LIMIT ?", (1 if args.last else args.limit,)))
        steps = {}
        for run in runs:
            steps[run[0]] = list(connection.execute(
                "SELECT step_index, policy, outcome, dispatch, score, runner_up, attempts, "
                "latency_ms, reason, vlm_calls FROM replay_steps WHERE run_id = ? "
                "ORDER BY step_index, id", (run[0],)))
    finally:
        connection.close()
    records = [{
        "id": r[0], "program_id": r[1], "program": r[2], "started_ms": r[3], "finished_ms": r[4],
        "status": r[5], "trigger": r[6], "steps_total": r[7], "steps_done": r[8],
        "escalations": r[9], "reason": r[10],
        "steps": [{"index": s[0], "policy": s[1], "outcome": s[2], "dispatch": s[3], "score": s[4],
                   "runner_up": s[5], "attempts": s[6], "latency_ms": s[7], "reason": s[8],
                   "vlm_calls": s[9]} for s in steps[r[0]]],
    } for r in runs]
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
