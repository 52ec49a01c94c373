"""Benchmark: routine mining on a synthetic action stream.

Run from the repository root:

    python bench/bench_mining.py [--actions 200000] [--seed 1] [--slice 1000] [--repeats 3]
    python bench/bench_mining.py --linked-days 20     # also the stores, linked and unlinked

Generates, in memory and deterministically from the seed, an action stream
shaped like a desktop corpus: sessions of 5–200 actions drawn from a Zipf-ish
distribution over a few thousand step keys (clicks on named and unnamed
elements, text entry, key combinations, app and site switches, never the
same step twice in a row since the action stream collapses those), with 8
planted routines of 3–12 steps repeated 20–400 times each.

Measures `compiler.routines.mining.mine` end to end (key encoding included): median
wall time of `--repeats` runs, peak traced Python memory (tracemalloc, in a
separate run because tracing slows allocation) and the process's peak RSS.
As the baseline, in the same run, it times the brute-force reference miner
from tests/compiler/test_mining.py (every window enumerated and counted) on
the first `--slice` actions, and `mine` on the same slice, and prints the
ratio. The brute force is quadratic in the slice, so the slice is small.
With `--linked-days N` it also mines, end to end, N days of the synthetic
corpus as the default `phantom synth` writes them (input not linked to
snapshots) and as `phantom synth --live-like` writes them (linked, as the
daemon links them), each with today's switch placement and with the one
before issue 27's fix (`bench/window_scaling.py`), in the same run.
With `--threshold` it measures numpy both ways for the miner's
LONG_STREAM: on generated streams of 1k to 200k actions, the plain-Python
version and the numpy version in this process (CPU medians), and what
importing numpy adds to a process that had not loaded it (`python -c
"import numpy"` minus `python -c pass`, CPU from wait4, median of 7), so
the cost either way of a first compile that mines the stream alone.
With `--memory DB [DB ...]` it measures peak RSS (VmHWM, from wait4) and
CPU of whole-window processes on each store: `phantom routines` and
`phantom compile --no-cache` over the whole history (a window from
2026-03-01 to 2027-01-01, clamped to the days the store holds), plus, in a
child of its own, the stages of `phantom routines` (read the capture,
derive the action stream, mine it) with the RSS after each and the miner's
peak traced allocation. With `--baseline DIR` (an export of an older
commit) the same processes run from there too, in the same run, taking
turns. The stores are only read.
Timings go to stdout only; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

from compiler.records import Action, Step  # noqa: E402
from compiler.routines.mining import mine  # noqa: E402

APPS = ["firefox", "thunderbird", "gnome-terminal-server", "soffice", "nautilus", "code",
        "gedit", "evince", "slack", "gnome-calculator", "eog", "gnome-control-center"]
SITES = ["github.com", "mail.google.com", "docs.python.org", "news.ycombinator.com",
         "calendar.google.com", "stackoverflow.com", "wikipedia.org", "jira.example.com"]
ROLES = ["push button", "menu item", "link", "tab", "check box", "list item", "toggle button"]
KEYS = ["ctrl+c", "ctrl+v", "ctrl+s", "ctrl+w", "ctrl+t", "Return", "Escape", "Delete",
        "ctrl+z", "alt+Tab", "ctrl+f", "F5", "ctrl+Return", "super+e"]


def _vocabulary(rng: random.Random, size: int) -> list[Step]:
    steps: list[Step] = []
    seen = set()
    while len(steps) < size:
        app = rng.choice(APPS)
        kind = rng.choices(["click", "click0", "type", "key", "switch"], [55, 12, 13, 12, 8])[0]
        path = "/".join(str(rng.randrange(12)) for _ in range(rng.randint(3, 9)))
        if kind == "click":
            step = Step("click", app, path, rng.choice(ROLES), f"item {rng.randrange(5000)}", True)
        elif kind == "click0":
            step = Step("click", app, "", "", "", False)
            if rng.random() < 0.7:  # zone click: the element's path, no label
                step = Step("click", app, path, rng.choice(ROLES), "", False)
        elif kind == "type":
            step = Step("type", app, path, "text", f"field {rng.randrange(800)}", True)
        elif kind == "key":
            step = Step("key", app, rng.choice(KEYS))
        else:
            site = rng.choice(SITES) if app == "firefox" and rng.random() < 0.8 else ""
            step = Step("switch", app, f"{app}/{site}" if site else app, specific=bool(site))
        if step not in seen:
            seen.add(step)
            steps.append(step)
    return steps


def generate(total: int, seed: int, vocabulary: int = 3000,
             planted: int = 8) -> list[tuple[Action, ...]]:
    """Sessions of actions, deterministic from `seed` (see the module docstring)."""
    rng = random.Random(seed)
    steps = _vocabulary(rng, vocabulary)
    weights = [1.0 / (rank + 1) ** 1.07 for rank in range(len(steps))]
    routines = [rng.sample(steps, rng.randint(3, 12)) for _ in range(planted)]
    repeats = [rng.randint(20, 400) for _ in routines]
    planted_actions = sum(len(r) * k for r, k in zip(routines, repeats))
    if planted_actions > total // 2:  # small corpora: plant at most half of it
        scale = (total // 2) / planted_actions
        repeats = [max(3, int(k * scale)) for k in repeats]
        planted_actions = sum(len(r) * k for r, k in zip(routines, repeats))
    background = max(total - planted_actions, 1)

    sessions: list[list[Step]] = []
    made = 0
    while made < background:
        length = min(int(5 * (40 ** rng.random())), 200, background - made)  # 5..200, log-uniform
        length = max(length, 1)
        session: list[Step] = []
        drawn = rng.choices(steps, weights, k=length * 2)
        for step in drawn:
            if len(session) == length:
                break
            if not session or session[-1] != step:
                session.append(step)
        sessions.append(session)
        made += len(session)
    for routine, k in zip(routines, repeats):
        for _ in range(k):
            session = sessions[rng.randrange(len(sessions))]
            at = rng.randint(0, len(session))
            session[at:at] = routine

    out, ts = [], 1_767_225_600_000  # 2026-01-01T00:00Z
    for session in sessions:
        actions = []
        for step in session:
            ts += rng.randint(300, 20_000)
            actions.append(Action(step, ts, ts + 50, 0, (f"input_events:{ts}",)))
        out.append(tuple(actions))
        ts += rng.randint(91_000, 3_600_000)  # a session gap
    return out


def first_actions(sessions, n: int):
    out, left = [], n
    for session in sessions:
        if left <= 0:
            break
        out.append(session[:left])
        left -= len(out[-1])
    return out


def _load_bruteforce():
    path = ROOT / "tests" / "compiler" / "test_mining.py"
    spec = importlib.util.spec_from_file_location("_bench_test_mining", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.mine_bruteforce


def _median_time(fn, repeats: int) -> tuple[float, object]:
    samples, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), result


def corpus_end_to_end(path: Path) -> None:
    """Read a store, derive the action stream and mine it, as `phantom
    routines` does, timing each stage; peak RSS of this process after."""
    from compiler.api import read_window
    from compiler.routines.actions import derive_actions
    from compiler.routines.actions import sessions as split

    started = time.perf_counter()
    capture, _ = read_window(path)
    read_s = time.perf_counter() - started
    actions = derive_actions(capture)
    derive_s = time.perf_counter() - started - read_s
    grouped = split(actions)
    begin = time.perf_counter()
    found = mine(grouped)
    mine_s = time.perf_counter() - begin
    total = time.perf_counter() - started
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"store {path.name}: {len(capture.snapshots):,} snapshots, {len(capture.inputs):,} input rows "
          f"→ {len(actions):,} actions in {len(grouped):,} sessions")
    print(f"  read {read_s:.2f} s, action stream {derive_s:.2f} s, mine {mine_s:.2f} s; "
          f"end to end {total:.2f} s; peak RSS {rss:.0f} MB; {len(found)} routines "
          f"(supports {', '.join(str(r.support) for r in found[:10])})")
    print()


def linked_and_unlinked(days: int) -> None:
    """`corpus_end_to_end` on an unlinked and a linked store of the same
    days, with the switch placement after and before issue 27's fix."""
    from bench.bench_compile import corpus
    from bench.window_scaling import naive_pass, switch_pass

    naive = naive_pass()
    for path in (corpus(days, "phantom"), corpus(days, "phantom", live_like=True)):
        for label, replacement in (("after the fix", None), ("before the fix", naive)):
            print(f"switch placement {label}:")
            with switch_pass(replacement):
                corpus_end_to_end(path)


