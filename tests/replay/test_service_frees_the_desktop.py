"""The replay service's busy flag and desktop lock after a failure before
the run starts. A flag left set answers every later call "Busy" until the
service's idle exit; a lock left held refuses the CLI and MCP too. The
failure here (an unexpected error while ReplayAsync checks the window) is
one that cannot be caused on purpose, so it is injected at that edge."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest


def test_an_unexpected_error_before_the_run_frees_the_flag_and_the_lock(tmp_path, monkeypatch):
    import replay.api
    import replay.service
    from replay.desktop_lock import DesktopLock

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setenv("DISPLAY", ":97")
    monkeypatch.setattr(replay.api, "prepare", lambda db, request, matcher: SimpleNamespace(program="p"))

    def broken_window_check(program: object) -> None:
        raise RuntimeError("the X server went away mid-check")

    monkeypatch.setattr(replay.service, "_check_window", broken_window_check)
    service = replay.service.ReplayService(Path(tmp_path) / "store.sqlite3")
    monkeypatch.setattr(service, "engine", lambda: SimpleNamespace(matcher=None))

    async def call() -> None:
        service._loop = asyncio.get_running_loop()
        await service.replay("any program", {}, wait=False)

    with pytest.raises(RuntimeError, match="went away"):
        asyncio.run(call())
    assert service.busy is False
    DesktopLock(":97").acquire().release()   # the lock is free again
