"""No module of the product is over 400 lines: a module that grows past
that is doing more than one job and is split along its jobs (each new
module's docstring says why). The tests, the benchmarks and the fixtures
are not counted."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "capturer", "compiler", "programs", "replay", "mcp_bridge", "cli", "synth", "testbed")
MAX_LINES = 400


def line_count(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for _ in handle)


def test_the_product_packages_are_all_there():
    assert all((ROOT / package / "__init__.py").is_file() for package in PACKAGES)


def test_no_module_is_over_400_lines():
    too_long = {str(path.relative_to(ROOT)): lines
                for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
                if (lines := line_count(path)) > MAX_LINES}
    assert too_long == {}