def _process_cpu_ms(code: str) -> float:
    """CPU (user + system) of `python -c code`, from wait4."""
    import os
    import subprocess

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    process = subprocess.Popen([sys.executable, "-c", code], env=env)
    _, _, usage = os.wait4(process.pid, 0)
    return (usage.ru_utime + usage.ru_stime) * 1000


def threshold(seed: int, repeats: int) -> None:
    """The miner's two versions on streams around LONG_STREAM (see the
    module docstring): where numpy starts to pay, warm and cold."""
    from compiler.routines import mining

    _process_cpu_ms("import numpy")   # warm the page cache and the .pyc files
    interpreter, with_numpy = [], []
    for _ in range(7):
        interpreter.append(_process_cpu_ms("pass"))
        with_numpy.append(_process_cpu_ms("import numpy"))
    numpy_ms = statistics.median(with_numpy) - statistics.median(interpreter)
    saved = mining.LONG_STREAM
    print(f"numpy's import in a fresh process: {numpy_ms:.0f} ms CPU (median of 7); "
          f"LONG_STREAM = {saved:,}")
    print(f"{'actions':>9}{'lists ms':>10}{'arrays ms':>11}{'arrays + import':>17}  faster in process / cold")
    for total in (1_000, 2_500, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000):
        sessions = generate(total, seed)
        medians = []
        for limit in (sys.maxsize, 0):
            mining.LONG_STREAM = limit
            samples = []
            for _ in range(repeats):
                started = time.process_time()
                mine(sessions)
                samples.append((time.process_time() - started) * 1000)
            medians.append(statistics.median(samples))
        mining.LONG_STREAM = saved
        lists, arrays = medians
        warm = "arrays" if arrays < lists else "lists"
        cold = "arrays" if arrays + numpy_ms < lists else "lists"
        print(f"{total:>9,}{lists:>10.1f}{arrays:>11.1f}{arrays + numpy_ms:>17.1f}  {warm} / {cold}")
    print()


