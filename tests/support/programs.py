"""Program fixtures for tests outside `tests/compiler`: the hand-built
fixture-form program, and the form captures of the program-compiler tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from testbed.fixture_programs import EMAIL, form_program

__all__ = ["EMAIL", "form_program", "program_fixtures"]

FIXTURES = Path(__file__).resolve().parents[1] / "compiler" / "test_programs_fixtures.py"


def program_fixtures() -> ModuleType:
    """`tests/compiler/test_programs_fixtures.py` (`form_capture`,
    `write_store`, …), loaded by path: it is not in a package."""
    name = "phantom_program_fixtures"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, FIXTURES)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look their module up while being built
        spec.loader.exec_module(module)
    return sys.modules[name]
