"""A program as an Agent Skill: a `SKILL.md` (YAML front matter, then
sections) that any agent which reads skills — not only Phantom's MCP
clients — can follow: when to use it, its inputs, its steps in words, how
success is checked, and the exact commands that run it.

What a skill never carries is what the person typed where a parameter
stands: inputs are described by shape (the kinds of characters and the
lengths recorded), as the MCP program list does. Constants the person fixed
are shown as recorded unless the caller asks for them redacted. Only active
programs are exported by default: an agent that reads the skill runs it
through the same lifecycle rules as `phantom_replay`.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from dataclasses import dataclass

from compiler.programs.outline import step_outline
from compiler.programs.records import Program
from core.errors import PhantomError, quoted
from programs.api import ACTIVE, list_programs

from .params import describe_shape, shape_of
from .shortcut import cli_command, gdbus_command

__all__ = ["MAX_DESCRIPTION_CHARS", "MAX_NAME_CHARS", "Skill", "export_skill", "skill_name"]

MAX_NAME_CHARS = 64           # the Agent Skills limit on `name`
MAX_DESCRIPTION_CHARS = 1024  # … and on `description`


@dataclass(frozen=True, slots=True)
class Skill:
    """One exported skill: its `name` (also its folder's) and its SKILL.md."""

    name: str
    program_id: str
    text: str


def skill_name(program_name: str) -> str:
    """The program's name as a skill name: lower-case ASCII letters, digits
    and single hyphens, at most 64 characters ("Fill form (v2)" →
    "fill-form-v2"); a name with nothing usable becomes "phantom-program"."""
    ascii_name = unicodedata.normalize("NFKD", program_name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug[:MAX_NAME_CHARS].rstrip("-") or "phantom-program"


def export_skill(db: str | os.PathLike[str], name_or_id: str, *, redact_constants: bool = False,
                 any_state: bool = False) -> Skill:
    """The skill of the stored program with this id, or the newest with this
    name. A program that is not active is refused unless `any_state`."""
    summaries = list_programs(db)
    chosen = next((s for s in summaries if s.id == name_or_id), None)
    if chosen is None:
        named = [s for s in summaries if s.name == name_or_id]
        chosen = max(named, key=lambda s: (s.created_ms, s.id)) if named else None
    if chosen is None:
        raise PhantomError(f"no stored program has the name or id {quoted(name_or_id)}",
                           code="unknown_program")
    if chosen.program is None:
        raise PhantomError(f"program {chosen.id} cannot be read: {chosen.problem}", code="corrupt_program")
    state = chosen.standing.state
    if state != ACTIVE and not any_state:
        raise PhantomError(f"{chosen.name} ({chosen.id}) is {state}, not active: agents run only "
                           "active programs, so only those are exported (promote it with `phantom "
                           "programs promote`, or pass --any-state)", code="not_active")
    name = _unique_name(chosen.program, chosen.id, {s.id: s.name for s in summaries})
    text = render_skill(chosen.program, name, state=state, description=chosen.standing.description,
                        redact_constants=redact_constants)
    return Skill(name, chosen.id, text)


def _unique_name(program: Program, program_id: str, names_by_id: dict[str, str]) -> str:
    """The slug of the program's name; if another stored program's different
    name slugs the same, the id's digits are added so the two never collide."""
    slug = skill_name(program.name)
    clash = any(skill_name(other) == slug and other != program.name
                for other_id, other in names_by_id.items() if other_id != program_id)
    if not clash:
        return slug
    suffix = "-" + program_id.removeprefix("p-")[:8]
    return slug[:MAX_NAME_CHARS - len(suffix)].rstrip("-") + suffix


def render_skill(program: Program, name: str, *, state: str, description: str,
                 redact_constants: bool) -> str:
    """SKILL.md for `program`; pure (the same program gives the same bytes)."""
    summary = _description(program, description)
    front = [
        "---",
        f"name: {name}",
        f"description: {json.dumps(summary, ensure_ascii=False)}",
        "metadata:",
        f"  phantom-program-id: {json.dumps(program.id)}",
        f"  app: {json.dumps(program.app, ensure_ascii=False)}",
        f"  lifecycle-state: {json.dumps(state)}",
        "---",
        "",
    ]
    body = [f"# {program.name}", "", "## When to use", "", summary, "",
            f"It acts on {program.app}'s window, which must be open; Phantom refuses (and sends "
            "nothing) when the window is not there, when several fit, or when the screen differs "
            "from the demonstrations'.", "", "## Inputs", ""]
    if program.parameters:
        for parameter in program.parameters:
            shape = describe_shape(shape_of(parameter.samples))
            body.append(f"- `{parameter.name}`: the {parameter.field!r} field (step "
                        f"{parameter.step + 1}); {shape}")
    else:
        body.append("None: every step is fixed.")
    body += ["", "## Steps", ""]
    body += [f"{step.index + 1}. {step_outline(step, redact_constants=redact_constants)}"
             for step in program.steps]
    body += ["", "## Success check", "", _success_check(program), "", "## Run", "",
             "Either command replays it and waits; the exit status is 0 only for a verified success "
             "(3: it escalated, 4: it was refused and nothing was sent).", "", "```sh"]
    placeholders = {p.name: f"<{p.name}>" for p in program.parameters}
    body += [cli_command(program.name, placeholders), gdbus_command(program.name, placeholders), "```", ""]
    return "\n".join(front + body)


def _description(program: Program, description: str) -> str:
    """The person's description when there is one; otherwise one built from
    the steps. Either way within the 1,024 characters a skill may use."""
    if description.strip():
        text = " ".join(description.split())
    else:
        inputs = ", ".join(f"{p.name} ({p.field})" for p in program.parameters) or "no inputs"
        text = (f"Replays the recorded Phantom routine {program.name!r} in {program.app} "
                f"({len(program.steps)} steps; {inputs}). Use it when the person asks for "
                f"{program.name!r} to be done in {program.app}.")
    return text if len(text) <= MAX_DESCRIPTION_CHARS else text[:MAX_DESCRIPTION_CHARS - 1] + "…"


def _success_check(program: Program) -> str:
    end = program.end_state
    if end is None:
        return ("No end state was recorded: a run succeeds when every step's postcondition held "
                "and no unexpected window opened.")
    words = ", ".join(repr(word) for word in end.title_tokens) or "no fixed words"
    shown = (f" (the title also shows the value of {', '.join(end.title_parameters)})"
             if end.title_parameters else "")
    return (f"The run ends with {end.app}'s window focused and its title holding {words}{shown}, "
            "as every demonstration ended; anything else is reported as a failure.")
