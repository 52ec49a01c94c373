"""The web view's pages that can change something — programs (promote,
deprecate, describe), and privacy (pause, resume, forget a range) — and the
replay runs. Changes go through the same front doors as the CLI: program
memory's `programs.api`; the capture daemon over D-Bus (`core.bus`) for
pause and resume; forgetting through the daemon's writer when it writes to
this store, else directly (`capturer.forget`). With no daemon running,
every page still reads; pause and resume say the daemon is not running."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

from core.errors import PhantomError

from .html import e, form_button, page, table

__all__ = ["forget_action", "lifecycle_action", "pause_action", "privacy_page", "program_page",
           "programs_page", "runs_page"]


def _when(ms: int | None) -> str:
    if ms is None:
        return ""
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


# -- programs -----------------------------------------------------------------------------------
def programs_page(db: Path, query: dict[str, str], notice: str = "") -> str:
    from programs.api import list_programs

    rows = []
    for summary in (list_programs(db) if db.exists() else ()):
        standing = summary.standing
        link = f'<a href="/program?id={quote(summary.id)}">{e(summary.name)}</a>'
        rows.append([link, e(summary.id), e(standing.state), e(summary.source), e(summary.steps or "?"),
                     e(summary.parameters or 0), e(standing.successes), e(standing.last_outcome),
                     e(standing.description)])
    return page("Programs", table("Stored programs", ["name", "id", "state", "source", "steps", "parameters",
                                                       "verified runs", "last outcome", "description"],
                                  rows, raw=True), current="/programs", notice=notice)


def program_page(db: Path, query: dict[str, str], notice: str = "") -> str:
    from compiler.programs.outline import step_outline
    from programs.api import list_programs
    from replay.params import describe_shape, shape_of

    wanted = query.get("id", "")
    summary = next((s for s in list_programs(db) if s.id == wanted), None)
    if summary is None:
        raise PhantomError(f"no stored program has the id {wanted[:40]!r}", code="unknown_program")
    standing, program = summary.standing, summary.program
    parts = [f"<p>{e(summary.source)} program, <strong>{e(standing.state)}</strong>"
             f"{' — ' + e(standing.state_reason) if standing.state_reason else ''}; "
             f"{e(standing.successes)} verified runs, {e(standing.failures)} failed.</p>"]
    if program is None:
        parts.append(f"<p>Its body cannot be read: {e(summary.problem)}</p>")
    else:
        parts.append(table("Steps", ["#", "step"], [[str(s.index + 1), step_outline(s)] for s in program.steps]))
        parts.append(table("Parameters", ["name", "field", "step", "recorded shape"],
                           [[p.name, p.field, str(p.step + 1), describe_shape(shape_of(p.samples))]
                            for p in program.parameters]))
    fields = {"id": summary.id}
    parts.append('<h2>Lifecycle</h2><div class="actions">'
                 + form_button("/program/promote", "Promote (agents may run it)", fields)
                 + form_button("/program/deprecate", "Deprecate (nobody runs it)", fields) + "</div>")
    parts.append('<form method="post" action="/program/describe">'
                 f'<input type="hidden" name="id" value="{e(summary.id)}">'
                 '<label>Description <input type="text" name="text" maxlength="500" size="60" '
                 f'value="{e(standing.description)}"></label> <button type="submit">Save description</button></form>')
    return page(summary.name, "".join(parts), current="/programs", notice=notice)


def lifecycle_action(db: Path, action: str, form: dict[str, str]) -> tuple[str, str]:
    """(where to go, what happened) after a promote, deprecate or describe."""
    from programs import api

    identity = form.get("id", "")
    if action == "promote":
        _, changes = api.promote(db, identity)
        said = "; ".join(f"{who} {change.describe()}" for who, change in changes) or "promoted"
    elif action == "deprecate":
        _, change = api.deprecate(db, identity)
        said = change.describe()
    else:
        api.describe(db, identity, form.get("text", ""))
        said = "description saved"
    return f"/program?id={quote(identity)}", said


# -- replay runs --------------------------------------------------------------------------------
def runs_page(db: Path, query: dict[str, str]) -> str:
    from replay.telemetry import read_runs

    runs = read_runs(db, limit=30) if db.exists() else []
    parts = []
    for run in runs:
        steps = table(f"Run {run['id']}: {run['program']} — {run['status']}, {run['steps_done']}/"
                      f"{run['steps_total']} steps, {_when(run['started_ms'])}, via {run['trigger']}"
                      + (f" — {run['reason']}" if run["reason"] else ""),
                      ["step", "policy", "outcome", "dispatch", "ms", "score"],
                      [[str(s["index"]), s["policy"], s["outcome"], s["dispatch"] or "", str(s["latency_ms"]),
                        "" if s["score"] is None else f"{s['score']:.3f}"] for s in run["steps"]])
        parts.append(steps)
    return page("Replay runs", "".join(parts) or "<p>No replay runs yet.</p>", current="/runs")


# -- privacy ------------------------------------------------------------------------------------
def privacy_page(db: Path, query: dict[str, str], notice: str = "") -> str:
    from capturer.config import load_config
    from core.bus import capture_status

    daemon = capture_status()
    if daemon is None:
        state = "<p>The capture daemon is not running: nothing is being captured. Pages still read the store.</p>"
    else:
        paused = bool(daemon.get("paused"))
        state = (f"<p>Capture is <strong>{'paused' if paused else 'running'}</strong> (store "
                 f"{e(daemon.get('db', ''))}).</p>"
                 + form_button("/privacy/resume" if paused else "/privacy/pause",
                               "Resume capture" if paused else "Pause capture"))
    forget = ('<h2>Forget a range</h2><form method="post" action="/privacy/forget">'
              '<label>From <input type="datetime-local" name="since" required></label> '
              '<label>until <input type="datetime-local" name="until" required></label> '
              '<label><input type="checkbox" name="confirm" value="yes" required> Erase everything '
              "captured in this range for good</label> <button type=\"submit\">Forget</button></form>"
              "<p>Times are in UTC.</p>")
    try:
        rules = load_config().exclusions
        listed = table("Exclusions (never captured)", ["name", "app", "WM_CLASS pattern", "title pattern"],
                       [[r.name, r.app, r.wm_class_regex, r.title_regex] for r in rules])
    except PhantomError as exc:
        listed = f"<p>The config cannot be read: {e(exc)}</p>"
    return page("Privacy", state + forget + listed, current="/privacy", notice=notice)


def pause_action(method: str) -> str:
    from core.bus import CAPTURE, BusCallFailed, BusUnavailable, call

    try:
        call(CAPTURE, method, timeout=5)
    except (BusUnavailable, BusCallFailed) as exc:
        raise PhantomError(f"the capture daemon did not answer: {exc}", code="unavailable") from None
    return "capture paused" if method == "Pause" else "capture resumed"


def forget_action(db: Path, form: dict[str, str]) -> str:
    from capturer.forget import forget_windows

    if form.get("confirm") != "yes":
        raise PhantomError("nothing was forgotten: tick the box to confirm", code="usage")
    since, until = (_utc_ms(form.get(key, ""), key) for key in ("since", "until"))
    if until <= since:
        raise PhantomError("nothing was forgotten: the range ends before it starts", code="invalid_window")
    reports = forget_windows(db, [(since, until)])
    counted = reports[-1]
    return (f"forgotten: {counted.get('snapshots', 0)} snapshots, {counted.get('input_events', 0)} input "
            f"events, {counted.get('images', 0)} images")


def _utc_ms(text: str, what: str) -> int:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise PhantomError(f"nothing was forgotten: {what} {text[:40]!r} is not a date and time",
                           code="invalid_window") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return int(moment.timestamp() * 1000)
