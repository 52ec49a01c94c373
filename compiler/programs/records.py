"""A compiled program (a "PhantomProgram", phantom.md §3–5): steps with
accessibility targets, pre- and postconditions, typed parameters and a
program-level guard. Programs are stored as canonical JSON and addressed by
a digest of that JSON, so the same compilation always has the same id.

Conditions (phantom.md §4.5):
- preconditions: `always_true` (nothing was captured to check),
  `aria_path_resolves` (the recorded path must resolve to exactly one live
  element), `embedding_match` (the step had no path, only a label: match it
  with the local embedding model);
- postconditions: `state_delta` with `expect` = `focus` (the target has
  focus afterwards), `value` (the field holds the typed text), or
  `role_present` (an element with this role and label exists afterwards);
  `none` when the recording showed no reliable after-state.

Format 2 adds what replay needs to act only in the right place and to tell
the truth about the result (docs/REPLAY.md):
- the guard's `title_tokens`: words of the window title that every
  demonstration shared, so a look-alike window of the same application (an
  "Invoice" window where "Form" was recorded) is not taken for it;
- a type step's `entry`: `insert` types at the caret as the person did,
  `replace` sets the field's whole content — only when the demonstrations
  did (the field was empty every time);
- the program's `end_state`: the application and title words of the window
  the demonstrations ended in, which a run must reach to count as a success;
- a click target's `visual` evidence: crops of the screen around the click
  (target, context, wide context; image blobs in the store, by sha256), where
  each crop was and where the click lay inside it, and the window's
  rectangle then — what replay's visual rung matches when the accessibility
  tree cannot find the target (docs/VISUAL.md). A target without it is
  written without the key, so bodies stored before keep their ids.
A format-1 body still loads, hashes to the same id and replays as before
(a type step replaces the field; success is checked by the weaker rule).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import orjson

from core.errors import PhantomError

PROGRAM_FORMAT = 2
READABLE_FORMATS = (1, 2)
ENTRIES = ("insert", "replace")
ACTIONS = ("click", "type", "key", "switch")
PRECONDITIONS = ("always_true", "aria_path_resolves", "embedding_match")
POSTCONDITIONS = ("state_delta", "none")
EXPECTATIONS = ("focus", "value", "role_present")
CROP_KINDS = ("target", "context", "wide")


class ProgramFormatError(PhantomError, ValueError):
    """A stored program body that cannot be read (corrupt or from the future)."""

    code = "corrupt_program"


@dataclass(frozen=True, slots=True)
class Crop:
    """One crop of a click's visual evidence: its kind, its image blob, where
    it lay on the screen when recorded (desktop coordinates) and where the
    click lay inside it, as a share of its width and height."""

    kind: str                 # target | context | wide
    blob: str                 # sha256 of the image (WebP; PNG before) in the store's blobs table
    x: int
    y: int
    width: int
    height: int
    ratio_x: float
    ratio_y: float


@dataclass(frozen=True, slots=True)
class Visual:
    """A click's visual evidence: its crops, smallest first, and the
    rectangle (x, y, width, height) of the window it was made in, when known
    — replay looks first where the click falls in the window as it is now."""

    crops: tuple[Crop, ...]
    window: tuple[int, int, int, int] | None = None


@dataclass(frozen=True, slots=True)
class Target:
    """Where a step acts, as recorded."""

    app: str
    path: str                 # App/role[@name='…']/… (core.a11y.path notation)
    role: str
    name: str
    label: str                # LABELLED_BY text when the element has no name
    index: int | None         # 1-based index among same-role, same-name siblings, if any
    x: int | None = None      # recorded desktop coordinates of a click
    y: int | None = None
    crop: str | None = None   # sha256 of the recorded click-target crop blob
    visual: Visual | None = None  # format 2: crops for the visual rung (docs/VISUAL.md)

    @property
    def display(self) -> str:
        return self.name or self.label


@dataclass(frozen=True, slots=True)
class Condition:
    kind: str
    expect: str = ""          # state_delta: focus | value | role_present
    role: str = ""
    label: str = ""


@dataclass(frozen=True, slots=True)
class ProgramStep:
    index: int
    action: str               # click | type | key | switch
    target: Target | None
    text: str | None = None   # type steps: a literal, or "$P0" for a parameter
    key: str | None = None    # key: the combination
    app: str = ""             # switch: the app to bring forward
    precondition: Condition = Condition("always_true")
    postcondition: Condition = Condition("none")
    distance: float | None = None   # type steps: mean pairwise normalized Levenshtein of the values
    samples: tuple[str, ...] = ()   # type steps: the values seen in the traces
    entry: str | None = None        # type steps: insert (at the caret) | replace; None in format 1

    @property
    def parameter(self) -> str | None:
        return self.text[1:] if self.text and self.text.startswith("$P") else None


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str                 # P0, P1, …
    step: int                 # the step it fills
    field: str                # what a person calls the field
    samples: tuple[str, ...]
    mean_distance: float | None
    type: str = "string"


@dataclass(frozen=True, slots=True)
class Guard:
    """What must hold before a replay sends any input: the application is
    running with exactly one window whose title has every one of
    `title_tokens`, and the first step's target is there."""

    app: str
    window_role: str = "frame"
    start_path: str | None = None
    title_tokens: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EndState:
    """Where every demonstration ended: the focused window's application
    and the title words all of them shared there. `source` says how it was
    learnt: `demonstrations` (explicit recordings) or `capture` (what
    followed each occurrence of a mined routine)."""

    app: str
    title_tokens: tuple[str, ...]
    source: str = "demonstrations"
    title_parameters: tuple[str, ...] = ()   # parameters whose value the end title shows


