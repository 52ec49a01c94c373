"""The golden outputs checked in under fixtures/: which store, which command,
which file. Tests compile each case in fresh processes (different hash
seeds, time zones and locales) and compare bytes; when the compiler changes
on purpose, regenerate them and review the diff:

    .venv/bin/python tests/support/goldens.py --write

fixtures/synthetic/day.sqlite3 itself is rebuilt (from `phantom synth`) with
`--make-synthetic-store`; fixtures/recorded/desktop.sqlite3 was recorded
once by `phantom demo` on the virtual desktop and is kept as it is.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
PHANTOM = str(Path(sys.executable).with_name("phantom"))


@dataclass(frozen=True, slots=True)
class GoldenCase:
    name: str
    store: str                 # relative to fixtures/
    args: tuple[str, ...]      # phantom sub-command and options, without --db
    golden: str                # relative to fixtures/

    def command(self) -> list[str]:
        return [PHANTOM, *self.args, "--db", str(FIXTURES / self.store)]


def _compile_cases(name: str, store: str, day: str) -> list[GoldenCase]:
    stem = store.rsplit(".", 1)[0]
    base = ("compile", "--day", day)
    return [
        GoldenCase(f"{name}-compact", store, (*base, "--format", "compact"), f"{stem}.{day}.compact.txt"),
        GoldenCase(f"{name}-json", store, (*base, "--format", "json"), f"{stem}.{day}.json"),
        GoldenCase(f"{name}-markdown", store, (*base, "--format", "markdown"), f"{stem}.{day}.md"),
        GoldenCase(f"{name}-measured-only", store, (*base, "--format", "json", "--no-inferred"),
                   f"{stem}.{day}.measured.json"),
        GoldenCase(f"{name}-new-york", store, (*base, "--format", "compact", "--tz", "America/New_York"),
                   f"{stem}.{day}.new-york.compact.txt"),
        GoldenCase(f"{name}-routines", store, ("routines", "--format", "json"), f"{stem}.routines.json"),
    ]


CASES: list[GoldenCase] = [
    *_compile_cases("recorded", "recorded/desktop.sqlite3", "2026-11-29"),
    *_compile_cases("synthetic", "synthetic/day.sqlite3", "2026-03-02"),
]


def make_synthetic_store() -> Path:
    """fixtures/synthetic/day.sqlite3: `phantom synth --days 1 --seed 7`,
    pruned to what the compiler reads (accessibility trees and images that
    no input row needs are dropped) so the fixture stays small."""
    import tempfile

    import apsw

    target = FIXTURES / "synthetic" / "day.sqlite3"
    target.parent.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        full = Path(scratch) / "day.sqlite3"
        subprocess.run([PHANTOM, "synth", "--days", "1", "--seed", "7", "--db", str(full)],
                       check=True, capture_output=True)
        connection = apsw.Connection(str(full))
        with connection:
            connection.execute(
                "UPDATE snapshots SET tree_id = NULL, screenshot = NULL;"
                "UPDATE input_events SET crop = NULL;"
                "DELETE FROM elements WHERE id NOT IN "
                "  (SELECT element_id FROM input_events WHERE element_id IS NOT NULL);"
                "UPDATE elements SET tree_id = NULL, parent_id = NULL;"
                "DELETE FROM a11y_trees; DELETE FROM blobs;")
        connection.execute("VACUUM")
        connection.pragma("journal_mode", "delete")
        connection.close()
        target.write_bytes(full.read_bytes())
    return target


def run_case(case: GoldenCase, env: dict[str, str] | None = None) -> bytes:
    result = subprocess.run(case.command(), capture_output=True, env=env, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"{case.name}: {result.stderr.decode(errors='replace').strip()}")
    return result.stdout


# The timeline picture of the recorded day, compared pixel by pixel (fonts
# are rasterised by the FreeType matplotlib ships, so bytes are not compared).
TIMELINE = ("recorded/desktop.sqlite3", "2026-11-29", "recorded/desktop.2026-11-29.timeline.png")


def render_timeline_golden(out: Path) -> None:
    store, day, _ = TIMELINE
    subprocess.run([PHANTOM, "timeline", "--db", str(FIXTURES / store), "--day", day, "--out",
                    str(out)], check=True, capture_output=True, timeout=120)


def write_all() -> None:
    for case in CASES:
        path = FIXTURES / case.golden
        path.write_bytes(run_case(case))
        print(f"wrote {path.relative_to(ROOT)}")
    render_timeline_golden(FIXTURES / TIMELINE[2])
    print(f"wrote fixtures/{TIMELINE[2]}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--make-synthetic-store"]:
        print(f"wrote {make_synthetic_store().relative_to(ROOT)}")
    elif sys.argv[1:] == ["--write"]:
        write_all()
    else:
        sys.exit("usage: goldens.py --write | --make-synthetic-store\n"
                 "  --write                  regenerate every golden output (review the diff)\n"
                 "  --make-synthetic-store   rebuild fixtures/synthetic/day.sqlite3 from phantom synth")
