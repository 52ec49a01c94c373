"""`phantom web`: the local web view (web/), served on 127.0.0.1 until
Ctrl+C, at an address carrying this start's token."""

from __future__ import annotations

import argparse
import errno
import socket

from ..errors import EXIT_USAGE, CliError
from ..parsers import Subcommands

DEFAULT_PORT = 5766


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "web", parents=[common], help="a local web view of the store (timeline, search, programs, privacy)",
        description="Serve a web view of what Phantom knows on 127.0.0.1: a day's timeline and "
        "frames, one frame's pages, input and evidence, search, routines with their gates, "
        "programs with their lifecycle (promote, deprecate, describe), replay runs step by step, "
        "and the privacy controls (pause and resume capture, forget a range, the exclusions). "
        "Only this machine can reach it, and only through the address printed at start: it "
        "carries a token made for this start. It reads the store while the capture daemon is "
        "down. Ctrl+C stops it.")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--no-open", action="store_true", help="do not open the address in a browser")
    p.set_defaults(handler=run_web)


def run_web(args: argparse.Namespace) -> int:
    from core.store.paths import resolve_db_path

    if not 0 <= args.port <= 65535:
        raise CliError(f"phantom web: --port {args.port} is not a port (0-65535)", EXIT_USAGE)
    listener = _listen(args.port)
    db = resolve_db_path(args.db)
    import uvicorn

    from web.app import build_app
    from web.security import WebSecrets

    keys = WebSecrets(listener.getsockname()[1])
    print(f"Phantom web view of {db}: {keys.address()}  (Ctrl+C stops it)", flush=True)
    if not args.no_open:
        import webbrowser

        webbrowser.open(keys.address())
    config = uvicorn.Config(build_app(db, keys), log_level="warning", access_log=False,
                            server_header=False, date_header=False)
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        listener.close()
    return 0


def _listen(port: int) -> socket.socket:
    """The loopback socket, bound here so a port in use is one line."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
    except OSError as exc:
        listener.close()
        if exc.errno == errno.EADDRINUSE:
            raise CliError(f"phantom web: port {port} on 127.0.0.1 is in use (another `phantom web`?); "
                           "pass --port N, or --port 0 for any free one") from None
        raise CliError(f"phantom web: cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    return listener
