"""Small helpers shared by the benchmarks: process CPU and memory from /proc,
percentiles, and a table printer. Benchmarks print figures; they never assert."""

from __future__ import annotations

import os
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class CpuSample:
    seconds: float  # user + system CPU seconds so far


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def children_cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / CLOCK_TICKS


def peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def table(rows: list[tuple[str, str]], title: str) -> str:
    width = max(len(name) for name, _ in rows)
    lines = [title, "-" * len(title)]
    lines += [f"{name.ljust(width)}  {value}" for name, value in rows]
    return "\n".join(lines)


def daemon_argv(source: str | None, db: Path, config: Path) -> list[str]:
    """`phantom capture` of this checkout, or of another one (`source`, a
    directory): the same benchmark then gives the figure before a change."""
    args = ["capture", "--db", str(db), "--config", str(config)]
    if source is None:
        return [str(Path(sys.executable).with_name("phantom")), *args]
    boot = (f"import sys; sys.path.insert(0, {str(Path(source).resolve())!r}); "
            "from cli.main import main; sys.exit(main())")
    return [sys.executable, "-c", boot, *args]
