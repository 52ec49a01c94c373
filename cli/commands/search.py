"""`phantom search`: when was something on screen — a word of a title, a
URL or an element label — as stretches of time with their evidence."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

import orjson

from ..errors import bounded
from ..parsers import Subcommands, integer
from .windows import add_window_arguments, window_of

MAX_LIMIT = 10_000

if TYPE_CHECKING:
    from compiler.search import SearchResult
    from compiler.window import Window


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "search", parents=[common], help="find when words were on screen (titles, URLs, labels)",
        description="Search window titles, URLs (as stored: sanitised) and the labels of what was "
        "on screen and what was clicked, through the store's full-text index (SQLite FTS5), which "
        "this command first brings up to date with the rows captured since it last ran (a "
        "progress bar on a terminal when there is much to add). Every word must match, each as the "
        "start of a word. Answers with stretches of time (hits on one monitor in one application, "
        "at most 5 minutes apart), newest first, with the rows they rest on.")
    p.add_argument("text", metavar="TEXT", nargs="+", help="the words to look for")
    add_window_arguments(p, nothing="the whole history")
    p.add_argument("--limit", type=integer, default=20, help=f"at most this many stretches (1–{MAX_LIMIT}, default 20)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(handler=run_search)


def run_search(args: argparse.Namespace) -> int:
    from compiler.api import search
    from compiler.search import search_dict
    from core.store.paths import resolve_db_path
    from core.store.search_index import update_index

    from ..progress import TerminalProgress

    bounded(args.limit, 1, MAX_LIMIT, "--limit", "search")
    db = resolve_db_path(args.db)
    with TerminalProgress("indexing for search") as bar:
        warning = update_index(db, (lambda done, total: bar("indexing for search", done, total))
                               if bar else None)
    result, window = search(db, " ".join(args.text), **window_of(args), limit=args.limit)
    if warning:
        print(f"phantom search: {warning}", file=sys.stderr)
    if args.format == "json":
        sys.stdout.buffer.write(orjson.dumps(search_dict(result, window, args.tz),
                                             option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n")
        return 0
    print(format_result(result, window, args.tz))
    return 0


def format_result(result: SearchResult, window: Window, tz: str | None) -> str:
    from compiler.search import evidence, local_iso

    if not result.indexed:
        return ("this store has no search index: it was written by an older Phantom (the capture "
                "daemon upgrades it when it next starts)")
    where = "" if window.label == "all" else f" in {window.label}"
    if not result.stretches:
        return f"no match for {result.query!r}{where}"
    lines = [f"{result.query!r}{where}: {result.total_stretches} stretch(es), {result.hits} hit(s); "
             f"newest first" + (f", the first {len(result.stretches)}"
                                if result.total_stretches > len(result.stretches) else "")]
    for s in result.stretches:
        start, end = local_iso(s.start_ms, s.utc_offset_min, tz), local_iso(s.end_ms, s.utc_offset_min, tz)
        span = f"{start[:10]} {start[11:16]}–{end[11:16]}" if start[:10] == end[:10] else \
            f"{start[:10]} {start[11:16]}–{end[:10]} {end[11:16]}"
        text = s.text if len(s.text) <= 70 else s.text[:69] + "…"
        lines.append(f"{span}  {s.app}  {s.matched}: {text}  [{evidence(s)}]")
    return "\n".join(lines)
