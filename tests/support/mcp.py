"""`phantom mcp` under test: the real command in a subprocess, driven by the
MCP SDK's own stdio client from plain synchronous tests.

The client is async; an anyio blocking portal runs it on a private event
loop thread, so one server can serve a whole test module (spawning costs
about a second: the SDK's import)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from anyio.from_thread import start_blocking_portal

PHANTOM = str(Path(sys.executable).with_name("phantom"))
REPO = Path(__file__).resolve().parents[2]
FIXTURE_STORE = REPO / "fixtures" / "recorded" / "desktop.sqlite3"
SINCE = "2026-11-29T00:00:00+00:00"
UNTIL = "2026-11-30T00:00:00+00:00"


def server_env(**extra: str) -> dict[str, str]:
    """What an MCP host passes: little. PATH and HOME, plus PYTHONPATH when
    the tests run with one (the server must run the code under test)."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/"),
           "LANG": "C.UTF-8"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    env.update(extra)
    return env


class McpServer:
    """`phantom mcp --db DB` with an open SDK client session.

    Use as a context manager; `call`, `tools`, `read` are synchronous.
    The child's stderr is kept in a file (`stderr()`), so tests can check
    that logs go there and nowhere else."""

    def __init__(self, db: Path, *, env: dict[str, str] | None = None, mode: str = "auto",
                 timeout: float = 120.0) -> None:
        self.db = Path(db)
        self.env = env if env is not None else server_env()
        self.mode = mode
        self.timeout = timeout
        self._errlog = tempfile.NamedTemporaryFile("w+", prefix="phantom-mcp-", suffix=".log")
        self._portal_cm = None
        self._client_cm = None
        self.client = None

    def __enter__(self) -> "McpServer":
        from mcp import Client, StdioServerParameters
        from mcp.client.stdio import stdio_client

        params = StdioServerParameters(command=PHANTOM, args=["mcp", "--db", str(self.db)],
                                       env=self.env)
        self._portal_cm = start_blocking_portal()
        portal = self._portal_cm.__enter__()
        try:
            self._client_cm = portal.wrap_async_context_manager(
                Client(stdio_client(params, errlog=self._errlog), mode=self.mode,
                       read_timeout_seconds=self.timeout))
            self.client = self._client_cm.__enter__()
        except BaseException as exc:
            self._portal_cm.__exit__(None, None, None)
            said = self.stderr().strip().splitlines()
            raise RuntimeError(f"`phantom mcp` did not start ({exc.__class__.__name__}); its stderr: "
                               f"{said[-1] if said else '(nothing)'}") from exc
        self.portal = portal
        return self

    def __exit__(self, *exc) -> None:
        try:
            self._client_cm.__exit__(None, None, None)
        finally:
            self._portal_cm.__exit__(None, None, None)
            self._errlog.close()

    def call(self, tool: str, arguments: dict | None = None):
        return self.portal.call(self.client.call_tool, tool, arguments or {})

    def tools(self) -> dict:
        return {tool.name: tool for tool in self.portal.call(self.client.list_tools).tools}

    def read(self, uri: str):
        return self.portal.call(self.client.read_resource, uri)

    def stderr(self) -> str:
        self._errlog.flush()
        return Path(self._errlog.name).read_text(errors="replace")


def error_text(result) -> str:
    """The message of an `isError` result, without the SDK's prefix."""
    assert result.is_error, result
    text = result.content[0].text
    return text.split(": ", 1)[1] if text.startswith("Error executing tool") else text
