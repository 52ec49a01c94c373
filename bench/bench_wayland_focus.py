"""Focus change → committed snapshot on sway, beside X11 in the same run.

    python bench/bench_wayland_focus.py [--switches 30]

The same two GTK 3 applications (gtk3-widget-factory, gtk3-demo) on a
headless sway (native Wayland clients, focus moved by sway's own `focus`
command over its IPC) and on the X11 test desktop (Xvfb with openbox,
focus moved by `xdotool windowfocus --sync`), each under the real
`phantom capture` at default settings. The time is from the moment the
focus request returns to the moment the snapshot of the newly focused app
is readable in the store. A snapshot carries a thumbnail only once per
`screenshot_interval_seconds` (60 s by default); `--every-thumbnail` sets
that interval to 10 ms, so every focus snapshot waits for a grab (a `grim`
run on sway, mss on X11) and its WebP encoding. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_capture import SnapshotWatcher  # noqa: E402
from bench.common import cpu_seconds, daemon_argv, median, percentile, table  # noqa: E402
from testbed.as_user import as_user, give, owned_dir  # noqa: E402
from testbed.executables import executable  # noqa: E402
from testbed.waiting import wait_until  # noqa: E402

APPS = ("gtk3-widget-factory", "gtk3-demo")


def switch_loop(db: Path, switches: int, focus: Callable[[str], None], app_name: Callable[[str], str],
                pid: int) -> dict:
    wait_until(lambda: db.exists(), timeout=20, what="the store")
    time.sleep(2.0)
    watcher = SnapshotWatcher(db)
    latencies: list[float] = []
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    for index in range(switches):
        app = APPS[index % 2]
        before = watcher.last_id()
        focus(app)
        switched = time.monotonic()
        seen = watcher.wait_for(app_name(app), before)
        if seen:
            latencies.append((seen[0] - switched) * 1000)
        time.sleep(0.4)
    cpu = 100 * (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0)
    return {"latencies": latencies, "cpu": cpu, "switches": switches}


def on_sway(switches: int, config_text: str) -> dict:
    from testbed.sway import SwayDesktop

    with SwayDesktop() as sway:
        for app in APPS:
            sway.launch([executable(app)])
            sway.wait_for_view(app)
        assert sway.root is not None
        work = owned_dir("bench-", parent=sway.root)
        os.chmod(work, 0o755)
        db, config = work / "store.sqlite3", work / "config.toml"
        config.write_text(config_text, encoding="utf-8")
        give(config)
        with open(work / "capture.log", "wb") as log:
            daemon = subprocess.Popen(as_user(daemon_argv(None, db, config) + ["--no-dbus"]), env=sway.env,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
        try:
            figures = switch_loop(db, switches, lambda app: sway.command(f'[app_id="{app}"] focus'),
                                  lambda app: app, daemon.pid)
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(30)
    return figures


def on_x11(switches: int, config_text: str) -> dict:
    from testbed.harness import DesktopConfig, VirtualDesktop

    workdir = Path(tempfile.mkdtemp(prefix="phantom-bench-focus-"))
    db, config = workdir / "store.sqlite3", workdir / "config.toml"
    config.write_text(config_text, encoding="utf-8")
    with VirtualDesktop(DesktopConfig(window_manager=True)) as desktop:
        windows = {}
        for app in APPS:
            launched = desktop.launch([executable(app)])
            windows[app] = desktop.wait_for_window(app, pid=launched.pid)
        env = dict(desktop.env, PATH=os.environ.get("PATH", ""))
        with open(workdir / "capture.log", "wb") as log:
            daemon = subprocess.Popen(daemon_argv(None, db, config) + ["--no-dbus"], env=env,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)

        def focus(app: str) -> None:
            desktop.run([executable("xdotool"), "windowactivate", "--sync", str(windows[app])])

        try:
            # The X11 app name is the WM_CLASS class, case-folded: the same names.
            figures = switch_loop(db, switches, focus, lambda app: app, daemon.pid)
        finally:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(30)
    return figures


def rows(label: str, m: dict) -> list[tuple[str, str]]:
    lat = m["latencies"]
    return [(f"{label}: focus → committed snapshot",
             f"p50 {median(lat):.0f} ms, p95 {percentile(lat, 95):.0f} ms, max {max(lat, default=float('nan')):.0f} ms"
             f"   ({len(lat)} of {m['switches']} switches seen; budget p95 250 ms)"),
            (f"{label}: daemon CPU while switching", f"{m['cpu']:.1f} % of one core")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--switches", type=int, default=30)
    parser.add_argument("--no-x11", action="store_true", help="measure sway only")
    parser.add_argument("--every-thumbnail", action="store_true",
                        help="a thumbnail with every snapshot (screenshot interval 10 ms)")
    args = parser.parse_args()
    config = "[capture]\nscreenshot_interval_seconds = 0.01\n" if args.every_thumbnail else ""
    found = rows("sway", on_sway(args.switches, config))
    if not args.no_x11:
        found += rows("X11", on_x11(args.switches, config))
    what = ", a thumbnail with every snapshot" if args.every_thumbnail else ""
    print(table(found, f"Focus latency, sway beside X11 ({args.switches} switches each{what})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
