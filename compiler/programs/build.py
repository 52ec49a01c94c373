"""Compiling aligned demonstrations into a program (phantom.md §3 M3, §5).

`compile_program(name, traces, source=…)` aligns the traces (`align.py`),
turns every aligned position into a step — its target from the
demonstrations, typed text as a literal or a parameter (`variance.py`), and
its pre/postconditions (`conditions.py`) — and returns the program together
with what a person should check before trusting it: every type step's
distance (so a field just under the threshold is visible), how many
recorded actions were dropped as noise, and warnings for steps that replay
cannot verify.

The person can overrule the variance rule per field: `params` makes a type
step a parameter whatever its distance (a file name that differed by one
character between two demonstrations is still a name to give each time),
`fixed` makes it a literal. A selector is a step index or the field's label.
The window guard keeps the title words every demonstration shared
(`relax_title` drops them, for a task done in windows whose titles have
nothing in common), and the end state is where every demonstration ended.

Pure: the same traces and choices give the same program, byte for byte, and
so the same id.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import orjson

from core.a11y.path import PathError, parse
from core.errors import quoted

from .align import AlignedTraces, align_traces
from .conditions import postcondition, precondition, unverified
from .errors import ProgramCompileError
from .records import EndState, Guard, Parameter, Program, ProgramStep, Target, from_json, to_json
from .titles import contains_value, end_words, shared_words
from .traces import Trace, TraceAction
from .variance import DELTA, FieldDecision, decide

SOURCES = ("demonstration", "routine")
NEAR_THRESHOLD = 0.05      # report fields this close to δ: two traces move a mean a lot
DISTANCE_DIGITS = 6        # distances are stored rounded: shorter bodies, same decisions


@dataclass(frozen=True, slots=True)
class FieldDistance:
    """One type step's variance, as reported."""

    step: int
    field: str
    distance: float | None     # None: some value was not recorded
    parameterized: bool


@dataclass(frozen=True, slots=True)
class FieldChoices:
    """The person's overrides: type steps (by index or field label) that are
    parameters, or literals, whatever their distance; and whether the window
    guard ignores titles."""

    params: tuple[int | str, ...] = ()
    fixed: tuple[int | str, ...] = ()
    relax_title: bool = False


@dataclass(frozen=True, slots=True)
class CompileReport:
    program: Program
    distances: tuple[FieldDistance, ...]
    dropped_steps: int
    warnings: tuple[str, ...]


def compile_program(name: str, traces: Sequence[Trace], *, source: str,
                    choices: FieldChoices = FieldChoices()) -> CompileReport:
    """Align and compile. Raises ProgramCompileError (one line) when the
    traces cannot make a program."""
    _check(name, traces, source)
    return compile_aligned(name, traces, align_traces(traces), source=source, choices=choices)


def compile_aligned(name: str, traces: Sequence[Trace], aligned: AlignedTraces, *,
                    source: str, choices: FieldChoices = FieldChoices()) -> CompileReport:
    """The second half of `compile_program`, from an alignment already made."""
    _check(name, traces, source)
    _check_choices(aligned, choices)
    if not aligned.steps:
        raise ProgramCompileError(
            f"the {len(traces)} demonstrations share no steps; record the same task each time")
    steps: list[ProgramStep] = []
    parameters: list[Parameter] = []
    distances: list[FieldDistance] = []
    notes: list[str] = []
    rows = aligned.steps
    for index, row in enumerate(rows):
        following = rows[index + 1] if index + 1 < len(rows) else None
        step, parameter, distance, step_notes = _compile_step(
            index, row, following, aligned.reference, f"P{len(parameters)}", choices)
        steps.append(step)
        parameters.extend([parameter] if parameter else [])
        distances.extend([distance] if distance else [])
        notes.extend(step_notes)

    acting = [step for step in steps if step.action != "switch"]
    first = acting[0] if acting else steps[0]
    app = first.target.app if first.target is not None else first.app
    start_path = first.target.path if first.target is not None and first.target.path else None
    title_tokens = () if choices.relax_title else _start_words(traces, app)
    program = Program(
        name=name, source=source, app=app, steps=tuple(steps), parameters=tuple(parameters),
        guard=Guard(app=app, start_path=start_path, title_tokens=title_tokens), traces=len(traces),
        origin=tuple(trace.origin for trace in traces), dropped_steps=aligned.dropped_steps,
        end_state=_end_state(traces, parameters, source, choices.relax_title))
    # Round-trip through the stored form: what is returned is exactly what a
    # later load gives (validated, with its id).
    program = from_json(to_json(program))
    return CompileReport(program, tuple(distances), aligned.dropped_steps,
                         _warnings(len(traces), distances, notes, aligned.dropped_steps))


def report_dict(report: CompileReport) -> dict[str, Any]:
    """JSON-safe builtins for canonical rendering."""
    return {
        "id": report.program.id,
        "program": orjson.loads(to_json(report.program)),
        "delta": DELTA,
        "distances": [{"step": d.step, "field": d.field, "distance": d.distance,
                       "parameterized": d.parameterized} for d in report.distances],
        "dropped_steps": report.dropped_steps,
        "warnings": list(report.warnings),
    }


