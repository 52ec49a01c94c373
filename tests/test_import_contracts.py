"""The import contracts in pyproject.toml hold, and they would catch a breach.

`make lint` runs import-linter; the first test runs the same command under
`make test`, so an import against the layout fails the suite even where lint
is not run. The others add one import at a time to the real import graph and
check that a forbidden one breaks a contract (the compiler importing an
interface, core importing anything above it, a product package importing the
tests, the CLI opening SQLite itself) while one the layout allows breaks none — the contracts are neither
missing nor stricter than docs/DESIGN.md says."""

from __future__ import annotations

import subprocess
import sys
from copy import deepcopy
from pathlib import Path

import grimp
import pytest
from importlinter import api  # noqa: F401 - importing it configures import-linter
from importlinter.application.use_cases import read_user_options
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).resolve().parents[1]
CONTRACT_TYPES = {"layers": LayersContract, "forbidden": ForbiddenContract,
                  "independence": IndependenceContract}


def test_lint_imports_passes_on_the_tree():
    result = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()",
         "--no-cache"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def contracts_and_graph():
    options = read_user_options(str(ROOT / "pyproject.toml"))
    session = options.session_options
    contracts = [CONTRACT_TYPES[o["type"]](name=o["name"], session_options=session, contract_options=o)
                 for o in options.contracts_options]
    graph = grimp.build_graph(*session["root_packages"], include_external_packages=True, cache_dir=None)
    return contracts, graph


def broken_with(contracts_and_graph, importer: str, imported: str) -> list[str]:
    """The names of the contracts one more import would break."""
    contracts, graph = contracts_and_graph
    graph = deepcopy(graph)
    graph.add_import(importer=importer, imported=imported)
    return [c.name for c in contracts if not c.check(deepcopy(graph), verbose=False).kept]


def test_the_contracts_are_read_from_pyproject(contracts_and_graph):
    contracts, _ = contracts_and_graph
    assert len(contracts) >= 5
    assert any(isinstance(c, LayersContract) for c in contracts)


@pytest.mark.parametrize(("importer", "imported"), [
    ("compiler.api", "mcp_bridge.server"),       # the compiler importing an interface
    ("compiler.api", "cli.main"),
    ("compiler.api", "replay.api"),
    ("compiler.api", "programs.api"),             # the compiler writes no program memory
    ("compiler.programs.build", "programs.store"),
    ("programs.api", "replay.api"),               # program memory lies below replay
    ("programs.store", "mcp_bridge.programs"),
    ("programs.api", "cli.main"),
    ("programs.api", "capturer.daemon"),
    ("core.store", "programs.api"),
    ("synth.day", "programs.api"),
    ("programs.api", "testbed.harness"),
    ("programs.api", "tests"),
    ("compiler.routines.mining", "capturer.daemon"),   # siblings stay independent
    ("capturer.daemon", "compiler.api"),
    ("core.store", "compiler.records"),          # core imports nothing above it
    ("core.bus", "capturer.control"),
    ("replay.api", "mcp_bridge.server"),
    ("replay.engine", "capturer.daemon"),         # replay talks to the daemon over D-Bus
    ("mcp_bridge.server", "capturer.control"),
    ("mcp_bridge.server", "cli.main"),         # nothing imports the CLI
    ("synth.day", "replay.api"),
    ("synth.day", "testbed.harness"),
    ("testbed.harness", "cli.main"),
    ("testbed.harness", "capturer.daemon"),
    ("capturer.imports.nocta", "compiler.records"),   # the importers are the capturer's
    ("testbed.demo.story", "cli.main"),            # the demo drives the desktop, not the CLI
    ("testbed.demo.story", "capturer.daemon"),
    ("cli.commands.retention", "apsw"),            # the CLI speaks; the store's SQL is core's
    ("cli.commands.forgetting", "apsw"),
    ("core.store.retention_days", "compiler.api"),  # retention is handed the compiler's part
    ("compiler.api", "synth.day"),                # only the CLI uses synth and testbed
    ("replay.api", "testbed.harness"),
    ("core.clock", "support"),                    # nothing shipped imports the tests
    ("cli.main", "tests"),
    ("testbed.harness", "bench"),
])
def test_a_forbidden_import_breaks_a_contract(contracts_and_graph, importer, imported):
    assert broken_with(contracts_and_graph, importer, imported)


@pytest.mark.parametrize(("importer", "imported"), [
    ("capturer.daemon", "core.store"),
    ("compiler.api", "core.errors"),
    ("replay.api", "compiler.api"),
    ("programs.api", "compiler.api"),             # program memory compiles through the compiler
    ("programs.store", "compiler.programs.records"),
    ("programs.api", "core.store"),
    ("replay.api", "programs.api"),               # replay loads and accounts through it
    ("mcp_bridge.programs", "programs.api"),
    ("cli.commands.programs", "programs.api"),
    ("testbed.harness", "programs.api"),
    ("mcp_bridge.server", "replay.api"),
    ("mcp_bridge.server", "compiler.api"),
    ("cli.main", "capturer.daemon"),
    ("cli.main", "synth.day"),
    ("cli.main", "testbed.harness"),
    ("synth.day", "compiler.records"),
    ("testbed.harness", "replay.api"),
    ("cli.commands.importing", "capturer.imports"),
    ("cli.commands.demo", "testbed.demo.story"),
    ("cli.commands.retention", "core.store.retention_days"),
    ("capturer.imports.store", "core.store"),
    ("testbed.demo.story", "core.store"),
])
def test_an_import_the_layout_allows_breaks_none(contracts_and_graph, importer, imported):
    assert broken_with(contracts_and_graph, importer, imported) == []
