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

D-Bus section: cold activation of org.phantom.Replay1 from its .service
file to the first answer (the embedding model is not loaded), and what a
warm `Replay` round trip adds over the engine's own time.

One function per section; `main` runs them.
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
from testbed.executables import executable  # noqa: E402

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


async def _dbus_replays(runs: int) -> tuple[list[float], list[float]]:
    """Warm `Replay` calls through a dbus-fast client: the client's round
    trip, and the engine's own elapsed time from the result."""
    import json

    from dbus_fast import Message, MessageType
    from dbus_fast.aio import MessageBus

    bus = await MessageBus().connect()
    round_trips, engine = [], []
    try:
        for index in range(runs + 1):
            message = Message(destination="org.phantom.Replay1", path="/org/phantom/Replay1",
                              interface="org.phantom.Replay1", member="Replay", signature="sa{ss}",
                              body=["fill form", {"P0": f"Person {index}"}])
            started = time.perf_counter()
            reply = await bus.call(message)
            elapsed = (time.perf_counter() - started) * 1000
            if reply.message_type == MessageType.ERROR:
                raise SystemExit(f"Replay failed: {reply.error_name}: {reply.body}")
            result = json.loads(reply.body[2])
            if result["status"] != "success":
                raise SystemExit(f"Replay did not succeed: {result['escalation']}")
            if index:  # the first call warms the service
                round_trips.append(elapsed)
                engine.append(float(result["elapsed_ms"]))
    finally:
        bus.disconnect()
    return round_trips, engine


def section_dbus(runs: int, cold_runs: int) -> str:
    """Cold D-Bus activation to first answer (no embedding model loaded), and
    what a warm `Replay` round trip adds over the engine itself."""
    import asyncio
    import tempfile

    from programs.store import save_program
    from testbed.fixture_programs import form_program
    from testbed.harness import VirtualDesktop

    store = Path(tempfile.mkdtemp(prefix="phantom-bench-dbus-")) / "store.sqlite3"
    save_program(store, form_program(), created_ms=0)
    with VirtualDesktop() as desktop:
        os.environ.update(desktop.env)
        services = Path(desktop.env["XDG_DATA_HOME"]) / "dbus-1" / "services"
        services.mkdir(parents=True)
        (services / "org.phantom.Replay1.service").write_text(
            f"[D-BUS Service]\nName=org.phantom.Replay1\nExec={PHANTOM} replay-service --db {store} "
            "--idle-timeout 1\n")
        call = [executable("gdbus"), "call", "--session", "--dest", "org.phantom.Replay1", "--object-path",
                "/org/phantom/Replay1", "--method", "org.phantom.Replay1.ListPrograms"]
        owner = [executable("gdbus"), "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                 "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner",
                 "org.phantom.Replay1"]
        colds, gdbus_warm = [], []
        for _ in range(cold_runs):
            while "true" in desktop.run(owner).stdout:
                time.sleep(0.2)
            started = time.perf_counter()
            assert desktop.run(call).returncode == 0
            colds.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            desktop.run(call)
            gdbus_warm.append((time.perf_counter() - started) * 1000)
        # A long idle timeout for the replay runs.
        (services / "org.phantom.Replay1.service").write_text(
            f"[D-BUS Service]\nName=org.phantom.Replay1\nExec={PHANTOM} replay-service --db {store} "
            "--idle-timeout 60\n")
        while "true" in desktop.run(owner).stdout:
            time.sleep(0.2)
        desktop.launch_fixture("form", "--geometry", "320x230+20+20")
        round_trips, engine = asyncio.run(_dbus_replays(runs))
    added = [r - e for r, e in zip(round_trips, engine)]
    return table([
        (f"cold activation → first answer (median of {cold_runs})",
         f"{median(colds):.0f} ms (runs: {', '.join(f'{c:.0f}' for c in colds)}; target ≤ 2000 ms)"),
        ("the same call warm, via gdbus (process start included)", f"{median(gdbus_warm):.0f} ms"),
        (f"warm Replay round trip (median of {runs})", f"{median(round_trips):.0f} ms"),
        ("  of which the engine (result's elapsed_ms)", f"{median(engine):.0f} ms"),
        ("  D-Bus adds", f"{median(added):+.1f} ms (target ≤ 10 ms)"),
    ], "D-Bus (org.phantom.Replay1, activated on a private session bus)")


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
    sections = [lambda: section_mcp(data, args.runs, args.cold_runs),
                lambda: section_dbus(min(args.runs, 10), args.cold_runs)]
    for section in sections:
        print(section(), flush=True)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
