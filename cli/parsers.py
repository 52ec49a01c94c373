"""The argparse objects every module of `cli/commands/` meets:
`add_parsers(sub, common)` adds its sub-commands to `sub`, with `common`
(the shared `--db`) as a parent, and each sub-command's `handler` takes the
parsed arguments and returns the exit status. Named once here so each
command module says the same thing about them."""

from __future__ import annotations

import argparse
from typing import TypeAlias

# What `add_subparsers` and `add_mutually_exclusive_group` return: typeshed
# knows them only by argparse's private class names (the first a string:
# the class is not subscriptable at run time).
Subcommands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
ExclusiveGroup: TypeAlias = argparse._MutuallyExclusiveGroup


def integer(text: str) -> int:
    """An option's integer, in the digits 0-9: Python's `int` also reads
    `٣` and `３` as three, which a person did not mean to type."""
    if not text.isascii():
        raise argparse.ArgumentTypeError(f"not a number written in the digits 0-9: {text[:40]!r}")
    return int(text)   # a ValueError: argparse says "invalid integer value"


def number(text: str) -> float:
    """An option's number (`integer`'s rule, for decimals); its range is the
    command's to check (`cli.errors.bounded`)."""
    if not text.isascii():
        raise argparse.ArgumentTypeError(f"not a number written in the digits 0-9: {text[:40]!r}")
    return float(text)