def _check(name: str, traces: Sequence[Trace], source: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise ProgramCompileError("a program needs a non-empty name")
    if source not in SOURCES:
        raise ProgramCompileError(f"unknown program source {source!r}; choose from {', '.join(SOURCES)}")
    if len(traces) < 2:
        raise ProgramCompileError(
            f"record at least two demonstrations (have {len(traces)}): a program is what they share")
    for trace in traces:
        if not trace.actions:
            raise ProgramCompileError(f"{trace.origin} has no actions; record it again or delete it")


def _check_choices(aligned: AlignedTraces, choices: FieldChoices) -> None:
    """Every selector names a type step, and none is both a parameter and fixed."""
    fields = {}
    for index, row in enumerate(aligned.steps):
        traced = _representative(row, aligned.reference)
        if traced.step.kind == "type":
            fields[index] = _field_label(_target(traced)[0]).casefold()
    for selector in (*choices.params, *choices.fixed):
        if isinstance(selector, int) and selector not in fields:
            raise ProgramCompileError(f"step {selector} is not a typing step; typing steps: "
                                      f"{', '.join(map(str, sorted(fields))) or 'none'}")
        if isinstance(selector, str) and selector.casefold() not in fields.values():
            raise ProgramCompileError(f"no typed field is labelled {quoted(selector)}; fields: "
                                      f"{', '.join(sorted(set(fields.values()))) or 'none'}")
    both = [s for s in choices.params if _selected(s, choices.fixed, fields)]
    if both:
        raise ProgramCompileError(f"{quoted(both[0])} is asked to be both a parameter and fixed")


def _selected(selector: int | str, selectors: tuple[int | str, ...], fields: dict[int, str]) -> bool:
    index = selector if isinstance(selector, int) else None
    label = fields.get(selector) if isinstance(selector, int) else selector.casefold()
    return any(s == index if isinstance(s, int) else s.casefold() == label for s in selectors)


def _chosen(index: int, label: str, selectors: tuple[int | str, ...]) -> bool:
    return any(s == index if isinstance(s, int) else s.casefold() == label.casefold()
               for s in selectors)


def _compile_step(index: int, row: tuple[TraceAction, ...], following: tuple[TraceAction, ...] | None,
                  reference: int, next_parameter: str,
                  choices: FieldChoices = FieldChoices()
                  ) -> tuple[ProgramStep, Parameter | None, FieldDistance | None, list[str]]:
    """One aligned position (each trace's action there) as a program step,
    the parameter it introduces (named `next_parameter`), its reported
    distance (type steps) and the notes a person should read."""
    chosen = _representative(row, reference)
    kind = chosen.step.kind
    notes: list[str] = []
    target, problem = _target(chosen) if kind in ("click", "type") else (None, None)
    if problem:
        notes.append(f"step {index}: {problem}")
    typed_next = (kind == "click" and following is not None
                  and all(now.step.target and after.step.kind == "type"
                          and after.step.target == now.step.target
                          for now, after in zip(row, following)))
    fields: dict[str, Any] = dict(index=index, action=kind, target=target, precondition=precondition(kind, target),
                  postcondition=postcondition(kind, target, typed_next=typed_next))
    parameter = reported = None
    if kind == "type":
        label = _field_label(target)
        decision = _overruled(decide([traced.text for traced in row], reference), index, label,
                              [traced.text for traced in row], reference, choices)
        if not decision.parameter and decision.literal is not None and decision.literal.startswith("$P"):
            # The format reads any text starting "$P" as a parameter, so such
            # a constant cannot be stored as a literal.
            notes.append(f"step {index}: the constant {decision.literal!r} typed into '{label}' "
                         "would read as a parameter, so it is one")
            decision = replace(decision, parameter=True, literal=None)
        distance = None if decision.distance is None else round(decision.distance, DISTANCE_DIGITS)
        if decision.parameter:
            parameter = Parameter(next_parameter, index, label, decision.samples, distance)
            fields["text"] = "$" + next_parameter
            if decision.distance is None:
                notes.append(f"step {index}: the text typed into '{label}' was not recorded (a "
                             f"password field, or passive capture); it is ${next_parameter} and "
                             "must be given at replay")
        else:
            fields["text"] = decision.literal
        if decision.distance is not None and abs(decision.distance - DELTA) <= NEAR_THRESHOLD:
            verdict = "a parameter" if decision.parameter else "a literal"
            notes.append(f"step {index}: '{label}' has distance {decision.distance:.4f}, within "
                         f"{NEAR_THRESHOLD} of δ = {DELTA}; it is {verdict} — check it")
        fields.update(distance=distance, samples=decision.samples, entry=_entry(row))
        reported = FieldDistance(index, label, distance, decision.parameter)
    elif kind == "key":
        fields.update(key=chosen.step.target, app=chosen.step.app)
    elif kind == "switch":
        fields["app"] = chosen.step.app
    if unverified(kind, target):
        notes.append(f"step {index}: {_unverified_note(kind, target)}")
    elif kind == "click" and target is not None and not chosen.step.specific:
        notes.append(f"step {index}: the click landed in a zone of '{target.path}', not on a named "
                     "element; replay relies on the recorded position inside it")
    return ProgramStep(**fields), parameter, reported, notes


def _overruled(decision: FieldDecision, index: int, label: str, values: list[str | None],
               reference: int, choices: FieldChoices) -> FieldDecision:
    """The variance rule's decision, or the person's where they made one."""
    if _chosen(index, label, choices.params):
        return replace(decision, parameter=True, literal=None)
    if _chosen(index, label, choices.fixed):
        if any(value is None for value in values):
            raise ProgramCompileError(f"the text typed into '{label}' (step {index}) was not "
                                      "recorded every time, so it cannot be fixed")
        return replace(decision, parameter=False, literal=values[reference])
    return decision


def _entry(row: tuple[TraceAction, ...]) -> str:
    """How a type step enters its text: `replace` (set the field's content)
    only when the field was empty every time the person typed into it, as
    the capture saw inside the recording; otherwise `insert` at the caret as
    the person did. After a select-all the typing replaced the selection,
    and replaying both steps does the same. Setting the whole field anywhere
    else would wipe what the person kept: a document's other lines, a
    field's prefix."""
    chars = [traced.field_chars for traced in row]
    return "replace" if chars and all(c == 0 for c in chars) else "insert"


def _start_words(traces: Sequence[Trace], app: str) -> tuple[str, ...]:
    """Title words shared by the window every trace started in; none when a
    trace's start window is unknown or belongs to another application."""
    if not app or any(t.start is None or t.start.app != app for t in traces):
        return ()
    return shared_words(t.start.title for t in traces if t.start is not None)


def _end_state(traces: Sequence[Trace], parameters: list[Parameter], source: str,
               relax_title: bool) -> EndState | None:
    """Where every trace ended, when they all ended in the same application."""
    ends = [t.end for t in traces if t.end is not None]
    if len(ends) != len(traces) or len({end.app for end in ends}) != 1:
        return None
    words = () if relax_title else end_words(end.title for end in ends)
    titled = tuple(p.name for p in parameters if _in_end_titles(p, traces))
    return EndState(ends[0].app, words, "demonstrations" if source == "demonstration" else "capture",
                    titled)


def _in_end_titles(parameter: Parameter, traces: Sequence[Trace]) -> bool:
    """The parameter's value shows in every trace's end title and not in its
    start title: the run must bring its own value there (a saved file's name)."""
    if len(parameter.samples) != len(traces):
        return False
    return all(t.end is not None and contains_value(t.end.title, value)
               and not (t.start is not None and contains_value(t.start.title, value))
               for t, value in zip(traces, parameter.samples))


def _representative(row: tuple[TraceAction, ...], reference: int) -> TraceAction:
    """The action whose target the step keeps: the path most demonstrations
    agree on (one demonstration where the element sat elsewhere in the tree
    does not decide), the reference's on ties."""
    counts = Counter(traced.step.target for traced in row)
    order = [reference] + [t for t in range(len(row)) if t != reference]
    return row[max(order, key=lambda t: counts[row[t].step.target])]


def _target(traced: TraceAction) -> tuple[Target, str | None]:
    """The Target of a click or type action, and a problem worth reporting."""
    step, element = traced.step, traced.element
    index, problem, segment = None, None, None
    if step.target:
        try:
            _, segments = parse(step.target)
            segment = segments[-1]
            index = segment.index
        except PathError:
            problem = f"the path {step.target!r} cannot be parsed; its sibling index is unknown"
    if element is not None and element.path == step.target:
        name = element.name
        label = "" if element.name else (element.labelled_by or "")
    elif segment is not None:
        name, label = segment.name, segment.label
    else:
        name, label = step.label, ""
    target = Target(app=step.app, path=step.target, role=step.role, name=name, label=label,
                    index=index, x=traced.x, y=traced.y, crop=traced.crop,
                    visual=traced.visual if step.kind == "click" else None)
    return target, problem


def _field_label(target: Target | None) -> str:
    if target is None:
        return "unknown field"
    return target.display or target.role or "unknown field"


def _unverified_note(kind: str, target: Target | None) -> str:
    if kind == "type":
        return "the field typed into was not captured; replay types into whatever has focus"
    if target is not None and target.x is not None:
        return (f"the click at ({target.x}, {target.y}) has no captured target; replay has only "
                "the recorded position and cannot check it")
    return "the click has no captured target and no recorded position; replay cannot aim it"


def _warnings(traces: int, distances: list[FieldDistance], notes: list[str], dropped: int
              ) -> tuple[str, ...]:
    result = []
    if traces == 2 and any(d.distance is not None for d in distances):
        result.append("only two demonstrations: each field's distance rests on one pair; "
                      "3–5 give a steadier parameter choice")
    result.extend(notes)
    if dropped:
        result.append(f"{dropped} recorded action(s) not present in every demonstration were "
                      "left out as noise")
    return tuple(result)
