"""The compiler's front door, shared by the CLI, the D-Bus service and the
MCP bridge: resolve a window, read it from a capture database (read-only),
compile, render; or mine, measure and gate its routines. Errors a user can
cause are `CompileError`s with a one-line message.

The pipelines are imported when first needed, not with this module: `phantom
compile` runs as a whole process, and the frames passes (numpy), the miner
and the routine measures and gate cost tens of milliseconds to import that a
compile served from the cache, or a render, never uses."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from core.errors import PhantomError

from .collector import collector_paused
from .records import Capture, Document
from .render.compact import DEFAULT_BUDGET
from .sources import CaptureSource, Fetched, SourceError
from .timefmt import TimeFormat
from .window import Window, WindowError, zone_info

if TYPE_CHECKING:
    from datetime import tzinfo

    from . import cache as _cache
    from .resolve import Default
    from .rolled import RolledDay
    from .rollup_door import RollUp, roll_up, unreadable_rollups
    from .routines import CostModel, GateDecision, Routine, RoutineReport, report_dict
    from .search import SearchResult

__all__ = [
    "FORMATS",
    "MIN_BUDGET",
    "CompileError",
    "Compiled",
    "CostModel",
    "GateDecision",
    "RoutineReport",
    "compile_window",
    "find_routine",
    "mined_routines",
    "read_nocta",
    "read_window",
    "render",
    "resolve_window",
    "RollUp",
    "roll_up",
    "unreadable_rollups",
    "report_dict",
    "routine_report",
    "search",
    "timeline",
]

FORMATS = ("compact", "json", "markdown")
MIN_BUDGET = 100
_FROM_ROUTINES = ("CostModel", "report_dict", "RoutineReport", "GateDecision")
_FROM_ROLLUP_DOOR = ("RollUp", "roll_up", "unreadable_rollups")


def __getattr__(name: str) -> object:
    """Names loaded on first use: the routines pipeline's (`CostModel`,
    `report_dict`, the report and gate-decision records an interface
    formats) and retention's (rollup_door.py: a day compiled for its roll-up)."""
    if name in _FROM_ROUTINES:
        from . import routines

        return getattr(routines, name)
    if name in _FROM_ROLLUP_DOOR:
        from . import rollup_door

        return getattr(rollup_door, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class CompileError(PhantomError, ValueError):
    """A request the compiler cannot honour; the message is one line. Its
    code is the kind of the error it stands for (a window that cannot be
    read, by default; a store that cannot be, `store_unavailable`), so an
    interface that reports it tells the same kind as for the original."""

    code = "invalid_window"


class Compiled(NamedTuple):
    document: Document
    window: Window
    times: TimeFormat


def compile_window(db_path: str | Path, *, day: str | None = None, since: str | None = None,
                   until: str | None = None, tz: str | None = None, now_ms: int | None = None,
                   inferred: bool = True, cache: bool = True) -> Compiled:
    """Compile one window: a day, a range, or with neither (and `now_ms`)
    today — see `compiler.resolve` for the words each takes. `now_ms` is the
    current instant, read by the caller at its edge; the compile itself never
    reads a clock. With `cache`, a window whose rows are unchanged since it
    was last compiled is served from the compiled-document cache (see
    cache.py: the same bytes as a fresh compile); without it, it is compiled
    afresh and the cache is neither read nor written."""
    if day is None and since is None and until is None and now_ms is None:
        raise CompileError("give either a day or both since and until")
    override = _override(tz)
    with collector_paused():
        fetched, window, days, probe = _open_window(db_path, day, since, until, tz, now_ms, "today",
                                                    inferred if cache else None)
        document = probe.hit()   # no row was read then
        if document is None:
            assert fetched is not None
            if days:
                document, window = _with_rollups(fetched, window, days, db_path, inferred)
            elif (document := probe.reuse(fetched.digest)) is None:
                from .frames import CompileOptions, compile_capture

                document = compile_capture(_capture(fetched, db_path),
                                           CompileOptions(zone=window.zone, inferred=inferred))
                probe.keep(fetched.digest, document)
    return Compiled(document, window, _times(document, window, override))


def render(compiled: Compiled, fmt: str = "compact", *, budget: int = DEFAULT_BUDGET) -> bytes:
    if fmt not in FORMATS:
        raise CompileError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    if fmt == "compact" and budget < MIN_BUDGET:
        raise CompileError(f"a budget of {budget} tokens is too small (minimum {MIN_BUDGET})")
    with collector_paused():
        return _render(compiled, fmt, budget)


def _render(compiled: Compiled, fmt: str, budget: int) -> bytes:
    window = compiled.window
    if fmt == "json":
        from .render.json_doc import render_json

        return render_json(compiled.document, compiled.times, window.label, note=window.note)
    if fmt == "markdown":
        from .render.markdown import render_markdown

        return render_markdown(compiled.document, compiled.times, window.label, note=window.note)
    from .render.compact import render_compact

    return render_compact(compiled.document, compiled.times, window.label, budget, note=window.note)


def _override(tz: str | None) -> tzinfo | None:
    """The tzinfo --tz names, or None; an unknown zone is a CompileError."""
    try:
        return zone_info(tz) if tz else None
    except WindowError as exc:
        raise CompileError(str(exc)) from None


def _times(document: Document, window: Window, override: tzinfo | None) -> TimeFormat:
    """Times as the capture recorded them (the first frame's offset, else
    the window zone's at its start), or in the --tz override."""
    offset = (document.frames[0].utc_offset_min if document.frames
              else _offset_of(window.zone, window.since_ms))
    return TimeFormat(override, offset)


def _offset_of(zone: str, ms: int) -> int:
    from core.clock import offset_minutes_in

    return offset_minutes_in(zone_info(zone), ms)


def read_window(db_path: str | Path, *, day: str | None = None, since: str | None = None,
                until: str | None = None, tz: str | None = None,
                now_ms: int | None = None) -> tuple[Capture, Window]:
    """(capture, window) for a day, a range, or — with neither — the whole
    history in the store."""
    with collector_paused():
        fetched, window, _ = _fetch_window(db_path, day, since, until, tz, now_ms, "all")
        return _capture(fetched, db_path), window


def read_nocta(db_path: str | Path) -> Capture:
    """Every row of a nocta-recorder / screenpipe capture database, as
    records: what `phantom import` brings into a Phantom store. A
    `SourceError` when it is not one, or cannot be read."""
    try:
        with CaptureSource(db_path) as source:
            if source.kind != "nocta":
                raise SourceError(f"{db_path} is a {source.kind} store, not a nocta/screenpipe database")
            first, last = source.span()
            return source.read(first or 0, (last or 0) + 1)
    except SourceError:
        raise
    except ValueError as exc:   # a frames table without the columns the layout needs
        raise SourceError(f"cannot read {db_path}: {exc}") from None


def _fetch_window(db_path: str | Path, day: str | None, since: str | None, until: str | None,
                  tz: str | None, now_ms: int | None,
                  default: Default) -> tuple[Fetched, Window, list[RolledDay]]:
    """(rows, window, rolled-up days inside it) — see rolled.py for the last."""
    fetched, window, days, _ = _open_window(db_path, day, since, until, tz, now_ms, default, None)
    assert fetched is not None  # without the cache, rows are always read
    return fetched, window, days


def _open_window(db_path: str | Path, day: str | None, since: str | None, until: str | None,
                 tz: str | None, now_ms: int | None, default: Default, inferred: bool | None
                 ) -> tuple[Fetched | None, Window, list[RolledDay], _cache.Probe]:
    """`_fetch_window` and the cache's probe (`inferred` given: a compile that
    may use the cache); rows None when the stamp is the cached entry's."""
    from . import cache as _cache
    from .resolve import resolve
    from .rolled import rolled_days

    try:
        with CaptureSource(db_path) as source:
            window = resolve(source, day, since, until, tz, now_ms, default=default)
            days = (rolled_days(source.connection, window.since_ms, window.until_ms)
                    if source.kind == "phantom" else [])
            probe = _cache.Probe.of(source, db_path, window, None if days else inferred)
            rows = None if probe.hit() is not None else source.fetch(window.since_ms, window.until_ms)
            return rows, window, days, probe
    except (WindowError, SourceError) as exc:
        raise CompileError(str(exc), code=exc.code) from None
    except ValueError as exc:  # a malformed source table
        raise CompileError(f"cannot read {db_path}: {exc}",
                           code="store_unavailable") from None


def _with_rollups(fetched: Fetched, window: Window, days: list[RolledDay], db_path: str | Path,
                  inferred: bool) -> tuple[Document, Window]:
    """A window reaching into rolled-up days: the day's roll-up itself, or
    the raw rows merged with the roll-ups (rolled.py), and the note says so."""
    from dataclasses import replace

    from .frames import CompileOptions, compile_capture
    from .rolled import NOTE_DAY, day_document, exact_day, merged

    def noted(text: str) -> Window:
        return replace(window, note=f"{window.note}; {text}" if window.note else text)

    whole = exact_day(days, window.since_ms, window.until_ms, window.zone)
    if whole is not None:
        return day_document(whole, inferred), noted(NOTE_DAY)
    capture = _capture(fetched, db_path)
    raw = compile_capture(capture, CompileOptions(zone=window.zone, inferred=False))
    document = merged(raw, capture, days, window.since_ms, window.until_ms, window.zone, inferred)
    return document, noted(f"{len(days)} day(s) from the roll-up (their raw rows were removed by "
                           "retention)")


def _capture(fetched: Fetched, db_path: str | Path) -> Capture:
    try:
        return fetched.capture()
    except ValueError as exc:  # a malformed source row
        raise CompileError(f"cannot read {db_path}: {exc}",
                           code="store_unavailable") from None


def resolve_window(db_path: str | Path, *, day: str | None = None, since: str | None = None,
                   until: str | None = None, tz: str | None = None,
                   now_ms: int | None = None) -> Window:
    """The instants a day or a range names, read as `read_window` reads them
    (in the capture's recorded zone unless `tz` is given) but never clamped,
    without reading rows: what `phantom forget` and `phantom export` act on."""
    from .resolve import resolve

    try:
        with collector_paused(), CaptureSource(db_path) as source:
            return resolve(source, day, since, until, tz, now_ms, default="none", clamp=False)
    except (WindowError, SourceError) as exc:
        raise CompileError(str(exc), code=exc.code) from None


def routine_report(db_path: str | Path, *, day: str | None = None, since: str | None = None,
                   until: str | None = None, tz: str | None = None, now_ms: int | None = None,
                   costs: CostModel | None = None,
                   limit: int | None = None) -> tuple[RoutineReport, Window]:
    """The routine candidates of a window (`read_window`'s: a day, a range or
    the whole history), mined, measured and gated under `costs` (the default
    `CostModel()` when None); at most `limit` of them measured and shown (all
    when None). The gate's outcomes are read from the store too: dry passes
    of each plan against the trees recorded at its occurrences, and verified
    replays of programs compiled from it. Render the report with `report_dict`."""
    from .rolled import actions_of
    from .routines import CostModel, report_routines

    with collector_paused():
        fetched, window, days = _fetch_window(db_path, day, since, until, tz, now_ms, "all")
        capture = _capture(fetched, db_path)
    try:
        # the gate's evidence: trees recorded around the occurrences, replays of
        # programs compiled from routines (read-only, through the same source)
        with CaptureSource(db_path) as source:
            return report_routines(capture, window.zone, costs or CostModel(), limit=limit,
                                   extra_actions=actions_of(days), evidence=source), window
    except SourceError as exc:
        raise CompileError(str(exc), code=exc.code) from None


def mined_routines(capture: Capture) -> tuple[Routine, ...]:
    """Every routine mined from a capture's action stream, one per loop
    (see `routines.cycles`), in the miner's order, not yet measured or gated."""
    from .routines import derive_actions, distinct, mine, sessions

    stream = sessions(derive_actions(capture))
    return distinct(mine(stream), stream)


def find_routine(db_path: str | Path, routine: str, *, day: str | None = None,
                 since: str | None = None, until: str | None = None, tz: str | None = None,
                 now_ms: int | None = None) -> tuple[Routine, Capture]:
    """The routine `r-ID` (or `ID`) as it recurs in a window (by default the
    whole history), with the capture it was found in: the id is the same in
    every window that contains the routine, mined there as it is or as a
    slice of a longer routine. A `CompileError` for a window that cannot be
    read, and one of kind `compile_failed` when the routine does not recur
    there (the window is fine; there is nothing to compile)."""
    from .routines import derive_actions, find, mine, sessions

    wanted = routine.strip().lower()
    wanted = wanted[2:] if wanted.startswith("r-") else wanted
    capture, window = read_window(db_path, day=day, since=since, until=until, tz=tz, now_ms=now_ms)
    stream = sessions(derive_actions(capture))
    found = find(wanted, mine(stream), stream)
    if found is None:
        where = "this store" if window.label == "all" else f"the window {window.label}"
        raise CompileError(f"no routine r-{wanted} recurs in {where}; `phantom routines` lists "
                           "them (give the window it was seen in)", code="compile_failed")
    return found, capture


def search(db_path: str | Path, text: str, *, day: str | None = None, since: str | None = None,
           until: str | None = None, tz: str | None = None, now_ms: int | None = None,
           limit: int = 20) -> tuple[SearchResult, Window]:
    """(SearchResult, window): stretches of time when `text` was in a title,
    a URL or an element label (see `compiler.search`), newest first, in a
    window (the whole history by default). Reads the index as it is; the
    caller brings it up to date first (`core.store.search_index.catch_up`)."""
    from .resolve import resolve
    from .search import SearchError
    from .search import search as find_text

    try:
        with collector_paused(), CaptureSource(db_path) as source:
            if source.kind != "phantom":
                raise CompileError(f"{db_path} is a {source.kind} capture database; search reads a "
                                   "Phantom store's index (import it with `phantom import`)")
            window = resolve(source, day, since, until, tz, now_ms, default="all")
            return find_text(source.connection, text, window.since_ms, window.until_ms, limit), window
    except (WindowError, SourceError, SearchError) as exc:
        raise CompileError(str(exc), code=exc.code) from None


def timeline(db_path: str | Path, fmt: str = "png", *, day: str | None = None,
             since: str | None = None, until: str | None = None, tz: str | None = None,
             now_ms: int | None = None) -> bytes:
    """A picture (PNG or SVG bytes) of a window — today by default: per
    monitor a lane per application, frames as bars, gaps and blind spots
    shaded, routine occurrences marked (render/timeline.py; matplotlib is
    loaded only here). The same rows give the same bytes."""
    from .frames import CompileOptions, compile_capture
    from .render.timeline import FORMATS, RoutineSpan, render_timeline

    if fmt not in FORMATS:
        raise CompileError(f"unknown picture format {fmt!r}; choose from {', '.join(FORMATS)}")
    override = _override(tz)
    with collector_paused():
        fetched, window, _ = _fetch_window(db_path, day, since, until, tz, now_ms, "today")
        capture = _capture(fetched, db_path)
        document = compile_capture(capture, CompileOptions(zone=window.zone, inferred=False))
        spans = tuple(RoutineSpan(f"r-{routine.id}", o.actions[0].monitor, o.actions[0].ts_ms,
                                  o.actions[-1].end_ms)
                      for routine in mined_routines(capture)[:6] for o in routine.occurrences)
    return render_timeline(document, _times(document, window, override), window.label, spans, fmt)
