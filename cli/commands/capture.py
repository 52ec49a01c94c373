"""`phantom capture | status | pause | resume | record`: the capture daemon
and the commands that talk to it."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from core.bus import CAPTURE, BusUnavailable, call, capture_status
from core.errors import PhantomError

from ..errors import restated
from ..parsers import Subcommands


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("capture", parents=[common], help="run the capture daemon in the foreground",
                       description="Capture the focused window, input counts, small screenshots and "
                       "accessibility trees into the local store until SIGTERM/SIGINT. This is what "
                       "the systemd user unit runs.")
    p.add_argument("--config", type=Path, help="config file (default: $XDG_CONFIG_HOME/phantom/config.toml)")
    p.add_argument("--display", help="X display to capture (default: the session's: $DISPLAY, or sway "
                   "through $WAYLAND_DISPLAY and $SWAYSOCK)")
    p.add_argument("--no-dbus", action="store_true", help="do not export org.phantom.Capture1")
    p.add_argument("-v", "--verbose", action="store_true", help="log debug details to stderr")
    p.set_defaults(handler=run_capture)

    p = sub.add_parser("status", parents=[common], help="what is being captured, since when, store size",
                       description="Ask the running capture daemon for its status; without one, "
                       "describe the store on disk.")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=run_status)

    p = sub.add_parser("pause", help="pause capture (leaves a 'paused' blind spot)",
                       description="Pause the running capture daemon. Nothing is captured until "
                       "`phantom resume`; the pause survives a daemon restart.")
    p.set_defaults(handler=lambda args: _toggle("Pause", "paused", "already paused"))
    p = sub.add_parser("resume", help="resume capture after a pause",
                       description="Resume the running capture daemon after `phantom pause`; the "
                       "paused stretch stays recorded as a 'paused' blind spot.")
    p.set_defaults(handler=lambda args: _toggle("Resume", "resumed", "not paused"))


def run_capture(args: argparse.Namespace) -> int:
    from capturer.config import load_config
    from capturer.daemon import CaptureDaemon
    from capturer.single_instance import InstanceLock
    from capturer.sources.session import detect
    from capturer.sources.wayland.windows import SwaySource
    from capturer.sources.x11 import X11Source
    from core.store import open_store
    from core.store.connection import prepare_for_writing
    from core.store.errors import damaged
    from core.store.integrity import quick_check
    from core.store.paths import resolve_db_path

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, stream=sys.stderr,
                        format="phantom-capture: %(levelname)s %(message)s")
    # Until the daemon's loop takes SIGTERM over (it flushes), a stop asked
    # for while starting (or re-executing) ends the process cleanly: nothing
    # has been captured yet.
    signal.signal(signal.SIGTERM, _stopped_while_starting)
    config = load_config(args.config)
    db_path = resolve_db_path(args.db)
    _tighten_config(args.config)
    prepare_for_writing(db_path)  # modes tightened, a read-only store refused
    # The session kind is chosen once, here: X11, sway, or a refusal in one line.
    session = detect(os.environ, args.display)
    display = session.display
    if session.kind == "x11":
        X11Source(display).close()   # an X server that does not answer: DisplayLost, one line
        if display != os.environ.get("DISPLAY"):
            os.environ["DISPLAY"] = display  # pynput reads it
    else:
        SwaySource(session.swaysock).close()   # a dead sway socket: DisplayLost, one line
    _ensure_config_file(args.config)
    lock = InstanceLock(db_path)
    try:
        lock.acquire()
        # Fail fast, before any thread starts: a path that is no store, a
        # read-only or full disk, damage (checked once per start, not per read).
        problems = quick_check(db_path)
        if problems:
            raise damaged(db_path, problems[0])
        open_store(db_path).close()
    except PhantomError:
        lock.release()
        raise
    try:
        daemon = CaptureDaemon(db_path, config, display=display, control_bus=not args.no_dbus,
                               sources=session.sources())
        status = asyncio.run(daemon.run())
    finally:
        lock.release()
    if daemon.reexec_reason is not None and status == 0:
        _reexec()
    return status


def _stopped_while_starting(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def _reexec() -> None:
    """Start this daemon afresh in this process (same pid, same arguments):
    the store is flushed and closed, and the lock's descriptor closes with
    the old image. The accessibility bus address pinned for libatspi is
    dropped, so the new run looks for the bus again."""
    from core.a11y.bus import unpin_address

    unpin_address()
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, sys.orig_argv)


def _tighten_config(explicit: Path | None) -> None:
    """The rules name the applications the person keeps private: a config
    file found with group or other bits loses them, and so does its
    directory if it is Phantom's own. No bit is added."""
    from capturer.config import config_path
    from core.store.paths import is_own_directory, remove_group_other

    path = explicit or config_path()
    try:
        remove_group_other(path)
        if path.exists() and is_own_directory(path.parent):
            remove_group_other(path.parent)
    except OSError:
        pass  # a read-only home: capture runs on what it has read


def _ensure_config_file(explicit: Path | None) -> None:
    """Write the commented default config on first run, so users find it:
    0600 in a 0700 directory, whatever the umask."""
    from capturer.config import DEFAULT_CONFIG_TEXT, config_path
    from core.private import make_private_dirs

    path = explicit or config_path()
    if explicit is not None or path.exists():
        return
    try:
        make_private_dirs(path.parent)   # $XDG_CONFIG_HOME too, when this makes it
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, DEFAULT_CONFIG_TEXT.encode("utf-8"))
        finally:
            os.close(fd)
    except OSError:
        return
    _tighten_config(None)  # a directory that was there already


def daemon_status() -> dict[str, Any] | None:
    """The running capture daemon's status, or None when none answers."""
    return capture_status()   # CaptureControl.status()


