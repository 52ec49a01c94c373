"""Replay telemetry in the store: a run row at the start (so a crashed run
is visible as 'running'), a row per step, and the run's outcome at the end.
Parameter values are never stored — they are what the user typed — only
their names and lengths."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import orjson

from core.store import open_store

if TYPE_CHECKING:
    import apsw

    from .outcomes import StepOutcome


class Telemetry:
    """Holds one write connection (until `close`), so logging a step costs
    one short transaction; a long-lived replay service keeps it across runs."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        self._db = db_path
        self._connection: apsw.Connection | None = None

    def _open(self) -> apsw.Connection:
        if self._connection is None:
            self._connection = open_store(self._db)
        return self._connection

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def start_run(self, program_id: str, started_ms: int, steps: int, parameters: dict[str, str],
                  trigger: str) -> int:
        shape = orjson.dumps({name: {"length": len(value)} for name, value in parameters.items()},
                             option=orjson.OPT_SORT_KEYS).decode()
        connection = self._open()
        with connection:
            connection.execute(
                "INSERT INTO replay_runs(program_id, started_ms, status, trigger, parameters, "
                "steps_total) VALUES (?, ?, 'running', ?, ?, ?)",
                (program_id, started_ms, trigger, shape, steps))
            run_id = connection.last_insert_rowid()
        return run_id   # outside the block: apsw types __exit__ as "-> bool" (may swallow)

    def step(self, run_id: int, outcome: StepOutcome) -> None:
        connection = self._open()
        with connection:
            connection.execute(
                "INSERT INTO replay_steps(run_id, step_index, started_ms, policy, outcome, "
                "dispatch, score, runner_up, attempts, latency_ms, reason, vlm_calls) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,0)",
                (run_id, outcome.index, outcome.started_ms, outcome.policy, outcome.outcome,
                 outcome.dispatch, outcome.score, outcome.runner_up, outcome.attempts,
                 outcome.latency_ms, outcome.reason))

    def finish_run(self, run_id: int, finished_ms: int, status: str, steps_done: int,
                   escalations: int, reason: str) -> None:
        connection = self._open()
        with connection:
            connection.execute(
                "UPDATE replay_runs SET finished_ms = ?, status = ?, steps_done = ?, "
                "escalations = ?, reason = ? WHERE id = ?",
                (finished_ms, status, steps_done, escalations, reason, run_id))


def read_runs(db_path: str | os.PathLike[str], *, limit: int) -> list[dict[str, Any]]:
    """The latest `limit` runs, newest first, each with its steps, as plain
    data (what `phantom runs` prints and an agent could read)."""
    from core.store import open_readonly

    connection = open_readonly(db_path)
    try:
        if connection.pragma("user_version") < 2:
            return []
        runs = list(connection.execute(
            "SELECT r.id, r.program_id, coalesce(p.name, '?'), r.started_ms, r.finished_ms, "
            "r.status, r.trigger, r.steps_total, r.steps_done, r.escalations, r.reason "
            "FROM replay_runs r LEFT JOIN programs p ON p.id = r.program_id "
            "ORDER BY r.started_ms DESC, r.id DESC LIMIT ?", (limit,)))
        steps = {run[0]: list(connection.execute(
            "SELECT step_index, policy, outcome, dispatch, score, runner_up, attempts, "
            "latency_ms, reason, vlm_calls FROM replay_steps WHERE run_id = ? "
            "ORDER BY step_index, id", (run[0],))) for run in runs}
    finally:
        connection.close()
    return [{
        "id": r[0], "program_id": r[1], "program": r[2], "started_ms": r[3], "finished_ms": r[4],
        "status": r[5], "trigger": r[6], "steps_total": r[7], "steps_done": r[8],
        "escalations": r[9], "reason": r[10],
        "steps": [{"index": s[0], "policy": s[1], "outcome": s[2], "dispatch": s[3], "score": s[4],
                   "runner_up": s[5], "attempts": s[6], "latency_ms": s[7], "reason": s[8],
                   "vlm_calls": s[9]} for s in steps[r[0]]],
    } for r in runs]