STAGES = """
import os, sys, tracemalloc
from bench.common import peak_rss_mb, rss_mb
from compiler.api import read_window
from compiler.routines.actions import derive_actions, sessions
from compiler.routines.mining import mine
pid, out = os.getpid(), []
capture, _ = read_window(sys.argv[1])
out.append(f"read {rss_mb(pid):.0f}")
grouped = sessions(derive_actions(capture))
out.append(f"actions {rss_mb(pid):.0f}")
mine(grouped)
out.append(f"mined {rss_mb(pid):.0f} (peak {peak_rss_mb(pid):.0f})")
tracemalloc.start()
mine(grouped)
out.append(f"mine traced peak {tracemalloc.get_traced_memory()[1] / 2**20:.1f}")
print("; ".join(out) + " MB")
"""


def _process(argv: list[str], checkout: Path, cache: str) -> tuple[float, float, str]:
    """(peak RSS MB, CPU s, last line of stdout and the digest of all of it)
    of one process."""
    import hashlib
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(checkout), "XDG_CACHE_HOME": cache,
           "OPENBLAS_NUM_THREADS": "1"}
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, env=env, cwd=cache, text=True)
    assert process.stdout is not None
    text = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({status})")
    lines = text.strip().splitlines()
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, (lines[-1] if lines else "") + " " + digest


