"""What one click costs the capture daemon, and where the time goes.

    python bench/bench_click_capture.py [--clicks 80]
    python bench/bench_click_capture.py --source DIR    # the daemon of another checkout

Starts a private virtual desktop with the canvas fixture app, runs the real
`phantom capture` (thumbnails off and a 10-minute heartbeat, so that nothing
but the clicks makes it work), and clicks a grid of points on the canvas
with XTest, one at a time: before each click and after its row (and, from
this version on, its crops' rows) is committed and 0.3 s more have passed,
the daemon's CPU time is read from /proc (every thread's `schedstat`, in
nanoseconds: the 10 ms ticks of /proc/PID/stat are coarser than one click).
A click's cost is that difference less the idle daemon's CPU over the same
time (measured first, for --idle-seconds). `--source DIR` runs the daemon
from another checkout — the same script gives the figure before a change.

Then, in this process on the same screen, the picture work of one click
alone, timed with the thread's CPU clock: one mss grab of the widest crop's
place (256×256) and `core.visual_evidence.crop_variants` (cut, mask, three
encodes: lossless WebP, PNG before), without and with two field masks.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import daemon_argv, median, peak_rss_mb, percentile, table  # noqa: E402
from testbed.executables import executable  # noqa: E402
from testbed.harness import VirtualDesktop  # noqa: E402
from testbed.waiting import wait_until  # noqa: E402

CANVAS = (40, 40, 420, 260)
CONFIG = "[capture]\nscreenshots = false\nheartbeat_seconds = 600\n"
SETTLE_S = 0.3


def cpu_ns(pid: int) -> int:
    """CPU time of every live thread of `pid`, in nanoseconds."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            continue    # a thread that ended meanwhile
    return total


def rows(db: Path, sql: str) -> int:
    import apsw

    connection = apsw.Connection(f"file:{db}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        connection.set_busy_timeout(2000)
        return int(connection.execute(sql).fetchone()[0])
    except apsw.SQLError:
        return 0        # a store without that table (an older checkout)
    finally:
        connection.close()


def points(count: int) -> list[tuple[int, int]]:
    """A grid over the canvas's drawing, away from its edges."""
    x0, y0, width, height = CANVAS
    columns = 8
    grid = [(x0 + 40 + (i % columns) * (width - 80) // (columns - 1),
             y0 + 40 + ((i // columns) % 5) * (height - 90) // 4) for i in range(count)]
    return grid


def measure_daemon(desktop, args, workdir: Path) -> dict:
    from replay.xinput import XTestInput

    db, config = workdir / "store.sqlite3", workdir / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    daemon = subprocess.Popen(daemon_argv(args.source, db, config),
                              env=dict(desktop.env, PATH=os.environ.get("PATH", "")),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=open(workdir / "capture.log", "wb"))
    user = XTestInput(desktop.display)
    try:
        window = desktop.wait_for_window("phantom-canvas")
        desktop.run([executable("xdotool"), "windowfocus", "--sync", str(window)])
        wait_until(lambda: rows(db, "SELECT count(*) FROM snapshots WHERE app = 'phantom-canvas'"),
                   timeout=30, what="the canvas's first snapshot")
        time.sleep(2.0)
        idle0, t0 = cpu_ns(daemon.pid), time.monotonic()
        time.sleep(args.idle_seconds)
        idle_rate = (cpu_ns(daemon.pid) - idle0) / (time.monotonic() - t0)
        costs: list[float] = []
        for number, (x, y) in enumerate(points(args.clicks), start=1):
            before, started = cpu_ns(daemon.pid), time.monotonic()
            user.click(x, y)
            wait_until(lambda n=number: rows(db, "SELECT count(*) FROM input_events WHERE kind = 'click'") >= n,
                       timeout=10, what=f"click {number}'s row")
            time.sleep(SETTLE_S)
            spent = cpu_ns(daemon.pid) - before - idle_rate * (time.monotonic() - started)
            costs.append(spent / 1e6)
        evidence = rows(db, "SELECT count(*) FROM click_evidence")
        crops = rows(db, "SELECT count(*) FROM blobs WHERE kind = 'click_crop'")
        crop_bytes = rows(db, "SELECT coalesce(sum(length(data)), 0) FROM blobs WHERE kind = 'click_crop'")
        rss = peak_rss_mb(daemon.pid)
    finally:
        user.close()
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(30)
    return {"costs": costs, "idle_ms_per_s": idle_rate / 1e6, "evidence": evidence, "crops": crops,
            "crop_kb": crop_bytes / 1024, "rss": rss}


def measure_in_process(display: str, repeats: int) -> dict:
    """The picture work of one click, on this process's own thread clock."""
    from capturer.sources.screen import ScreenSource
    from core.visual_evidence import Masks, crop_variants, evidence_region

    screen = ScreenSource(display)
    grab_ms, crop_ms, masked_ms = [], [], []
    fields = Masks(editable=((CANVAS[0] + 20, CANVAS[1] + 60, 200, 30), (CANVAS[0] + 20, CANVAS[1] + 100, 200, 30)))
    try:
        for x, y in points(repeats):
            region = evidence_region(x, y, CANVAS, (0, 0, 1280, 800))
            t0 = time.thread_time_ns()
            image = screen.region(region)
            t1 = time.thread_time_ns()
            crop_variants(image, x, y, CANVAS, origin=region[:2])
            t2 = time.thread_time_ns()
            crop_variants(image, x, y, CANVAS, fields, origin=region[:2])
            t3 = time.thread_time_ns()
            grab_ms.append((t1 - t0) / 1e6)
            crop_ms.append((t2 - t1) / 1e6)
            masked_ms.append((t3 - t2) / 1e6)
    finally:
        screen.close()
    return {"grab": grab_ms, "crops": crop_ms, "masked": masked_ms}


def spread(values: list[float]) -> str:
    return f"median {median(values):.2f} ms, p95 {percentile(values, 95):.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=80)
    parser.add_argument("--idle-seconds", type=float, default=15.0)
    parser.add_argument("--source", help="run the daemon from this checkout (a figure before a change)")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="phantom-bench-clicks-"))
    with VirtualDesktop() as desktop:
        os.environ.update(desktop.env)
        desktop.launch_fixture("canvas", "--geometry", "{2}x{3}+{0}+{1}".format(*CANVAS))
        daemon = measure_daemon(desktop, args, workdir)
        local = measure_in_process(desktop.display, args.clicks)

    costs = daemon["costs"]
    print(table([
        ("daemon", args.source or "this checkout"),
        ("clicks", f"{len(costs)} on the canvas app, one at a time"),
        ("daemon CPU per click", f"{spread(costs)}, mean {sum(costs) / len(costs):.2f} ms"),
        ("idle daemon (subtracted)", f"{daemon['idle_ms_per_s']:.2f} ms of CPU per second"),
        ("crops stored", f"{daemon['crops']} blobs, {daemon['crop_kb']:.0f} KB, "
                         f"{daemon['evidence']} click_evidence rows"),
        ("daemon peak RSS", f"{daemon['rss']:.1f} MB"),
        ("in process: one grab (256×256)", spread(local["grab"])),
        ("in process: three crops, encoded", spread(local["crops"])),
        ("  … with two field masks", spread(local["masked"])),
    ], "bench_click_capture: what one click costs the capture daemon"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