@dataclass(frozen=True, slots=True)
class Program:
    name: str
    source: str               # demonstration | routine
    app: str
    steps: tuple[ProgramStep, ...]
    parameters: tuple[Parameter, ...]
    guard: Guard
    traces: int
    origin: tuple[str, ...] = ()          # "recording:3", "routine:r-…"
    dropped_steps: int = 0                # steps not present in every trace
    end_state: EndState | None = None     # None: not known (format 1, or no after-state seen)
    format: int = PROGRAM_FORMAT
    id: str = field(default="", compare=False)

    def with_id(self) -> "Program":
        from dataclasses import replace

        return replace(self, id=program_id(self))


def to_json(program: Program) -> bytes:
    """Canonical JSON (sorted keys, no whitespace); the id is not part of it.
    A format-1 program is written exactly as format 1 wrote it, so its id
    (the digest of this text) does not change."""
    body = _plain(program)
    body.pop("id", None)
    for step in body["steps"]:
        if step["target"] is not None and step["target"]["visual"] is None:
            del step["target"]["visual"]
    if program.format == 1:
        body.pop("end_state", None)
        body["guard"].pop("title_tokens", None)
        for step in body["steps"]:
            step.pop("entry", None)
    return orjson.dumps(body, option=orjson.OPT_SORT_KEYS)


def program_id(program: Program) -> str:
    return "p-" + hashlib.sha256(to_json(program)).hexdigest()[:12]


def from_json(data: bytes | str, *, expected_id: str | None = None) -> Program:
    """Parse a stored body; a corrupt or foreign body raises ProgramFormatError."""
    try:
        raw = orjson.loads(data)
        if raw.get("format") not in READABLE_FORMATS:
            raise ProgramFormatError(f"program format {raw.get('format')!r} is not one of "
                                     f"{', '.join(map(str, READABLE_FORMATS))} (written by a newer Phantom?)")
        guard = dict(raw["guard"])
        guard["title_tokens"] = tuple(guard.get("title_tokens", ()))
        end = raw.get("end_state")
        program = Program(
            name=raw["name"], source=raw["source"], app=raw["app"],
            steps=tuple(_step(s) for s in raw["steps"]),
            parameters=tuple(Parameter(p["name"], p["step"], p["field"], tuple(p["samples"]),
                                       p["mean_distance"], p.get("type", "string"))
                             for p in raw["parameters"]),
            guard=Guard(**guard), traces=raw["traces"], origin=tuple(raw.get("origin", ())),
            dropped_steps=raw.get("dropped_steps", 0),
            end_state=None if end is None else EndState(
                end["app"], tuple(end["title_tokens"]), end.get("source", "demonstrations"),
                tuple(end.get("title_parameters", ()))),
            format=raw["format"])
    except ProgramFormatError:
        raise
    except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError, ValueError) as exc:
        raise ProgramFormatError(f"unreadable program body ({exc.__class__.__name__}: {exc})") from None
    _validate(program)
    program = program.with_id()
    if expected_id is not None and program.id != expected_id:
        raise ProgramFormatError(f"program body does not match its id {expected_id} (it hashes to {program.id})")
    return program


