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
