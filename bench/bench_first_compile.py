"""A first `phantom compile --no-cache` of one day as a whole process, in CPU
time, beside activity-frames 0.2.2 — and the import bill behind it.

    python bench/bench_first_compile.py [--runs 7] [--baseline DIR]

An agent hook or a shell script starts a new process per question, and the
first question about a day finds no cached document: that process pays the
interpreter, every import on the compile path and the compile itself. CPU
time (user + system of the child, from `os.wait4`) is what the shared VM
disturbs least; wall time is printed beside it. The contenders take turns
run by run:
- activity-frames 0.2.2 as a three-line script on the nocta-layout day
  (`phantom synth --seed 7 --layout nocta`, built once into .bench-cache/);
- `phantom compile --no-cache` of this checkout on that file, and on the
  Phantom store of the same day;
- the same on the nocta day with `--no-inferred`: no routine miner (since
  issue 27 neither compile of a day loads numpy: the frames passes and the
  miner run on lists below LONG_WINDOW rows / LONG_STREAM actions, so the
  difference is the inferred tier's own work);
- with `--baseline DIR` (an export of an older commit: `git archive C |
  tar -x -C DIR`), the same two from there: the figure before a change,
  measured in the same run;
- the interpreter alone (`python -c pass`) and the interpreter importing
  numpy (what numpy adds to any process that loads it).

Bytecode is written and used (`PYTHONDONTWRITEBYTECODE` is dropped from the
children's environment, and a warm-up run of each writes the .pyc files),
as on an installed system; a source compile on every start would bill each
import twice over.

Then the import bill of the compile (this checkout's, and the baseline's):
`python -X importtime`, seven runs, per module the median of its cumulative
time, the top entries as the tree nests them (numpy's insides folded into
numpy). Last, numpy both ways: the four frames passes that have a numpy
version, in this process, on one day and on five, all on lists and then all
on arrays. (The miner's two versions are measured the same way by
`bench/bench_mining.py --threshold`.)
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
BOOT = "import sys; from cli.main import main; sys.exit(main())"
IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def environment(checkout: Path, cache_home: str) -> dict[str, str]:
    """The children's environment: this checkout (or the baseline) first on
    the path, a private cache folder, bytecode written and used. The
    children run in the cache folder: `python -c` puts the working
    directory first on the path, and it must not be a checkout."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": str(checkout), "XDG_CACHE_HOME": cache_home}


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU ms, wall ms) of one process, its output thrown away."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, env=env, cwd=env["XDG_CACHE_HOME"])
    _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - started) * 1000
    if status != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({status})")
    return (usage.ru_utime + usage.ru_stime) * 1000, wall


def import_bill(argv: list[str], env: dict[str, str], runs: int = 7,
                top: int = 25) -> list[tuple[int, str, float, float]]:
    """(depth, module, median cumulative ms, median self ms) of the costliest
    imports of `argv` run under -X importtime, in tree order."""
    samples: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for _ in range(runs):
        result = subprocess.run([sys.executable, "-X", "importtime", *argv], capture_output=True,
                                text=True, env=env, check=True, cwd=env["XDG_CACHE_HOME"])
        for line in result.stderr.splitlines():
            found = IMPORT_LINE.match(line)
            if found:
                own, cumulative, indent, name = found.groups()
                depth = (len(indent) - 1) // 2
                samples.setdefault((depth, name), []).append((int(cumulative), int(own)))
    rows = [(depth, name, statistics.median(c for c, _ in values) / 1000,
             statistics.median(s for _, s in values) / 1000)
            for (depth, name), values in samples.items()
            if not name.startswith("numpy.") and len(values) == runs]
    kept = sorted(rows, key=lambda row: -row[2])[:top]
    return [row for row in rows if row in kept]


