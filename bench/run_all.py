"""Run every benchmark with its default settings (`make bench`).

Each benchmark prints its own table, with ratios against a baseline measured
in the same run; copy the figures into docs/BENCHMARKS.md with the command
that produced them. Benchmarks that need a corpus build it first (cached in
.bench-cache/)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ORDER = ("bench_capture.py", "bench_click_capture.py", "bench_hit_test.py", "bench_startup.py",
         "bench_first_compile.py", "bench_compile.py", "bench_gittins.py", "bench_mining.py",
         "bench_program_compile.py", "bench_replay.py", "bench_program_memory.py",
         "bench_visual.py", "bench_interfaces.py", "bench_search.py", "bench_timeline.py",
         "bench_retention.py", "bench_retention_search_scaling.py", "bench_warm_cache.py",
         "bench_web.py", "bench_answerability.py", "bench_wayland_focus.py")


def main() -> int:
    failed = []
    for name in ORDER:
        script = BENCH / name
        if not script.exists():
            continue
        print(f"\n### {name}", flush=True)
        started = time.monotonic()
        code = subprocess.call([sys.executable, str(script)])
        print(f"({name} took {time.monotonic() - started:.0f} s, exit {code})", flush=True)
        if code:
            failed.append(name)
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