def memory(stores: list[Path], baseline: Path | None, runs: int) -> None:
    """Peak RSS of whole-window `routines` and `compile` per store and
    checkout (see the module docstring)."""
    import tempfile

    boot = "import sys; from cli.main import main; sys.exit(main())"
    window = ["--since", "2026-03-01", "--until", "2027-01-01"]
    checkouts = [("this checkout", ROOT)]
    if baseline is not None:
        checkouts.insert(0, (f"baseline {baseline.name}", baseline.resolve()))
    with tempfile.TemporaryDirectory(prefix="phantom-bench-memory-") as cache:
        for store in stores:
            store = store.resolve()
            print(f"store {store.name}")
            commands = {
                "phantom routines": [sys.executable, "-c", boot, "routines", "--db", str(store), *window,
                                     "--format", "json"],
                "phantom compile --no-cache": [sys.executable, "-c", boot, "compile", "--db", str(store),
                                               *window, "--no-cache"],
            }
            samples: dict[tuple[str, str], list[tuple[float, float]]] = {}
            outputs: dict[tuple[str, str], str] = {}
            for _ in range(runs):
                for command, argv in commands.items():
                    for label, checkout in checkouts:
                        rss, cpu, last = _process(argv, checkout, cache)
                        samples.setdefault((command, label), []).append((rss, cpu))
                        outputs[command, label] = last
            for (command, label), values in samples.items():
                rss = statistics.median(v[0] for v in values)
                cpu = statistics.median(v[1] for v in values)
                print(f"  {command:<28} {label:<24} peak RSS {rss:6.0f} MB, CPU {cpu:6.2f} s "
                      f"(median of {runs})")
            if baseline is not None:
                for command in commands:
                    same = len({outputs[command, label].rsplit(" ", 1)[1] for label, _ in checkouts}) == 1
                    print(f"  {command}: the checkouts' outputs are {'byte-identical' if same else 'DIFFERENT'}")
            for label, checkout in checkouts:
                _, _, line = _process([sys.executable, "-c", STAGES, str(store)], checkout, cache)
                print(f"  stages of routines, {label}: {line}")
            print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slice", type=int, default=1000, help="actions for the brute force")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--corpus", type=Path, help="also mine this store end to end (e.g. the "
                        "51-day `phantom synth` corpus in .bench-cache/)")
    parser.add_argument("--linked-days", type=int, default=0, metavar="N",
                        help="also mine N synthetic days, unlinked and live-like (linked), end to end")
    parser.add_argument("--threshold", action="store_true",
                        help="measure the miner's plain and numpy versions around LONG_STREAM, and stop")
    parser.add_argument("--memory", type=Path, nargs="+", metavar="DB",
                        help="peak RSS of whole-window routines and compile on these stores, and stop")
    parser.add_argument("--baseline", type=Path, help="with --memory: an older checkout beside this one")
    parser.add_argument("--runs", type=int, default=3, help="with --memory: processes per figure")
    args = parser.parse_args(argv)
    if args.memory:
        memory(args.memory, args.baseline, args.runs)
        return 0
    if args.threshold:
        threshold(args.seed, max(args.repeats, 5))
        return 0
    if args.corpus is not None:
        corpus_end_to_end(args.corpus)
    if args.linked_days:
        linked_and_unlinked(args.linked_days)

    start = time.perf_counter()
    sessions = generate(args.actions, args.seed)
    made = time.perf_counter() - start
    n_actions = sum(len(s) for s in sessions)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    full_s, routines = _median_time(lambda: mine(sessions), args.repeats)
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    mine(sessions)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    part = first_actions(sessions, args.slice)
    n_part = sum(len(s) for s in part)
    bruteforce = _load_bruteforce()
    brute_s, brute = _median_time(lambda: bruteforce(part), 1)
    small_s, small = _median_time(lambda: mine(part), args.repeats)
    agree = [(r.keys, r.support) for r in small] == [(k, s) for k, s, _ in brute]

    print(f"corpus: {n_actions:,} actions in {len(sessions):,} sessions "
          f"(seed {args.seed}, generated in {made:.2f} s)")
    top = routines[0].support if routines else 0
    print(f"routines found: {len(routines):,} (top support {top})")
    print()
    print(f"{'run':<34}{'actions':>10}{'time':>12}{'peak traced':>14}")
    print(f"{'mine (median of ' + str(args.repeats) + ')':<34}{n_actions:>10,}"
          f"{full_s * 1000:>10.0f}ms{peak / 2**20:>12.1f}MB")
    print(f"{'brute force (reference, 1 run)':<34}{n_part:>10,}{brute_s * 1000:>10.0f}ms{'':>14}")
    print(f"{'mine, same slice':<34}{n_part:>10,}{small_s * 1000:>10.1f}ms{'':>14}")
    print()
    print(f"brute force / mine on the slice: {brute_s / small_s:,.0f}x "
          f"(results {'agree' if agree else 'DIFFER'})")
    print(f"peak RSS: {rss_before / 1024:.0f} MB after generating, "
          f"{rss_after / 1024:.0f} MB after mining (+{(rss_after - rss_before) / 1024:.0f} MB)")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
