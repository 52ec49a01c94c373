"""The ranked shortlist a caller gets when a request in words runs nothing:
the programs the request came closest to, each with what a caller needs to
choose one and run it by id — its name and id, description, application,
parameters (name, field and the shape of the recorded values, never the
values), compatibility score when it was scored, and why it did not run.

One shape for every interface: the CLI prints `lines`, the MCP bridge and
the D-Bus service send `message` — the refusal as one line, then the
shortlist as compact JSON after `SHORTLIST_MARK`, so a caller reads the
verdict as text and the choices as data from the same error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import one_line

from .params import describe_shape, shape_of

if TYPE_CHECKING:
    from .compatibility import Assessment, Choice

SHORTLIST_MARK = " shortlist: "
MAX_TEXT_CHARS = 200     # a description or a reason, in the shortlist
MAX_VERDICT_CHARS = 400  # the refusal line before the shortlist


@dataclass(frozen=True, slots=True)
class Parameter:
    """A parameter as a caller must fill it: name, the field, its shape in words."""

    name: str
    field: str
    shape: str


@dataclass(frozen=True, slots=True)
class Candidate:
    """One program the request came close to, and why it did not run."""

    id: str
    name: str
    description: str
    app: str
    parameters: tuple[Parameter, ...]
    compatibility: float | None    # the score, for a program scored on the screen
    failed: str | None             # the gate it failed (None: it passed them all)
    why: str


@dataclass(frozen=True, slots=True)
class Shortlist:
    """The request, why nothing ran, and the candidates, best first."""

    intent: str
    verdict: str
    candidates: tuple[Candidate, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"intent": self.intent, "verdict": self.verdict, "candidates": [
            {"id": c.id, "name": c.name, "description": c.description, "app": c.app,
             "parameters": [{"name": p.name, "field": p.field, "shape": p.shape} for p in c.parameters],
             "compatibility": c.compatibility, "failed_gate": c.failed, "why": c.why}
            for c in self.candidates]}

    def message(self) -> str:
        """The refusal for an error reply: one line, then the shortlist as JSON."""
        verdict = one_line(f"{self.verdict}; nothing was sent", MAX_VERDICT_CHARS)
        data = json.dumps(self.to_dict()["candidates"], sort_keys=True, ensure_ascii=False,
                          separators=(",", ":"))
        return f"{verdict}{SHORTLIST_MARK}{data}"

    def lines(self) -> list[str]:
        """The candidates as text, one or two lines each."""
        out = []
        for rank, c in enumerate(self.candidates, 1):
            score = f"compatibility {c.compatibility:.3f}" if c.compatibility is not None else (
                f"failed the {c.failed} gate" if c.failed else "not scored")
            takes = ", ".join(f"{p.name} ({p.field})" for p in c.parameters) or "no parameters"
            about = f" — {c.description}" if c.description else ""
            out.append(f"{rank}. {c.name} ({c.id}) in {c.app or '?'}{about}; takes {takes}; {score}")
            out.append(f"   why: {c.why}")
        return out


def shortlist_of(choice: Choice) -> Shortlist:
    """The shortlist of a choice that chose nothing, best first: scored
    candidates by score, the rest by how close the request came to them."""
    ranked = sorted(choice.assessed, key=lambda a: (a.score is None, -(a.score or 0.0),
                                                    -a.hit.similarity, a.hit.program_id))
    return Shortlist(choice.intent, choice.verdict, tuple(_candidate(a) for a in ranked))


def _candidate(item: Assessment) -> Candidate:
    program = item.program
    parameters = () if program is None else tuple(
        Parameter(p.name, p.field, describe_shape(shape_of(p.samples))) for p in program.parameters)
    why = f"{item.failed} gate: {item.reason}" if item.failed else item.reason
    return Candidate(item.hit.program_id, item.hit.name, one_line(item.hit.description, MAX_TEXT_CHARS),
                     program.app if program is not None else "", parameters, item.score, item.failed,
                     one_line(why, MAX_TEXT_CHARS))
