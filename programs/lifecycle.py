"""A program's lifecycle (EchoPath §2.1, §B.2; docs/PROGRAM_MEMORY.md), as
pure functions from a standing and an event to the next standing.

    candidate ──verified run / promotion──▶ active ──2 counted failures──▶ quarantined
        │                                    ▲  │                              │
        │                                    │  └─ verified run the person ────┘
        └────────── deprecated ◀─── on request, or a successor became active

- A compiled program starts as a `candidate`: nothing has shown it works.
- A verified successful run (status success with a verification) or the
  person's promotion makes it `active`. Agents see and run only active
  programs.
- An active program whose runs fail twice in a row is `quarantined`, with
  those runs as evidence. A failure counts only when the run sent input (its
  verification failed, or it escalated part-way): a pre-flight refusal, a
  busy desktop or a missing window sent nothing and says nothing about the
  program.
- A quarantined program becomes active again only after a verified run that
  the person started (from the CLI or a shortcut over D-Bus) — never an
  agent's run, and not a promotion either.
- `deprecated` on request, or when a recompile of it (its successor) becomes
  active. The person may run any program that is not deprecated.

Nothing here reads a clock or the store; `lifecycle_store.py` applies these
rules to the `program_memory` rows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

CANDIDATE, ACTIVE, QUARANTINED, DEPRECATED = "candidate", "active", "quarantined", "deprecated"
STATES = (CANDIDATE, ACTIVE, QUARANTINED, DEPRECATED)
QUARANTINE_AFTER = 2             # counted failures in a row
PERSON_TRIGGERS = ("cli", "dbus")  # runs a person starts; "mcp" is an agent's
VERIFICATIONS = ("end_state", "no_new_windows")
PROMOTION = "promotion"


@dataclass(frozen=True, slots=True)
class Standing:
    """What is known of one program beside its body."""

    state: str = CANDIDATE
    state_reason: str = ""
    description: str = ""
    derived_from: str | None = None
    replaced_by: str | None = None
    successes: int = 0
    failures: int = 0
    failure_streak: tuple[int, ...] = ()   # run ids of the counted failures since the last success
    verified_by: str = ""                  # end_state | no_new_windows | promotion | ""
    last_run_id: int | None = None
    last_outcome: str = ""
    last_run_ms: int | None = None


@dataclass(frozen=True, slots=True)
class RunFacts:
    """What a finished run says about its program."""

    run_id: int | None
    status: str                # success | failed | escalated | refused
    sent_input: bool
    verification: str          # success only: end_state | no_new_windows
    trigger: str               # cli | dbus | mcp
    finished_ms: int

    @property
    def verified(self) -> bool:
        return self.status == "success" and self.verification in VERIFICATIONS

    @property
    def counts_as_failure(self) -> bool:
        return self.status != "success" and self.sent_input


@dataclass(frozen=True, slots=True)
class Transition:
    """One change of state, with its reason and the runs that caused it."""

    from_state: str
    to_state: str
    reason: str
    runs: tuple[int, ...] = ()

    def describe(self) -> str:
        return f"{self.from_state} → {self.to_state}: {self.reason}"


class LifecycleError(ValueError):
    """A transition the lifecycle does not allow (the store maps it to a named error)."""


def outcome_label(facts: RunFacts) -> str:
    """How a run reads in `phantom programs`' last-outcome column."""
    if facts.verified:
        return f"success ({facts.verification})"
    if facts.status == "success":
        return "success (unverified)"
    return facts.status + ("" if facts.sent_input else ", nothing sent")


def after_run(standing: Standing, facts: RunFacts) -> tuple[Standing, Transition | None]:
    """The standing after a run of the program, and the state change it
    caused, if any."""
    run = () if facts.run_id is None else (facts.run_id,)
    base = replace(standing, last_run_id=facts.run_id, last_outcome=outcome_label(facts),
                   last_run_ms=facts.finished_ms)
    if facts.verified:
        updated = replace(base, successes=standing.successes + 1, failure_streak=(),
                          verified_by=_stronger(standing.verified_by, facts.verification))
        if standing.state == CANDIDATE:
            return _move(updated, ACTIVE, f"a verified run ({facts.verification})", run)
        if standing.state == QUARANTINED and facts.trigger in PERSON_TRIGGERS:
            return _move(updated, ACTIVE, f"a verified run the person started ({facts.trigger})", run)
        return updated, None
    if not facts.counts_as_failure:
        return base, None
    streak = standing.failure_streak + run
    updated = replace(base, failures=standing.failures + 1, failure_streak=streak)
    if standing.state == ACTIVE and len(streak) >= QUARANTINE_AFTER:
        runs = ", ".join(map(str, streak[-QUARANTINE_AFTER:]))
        return _move(updated, QUARANTINED, f"failed {QUARANTINE_AFTER} times in a row (runs {runs})",
                     streak[-QUARANTINE_AFTER:])
    return updated, None


def promote(standing: Standing) -> tuple[Standing, Transition]:
    """The person vouches for a candidate (or takes back a deprecation): it
    becomes active. A quarantined program failed on the desktop, so only a
    verified run the person starts brings it back — not a word."""
    if standing.state == ACTIVE:
        raise LifecycleError("is already active")
    if standing.state == QUARANTINED:
        raise LifecycleError(f"is quarantined ({standing.state_reason}); it becomes active again "
                             "only after a verified run you start (`phantom replay`)")
    verified_by = standing.verified_by or PROMOTION
    moved, transition = _move(replace(standing, verified_by=verified_by, failure_streak=()), ACTIVE,
                              "promoted by the person")
    return moved, transition


def deprecate(standing: Standing, reason: str, replaced_by: str | None = None
              ) -> tuple[Standing, Transition]:
    """Retired: on request, or because `replaced_by` became active."""
    if standing.state == DEPRECATED:
        raise LifecycleError("is already deprecated")
    moved = replace(standing, replaced_by=replaced_by or standing.replaced_by)
    return _move(moved, DEPRECATED, reason)


def refusal(standing: Standing, trigger: str) -> str | None:
    """Why a caller may not run a program in this standing (None: it may):
    nobody runs a deprecated one; an agent runs only active ones."""
    if standing.state == DEPRECATED:
        return DEPRECATED
    if trigger not in PERSON_TRIGGERS and standing.state != ACTIVE:
        return standing.state
    return None


def _move(standing: Standing, to_state: str, reason: str, runs: tuple[int, ...] = ()
          ) -> tuple[Standing, Transition]:
    transition = Transition(standing.state, to_state, reason, runs)
    return replace(standing, state=to_state, state_reason=reason), transition


def _stronger(current: str, new: str) -> str:
    """The strongest evidence seen: an end state beats the weaker rule, and
    any verified run beats the person's word alone."""
    order = ("", PROMOTION, "no_new_windows", "end_state")
    return max(current, new, key=order.index)
