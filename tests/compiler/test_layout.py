"""The compiler's two pipelines import down the data flow: the routines
side never imports the frames side (the frames' inferred tier may use the
miner), the measures never import the gate (the gate reads the measures),
and the interfaces reach either pipeline only through `compiler.api`.
Likewise program memory: the CLI, replay (its D-Bus service included) and
the MCP bridge reach stored programs only through `programs.api`, and the
compiler never opens the store for writing — what writes programs lives in
`programs/`.

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


INTERFACES = ("cli", "programs", "replay", "mcp_bridge")


def test_the_interfaces_are_all_there():
    """A folder that is not there has no offenders: the checks below would pass on nothing."""
    assert all((ROOT / folder / "__init__.py").is_file() for folder in INTERFACES)
    assert (ROOT / "programs/api.py").is_file() and (ROOT / "replay/service.py").is_file()


@pytest.mark.parametrize("interface", INTERFACES)
@pytest.mark.parametrize("pipeline", ["compiler.frames", "compiler.routines"])
def test_interfaces_reach_the_pipelines_only_through_the_front_door(interface, pipeline):
    assert offenders(interface, pipeline) == []


@pytest.mark.parametrize("interface", ["cli", "replay", "mcp_bridge"])
def test_interfaces_reach_program_memory_only_through_its_front_door(interface):
    """`programs.api` and nothing else of `programs`: its store, lifecycle
    rows and rules are behind it."""
    reached = [line for line in offenders(interface, "programs") if not line.endswith(": programs")
               and not line.endswith(": programs.api") and ": programs.api." not in line]
    assert reached == []


def test_the_front_door_check_would_catch_a_reach_past_it():
    assert imported_modules(ROOT / "replay/api.py") >= {"programs", "programs.api"}
    assert "programs.store" in imported_modules(ROOT / "programs/api.py")


# What the compiler may take from `core.store`: ways to open a store read-only,
# checks, errors and the names of meta keys. A new import from the store's
# package must be added here on purpose, and only if it cannot write.
STORE_READERS = {"open_readonly", "open_sqlite_readonly", "is_phantom_store", "has_table", "StoreError",
                 "StoreDamaged", "REPAIR_HINT", "RAW_BEFORE_KEY",
                 # the revision triggers' names and day length, which the warm cache's stamp reads
                 "DAY_MS", "TRIGGERS"}


def store_imports(path: Path) -> set[str]:
    """Every name `path` imports from `core.store` or one of its modules
    (`from core.store.x import name`), and `core.store…` itself for a whole
    module imported (`import core.store.x`, `from core.store import x`),
    which would hand over its writers too."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.split(".")[:2] == ["core", "store"])
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module == "core":
                names.update(f"core.{a.name}" for a in node.names if a.name == "store")
            elif node.module.split(".")[:2] == ["core", "store"]:
                names.update(a.name for a in node.names)
    return names


def test_the_compiler_never_opens_the_store_for_writing():
    writes = sorted(f"{path.relative_to(ROOT)}: {name}" for path in (ROOT / "compiler").rglob("*.py")
                    for name in store_imports(path) if name not in STORE_READERS)
    assert writes == []
    raw = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "compiler").rglob("*.py")
                 if "apsw.Connection(" in path.read_text(encoding="utf-8"))
    assert raw == []   # nor opens a connection of its own, which could write


def test_the_write_check_would_catch_a_writer():
    assert {"open_store", "open_readonly", "scrub"} <= store_imports(ROOT / "programs/store.py")
    assert "open_store" not in STORE_READERS and "scrub" not in STORE_READERS
    assert store_imports(ROOT / "compiler/programs/evidence.py") == {"open_readonly"}


@pytest.mark.parametrize(("folder", "forbidden"), [
    (folder, upper) for folder, uppers in (
        ("core", ("capturer", "compiler", "programs", "replay", "mcp_bridge", "cli")),
        ("capturer", ("compiler", "programs", "replay", "mcp_bridge", "cli")),
        ("compiler", ("capturer", "programs", "replay", "mcp_bridge", "cli")),
        ("programs", ("capturer", "replay", "mcp_bridge", "cli")),
    ) for upper in uppers])
def test_stages_import_only_what_lies_below_them(folder, forbidden):
    """URL rules, store, clock live in core because capture and the compiler
    both need them (capture sanitises what the compiler's parsers read)."""
    assert offenders(folder, forbidden) == []
