"""Replay telemetry in the store: a run row at the start (so a crashed run
is visible as 'running'), a row per step, and the run's outcome at the end.
Parameter values are never stored — they are what the user typed — only
their names and lengths."""

from __future__ import annotations

import orjson

from core.store import open_store


class Telemetry:
    """Holds one write connection (until `close`), so logging a step costs
    one short transaction; a long-lived replay service keeps it across runs."""

    def __init__(self, db_path) -> None:
        self._db = db_path
        self._connection = None

    def _open(self):
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
            return connection.last_insert_rowid()

    def step(self, run_id: int, outcome) -> None:
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
