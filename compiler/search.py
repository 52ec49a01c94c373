"""Searching what was on screen: titles, URLs and element labels, through
the store's FTS5 index (core/store/search_index.py keeps it up to date).

A hit is a snapshot whose title or URL matched, a snapshot showing an
accessibility walk whose labels matched, or an input row that landed on a
matching element. Hits of one kind on one monitor in one application, no
more than 300 s apart (the compiler's session gap), make one stretch — the
time a person would call "when I had that open" — given with its local
times, what matched, and evidence pointers to the rows (as a frame's are).
Newest first. Read-only, and deterministic for the same rows and words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NamedTuple

import apsw

from core.errors import PhantomError

from .timefmt import ranges
from .window import Window

STRETCH_GAP_MS = 300_000
_WORDS = re.compile(r"\w+", re.UNICODE)


class SearchError(PhantomError, ValueError):
    """Words that cannot be searched for (one-line message)."""

    code = "usage"


class Stretch(NamedTuple):
    """Consecutive hits of one kind on one monitor in one application."""

    start_ms: int
    end_ms: int
    utc_offset_min: int
    monitor: int
    app: str
    matched: str               # title | url | label | clicked
    text: str                  # the title, URL or label that matched (the first)
    snapshots: tuple[int, ...]
    inputs: tuple[int, ...]


class SearchResult(NamedTuple):
    query: str
    stretches: tuple[Stretch, ...]   # newest first, at most the limit
    total_stretches: int
    hits: int
    indexed: bool                    # False: the store has no search index


def fts_query(text: str) -> str:
    """Every word of `text`, each a prefix (`invoi` finds "invoice"), all
    required; FTS5's own syntax is not exposed (a stray quote is a word)."""
    words = _WORDS.findall(text)
    if not words:
        raise SearchError(f"nothing to search for in {text[:40]!r}: give a word or more")
    return " ".join(f'"{word}"*' for word in words)


# Hits of the three kinds, ordered so that a stretch is a run of rows: same
# monitor, app and kind, each starting at most STRETCH_GAP_MS after the last
# ended. A walk's label is one row per walk and app (its snapshots' first
# and last instants and their number): a common word is on tens of
# thousands of snapshots, and their ids are fetched only for the stretches
# shown.
_HITS = """
SELECT monitor, app, kind, first, last, sid, iid, offset, ref, hits FROM (
  SELECT CASE WHEN s.id IN (SELECT rowid FROM search_snapshots WHERE search_snapshots MATCH :titled)
         THEN 'title' ELSE 'url' END AS kind, s.id AS sid, NULL AS iid, s.ts_ms AS first,
         s.ts_ms AS last, s.utc_offset_min AS offset, s.monitor AS monitor, s.app AS app,
         s.id AS ref, 1 AS hits
  FROM search_snapshots JOIN snapshots s ON s.id = search_snapshots.rowid
  WHERE search_snapshots MATCH :query AND s.ts_ms >= :since AND s.ts_ms < :until
  UNION ALL
  SELECT 'label', NULL, NULL, min(s.ts_ms), max(s.ts_ms), min(s.utc_offset_min), s.monitor, s.app,
         s.tree_id, count(*)
  FROM search_trees JOIN snapshots s ON s.tree_id = search_trees.rowid
  WHERE search_trees MATCH :query AND s.ts_ms >= :since AND s.ts_ms < :until
  GROUP BY s.tree_id, s.monitor, s.app
  UNION ALL
  SELECT 'clicked', NULL, i.id, i.ts_ms, i.ts_ms, coalesce(s.utc_offset_min, 0), i.monitor,
         coalesce(s.app, ''), i.element_id, 1
  FROM search_inputs JOIN input_events i ON i.id = search_inputs.rowid
  LEFT JOIN snapshots s ON s.id = (SELECT id FROM snapshots WHERE monitor = i.monitor
                                   AND ts_ms <= i.ts_ms ORDER BY ts_ms DESC LIMIT 1)
  WHERE search_inputs MATCH :query AND i.ts_ms >= :since AND i.ts_ms < :until)
ORDER BY monitor, app, kind, first, sid, iid, ref
"""


def search(connection: apsw.Connection, text: str, since_ms: int, until_ms: int,
           limit: int = 20) -> SearchResult:
    query = fts_query(text)
    if connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'search_snapshots'"
                          ).fetchone() is None:
        return SearchResult(text, (), 0, 0, False)
    words = [w.casefold() for w in _WORDS.findall(text)]
    parameters = {"query": query, "titled": f"title : ({query})", "since": since_ms,
                  "until": until_ms}
    connection.execute("BEGIN")
    try:
        runs, hits = _runs(connection.execute(_HITS, parameters))
        runs.sort(key=lambda run: (-run[0][3], run[0][0], run[0][1], run[0][2]))
        stretches = tuple(_stretch(connection, run, words, since_ms, until_ms)
                          for run in runs[:limit])
    finally:
        connection.execute("COMMIT")
    return SearchResult(text, stretches, len(runs), hits, True)


