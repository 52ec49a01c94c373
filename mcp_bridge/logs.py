"""Logging for the MCP server: stderr only, configured before the SDK's
`MCPServer()` runs `logging.basicConfig` with its own (Rich) handler.

Over stdio, stdout *is* the protocol: one stray line there and the client
drops the connection. So every log line goes to stderr, plain and
greppable, and nothing in this package ever prints."""

from __future__ import annotations

import logging
import sys

FORMAT = "phantom-mcp: %(levelname)s %(name)s: %(message)s"


def configure_logging(level: int = logging.INFO) -> None:
    """Install a stderr handler on the root logger unless one exists.

    `basicConfig` is a no-op when the root logger already has handlers, so a
    host that configured logging (a test, an embedding program) keeps its
    own; the SDK's later call becomes a no-op either way."""
    logging.basicConfig(stream=sys.stderr, level=level, format=FORMAT)
