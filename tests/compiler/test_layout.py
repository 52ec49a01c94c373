"""The compiler's two pipelines import down the data flow: the routines
side never imports the frames side (the frames' inferred tier may use the
miner), the measures never import the gate (the gate reads the measures),
and the interfaces reach either pipeline only through `compiler.api`.

Imports are read from the source with `ast`, relative ones resolved, so an
import inside a function counts as much as one at the top."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports, relative imports made absolute."""
    package = list(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def offenders(folder: str, forbidden: str) -> list[str]:
    """'file: module' for each import under `folder` of `forbidden` or below it."""
    return sorted(f"{path.relative_to(ROOT)}: {module}"
                  for path in (ROOT / folder).rglob("*.py")
                  for module in imported_modules(path)
                  if module == forbidden or module.startswith(forbidden + "."))


def test_relative_imports_resolve_against_the_importing_package():
    path = ROOT / "compiler/routines/gate/inputs.py"
    assert {"compiler.routines.measures", "compiler.routines.gate.checks"} <= imported_modules(path)


@pytest.mark.parametrize(("folder", "forbidden"), [
    ("compiler/routines", "compiler.frames"),
    ("compiler/routines/measures", "compiler.routines.gate"),
])
def test_the_pipelines_import_down_the_data_flow(folder, forbidden):
    assert offenders(folder, forbidden) == []


@pytest.mark.parametrize("interface", ["phantom", "replay", "mcp_bridge"])
@pytest.mark.parametrize("pipeline", ["compiler.frames", "compiler.routines"])
def test_interfaces_reach_the_pipelines_only_through_the_front_door(interface, pipeline):
    assert offenders(interface, pipeline) == []


@pytest.mark.parametrize(("folder", "forbidden"), [
    (folder, upper) for folder, uppers in (
        ("core", ("capturer", "compiler", "replay", "mcp_bridge", "phantom")),
        ("capturer", ("compiler", "replay", "mcp_bridge", "phantom")),
        ("compiler", ("capturer", "replay", "mcp_bridge", "phantom")),
    ) for upper in uppers])
def test_stages_import_only_what_lies_below_them(folder, forbidden):
    """URL rules, store, clock live in core because capture and the compiler
    both need them (capture sanitises what the compiler's parsers read)."""
    assert offenders(folder, forbidden) == []