Hit = tuple[Any, ...]   # a row of _HITS


def _runs(rows: Iterable[Hit]) -> tuple[list[list[Hit]], int]:
    """The ordered hits cut into stretches; and how many hits there were."""
    runs: list[list[Hit]] = []
    current: list[Hit] = []
    key: Hit | None = None
    last, count = 0, 0
    for row in rows:
        count += row[9]
        if row[:3] != key or row[3] - last > STRETCH_GAP_MS:
            current = []
            runs.append(current)
            key, last = row[:3], row[4]
        current.append(row)
        last = max(last, row[4])
    return runs, count


def _stretch(connection: apsw.Connection, run: list[Hit], words: list[str], since_ms: int,
             until_ms: int) -> Stretch:
    monitor, app, kind, first, _, _, _, offset, ref, _ = run[0]
    snapshots: tuple[int, ...] = tuple(sorted({hit[5] for hit in run if hit[5] is not None}))
    if kind in ("title", "url"):
        row = connection.execute("SELECT title, coalesce(url, '') FROM snapshots WHERE id = ?",
                                 (ref,)).fetchone()
        shown = "" if row is None else str(row[0] if kind == "title" else row[1])
    elif kind == "label":
        shown = _label(connection, ref, words)
        trees = ",".join(str(int(hit[8])) for hit in run)
        snapshots = tuple(row[0] for row in connection.execute(
            f"SELECT id FROM snapshots WHERE tree_id IN ({trees}) AND monitor = ? AND app = ? "
            "AND ts_ms >= ? AND ts_ms < ? ORDER BY id", (monitor, app, since_ms, until_ms)))
    else:
        shown = connection.execute("SELECT CASE WHEN name != '' THEN name ELSE "
                                   "coalesce(labelled_by, '') END FROM elements WHERE id = ?",
                                   (ref,)).get or ""
    return Stretch(first, max(hit[4] for hit in run), offset, monitor, app, kind, shown, snapshots,
                   tuple(sorted({hit[6] for hit in run if hit[6] is not None})))


def _label(connection: apsw.Connection, tree: int, words: list[str]) -> str:
    """The first label of a walk holding every word at a word's start (the
    index matched the walk as a whole: the words may be on different
    elements), else the first holding the first word."""
    starts = [re.compile(rf"(?<!\w){re.escape(word)}", re.IGNORECASE) for word in words]
    names = [str(name) for (name,) in connection.execute(
        "SELECT DISTINCT CASE WHEN name != '' THEN name ELSE coalesce(labelled_by, '') END "
        "FROM elements WHERE tree_id = ? ORDER BY 1", (tree,))]
    for name in names:
        if all(start.search(name) for start in starts):
            return name
    return next((name for name in names if starts and starts[0].search(name)), "")


def evidence(stretch: Stretch) -> str:
    parts = []
    if stretch.snapshots:
        parts.append(f"snapshots {ranges(stretch.snapshots)}")
    if stretch.inputs:
        parts.append(f"input_events {ranges(stretch.inputs)}")
    return "; ".join(parts)


def local_iso(ms: int, offset_min: int, tz: str | None = None) -> str:
    """An instant in the offset the capture recorded with it, or in `tz`."""
    from datetime import datetime, timedelta, timezone

    from .window import zone_info

    moment = datetime.fromtimestamp(ms / 1000, tz=timezone.utc)
    return moment.astimezone(zone_info(tz) if tz else timezone(timedelta(minutes=offset_min))
                             ).isoformat(timespec="seconds")


def search_dict(result: SearchResult, window: Window, tz: str | None = None) -> dict[str, Any]:
    """JSON-safe builtins, as `phantom search --format json` and the MCP
    tool give them."""
    return {"query": result.query, "window": {"label": window.label, "zone": window.zone},
            "indexed": result.indexed, "hits": result.hits, "stretches_found": result.total_stretches,
            "stretches": [{"start": local_iso(s.start_ms, s.utc_offset_min, tz),
                           "end": local_iso(s.end_ms, s.utc_offset_min, tz), "monitor": s.monitor,
                           "app": s.app, "matched": s.matched, "text": s.text,
                           "evidence": evidence(s)} for s in result.stretches]}

