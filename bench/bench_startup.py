"""`phantom compile` as a whole process, beside activity-frames as one.

    python bench/bench_startup.py [--runs 30]

This is how an agent hook, a shell script or a status bar asks for
context: a new process per question. On the corpus day in the nocta layout
(`phantom synth --seed 7 --layout nocta`, built once into .bench-cache/),
four commands take turns run by run, so a slow stretch of this shared VM
lands on all of them alike:
- activity-frames 0.2.2 as a three-line script (import, build_day,
  context_block), the peer;
- `phantom compile --day D --db nocta.sqlite3` with the compiled-document
  cache warm (the default; the day was compiled before);
- the same with `--no-cache` (every run compiles afresh);
- the interpreter alone (`python -c pass`), the floor under both.
Wall time per process (median and best) and user+system CPU from wait4.
Then the compile path's imports, from `python -X importtime` (median of
the runs of the total).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_compile import corpus, weekdays  # noqa: E402
from bench.common import table  # noqa: E402

PEER = ("import sys\n"
        "from activity_frames import Database, build_day, context_block\n"
        "sys.stdout.write(context_block(build_day(Database(sys.argv[1]), sys.argv[2], min_minutes=0.5)))\n")


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one process, its output thrown away."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - started) * 1000
    if status != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({status})")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def import_ms(argv: list[str], env: dict[str, str]) -> float:
    """Total import time (ms) of one run, as -X importtime reports it."""
    result = subprocess.run([sys.executable, "-X", "importtime", *argv], capture_output=True,
                            text=True, env=env, check=True)
    total = 0
    for line in result.stderr.splitlines():
        found = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)\S", line)
        if found and len(found.group(2)) == 1:  # top-level imports only
            total += int(found.group(1))
    return total / 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    nocta = corpus(1, "nocta")
    day = weekdays(1)[0]
    phantom = str(Path(sys.executable).with_name("phantom"))
    with tempfile.TemporaryDirectory(prefix="phantom-bench-cache-") as cache_home:
        env = {**os.environ, "XDG_CACHE_HOME": cache_home}
        compile_args = ["compile", "--db", str(nocta), "--day", day]
        contenders = {
            "activity-frames 0.2.2 (peer)": [sys.executable, "-c", PEER, str(nocta), day],
            "phantom compile, cache warm": [phantom, *compile_args],
            "phantom compile --no-cache": [phantom, *compile_args, "--no-cache"],
            "python -c pass (interpreter)": [sys.executable, "-c", "pass"],
        }
        for argv in contenders.values():  # warm the page cache, the .pyc files and our cache
            timed(argv, env)
        wall: dict[str, list[float]] = {name: [] for name in contenders}
        cpu: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(args.runs):
            for name, argv in contenders.items():
                w, c = timed(argv, env)
                wall[name].append(w)
                cpu[name].append(c)
        script = ["-c", "import sys; from cli.main import main; sys.exit(main())"]
        imports = {
            "cache warm": statistics.median(import_ms([*script, *compile_args], env) for _ in range(7)),
            "--no-cache": statistics.median(import_ms([*script, *compile_args, "--no-cache"], env)
                                            for _ in range(7)),
            "peer": statistics.median(import_ms(["-c", PEER, str(nocta), day], env) for _ in range(7)),
        }
    peer = statistics.median(wall["activity-frames 0.2.2 (peer)"])
    rows = [(f"nocta-layout day {day}, {args.runs} runs each, alternated", "wall median / best; CPU median")]
    for name in contenders:
        median = statistics.median(wall[name])
        ratio = f"   ({median / peer:.2f}x the peer)" if "phantom" in name else ""
        rows.append((f"  {name}", f"{median:.1f} / {min(wall[name]):.1f} ms; CPU "
                                  f"{statistics.median(cpu[name]):.1f} ms{ratio}"))
    rows.append(("imports (-X importtime, median of 7)",
                 f"phantom warm {imports['cache warm']:.1f} ms, --no-cache {imports['--no-cache']:.1f} ms, "
                 f"peer {imports['peer']:.1f} ms"))
    print(table(rows, "bench_startup: one compile per process (target: phantom <= 0.8x the peer)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
