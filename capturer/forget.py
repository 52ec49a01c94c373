"""Forgetting windows: through the running daemon's own writer (`controller`
asks, so that nothing it holds in memory outlives the window), or, when no
capture daemon writes to the store, directly on the store, holding the
daemon's own lock so that none starts meanwhile."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import cast

from core.errors import PhantomError
from core.store import StoreWriter
from core.store.forget import ForgetReport


def forget_on_writer(writer: StoreWriter, since_ms: int, until_ms: int, now: int) -> Future[ForgetReport]:
    """Forget [since, min(until, now)) on the daemon's writer, after what it
    buffered: what is captured after `now` is kept, and what was built
    before and is committed after passes the writer's fence (`core.store.fence`)."""
    from core.store.forget import forget_window

    cut = min(until_ms, now)
    return cast(Future[ForgetReport], writer.perform(
        lambda connection: forget_window(connection, writer.path, since_ms, cut, now_ms=now,
                                         next_blind_spot_id=lambda: writer.ids.next("blind_spots"),
                                         on_forgotten=writer.forgotten)))


def forget_directly(db: Path, windows: list[tuple[int, int]]) -> list[ForgetReport]:
    """Forget each window [since, until) in turn, then empty Phantom's cache
    (the last report counts what went from it)."""
    from core.caches import drop_caches
    from core.clock import now_ms
    from core.store import open_store
    from core.store.forget import forget_window
    from core.store.writer import IdAllocator

    from .single_instance import AlreadyRunning, InstanceLock

    lock = InstanceLock(db)
    try:
        lock.acquire()
    except AlreadyRunning as exc:
        raise PhantomError(f"{exc}, and it cannot be reached over D-Bus (started with --no-dbus?): "
                           "stop it, then forget — so nothing it holds escapes") from None
    except OSError as exc:
        raise PhantomError(f"cannot lock {db}: {exc.strerror or exc}") from None
    reports = []
    try:
        connection = open_store(db)
        try:
            for since, until in windows:
                ids = IdAllocator(connection)   # blind-spot ids after the store's highest
                reports.append(forget_window(connection, db, since, until, now_ms=now_ms(),
                                             next_blind_spot_id=partial(ids.next, "blind_spots")))
        finally:
            connection.close()
    finally:
        lock.release()
    reports[-1] = replace(reports[-1], caches=drop_caches())
    return reports


FORGET_TIMEOUT_S = 3600.0  # a VACUUM of a large store takes a while


def forget_windows(db: Path, windows: list[tuple[int, int]]) -> list[dict[str, object]]:
    """Forget each window, through the capture daemon when it writes to this
    store (over D-Bus, so nothing it holds in memory outlives the window),
    else directly (`forget_directly`). Reports as plain data."""
    import json

    from core.bus import CAPTURE, call, capture_status

    status = capture_status()
    if status is not None and Path(status.get("db", "")).resolve() == db.resolve():
        reports = []
        for since, until in windows:
            # Confirmed: every caller asked first (the CLI's y/N or --yes, the web view's box).
            body = call(CAPTURE, "ForgetConfirmed", "ss", [_iso(since), _iso(until)],
                        timeout=FORGET_TIMEOUT_S)
            reports.append({**json.loads(body[0]), "nothing": False})
        return reports
    return [{**report.as_dict(), "nothing": False} for report in forget_directly(db, windows)]


def _iso(ms: int) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="milliseconds")