def passes_both_ways(db: Path, since: str, until: str, runs: int) -> tuple[int, float, float]:
    """(snapshots, lists ms, arrays ms): the numpy-capable passes (segment,
    quiet, attribute, build, coverage) over one window in this process, CPU
    median, once with every pass on lists and once on arrays."""
    from compiler.api import read_window
    from compiler.frames import attribute, build, coverage, flicker, quiet, segment

    capture, _ = read_window(db, since=since, until=until, tz="Europe/Berlin")
    stream = tuple(s for s in capture.snapshots if not attribute.anchor_only(s))
    by_id = {s.id: s for s in capture.snapshots}

    def passes() -> None:
        credited = segment.runs(stream, capture.blind_spots)
        found = quiet.quiet(stream, capture.inputs, capture.blind_spots, capture.until_ms,
                            last_seen=quiet.seen_until(credited))
        runs_ = quiet.apply(credited, found)
        attribution = attribute.attribute_linked(stream, by_id, capture.inputs)
        build.build_frames(flicker.fold(runs_), attribution)
        coverage.coverage(runs_, stream, capture.blind_spots, found)

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # as `phantom compile` has it
    modules = (segment, attribute, coverage, quiet)
    default = [module.LONG_WINDOW for module in modules]
    medians = []
    for threshold in (sys.maxsize, 0):          # lists, then arrays
        for module in modules:
            module.LONG_WINDOW = threshold
        samples = []
        for _ in range(runs):
            started = time.process_time()
            passes()
            samples.append((time.process_time() - started) * 1000)
        medians.append(statistics.median(samples))
    for module, threshold in zip(modules, default):
        module.LONG_WINDOW = threshold
    return len(stream), medians[0], medians[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", type=Path,
                        help="an older checkout (an export of a commit) measured beside this one")
    args = parser.parse_args()
    nocta, store = corpus(1, "nocta"), corpus(1, "phantom")
    day = weekdays(1)[0]
    with tempfile.TemporaryDirectory(prefix="phantom-bench-cache-") as cache_home:
        here = environment(ROOT, cache_home)
        contenders: dict[str, tuple[list[str], dict[str, str]]] = {
            "activity-frames 0.2.2, nocta day (peer)": ([sys.executable, "-c", PEER, str(nocta), day],
                                                         here)}
        checkouts = [("this checkout", ROOT)]
        if args.baseline is not None:
            checkouts.insert(0, (f"baseline {args.baseline.name}", args.baseline.resolve()))
        for label, checkout in checkouts:
            env = environment(checkout, cache_home)
            for layout, db in (("nocta day", nocta), ("Phantom store day", store)):
                contenders[f"phantom compile --no-cache, {layout}, {label}"] = (
                    [sys.executable, "-c", BOOT, "compile", "--db", str(db), "--day", day, "--no-cache"], env)
            contenders[f"phantom compile --no-cache --no-inferred, nocta day, {label}"] = (
                [sys.executable, "-c", BOOT, "compile", "--db", str(nocta), "--day", day, "--no-cache",
                 "--no-inferred"], env)
        contenders["python -c 'import numpy' (one BLAS thread)"] = (
            [sys.executable, "-c", "import numpy"], {**here, "OPENBLAS_NUM_THREADS": "1"})
        contenders["python -c pass (interpreter)"] = ([sys.executable, "-c", "pass"], here)
        for argv, env in contenders.values():   # write the .pyc files, warm the page cache
            timed(argv, env)
        cpu: dict[str, list[float]] = {name: [] for name in contenders}
        wall: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(args.runs):
            for name, (argv, env) in contenders.items():
                c, w = timed(argv, env)
                cpu[name].append(c)
                wall[name].append(w)
        bills = {label: import_bill(["-c", BOOT, "compile", "--db", str(nocta), "--day", day, "--no-cache"],
                                    environment(checkout, cache_home))
                 for label, checkout in checkouts}
    peer = statistics.median(cpu["activity-frames 0.2.2, nocta day (peer)"])
    rows = [(f"nocta-layout day {day}, {args.runs} runs each, alternated",
             "CPU (user+sys, wait4) median / best; wall median")]
    for name in contenders:
        median = statistics.median(cpu[name])
        ratio = f"   ({median / peer:.2f}x the peer)" if name.startswith("phantom") else ""
        rows.append((f"  {name}", f"{median:.1f} / {min(cpu[name]):.1f} ms; wall "
                                  f"{statistics.median(wall[name]):.1f} ms{ratio}"))
    for label, bill in bills.items():
        rows.append((f"import bill, {label}, nocta day (-X importtime, median of 7)",
                     "cumulative / self ms"))
        for depth, module, cumulative, own in bill:
            rows.append((f"  {'  ' * depth}{module}", f"{cumulative:.1f} / {own:.1f}"))
    days = weekdays(5)
    rows.append(("numpy both ways: the frames passes in process (CPU median of 9)", "lists / arrays"))
    for label, db, since, until in (("one nocta day", nocta, day, days[1]),
                                    ("five weekdays, Phantom store", corpus(5, "phantom"), days[0],
                                     "2026-03-09")):
        snapshots, lists, arrays_ms = passes_both_ways(db, since, until, 9)
        rows.append((f"  {label} ({snapshots} snapshots)", f"{lists:.1f} / {arrays_ms:.1f} ms"))
    print(table(rows, "bench_first_compile: one --no-cache compile per process "
                      "(target: <= 0.85x the peer's CPU)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
