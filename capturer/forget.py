"""Forgetting a window directly on the store, holding the capture daemon's lock."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

from cli.errors import EXIT_USAGE, CliError


def _forget_directly(db: Path, windows: list[tuple[int, int]]) -> list[dict]:
    from dataclasses import replace

    from capturer.single_instance import AlreadyRunning, InstanceLock
    from core.caches import drop_caches
    from core.clock import now_ms
    from core.store import StoreError, open_store
    from core.store.forget import forget_window

    lock = InstanceLock(db)
    try:
        lock.acquire()
    except AlreadyRunning as exc:
        raise CliError(f"{exc}, and it cannot be reached over D-Bus (started with --no-dbus?): stop "
                       "it, then forget — so nothing it holds escapes") from None
    except OSError as exc:
        raise CliError(f"cannot lock {db}: {exc.strerror or exc}") from None
    reports = []
    try:
        connection = open_store(db)
        try:
            for since, until in windows:
                highest = connection.execute("SELECT coalesce(max(id), 0) FROM blind_spots").get
                ids = itertools.count(int(highest) + 1)
                report = forget_window(connection, db, since, until, now_ms=now_ms(),
                                       next_blind_spot_id=functools.partial(next, ids))
                reports.append(report)
        finally:
            connection.close()
    except StoreError as exc:
        raise CliError(str(exc)) from None
    except ValueError as exc:
        raise CliError(f"phantom forget: {exc}", EXIT_USAGE) from None
    finally:
        lock.release()
    caches = drop_caches()
    reports[-1] = replace(reports[-1], caches=caches)
    return [{**report.as_dict(), "nothing": False} for report in reports]
