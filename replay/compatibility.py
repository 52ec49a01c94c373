"""The compatibility gate (EchoPath §B.2, Table 3; docs/PROGRAM_MEMORY.md §3):
of the programs a request in words may be about (`intent.py`), which one can
run on the desktop as it is now — or none, said with the reasons.

Each shortlisted program must pass every binary gate, cheapest first:

    lifecycle    it is active;
    validation   its body reads and hashes to its id, and it was validated
                 (a verified run, or the person's promotion);
    intent       the request asks for nothing the program's own words do not
                 name, and each of its values binds to a parameter or equals
                 a constant (`intent_gate.py`); two programs that pass it
                 within `INTENT_MARGIN` of each other mean the request fits
                 several programs: nothing runs, whatever the screen shows;
    support      every step is one replay performs (a click or typing with
                 a recorded target, a key, a switch to a named application);
    application  its application runs with exactly one window that fits
                 (`XSession.find`) and that window is accessible;
    screen       the whole-plan pre-flight on that window stops nowhere
                 (`preflight.py`: no missing, ambiguous or changed target).

Then the weighted score: intent 0.40 (`intent.intent_score`), lifecycle 0.15
(1 with no failure since its last success, 0.5 after one), validation 0.15
(1 when a run reached the demonstrations' end state, 0.5 when it was checked
only by the weaker rule or only promoted), starting screen 0.30 (the share
of the steps pre-flight could check on the starting window that resolved by
their recorded path rather than by an embedding match; 1 when there is none
to check). A program runs only when its score is at least θ = 0.75 and no
other program that passed every gate is within 0.05 of it: two close
candidates are a guess, and replay never guesses.

The gates that need no screen run first, for every shortlisted program
(`prescreen`, which reads the store only); only when a candidate is left
does anything look at X and AT-SPI (`choose`). Nothing here sends input.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from compiler.programs.records import Program, ProgramStep
from core.errors import PhantomError
from programs import api as memory

from . import live
from .embedding import LabelMatcher
from .intent import BEHIND_SPAN, Hit, Ranking
from .intent_gate import Request, Verdict, judge, read_request
from .outcomes import PLANNED, StepOutcome
from .policy import Policy
from .preflight import preflight
from .shortlist import Shortlist, shortlist_of
from .windows import AmbiguousWindow, GuardMismatch, XSession

WEIGHTS = {"intent": 0.40, "lifecycle": 0.15, "validation": 0.15, "screen": 0.30}
THETA = 0.75
MARGIN = 0.05
GATES = ("lifecycle", "validation", "intent", "support", "application", "screen")
# Two programs that pass the intent gate this close (hub-corrected
# similarity) both keep intent credit: the request fits both, and a run
# would be a guess whichever window is open.
INTENT_MARGIN = BEHIND_SPAN
# A candidate whose score could not reach θ even with a perfect starting
# screen is not looked at on the screen; it is reported as failing "score".


class NoCompatibleProgram(PhantomError, LookupError):
    """No active program fits the request and the screen clearly enough;
    `choice` holds the candidates and the gate each failed."""

    code = "no_compatible_program"

    def __init__(self, message: str, *, choice: "Choice") -> None:
        super().__init__(message)
        self.choice = choice

    @property
    def shortlist(self) -> Shortlist:
        """The ranked shortlist the caller chooses from (`shortlist.py`)."""
        return shortlist_of(self.choice)


@dataclass(frozen=True, slots=True)
class Assessment:
    """One shortlisted program: the gate it failed (if any) and why, its
    score's terms and the score."""

    hit: Hit
    failed: str | None                 # the first gate it failed
    reason: str                        # why it failed, or how it scored
    terms: dict[str, float] = field(default_factory=dict)
    score: float | None = None
    program: Program | None = None
    gate: Verdict | None = None        # the intent gate's verdict, once it was asked

    @property
    def passed(self) -> bool:
        return self.failed is None


@dataclass(frozen=True, slots=True)
class Choice:
    """The program to run (None: no compatible program) and every
    shortlisted program's assessment, best first."""

    intent: str
    chosen: Assessment | None
    assessed: tuple[Assessment, ...]
    verdict: str                       # why this one, or why none

    def describe(self) -> str:
        lines = [self.verdict]
        for item in self.assessed[:3]:
            what = f"score {item.score:.3f}" if item.score is not None else f"{item.failed} gate"
            lines.append(f"{item.hit.name} ({item.hit.program_id}): {what} — {item.reason}")
        return "; ".join(lines)


