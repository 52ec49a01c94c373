"""Capture daemon cost under a scripted user.

    python bench/bench_capture.py [--minutes 3] [--pace stress] [--baseline DIR]

Starts a private virtual desktop with the fixture apps, runs the real
`phantom capture` at default settings, and lets a scripted user type, click
and switch windows for the given minutes. Reports the daemon's CPU (% of one
core) and peak RSS, focus change → committed snapshot latency, and store
growth per active hour, with the tables that grew most. Baselines measured
in the same run: the idle daemon's CPU before the user starts, and the
CPU the desktop itself (Xvfb and the apps) spends on the same session; with
`--baseline DIR`, the same session first under the daemon of another
checkout, on a fresh desktop.

The pointer glides to each click (`--travel-ms`), as a hand moves a mouse:
a real desktop sends the daemon's X connections a stream of motion and
crossing events that a teleporting XTest pointer never does.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from testbed.executables import executable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import cpu_seconds, daemon_argv, median, peak_rss_mb, percentile, table  # noqa: E402
from testbed.harness import VirtualDesktop  # noqa: E402
from testbed.waiting import wait_until  # noqa: E402


def store_bytes(db: Path) -> int:
    """The database's logical size (pages in use, WAL included), not the WAL
    file's high-water mark."""
    import apsw

    connection = apsw.Connection(f"file:{db}?mode=ro",
                                 flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        return connection.pragma("page_count") * connection.pragma("page_size")
    finally:
        connection.close()


def table_bytes(db: Path) -> dict[str, int]:
    """Bytes of pages per table or index (SQLite's dbstat), to say what the
    growth is made of."""
    import apsw

    connection = apsw.Connection(f"file:{db}?mode=ro",
                                 flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        return {str(name): int(size) for name, size in
                connection.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name")}
    finally:
        connection.close()


def growth_by_table(before: dict[str, int], after: dict[str, int], top: int = 4) -> str:
    grown = sorted(((after[name] - before.get(name, 0), name) for name in after), reverse=True)
    total = max(1, sum(size for size, _ in grown))
    return ", ".join(f"{name} {size / 1024:.0f} KB ({100 * size / total:.0f} %)"
                     for size, name in grown[:top] if size > 0)


class SnapshotWatcher:
    """Polls the store read-only for the first focus snapshot of an app after
    a moment, to time focus change → committed snapshot."""

    def __init__(self, db: Path) -> None:
        import apsw

        self._connection = apsw.Connection(f"file:{db}?mode=ro",
                                           flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)

    def wait_for(self, app: str, after_id: int, timeout: float = 3.0) -> tuple[float, int] | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            row = self._connection.execute(
                "SELECT id FROM snapshots WHERE id > ? AND app = ? AND trigger = 'focus' "
                "ORDER BY id LIMIT 1", (after_id, app)).fetchone()
            if row:
                return time.monotonic(), row[0]
            time.sleep(0.002)
        return None

    def last_id(self) -> int:
        return self._connection.execute("SELECT coalesce(max(id), 0) FROM snapshots").get


def measure(args, source: str | None) -> dict:
    """One scripted session on a fresh desktop under the daemon of `source`
    (None: this checkout); its figures."""
    workdir = Path(tempfile.mkdtemp(prefix="phantom-bench-capture-"))
    db = workdir / "store.sqlite3"
    from testbed.harness import DesktopConfig

    with VirtualDesktop(DesktopConfig(window_manager=args.window_manager)) as desktop:
        os.environ.update(desktop.env)
        apps = [desktop.launch_fixture(kind, "--geometry", geometry) for kind, geometry in (
            ("form", "320x230+20+20"), ("notes", "420x320+380+20"), ("browser", "560x180+20+420"))]
        (workdir / "config.toml").write_text("", encoding="utf-8")
        daemon = subprocess.Popen(
            daemon_argv(source, db, workdir / "config.toml"),
            env=dict(desktop.env, PATH=os.environ.get("PATH", "")), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=open(workdir / "capture.log", "wb"))
        wait_until(lambda: db.exists(), timeout=20, what="the store")
        time.sleep(2.0)

        # Baseline 1: the daemon with nobody at the keyboard.
        idle_cpu0, idle_t0 = cpu_seconds(daemon.pid), time.monotonic()
        time.sleep(args.idle_seconds)
        idle_pct = 100 * (cpu_seconds(daemon.pid) - idle_cpu0) / (time.monotonic() - idle_t0)

        from testbed.scripted_user import ScriptedUser

        user = ScriptedUser(desktop, pace=3.0 if args.pace == "human" else 1.0, travel_s=args.travel_ms / 1000)
        typing_delay = 0.15 if args.pace == "human" else 0.03
        watcher = SnapshotWatcher(db)
        size0, tables0 = store_bytes(db), table_bytes(db)
        desktop_pids = [p.pid for p in desktop._started if p.name == "Xvfb"] + [a.pid for a in apps]
        desk_cpu0 = sum(cpu_seconds(pid) for pid in desktop_pids)
        cpu0, t0 = cpu_seconds(daemon.pid), time.monotonic()
        latencies: list[float] = []
        scenes = 0
        end = t0 + args.minutes * 60
        people = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald")
        while time.monotonic() < end:
            name = people[scenes % len(people)]
            user.typing_delay = typing_delay
            # partial binds this round's name now (a lambda would read it when called).
            for app, scene in (("phantom-form", partial(user.fill_form, name, f"{name}@example.org")),
                               ("phantom-notes", partial(user.write_note, f"{name} notes")),
                               ("phantom-browser", partial(user.browse, f"https://example.org/{name}"))):
                before = watcher.last_id()
                window = desktop.wait_for_window(app)
                switched = time.monotonic()
                desktop.run([executable("xdotool"), "windowfocus", "--sync", str(window)])
                seen = watcher.wait_for(app, before)
                if seen:
                    latencies.append((seen[0] - switched) * 1000)
                scene()
                user.pause(0.5)
            scenes += 1
        active_s = time.monotonic() - t0
        active_pct = 100 * (cpu_seconds(daemon.pid) - cpu0) / active_s
        desk_pct = 100 * (sum(cpu_seconds(pid) for pid in desktop_pids) - desk_cpu0) / active_s
        rss = peak_rss_mb(daemon.pid)
        user.close()
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(30)
        growth_mb_per_hour = (store_bytes(db) - size0) / (1024 * 1024) * 3600 / active_s
        grown = growth_by_table(tables0, table_bytes(db))
    return {"active_s": active_s, "keys": user.keys, "clicks": user.clicks, "switches": len(latencies),
            "cpu": active_pct, "idle": idle_pct, "desktop": desk_pct, "rss": rss, "latencies": latencies,
            "growth": growth_mb_per_hour, "grown": grown}


def in_own_process(args, source: str | None) -> dict:
    """`measure` in a fresh interpreter: pyatspi binds to the first
    accessibility bus it sees, so each desktop needs its own process."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(measure, args, source).result()


def rows_for(args, label: str, m: dict) -> list[tuple[str, str]]:
    latencies, active_pct, idle_pct, desk_pct = m["latencies"], m["cpu"], m["idle"], m["desktop"]
    rows = [
        ("daemon", label),
        ("scripted activity",
         f"{args.pace} pace, {m['active_s'] / 60:.1f} min, {m['keys']} keys, {m['clicks']} clicks, "
         f"{m['switches']} window switches, pointer travel {args.travel_ms:.0f} ms per click, "
         + ("a window manager (openbox)" if args.window_manager else "no window manager")),
        ("daemon CPU, active", f"{active_pct:.2f} % of one core   (budget 2 %)"),
        ("daemon CPU, idle baseline", f"{idle_pct:.2f} %" + (f"   (active/idle = {active_pct / idle_pct:.1f}x)"
                                                              if idle_pct >= 0.05 else "")),
        ("desktop CPU, same session", f"{desk_pct:.2f} %   (daemon/desktop = {active_pct / max(desk_pct, 1e-9):.2f}x)"),
        ("daemon peak RSS", f"{m['rss']:.1f} MB   (budget 80 MB)"),
        ("focus → committed snapshot", f"p50 {median(latencies):.0f} ms, p95 {percentile(latencies, 95):.0f} ms, "
                                       f"max {max(latencies):.0f} ms   (budget p95 250 ms)"),
        ("store growth", f"{m['growth']:.1f} MB per active hour"),
        ("what grew", m["grown"]),
    ]
    return [(f"[{label.split()[0]}] {name}" if index else name, value) for index, (name, value) in enumerate(rows)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--pace", choices=("human", "stress"), default="human",
                        help="human: ~7 keys/s while typing, a second or two between scenes; "
                        "stress: as fast as the apps keep up (~10x denser)")
    parser.add_argument("--travel-ms", type=float, default=250.0,
                        help="the pointer glides to each click over this long, at 125 motion events a "
                        "second (0: it jumps there, as the tests do)")
    parser.add_argument("--window-manager", action="store_true",
                        help="run openbox (keys are then attributed through _NET_ACTIVE_WINDOW)")
    parser.add_argument("--baseline", metavar="DIR",
                        help="first run the same session under the daemon of this checkout "
                        "(e.g. a `git worktree` of an earlier commit)")
    args = parser.parse_args()

    rows: list[tuple[str, str]] = []
    if args.baseline:
        rows += rows_for(args, f"baseline {args.baseline}", in_own_process(args, args.baseline))
    rows += rows_for(args, "this checkout", in_own_process(args, None))
    print(table(rows, "bench_capture: phantom capture under a scripted user"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
