"""Re-exported for tests: the hand-built fixture-form program."""

from testbed.fixture_programs import EMAIL, form_program

__all__ = ["EMAIL", "form_program"]
