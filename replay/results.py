"""Run results as plain data (for JSON, D-Bus and MCP) and as text lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .outcomes import RunResult
from .params import shape_of
from .policy import Policy

if TYPE_CHECKING:
    from .compatibility import Assessment, Choice
    from .visual.rung import Aim

EXIT_CODES = {"success": 0, "dry_run": 0, "escalated": 3, "refused": 4, "failed": 1}


def result_dict(result: RunResult) -> dict[str, Any]:
    return {
        "run_id": result.run_id,
        "program_id": result.program_id,
        "program": result.program,
        "status": result.status,
        "elapsed_ms": result.elapsed_ms,
        "sent_input": result.sent_input,
        "vlm_calls": result.vlm_calls,
        "verification": result.verification or None,
        "code": result.code,
        "state": result.state or None,
        "lifecycle": list(result.lifecycle),
        "intent": result.intent or None,
        "compatibility": result.compatibility,
        "steps": [{"index": s.index, "action": s.action, "target": s.target, "policy": s.policy,
                   "outcome": s.outcome, "dispatch": s.dispatch,
                   "score": None if s.score is None else round(s.score, 4),
                   "runner_up": None if s.runner_up is None else round(s.runner_up, 4),
                   "attempts": s.attempts, "latency_ms": s.latency_ms, "reason": s.reason,
                   **({"visual": _aim(s.aim)} if s.aim is not None else {})}
                  for s in result.steps],
        "escalation": None if result.escalation is None else {
            "step": result.escalation.step, "policy": result.escalation.policy,
            "reason": result.escalation.reason,
            "candidates": [{"role": c.role, "label": c.label, "score": c.score}
                           for c in result.escalation.candidates]},
    }


def _aim(aim: Aim) -> dict[str, Any]:
    """A visual re-aim's figures: scores, margin, scale, where it clicked and how far it moved."""
    return {"verdict": aim.verdict, "score": round(aim.score, 4), "rival": round(aim.rival, 4),
            "margin": aim.margin, "scale": round(aim.scale, 3),
            "point": list(aim.point) if aim.point else None,
            "shift": list(aim.shift) if aim.shift else None,
            "variant": aim.variant, "region": aim.region}


_VERIFIED = {"end_state": "the demonstrations' end state was reached",
             "no_new_windows": "no end state recorded: postconditions held and nothing unexpected is open"}


def result_lines(result: RunResult) -> list[str]:
    lines = []
    if result.intent:
        lines.append(f"intent {result.intent!r} → {result.program} ({result.program_id}), "
                     f"compatibility {result.compatibility:.3f}")
    for step in result.steps:
        score = f" {step.score:.3f}" if step.score is not None and step.policy != Policy.DIRECT else ""
        lines.append(f"step {step.index:>2} {step.action:<6} {step.target[:40]:<40} "
                     f"{step.policy}{score} → {step.outcome}"
                     + (f" via {step.dispatch}" if step.dispatch else "")
                     + (f" ({step.latency_ms} ms)" if step.outcome == "ok" else f": {step.reason}"))
    if result.escalation is not None:
        escalation = result.escalation
        lines.append(f"{result.status} at step {escalation.step}: {escalation.reason}")
        for candidate in escalation.candidates:
            lines.append(f"  candidate {candidate.role} '{candidate.label}' ({candidate.score:.3f})")
    lines.extend(f"lifecycle: {change}" for change in result.lifecycle)
    summary = {"success": f"replayed and verified ({_VERIFIED.get(result.verification, '?')})",
               "dry_run": "dry run: every step on the starting screen can act"}.get(
        result.status, result.status)
    lines.append(f"{summary}: {result.program} ({result.program_id}) in {result.elapsed_ms} ms, "
                 f"vlm_calls=0" + ("" if result.sent_input or result.status == "success"
                                   else ", no input sent"))
    return lines


def unsuccessful_run(result: dict[str, Any]) -> tuple[str, str] | None:
    """For ReplayChecked: a run that did not succeed as (error code, one-line
    message naming the program, the step and why, and the run to look at);
    None for a success. A shortcut runner sees only the exit status of
    `gdbus call`, so every outcome but success must be an error."""
    status = result["status"]
    if status in ("success", "dry_run"):
        return None
    code = {"escalated": "escalated", "refused": "refused"}.get(status, "failed")
    escalation = result.get("escalation") or {}
    where = f" at step {escalation['step']}" if escalation.get("step") else ""
    reason = escalation.get("reason") or "no reason was recorded"
    sent = "" if result.get("sent_input") else "; no input was sent"
    run = f"; `phantom runs --last` shows run {result['run_id']}" if result.get("run_id") else ""
    return code, f"{result['program']} {status}{where}: {reason}{sent}{run}"


def choice_dict(choice: "Choice") -> dict[str, Any]:
    """What a request in words found, as plain data: the program with what
    a caller needs to run it (its parameters' names, fields and shapes —
    never the recorded values), its compatibility, and every candidate the
    gates looked at."""
    chosen = choice.chosen
    assert chosen is not None, "a choice as found: find raises NoCompatibleProgram when none is chosen"
    program = chosen.program
    assert program is not None, "an assessment that passed every gate holds its program"
    return {
        "intent": choice.intent,
        "verdict": choice.verdict,
        "program": {
            "id": program.id, "name": program.name, "app": program.app,
            "description": chosen.hit.description, "steps": len(program.steps),
            "parameters": [{"name": p.name, "field": p.field, "step": p.step, "shape": shape_of(p.samples)}
                           for p in program.parameters],
            "compatibility": chosen.score, "terms": dict(chosen.terms),
        },
        "candidates": [candidate_dict(item) for item in choice.assessed],
    }


def candidate_dict(item: Assessment) -> dict[str, Any]:
    return {"id": item.hit.program_id, "name": item.hit.name, "cosine": round(item.hit.cosine, 4),
            "intent": round(item.hit.intent, 4), "failed_gate": item.failed, "reason": item.reason,
            "score": item.score}
