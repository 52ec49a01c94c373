"""`phantom compile-program` and `phantom programs`: compile demonstrations
(or a mined routine) into a stored program, list the stored ones, promote,
deprecate, describe or delete one.

Each command parses its arguments, calls program memory's front door
(`programs/api.py`) and prints; the front door's errors reach `cli.main`
as they are raised, which prints each as one line with its kind's exit
status."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from ..errors import EXIT_USAGE, CliError
from ..parsers import Subcommands
from .windows import add_window_arguments, window_of

if TYPE_CHECKING:
    from compiler.programs.build import CompileReport
    from compiler.programs.records import EndState, ProgramStep
    from programs.api import ProgramSummary, Standing


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "compile-program", parents=[common], help="compile recorded demonstrations into a program",
        description="Align the finished recordings named NAME (at least two), keep the steps every "
        "demonstration shares, turn typed fields that vary (mean pairwise normalized Levenshtein "
        "distance > 0.3) into parameters $P0, $P1, …, attach pre/postconditions, and store the "
        "program. With --routine, compile the occurrences of a mined routine (see `phantom "
        "routines`) instead; their typed text was never captured, so every typed field becomes a "
        "parameter. Prints the program id, its steps, parameters and every typed field's distance.")
    p.add_argument("name", metavar="NAME", help="the recording name (and the program's name)")
    p.add_argument("--routine", metavar="r-ID", help="compile this mined routine, named NAME, from "
                   "its occurrences in the window below (default: the whole history)")
    add_window_arguments(p, nothing="the whole history")
    p.add_argument("--param", action="append", default=[], metavar="STEP|FIELD",
                   help="make this typing step a parameter whatever its distance: a step number or "
                   "the field's label, e.g. --param 'File name' (repeatable)")
    p.add_argument("--fixed", action="append", default=[], metavar="STEP|FIELD",
                   help="keep this typing step's recorded text whatever its distance (repeatable)")
    p.add_argument("--relax-title", action="store_true",
                   help="accept any window of the application at replay, not only one whose title "
                   "has the words every demonstration's window title shared")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=run_compile_program)

    p = sub.add_parser(
        "programs", parents=[common], help="list compiled programs; promote, deprecate, describe or delete one",
        description="List the programs stored in the capture store: id, lifecycle state, source, "
        "steps, parameters, verified successful runs (ok), the last run's outcome, lineage (what a "
        "recompile came from, what replaced it) and name. A compiled program is a candidate; a "
        "verified run or `promote` makes it active (agents see and run only active programs); two "
        "failed runs in a row that sent input quarantine it until a verified run you start; a "
        "deprecated one (on request, or replaced by an active recompile) runs for nobody. "
        "NAME is a program's name (the newest with it) or id.")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(handler=run_programs)
    actions = p.add_subparsers(dest="programs_action", metavar="ACTION")
    # --db may come before the action or after it; an action's own default
    # must not erase one given before it.
    db_after = argparse.ArgumentParser(add_help=False)
    db_after.add_argument("--db", type=Path, default=argparse.SUPPRESS,
                          help="store path (default: $PHANTOM_DB or $XDG_DATA_HOME/phantom/phantom.sqlite3)")
    for action, text in (("promote", "make a program active: agents may run it (a quarantined one "
                                     "comes back only through a verified run you start)"),
                         ("deprecate", "retire a program: nobody runs it until it is promoted again")):
        q = actions.add_parser(action, parents=[db_after], help=text,
                               description=text[0].upper() + text[1:] + ".")
        q.add_argument("name", metavar="NAME")
        q.set_defaults(handler=run_lifecycle, action=action)
    q = actions.add_parser("describe", parents=[db_after], help="say in words what a program does",
                           description="Give a program a description (at most 500 characters; '' "
                           "clears it). With its name and step labels it is what `phantom replay "
                           "--intent` and agents' phantom_find_program match requests against.")
    q.add_argument("name", metavar="NAME")
    q.add_argument("text", metavar="TEXT")
    q.set_defaults(handler=run_lifecycle, action="describe")
    skill = actions.add_parser(
        "export-skill", parents=[db_after], help="write a program as an Agent Skill (SKILL.md)",
        description="Write the program as an Agent Skill that agents which read skills (Claude "
        "Code, Codex, Gemini CLI) can follow: front matter (name, description, metadata: program "
        "id, app, lifecycle state), then When to use, Inputs (parameters by name and shape, never "
        "the values recorded for them), Steps in words, Success check and Run (the exact `phantom "
        "replay` and `gdbus` commands). Only active programs, unless --any-state. Without --out "
        "the skill is printed.")
    skill.add_argument("name", metavar="NAME", help="program name (the newest with it) or id")
    skill.add_argument("--out", type=Path, metavar="DIR",
                       help="write DIR/<skill name>/SKILL.md (the folder layout skills are read from)")
    skill.add_argument("--redact-constants", action="store_true",
                       help="show text the person fixed in the demonstrations as <a fixed value>")
    skill.add_argument("--any-state", action="store_true",
                       help="export a candidate, quarantined or deprecated program too")
    skill.set_defaults(handler=run_export_skill)
    delete = actions.add_parser(
        "delete", parents=[db_after], help="delete a program (every version of a name) for good",
        description="Delete the program with this id, or every stored version of a program with "
        "this name, with its replay runs and their telemetry; then the store is rewritten so no "
        "freed page keeps a copy (a program holds what was typed in its demonstrations). The "
        "demonstrations themselves stay: `phantom forget --recording NAME` erases them. Asks "
        "first on a terminal.")
    delete.add_argument("program", metavar="NAME|ID")
    delete.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    delete.set_defaults(handler=run_delete_program)


def run_compile_program(args: argparse.Namespace) -> int:
    from compiler.programs.build import FieldChoices, report_dict
    from core.store.paths import resolve_db_path
    from programs.api import MinedRoutine, compile_program

    db = resolve_db_path(args.db)
    name = _name(args, "compile-program")
    if not args.routine and (args.day or args.since or args.until):
        raise CliError("phantom compile-program: --day, --since and --until choose where to find "
                       "--routine; demonstrations are found by name", EXIT_USAGE)
    routine = MinedRoutine(args.routine, **window_of(args)) if args.routine else None
    choices = FieldChoices(tuple(map(_selector, args.param)), tuple(map(_selector, args.fixed)),
                           args.relax_title)
    compiled = compile_program(db, name, routine=routine, choices=choices)
    if args.format == "json":
        sys.stdout.buffer.write(orjson.dumps(report_dict(compiled.report),
                                             option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n")
        return 0
    print(format_report(compiled.report))
    print(_standing_line(compiled.standing))
    return 0


def _standing_line(standing: Standing) -> str:
    """Where a freshly saved program stands in its lifecycle."""
    if standing.state != "candidate":
        return f"state: {standing.state}"
    line = ("state: candidate — agents may run it after a verified run you start or "
            "`phantom programs promote`")
    if standing.derived_from:
        line += f"; a recompile of {standing.derived_from}, which stays in use until then"
    return line


def run_programs(args: argparse.Namespace) -> int:
    from core.store.paths import resolve_db_path
    from programs.api import list_programs

    summaries = list_programs(resolve_db_path(args.db))
    if args.format == "json":
        rows = [_summary_row(s) for s in summaries]
        sys.stdout.buffer.write(orjson.dumps(rows, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
                                + b"\n")
        return 0
    print(format_programs(summaries))
    return 0


def run_lifecycle(args: argparse.Namespace) -> int:
    """`phantom programs promote|deprecate|describe NAME`."""
    from core.store.paths import resolve_db_path
    from programs import api

    db = resolve_db_path(args.db)
    name = _name(args, f"programs {args.action}")
    if args.action == "promote":
        identity, changes = api.promote(db, name)
        for who, change in changes:
            print(f"{who} {change.describe()}")
    elif args.action == "deprecate":
        identity, change = api.deprecate(db, name)
        print(f"{identity} {change.describe()}")
    else:
        identity = api.describe(db, name, args.text)
        print(f"{identity} described" if args.text.strip() else f"{identity}: description cleared")
    return 0


def run_export_skill(args: argparse.Namespace) -> int:
    """`phantom programs export-skill NAME [--out DIR]`."""
    from core.store.paths import resolve_db_path
    from replay.skill import export_skill

    from ..output import write_output

    skill = export_skill(resolve_db_path(args.db), _name(args, "programs export-skill"),
                         redact_constants=args.redact_constants, any_state=args.any_state)
    if args.out is None:
        sys.stdout.write(skill.text)
        return 0
    folder = args.out / skill.name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(f"phantom programs export-skill: cannot create {folder}: "
                       f"{exc.strerror or exc}") from None
    target = folder / "SKILL.md"
    write_output(target, skill.text.encode("utf-8"), private=True)
    print(f"wrote {target} ({skill.program_id})")
    return 0


def _summary_row(summary: ProgramSummary) -> dict[str, Any]:
    row = {name: getattr(summary, name) for name in summary.__dataclass_fields__
           if name not in ("standing", "program")}
    standing = summary.standing
    row.update({name: getattr(standing, name) for name in standing.__dataclass_fields__})
    row["failure_streak"] = list(standing.failure_streak)
    return row


def run_delete_program(args: argparse.Namespace) -> int:
    from core.store.paths import resolve_db_path
    from programs.api import deletable, delete

    from .forgetting import confirm

    db = resolve_db_path(args.db)
    matches = deletable(db, args.program)
    print(format_programs(matches))
    confirm(args.yes, f"Delete {'this program' if len(matches) == 1 else 'these programs'} and "
            "their replay runs for good?", "programs delete")
    scrubbed = delete(db, matches)
    print(f"deleted {len(matches)} program(s) with their replay runs"
          + ("; the store was rewritten and its WAL emptied" if scrubbed else
             "; warning: a reader kept the WAL from being emptied until the next checkpoint"))
    return 0


def _name(args: argparse.Namespace, command: str) -> str:
    name: str = args.name.strip()
    if not name:
        raise CliError(f"phantom {command}: NAME must not be empty", EXIT_USAGE)
    return name


def _selector(text: str) -> int | str:
    """A step number or a field label."""
    text = text.strip()
    if not text:
        raise CliError("phantom compile-program: --param/--fixed need a step number or a field label",
                       EXIT_USAGE)
    return int(text) if text.isdigit() else text


def format_report(report: CompileReport) -> str:
    from compiler.programs.variance import DELTA

    program = report.program
    plural = "s" if len(program.parameters) != 1 else ""
    traces = "demonstrations" if program.source == "demonstration" else "occurrences"
    lines = [f"compiled {program.id} {_quote(program.name)} ({program.source}) from {program.traces} "
             f"{traces}: {len(program.steps)} steps, {len(program.parameters)} "
             f"parameter{plural}, {report.dropped_steps} recorded action(s) dropped",
             f"app {program.app or '(unknown)'}; starts at {program.guard.start_path or '(no target)'}",
             f"window: {_words(program.guard.title_tokens, 'any title (relaxed, or nothing shared)')}",
             f"ends: {_end(program.end_state)}",
             "steps:"]
    for step in program.steps:
        lines.append(f"  {step.index:>3}  {step.action:<6}  {_describe(step)}"
                     f"   [pre {step.precondition.kind}; post {_post(step)}]")
    if program.parameters:
        lines.append("parameters:")
        for parameter in program.parameters:
            samples = ", ".join(_quote(s) for s in parameter.samples) or "(not recorded)"
            lines.append(f"  ${parameter.name}  {_quote(parameter.field)} (step {parameter.step})  "
                         f"distance {_distance(parameter.mean_distance)}  samples: {samples}")
    if report.distances:
        lines.append(f"typed fields (a parameter when distance > δ = {DELTA}):")
        for item in report.distances:
            verdict = "parameter" if item.parameterized else "literal"
            lines.append(f"  step {item.step:>3}  {_quote(item.field):<24} {_distance(item.distance):>9}"
                         f"  {verdict}")
    if report.warnings:
        lines.append("warnings:")
        lines.extend(f"  - {warning}" for warning in report.warnings)
    return "\n".join(lines)


def format_programs(summaries: Sequence[ProgramSummary]) -> str:
    if not summaries:
        return "no programs stored; record a task twice and run `phantom compile-program NAME`"
    header = (f"{'id':<15} {'state':<11} {'source':<13} {'steps':>5} {'params':>6} {'ok':>3}  "
              f"{'last outcome':<24} {'created (UTC)':<16}  {'lineage':<31} name")
    lines = [header, "-" * len(header)]
    for s in summaries:
        steps = "?" if s.steps is None else str(s.steps)
        params = "?" if s.parameters is None else str(s.parameters)
        created = datetime.fromtimestamp(s.created_ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")
        standing = s.standing
        line = (f"{s.id:<15} {standing.state:<11} {s.source:<13} {steps:>5} {params:>6} "
                f"{standing.successes:>3}  {(standing.last_outcome or '-')[:24]:<24} {created:<16}  "
                f"{_lineage(standing):<31} {s.name}")
        if standing.description:
            line += f" — {_quote(standing.description[:60])}"
        if s.problem:
            line += f"  (unreadable: {s.problem})"
        lines.append(line)
    return "\n".join(lines)


def _lineage(standing: Standing) -> str:
    parts = []
    if standing.derived_from:
        parts.append(f"from {standing.derived_from}")
    if standing.replaced_by:
        parts.append(f"by {standing.replaced_by}")
    return ", ".join(parts) or "-"


def _describe(step: ProgramStep) -> str:
    target = step.target
    if step.action == "switch":
        return f"to {step.app}"
    if step.action == "key":
        return f"{step.key} in {step.app}"
    what = "(no target)"
    if target is not None:
        what = f"{target.role or 'element'} {_quote(target.display)}" if target.display else (
            target.role or ("(no target)" if not target.path else target.path))
    if step.action == "type":
        value = step.text if step.parameter else _quote(step.text or "")
        how = " (replaces the field)" if step.entry == "replace" else ""
        return f"{what} ← {value}{how}"
    return what


def _words(words: Sequence[str], otherwise: str) -> str:
    return "title with " + " ".join(_quote(w) for w in words) if words else otherwise


def _end(end: EndState | None) -> str:
    if end is None:
        return "not known (replay checks that no unexpected window is left open)"
    shows = f", showing {', '.join('$' + p for p in end.title_parameters)}" if end.title_parameters else ""
    return f"in {end.app}, {_words(end.title_tokens, 'any title')}{shows} (from the {end.source})"


def _post(step: ProgramStep) -> str:
    condition = step.postcondition
    return condition.expect if condition.kind == "state_delta" else condition.kind


def _distance(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.4f}"


def _quote(text: str) -> str:
    return orjson.dumps(text).decode("utf-8")
