"""`phantom mcp`: serve Phantom's tools to an agent over MCP (stdio).

The MCP SDK costs about a second to import, so it is imported here, inside
the handler, and never by the other sub-commands."""

from __future__ import annotations

import argparse
import os

from ..errors import CliError
from ..parsers import Subcommands

DESCRIPTION = """\
Serve Phantom to an MCP client over stdio: the context block, measured frames,
routines, stored programs, recording, compiling and replaying programs (the
phantom_* tools) and the resource phantom://context/today. Logs go to stderr;
stdout carries only the protocol."""

EPILOG = """\
client config: {"mcpServers": {"phantom": {"command": "phantom", "args": ["mcp"]}}}
(replay needs DISPLAY; add "env": {"DISPLAY": ":0"} if the client does not pass it)"""


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("mcp", parents=[common], help="serve the MCP tools over stdio (for agents)",
                       description=DESCRIPTION, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(handler=run_mcp)


def run_mcp(args: argparse.Namespace) -> int:
    from core.store.paths import resolve_db_path

    db = resolve_db_path(args.db)
    if db.exists() and not os.access(db, os.R_OK):
        raise CliError(f"phantom mcp: cannot read {db}")
    from mcp_bridge.server import build_server

    build_server(db).run("stdio")
    return 0