def run_status(args: argparse.Namespace) -> int:
    """The daemon's status and its store; with --db, that store alone unless
    the daemon writes to it. A store that cannot be read is an error (exit 1)."""
    from core.store import StoreError, open_readonly
    from core.store.paths import resolve_db_path
    from core.store.summary import store_summary

    daemon = daemon_status()
    if daemon and args.db and Path(daemon["db"]).resolve() != Path(args.db).resolve():
        daemon = None  # another store: its daemon says nothing about this one
    db_path = Path(daemon["db"]) if daemon and not args.db else resolve_db_path(args.db)
    try:
        connection = open_readonly(db_path)
        try:
            store = store_summary(connection, db_path)
            store["growth"] = _growth(connection)
        finally:
            connection.close()
    except StoreError as exc:
        if daemon is None:
            raise restated(exc, f"capture daemon not running, and {exc}") from None
        raise restated(exc, f"the capture daemon runs (pid {daemon['pid']}), but {exc}") from None
    if args.format == "json":
        print(json.dumps({"daemon": daemon, "store": store}, sort_keys=True, indent=2))
        return 0
    print(_format_status(daemon, store))
    return 0


def _format_status(daemon: dict[str, Any] | None, store: dict[str, Any]) -> str:
    lines = []
    if daemon is None:
        lines.append("capture daemon: not running (start it with `phantom capture` or "
                     "`systemctl --user start phantom-capture`)")
    else:
        what = {"capturing": f"capturing {daemon.get('focused_app') or 'the desktop'}",
                "idle": "capturing (user idle)",
                "paused": "paused — nothing is being captured",
                "excluded": f"not capturing an excluded window ({daemon.get('excluded_by')})",
                "display_lost": "waiting for the X display to come back"}.get(daemon["state"],
                                                                                daemon["state"])
        lines.append(f"capture daemon: {what} (pid {daemon['pid']}, display {daemon['display']})")
        lines.append(f"  since {_local(daemon['since_ms'])}; this run: {daemon['snapshots']} snapshots, "
                     f"{daemon['input_events']} input rows; accessibility {daemon['accessibility']}")
        if daemon.get("recording"):
            by = daemon.get("recording_started_by")
            lines.append(f"  recording demonstration {daemon['recording']!r} (typed text is kept)"
                         + (f", started by {by}" if by else ""))
        if daemon.get("accessibility") not in ("ok", "disabled", None):
            error = daemon.get("accessibility_error")
            lines.append(f"  accessibility {daemon['accessibility']}: no element is read (a no_accessibility "
                         f"blind spot is open){': ' + error if error else ''}")
    lines.append(f"store: {store['db']} ({_size(store.get('db_bytes', 0))})")
    span = (f"{_local(store['first_snapshot_ms'])} – {_local(store['last_snapshot_ms'])}"
            if store["first_snapshot_ms"] else "nothing captured yet")
    lines.append(f"  {store['snapshots']} snapshots, {store['input_events']} input rows, "
                 f"{store['elements']} elements, {store['blobs']} images; {span}")
    if store["open_blind_spots"]:
        lines.append(f"  open blind spots: {', '.join(store['open_blind_spots'])}")
    if store.get("growth") is not None:   # a summary made without the store's connection has none
        lines += _growth_lines(store["growth"])
    return "\n".join(lines)


def _growth(connection: Any) -> dict[str, Any]:
    """The store's recent growth and, with the [retention] budget of the
    config file (its defaults when there is none, or it cannot be read),
    when it is reached."""
    from capturer.config import ConfigError, RetentionSettings, load_config
    from core.clock import now_ms
    from core.store.growth import store_growth

    try:
        settings = load_config().retention
    except ConfigError:
        settings = RetentionSettings()
    cap = settings.max_store_mb * 1024 * 1024 if settings.max_store_mb else None
    growth = store_growth(connection, now_ms(), cap_bytes=cap, raw_days=settings.raw_days).as_dict()
    return {**growth, "raw_days": settings.raw_days}


def _growth_lines(growth: dict[str, Any]) -> list[str]:
    days = growth["days"]
    if not any(d["bytes"] for d in days):
        return ["  growth: nothing captured in the last days before today"]
    shown = ", ".join(f"{d['day'][5:]} {_size(d['bytes'])}" for d in days)
    lines = [f"  growth: ≈ {_size(growth['per_day_bytes'])} a day over the last {len(days)} day(s) "
             f"({shown})"]
    cap, level, left = growth["cap_bytes"], growth["level_bytes"], growth["days_to_cap"]
    if cap is None:
        lines.append("  no max_store_mb: the store grows without a cap")
    elif left == 0:
        lines.append(f"  over its {_size(cap)} cap: the next `phantom retention run` rolls up old days")
    elif left is not None:
        reached = time.strftime("%Y-%m-%d", time.localtime(time.time() + left * 86400))
        lines.append(f"  at this rate it reaches its {_size(cap)} cap in ≈ {left:.0f} day(s) ({reached})")
    elif level is not None:
        lines.append(f"  keeping {growth['raw_days']} days of raw capture it levels off near "
                     f"{_size(level)}, under its {_size(cap)} cap")
    return lines


def _local(ms: int | None) -> str:
    if not ms:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(ms / 1000))


def _size(n: int) -> str:
    from core.store.summary import format_size

    return format_size(n)


def _toggle(method: str, done: str, noop: str) -> int:
    try:
        changed = call(CAPTURE, method)[0]
    except BusUnavailable as exc:
        raise BusUnavailable(f"capture daemon not reachable: {exc}") from None
    print(f"capture {done}" if changed else f"capture was {noop}")
    return 0
