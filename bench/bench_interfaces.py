"""Benchmark: what Phantom's agent interfaces add on top of the compiler.

    python bench/bench_interfaces.py [--runs 20] [--cold-runs 3]

Corpus: one synthetic day (`phantom synth --days 1`, cached in
.bench-cache/) when the `synth` command is available, else the recorded
fixture store (fixtures/recorded/desktop.sqlite3).

MCP section: the median time of `phantom_context` for that day through a
warm SDK client session over stdio (`phantom mcp`), next to the median
in-process `compile_window` + `render` of the same window in this process
(the two interleaved, call for call, so background load hits both alike),
and the difference (target: MCP adds ≤ 50 ms). Also the cold start: spawn
`phantom mcp` → first tool result. The transport's answer is checked to be
the compiler's bytes.

One function per section; `main` runs them (the D-Bus sections join here).
Timings go to stdout; nothing is asserted except that the answers agree.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import median, table  # noqa: E402

PHANTOM = str(Path(sys.executable).with_name("phantom"))
CACHE = ROOT / ".bench-cache"
MCP_TARGET_MS = 50.0


@dataclass(frozen=True, slots=True)
class Corpus:
    db: Path
    since: str
    until: str
    what: str


def child_env() -> dict[str, str]:
    """A host's trimmed environment (plus PYTHONPATH, so a checkout runs itself)."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/")}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def corpus() -> Corpus:
    """One synthetic day if `phantom synth` exists, else the recorded fixture."""
    probe = subprocess.run([PHANTOM, "synth", "--help"], capture_output=True, env=child_env())
    if probe.returncode == 0:
        db = CACHE / "interfaces-day1.sqlite3"
        if not db.exists():
            CACHE.mkdir(exist_ok=True)
            made = subprocess.run([PHANTOM, "synth", "--days", "1", "--start", "2026-03-02",
                                   "--tz", "Europe/Berlin", "--db", str(db)],
                                  capture_output=True, text=True, env=child_env())
            if made.returncode != 0:
                raise SystemExit(f"phantom synth failed: {made.stderr.strip()}")
        return Corpus(db, "2026-03-02T00:00:00+01:00", "2026-03-03T00:00:00+01:00",
                      "synthetic day (phantom synth --days 1)")
    return Corpus(ROOT / "fixtures" / "recorded" / "desktop.sqlite3", "2026-11-29T00:00:00+00:00",
                  "2026-11-30T00:00:00+00:00", "recorded fixture store (synth not available)")


def _compile(data: Corpus) -> tuple[float, bytes]:
    from compiler.api import compile_window, render

    started = time.perf_counter()
    output = render(compile_window(data.db, since=data.since, until=data.until), "compact")
    return (time.perf_counter() - started) * 1000, output


async def _mcp_session(data: Corpus, runs: int) -> tuple[float, list[float], list[float], str, bytes]:
    """Spawn `phantom mcp`, time the first tool result, then `runs` rounds of
    one in-process compile and one warm `phantom_context` call, interleaved
    so that background load hits both alike."""
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    arguments = {"since": data.since, "until": data.until, "format": "compact"}
    params = StdioServerParameters(command=PHANTOM, args=["mcp", "--db", str(data.db)],
                                   env=child_env())
    direct: list[float] = []
    warm: list[float] = []
    _, expected = _compile(data)  # imports and page cache, outside the timings
    with open(os.devnull, "w") as errlog:
        started = time.perf_counter()
        async with Client(stdio_client(params, errlog=errlog)) as client:
            result = await client.call_tool("phantom_context", arguments)
            cold = (time.perf_counter() - started) * 1000
            if result.is_error:
                raise SystemExit(f"phantom_context failed: {result.content[0].text}")
            for _ in range(runs):
                elapsed, expected = _compile(data)
                direct.append(elapsed)
                began = time.perf_counter()
                result = await client.call_tool("phantom_context", arguments)
                warm.append((time.perf_counter() - began) * 1000)
    return cold, direct, warm, result.content[0].text, expected


def section_mcp(data: Corpus, runs: int, cold_runs: int) -> str:
    import anyio

    colds: list[float] = []
    direct: list[float] = []
    warm: list[float] = []
    for index in range(cold_runs):
        cold, compiled, called, text, expected = anyio.run(_mcp_session, data,
                                                           runs if index == 0 else 0)
        colds.append(cold)
        direct, warm = (compiled, called) if index == 0 else (direct, warm)
        if text != expected.decode("utf-8"):
            raise SystemExit("MCP answer differs from the in-process compile: "
                             + _first_difference(expected.decode("utf-8"), text))
    overhead = median(warm) - median(direct)
    verdict = "meets" if overhead <= MCP_TARGET_MS else "misses"
    return table([
        ("corpus", f"{data.what}, {data.since} .. {data.until}"),
        ("compact block", f"{len(expected)} bytes (identical over MCP)"),
        (f"in-process compile+render (median of {runs})", f"{median(direct):.1f} ms"),
        (f"phantom_context, warm session (median of {runs})", f"{median(warm):.1f} ms"),
        ("MCP adds", f"{overhead:+.1f} ms ({verdict} the ≤ {MCP_TARGET_MS:.0f} ms target)"),
        (f"cold start: spawn → first result (median of {cold_runs})",
         f"{median(colds):.0f} ms (runs: {', '.join(f'{c:.0f}' for c in colds)})"),
    ], "MCP (phantom mcp over stdio, SDK client)")


def _first_difference(expected: str, got: str) -> str:
    for number, (want, have) in enumerate(zip(expected.splitlines(), got.splitlines()), 1):
        if want != have:
            return f"line {number}: {want!r} != {have!r}"
    return f"lengths {len(expected)} != {len(got)}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="timed calls per measurement")
    parser.add_argument("--cold-runs", type=int, default=3, help="server spawns for the cold start")
    args = parser.parse_args(argv)
    data = corpus()
    sections = [lambda: section_mcp(data, args.runs, args.cold_runs)]
    for section in sections:
        print(section(), flush=True)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
