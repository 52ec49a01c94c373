"""`phantom timeline` of one corpus day, as a whole process (cold imports).

One weekday of the 51-day synthetic corpus (built once by `phantom synth
--days 51 --seed 7`; ~2,500 snapshots, ~460 frames on two monitors), drawn as
PNG and as SVG, each run a new process — matplotlib's import included, which
is most of it. The baseline in the same run, taking turns: `phantom compile`
of the same day as JSON without the cache (the same rows read and compiled,
no picture). Medians and bests of wall time. Prints, never asserts.

    .venv/bin/python bench/bench_timeline.py --runs 9
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_compile import corpus  # noqa: E402
from bench.common import median, table  # noqa: E402

DAY = "2026-03-03"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    db = corpus(51, "phantom")
    phantom = str(Path(sys.executable).with_name("phantom"))
    out = Path(tempfile.mkdtemp(prefix="phantom-bench-timeline-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(out / "cache")}
    commands = {
        "timeline PNG": [phantom, "timeline", "--db", str(db), "--day", DAY, "--out", str(out / "d.png")],
        "timeline SVG": [phantom, "timeline", "--db", str(db), "--day", DAY, "--out", str(out / "d.svg")],
        "baseline: compile JSON, no cache": [phantom, "compile", "--db", str(db), "--day", DAY,
                                             "--format", "json", "--no-cache"],
    }
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            started = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
            samples[name].append((time.perf_counter() - started) * 1000)
    rows = [(name, f"{median(values):.0f} ms median, best {min(values):.0f}")
            for name, values in samples.items()]
    rows.append(("picture sizes", f"PNG {(out / 'd.png').stat().st_size:,} bytes, "
                                  f"SVG {(out / 'd.svg').stat().st_size:,} bytes"))
    print(table(rows, f"timeline of {DAY} (51-day corpus), whole process, {args.runs} runs each"))


if __name__ == "__main__":
    main()
