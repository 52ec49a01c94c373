"""A program's visual evidence, read from the store once per run: for every
click step that carries crops, the decoded crops (checked against their
sha256), the recorded click and the recorded window — or a one-line reason
why the step cannot be re-aimed (a blob missing or corrupt). A step with a
problem escalates when it needs the visual rung; it is never clicked at
its recorded coordinates instead (docs/VISUAL.md §4).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from compiler.programs.records import Program, ProgramStep, Visual

from .templates import BadCrop, Template, decode

Rect = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class StepEvidence:
    """What the visual rung matches for one click step."""

    templates: tuple[Template, ...]
    click: tuple[int, int]
    window: Rect | None
    problem: str | None = None          # why the crops cannot be used


def needs_evidence(program: Program) -> bool:
    return any(_visual(step) is not None for step in program.steps)


def load_evidence(db: str | os.PathLike[str], program: Program) -> dict[int, StepEvidence]:
    """Evidence per step index, for the click steps that carry crops."""
    from core.store import StoreError, open_readonly

    wanted = {crop.blob for step in program.steps if (visual := _visual(step)) is not None
              for crop in visual.crops}
    blobs: dict[str, bytes] = {}
    problem = None
    if wanted:
        try:
            connection = open_readonly(db)
        except StoreError as exc:
            problem = f"the store cannot be read for the recorded crops ({exc})"
        else:
            try:
                marks = ",".join("?" * len(wanted))
                blobs = {sha: bytes(data) for sha, data in connection.execute(
                    f"SELECT sha256, data FROM blobs WHERE sha256 IN ({marks})", sorted(wanted))}
            finally:
                connection.close()
    return {step.index: _step_evidence(step, blobs, problem) for step in program.steps
            if _visual(step) is not None}


def _step_evidence(step: ProgramStep, blobs: dict[str, bytes], problem: str | None) -> StepEvidence:
    target, visual = step.target, _visual(step)
    assert target is not None and visual is not None, "asked only for click steps with crops"
    click = (target.x, target.y)
    if problem is None and None in click:
        problem = "the recorded click has no position"
    templates: list[Template] = []
    for crop in visual.crops:
        if problem is not None:
            break
        data = blobs.get(crop.blob)
        if data is None:
            problem = f"the {crop.kind} crop blob {crop.blob[:12]}… is missing from the store"
            break
        try:
            templates.append(decode(data, crop.blob, crop.kind, (crop.ratio_x, crop.ratio_y),
                                    (crop.x, crop.y)))
        except BadCrop as exc:
            problem = str(exc)
    if problem is not None:
        return StepEvidence((), (target.x or 0, target.y or 0), visual.window, problem)
    templates.sort(key=lambda t: min(t.size))
    assert target.x is not None and target.y is not None, "a click without a position has a problem"
    return StepEvidence(tuple(templates), (target.x, target.y), visual.window)


def _visual(step: ProgramStep) -> Visual | None:
    return step.target.visual if step.action == "click" and step.target is not None else None