@dataclass(frozen=True, slots=True)
class Prescreen:
    """The shortlist after the gates that need no screen: those that failed
    one (with why), those left to look at on the screen (best first), and —
    when nothing may run whatever the screen shows — why."""

    intent: str
    assessed: tuple[Assessment, ...]
    pending: tuple[Assessment, ...]
    refusal: str = ""

    def choice(self) -> Choice:
        """The answer when nothing is left to look at on the screen."""
        assert self.refusal or not self.pending, "pending candidates are looked at on the screen"
        return Choice(self.intent, None, (*self.pending, *self.assessed), self.refusal)


def prescreen(db: str | os.PathLike[str], ranking: Ranking) -> Prescreen:
    """Lifecycle, validation, the intent gate and support for every
    shortlisted program, then the ambiguity rule and the score ceiling;
    reads the store only."""
    if not ranking.hits:
        return Prescreen(ranking.intent, (), (), _nothing_close(ranking))
    request = read_request(ranking.intent)
    first = [_offline(db, hit, request) for hit in ranking.hits]
    gated = [a for a in first if a.gate is not None and a.gate.passed]
    if not gated:
        return Prescreen(ranking.intent, tuple(first), (),
                         f"no compatible program for {ranking.intent!r}: none of the "
                         f"{len(first)} closest programs does what the request asks (intent gate)")
    bounded = [_ceiling(a) for a in first]
    gated = sorted((a for a in bounded if a.gate is not None and a.gate.passed),
                   key=lambda a: (-a.hit.similarity, a.hit.program_id))
    if len(gated) > 1 and gated[0].hit.similarity - gated[1].hit.similarity < INTENT_MARGIN:
        return Prescreen(ranking.intent, tuple(bounded), (),
                         f"no compatible program for {ranking.intent!r}: it fits {gated[0].hit.name} "
                         f"and {gated[1].hit.name} alike (similarity {gated[0].hit.similarity:.3f} "
                         f"and {gated[1].hit.similarity:.3f}); name the one you mean")
    pending = tuple(a for a in bounded if a.failed is None)
    failed = tuple(a for a in bounded if a.failed is not None)
    refusal = "" if pending else (f"no compatible program for {ranking.intent!r}: no candidate "
                                  "passed every gate")
    return Prescreen(ranking.intent, failed, pending, refusal)


def choose(screened: Prescreen, matcher: LabelMatcher, session: XSession, *,
           window: str | None = None) -> Choice:
    """Look at the candidates left on the live desktop and pick one, or none."""
    if screened.refusal or not screened.pending:
        return screened.choice()
    return decide(screened.intent, [*(on_screen(a, matcher, session, window=window)
                                      for a in screened.pending), *screened.assessed])


def decide(intent: str, assessed: Iterable[Assessment]) -> Choice:
    """The rule over assessed candidates: the best-scoring one that passed
    every gate, if it reaches θ and no other that passed is within MARGIN."""
    order = sorted(assessed, key=lambda a: (a.score is None or not a.passed, -(a.score or 0.0),
                                            -a.hit.similarity))
    passing = [a for a in order if a.passed]
    if not passing:
        return Choice(intent, None, tuple(order),
                      f"no compatible program for {intent!r}: no candidate passed every gate")
    best = passing[0]
    if _scored(best) < THETA:
        return Choice(intent, None, tuple(order),
                      f"no compatible program for {intent!r}: the best, {best.hit.name}, "
                      f"scores {best.score:.3f} < θ = {THETA}")
    if len(passing) > 1 and _scored(best) - _scored(passing[1]) < MARGIN:
        return Choice(intent, None, tuple(order),
                      f"no compatible program for {intent!r}: {best.hit.name} "
                      f"({best.score:.3f}) and {passing[1].hit.name} ({passing[1].score:.3f}) are "
                      f"within {MARGIN}; name the one you mean")
    return Choice(intent, best, tuple(order),
                  f"{intent!r} → {best.hit.name} ({best.hit.program_id}), compatibility "
                  f"{best.score:.3f} ≥ {THETA}")


def _scored(assessment: Assessment) -> float:
    """The score of an assessment that passed every gate (only those are scored in full)."""
    assert assessment.score is not None, "an assessment that passed every gate is scored"
    return assessment.score


def _offline(db: str | os.PathLike[str], hit: Hit, request: Request) -> Assessment:
    """The gates that need no screen, cheapest first."""
    standing = memory.standing(db, hit.program_id)
    if standing.state != memory.ACTIVE:
        return Assessment(hit, "lifecycle", f"it is {standing.state}, not active")
    try:
        program = _body(db, hit.program_id)
    except PhantomError as exc:
        return Assessment(hit, "validation", str(exc))
    if not standing.verified_by:
        return Assessment(hit, "validation", "no verified run and no promotion", program=program)
    gate = judge(request, program, hit.description)
    if not gate.passed:
        return Assessment(hit, "intent", gate.reason, program=program, gate=gate)
    unsupported = _unsupported(program)
    if unsupported:
        return Assessment(hit, "support", unsupported, program=program, gate=gate)
    terms = {"intent": hit.intent, "lifecycle": 1.0 if not standing.failure_streak else 0.5,
             "validation": 1.0 if standing.verified_by == "end_state" else 0.5}
    return Assessment(hit, None, "to be looked at on the screen", terms, None, program, gate)