def _step(raw: dict[str, Any]) -> ProgramStep:
    target = raw.get("target")
    return ProgramStep(
        index=raw["index"], action=raw["action"],
        target=_target(target) if target is not None else None,
        text=raw.get("text"), key=raw.get("key"), app=raw.get("app", ""),
        precondition=Condition(**raw["precondition"]), postcondition=Condition(**raw["postcondition"]),
        distance=raw.get("distance"), samples=tuple(raw.get("samples", ())),
        entry=raw.get("entry"))


def _target(raw: dict[str, Any]) -> Target:
    fields = dict(raw)
    visual = fields.pop("visual", None)
    if visual is not None:
        window = visual.get("window")
        fields["visual"] = Visual(tuple(Crop(**crop) for crop in visual["crops"]),
                                  None if window is None else tuple(window))
    return Target(**fields)


def _validate_visual(position: int, step: ProgramStep, format_: int) -> None:
    visual = step.target.visual if step.target is not None else None
    if visual is None:
        return
    if format_ == 1 or step.action != "click":
        raise ProgramFormatError(f"step {position}: visual evidence on a format-{format_} "
                                 f"{step.action} step")
    if not visual.crops:
        raise ProgramFormatError(f"step {position}: visual evidence without crops")
    if visual.window is not None and (len(visual.window) != 4 or visual.window[2] <= 0
                                      or visual.window[3] <= 0):
        raise ProgramFormatError(f"step {position}: visual window {visual.window!r} is not x, y, w, h")
    for crop in visual.crops:
        if (crop.kind not in CROP_KINDS or len(crop.blob) != 64 or crop.width <= 0
                or crop.height <= 0 or not (0 <= crop.ratio_x <= 1 and 0 <= crop.ratio_y <= 1)):
            raise ProgramFormatError(f"step {position}: unreadable {crop.kind!r} crop")


def _validate(program: Program) -> None:
    if not program.steps:
        raise ProgramFormatError("a program needs at least one step")
    if program.format == 1 and (program.end_state is not None or program.guard.title_tokens):
        raise ProgramFormatError("format 1 has no end state or title words")
    names = set()
    for position, step in enumerate(program.steps):
        if step.index != position:
            raise ProgramFormatError(f"step {position} is numbered {step.index}")
        if step.action not in ACTIONS:
            raise ProgramFormatError(f"step {position}: unknown action {step.action!r}")
        if step.precondition.kind not in PRECONDITIONS:
            raise ProgramFormatError(f"step {position}: unknown precondition {step.precondition.kind!r}")
        if step.postcondition.kind not in POSTCONDITIONS:
            raise ProgramFormatError(f"step {position}: unknown postcondition {step.postcondition.kind!r}")
        if step.postcondition.kind == "state_delta" and step.postcondition.expect not in EXPECTATIONS:
            raise ProgramFormatError(f"step {position}: unknown expectation {step.postcondition.expect!r}")
        if step.action in ("click", "type") and step.target is None and step.precondition.kind != "always_true":
            raise ProgramFormatError(f"step {position}: {step.action} without a target")
        if step.entry is not None and (step.action != "type" or step.entry not in ENTRIES):
            raise ProgramFormatError(f"step {position}: entry {step.entry!r} on a {step.action} step")
        if program.format == 1 and step.entry is not None:
            raise ProgramFormatError(f"step {position}: format 1 has no entry mode")
        _validate_visual(position, step, program.format)
        if step.parameter:
            names.add(step.parameter)
    declared = {parameter.name for parameter in program.parameters}
    if names != declared:
        raise ProgramFormatError(f"parameters {sorted(declared)} do not match the steps' {sorted(names)}")


def _plain(value: Any) -> Any:
    """Frozen records to plain dicts/lists for JSON."""
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
