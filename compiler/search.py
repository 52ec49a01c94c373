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
from typing import NamedTuple

import apsw

from .timefmt import ranges

STRETCH_GAP_MS = 300_000
_WORDS = re.compile(r"\w+", re.UNICODE)


class SearchError(ValueError):
    """Words that cannot be searched for (one-line message)."""


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


_SNAPSHOT_HITS = (
    "SELECT s.id, s.ts_ms, s.utc_offset_min, s.monitor, s.app, s.title, coalesce(s.url, '') "
    "FROM search_snapshots JOIN snapshots s ON s.id = search_snapshots.rowid "
    "WHERE search_snapshots MATCH ? AND s.ts_ms >= ? AND s.ts_ms < ?")
_TREE_HITS = (
    "SELECT s.id, s.ts_ms, s.utc_offset_min, s.monitor, s.app, s.tree_id "
    "FROM search_trees JOIN snapshots s ON s.tree_id = search_trees.rowid "
    "WHERE search_trees MATCH ? AND s.ts_ms >= ? AND s.ts_ms < ?")
_INPUT_HITS = (
    "SELECT i.id, i.ts_ms, i.monitor, coalesce(s.app, ''), coalesce(s.utc_offset_min, 0), "
    "CASE WHEN e.name != '' THEN e.name ELSE coalesce(e.labelled_by, '') END "
    "FROM search_inputs JOIN input_events i ON i.id = search_inputs.rowid "
    "JOIN elements e ON e.id = i.element_id "
    "LEFT JOIN snapshots s ON s.id = (SELECT id FROM snapshots WHERE monitor = i.monitor "
    "AND ts_ms <= i.ts_ms ORDER BY ts_ms DESC LIMIT 1) "
    "WHERE search_inputs MATCH ? AND i.ts_ms >= ? AND i.ts_ms < ?")


def search(connection: apsw.Connection, text: str, since_ms: int, until_ms: int,
           limit: int = 20) -> SearchResult:
    query = fts_query(text)
    if connection.execute("SELECT 1 FROM sqlite_master WHERE name = 'search_snapshots'"
                          ).fetchone() is None:
        return SearchResult(text, (), 0, 0, False)
    words = [w.casefold() for w in _WORDS.findall(text)]
    window = (query, since_ms, until_ms)
    hits: list[tuple] = []   # (monitor, app, matched, ts, offset, text, snapshot, input)
    connection.execute("BEGIN")
    try:
        for sid, ts, offset, monitor, app, title, url in connection.execute(_SNAPSHOT_HITS, window):
            matched, shown = (("title", title) if all(w in title.casefold() for w in words)
                              or not url else ("url", url))
            hits.append((monitor, app, matched, ts, offset, shown, sid, None))
        labels: dict[int, str] = {}
        for sid, ts, offset, monitor, app, tree in connection.execute(_TREE_HITS, window):
            if tree not in labels:
                labels[tree] = _label(connection, tree, words)
            hits.append((monitor, app, "label", ts, offset, labels[tree], sid, None))
        for iid, ts, monitor, app, offset, label in connection.execute(_INPUT_HITS, window):
            hits.append((monitor, app, "clicked", ts, offset, label, None, iid))
    finally:
        connection.execute("COMMIT")
    stretches = _stretches(hits)
    return SearchResult(text, tuple(stretches[:limit]), len(stretches), len(hits), True)


def _label(connection: apsw.Connection, tree: int, words: list[str]) -> str:
    """The first label of a walk holding every word at a word's start (the
    index matched the walk as a whole: the words may be on different
    elements), else the first holding the first word."""
    starts = [re.compile(rf"(?<!\w){re.escape(word)}", re.IGNORECASE) for word in words]
    names = [name for (name,) in connection.execute(
        "SELECT DISTINCT CASE WHEN name != '' THEN name ELSE coalesce(labelled_by, '') END "
        "FROM elements WHERE tree_id = ? ORDER BY 1", (tree,))]
    for name in names:
        if all(start.search(name) for start in starts):
            return name
    return next((name for name in names if starts and starts[0].search(name)), "")


def _stretches(hits: list[tuple]) -> list[Stretch]:
    hits.sort(key=lambda h: (h[0], h[1], h[2], h[3], h[6] or 0, h[7] or 0))
    found: list[Stretch] = []
    current: list[tuple] = []
    for hit in hits:
        if current and (hit[:3] != current[-1][:3] or hit[3] - current[-1][3] > STRETCH_GAP_MS):
            found.append(_stretch(current))
            current = []
        current.append(hit)
    if current:
        found.append(_stretch(current))
    found.sort(key=lambda s: (-s.start_ms, s.monitor, s.app, s.matched))
    return found


def _stretch(hits: list[tuple]) -> Stretch:
    monitor, app, matched, start, offset, text = hits[0][:6]
    return Stretch(start, hits[-1][3], offset, monitor, app, matched, text,
                   tuple(sorted({h[6] for h in hits if h[6] is not None})),
                   tuple(sorted({h[7] for h in hits if h[7] is not None})))


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


def search_dict(result: SearchResult, window, tz: str | None = None) -> dict:
    """JSON-safe builtins, as `phantom search --format json` and the MCP
    tool give them."""
    return {"query": result.query, "window": {"label": window.label, "zone": window.zone},
            "indexed": result.indexed, "hits": result.hits, "stretches_found": result.total_stretches,
            "stretches": [{"start": local_iso(s.start_ms, s.utc_offset_min, tz),
                           "end": local_iso(s.end_ms, s.utc_offset_min, tz), "monitor": s.monitor,
                           "app": s.app, "matched": s.matched, "text": s.text,
                           "evidence": evidence(s)} for s in result.stretches]}