# Program bodies this process has read and checked, by store and id: an id
# is the digest of its body, so a body read once never changes.
_bodies: dict[tuple[str, str], Program] = {}
MAX_BODIES = 4096


def _body(db: str | os.PathLike[str], program_id: str) -> Program:
    key = (os.fspath(db), program_id)
    program = _bodies.get(key)
    if program is None:
        program = memory.load(db, program_id)
        if len(_bodies) >= MAX_BODIES:
            _bodies.clear()
        _bodies[key] = program
    return program


def _ceiling(assessment: Assessment) -> Assessment:
    """A candidate that could not reach θ even with a perfect starting
    screen is not looked at on the screen. Its intent score stays measured
    against the request's best match in memory, whether or not that one
    passed the intent gate: a program the gate refused is proof the request
    is about something else, not room for the runner-up."""
    if assessment.failed is not None:
        return assessment
    terms = assessment.terms
    ceiling = sum(WEIGHTS[k] * v for k, v in terms.items()) + WEIGHTS["screen"]
    if ceiling < THETA:
        return replace(assessment, failed="score",
                       reason=f"at most {ceiling:.3f} < θ even on a matching screen "
                       f"(intent {assessment.hit.intent:.2f}, cosine {assessment.hit.cosine:.3f})")
    return assessment


def on_screen(assessment: Assessment, matcher: LabelMatcher, session: XSession, *,
              window: str | None = None) -> Assessment:
    """The application and screen gates for a candidate that passed the
    others, and its score."""
    program = assessment.program
    assert program is not None, "a candidate left for the screen holds its program"
    terms = dict(assessment.terms)
    try:
        match = session.find(program.guard, window)
    except (GuardMismatch, AmbiguousWindow) as exc:
        return replace(assessment, failed="application",
                       reason=str(exc).removesuffix("; nothing was sent"))
    accessible = live.accessible_window(match.window)
    if accessible is None:
        return replace(assessment, failed="application",
                       reason=f"{match.window.describe()} has no accessible window")
    plan = preflight(program, live.view_of(match.window, accessible), matcher)
    if plan.blocked is not None:
        blocked = plan.blocked
        return replace(assessment, failed="screen",
                       reason=f"step {blocked.index} ({blocked.target}): {blocked.reason}")
    terms["screen"] = screen_match(program, plan.outcomes)
    score = round(sum(WEIGHTS[k] * v for k, v in terms.items()), 4)
    how = ", ".join(f"{k} {v:.2f}" for k, v in terms.items())
    return replace(assessment, reason=how, terms=terms, score=score)


def screen_match(program: Program, outcomes: Iterable[StepOutcome]) -> float:
    """The share of the steps pre-flight checked on the starting window
    (planned, with a target to look for) that resolved by their recorded
    path; 1.0 when no step could be checked there."""
    checked = [o for o in outcomes if o.outcome == PLANNED and _has_target(program.steps[o.index])]
    if not checked:
        return 1.0
    return sum(1 for o in checked if o.policy == Policy.DIRECT) / len(checked)


def _has_target(step: ProgramStep) -> bool:
    return (step.action in ("click", "type") and step.target is not None
            and step.precondition.kind != "always_true")


def _unsupported(program: Program) -> str:
    """Why some step is not one replay performs ('' when every step is)."""
    for step in program.steps:
        if step.action in ("click", "type") and (step.target is None or not (step.target.path
                                                                           or step.target.display)):
            return f"step {step.index} ({step.action}) has no recorded target"
        if step.action == "key" and not step.key:
            return f"step {step.index} has no key"
        if step.action == "switch" and not step.app:
            return f"step {step.index} switches to no application"
    return ""


def _nothing_close(ranking: Ranking) -> str:
    if ranking.searched == 0:
        return (f"no compatible program for {ranking.intent!r}: there are no active programs (a "
                "program becomes active after a verified run or `phantom programs promote`)")
    closest = ranking.best_below
    near = (f"; the closest, {closest.name}, has cosine {closest.cosine:.3f} < λ" if closest else "")
    return (f"no compatible program for {ranking.intent!r}: none of the {ranking.searched} active "
            f"programs is about this{near}")
