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

from . import cache as _cache
from .collector import collector_paused
from .records import Capture, Document
from .render.compact import DEFAULT_BUDGET
from .sources import CaptureSource, Fetched, SourceError
from .timefmt import TimeFormat
from .window import Window, WindowError, day_window, parse_day, range_window, zone_info

if TYPE_CHECKING:
    from datetime import date

    from .routines import CostModel, Routine, RoutineReport, report_dict

__all__ = [
    "FORMATS",
    "MIN_BUDGET",
    "CompileError",
    "Compiled",
    "CostModel",
    "compile_window",
    "mined_routines",
    "read_window",
    "render",
    "resolve_window",
    "report_dict",
    "routine_report",
]

FORMATS = ("compact", "json", "markdown")
MIN_BUDGET = 100
_FROM_ROUTINES = ("CostModel", "report_dict")


def __getattr__(name: str) -> object:
    """`CostModel` and `report_dict` come from the routines pipeline, loaded
    on first use."""
    if name in _FROM_ROUTINES:
        from . import routines

        return getattr(routines, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class CompileError(PhantomError, ValueError):
    """A request the compiler cannot honour; the message is one line."""

    code = "invalid_window"


class Compiled(NamedTuple):
    document: Document
    window: Window
    times: TimeFormat


def compile_window(db_path: str | Path, *, day: str | None = None, since: str | None = None,
                   until: str | None = None, tz: str | None = None,
                   inferred: bool = True, cache: bool = True) -> Compiled:
    """Compile one window. `day` or both `since` and `until` must be given.
    With `cache`, a window whose rows are unchanged since it was last
    compiled is served from the compiled-document cache (see cache.py: the
    same bytes as a fresh compile); without it, it is compiled afresh and
    the cache is neither read nor written."""
    if day is None and since is None and until is None:
        raise CompileError("give either a day or both since and until")
    try:
        override = zone_info(tz) if tz else None
    except WindowError as exc:
        raise CompileError(str(exc)) from None
    with collector_paused():
        fetched, window = _fetch_window(db_path, day, since, until, tz)
        key = (_cache.entry_key(db_path, window.since_ms, window.until_ms, window.zone, inferred)
               if cache else None)
        document = _cache.load(key, fetched.digest) if key is not None else None
        if document is None:
            from .frames import CompileOptions, compile_capture

            document = compile_capture(_capture(fetched, db_path),
                                       CompileOptions(zone=window.zone, inferred=inferred))
            if key is not None:
                _cache.save(key, fetched.digest, document)
    default_offset = (document.frames[0].utc_offset_min if document.frames
                      else _offset_of(window.zone, window.since_ms))
    return Compiled(document, window, TimeFormat(override, default_offset))


def render(compiled: Compiled, fmt: str = "compact", *, budget: int = DEFAULT_BUDGET) -> bytes:
    if fmt not in FORMATS:
        raise CompileError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    if fmt == "compact" and budget < MIN_BUDGET:
        raise CompileError(f"a budget of {budget} tokens is too small (minimum {MIN_BUDGET})")
    with collector_paused():
        return _render(compiled, fmt, budget)


def _render(compiled: Compiled, fmt: str, budget: int) -> bytes:
    if fmt == "json":
        from .render.json_doc import render_json

        return render_json(compiled.document, compiled.times, compiled.window.label)
    if fmt == "markdown":
        from .render.markdown import render_markdown

        return render_markdown(compiled.document, compiled.times, compiled.window.label)
    from .render.compact import render_compact

    return render_compact(compiled.document, compiled.times, compiled.window.label, budget)


def _noon_utc_ms(day: date) -> int:
    from datetime import datetime, timezone

    return int(datetime(day.year, day.month, day.day, 12, tzinfo=timezone.utc).timestamp() * 1000)


def _rough_ms(text: str) -> int:
    """An instant near a --since value, to find the capture zone (any zone
    offset error here is at most a day, and only picks which row to ask)."""
    from .window import parse_instant

    return parse_instant(text, "UTC")


def _offset_of(zone: str, ms: int) -> int:
    from datetime import datetime, timezone

    offset = datetime.fromtimestamp(ms / 1000, tz=timezone.utc).astimezone(zone_info(zone)).utcoffset()
    assert offset is not None  # an aware datetime always has one
    return int(offset.total_seconds() // 60)


def read_window(db_path: str | Path, *, day: str | None = None, since: str | None = None,
                until: str | None = None, tz: str | None = None) -> tuple[Capture, Window]:
    """(capture, window) for a day, a range, or — with neither — the whole
    history in the store."""
    if day is not None and (since is not None or until is not None):
        raise CompileError("give either a day or both since and until")
    if (since is None) != (until is None):
        raise CompileError("give both since and until")
    with collector_paused():
        fetched, window = _fetch_window(db_path, day, since, until, tz)
        return _capture(fetched, db_path), window


def _fetch_window(db_path: str | Path, day: str | None, since: str | None, until: str | None,
                  tz: str | None) -> tuple[Fetched, Window]:
    try:
        with CaptureSource(db_path) as source:
            window = _resolve_window(source, day, since, until, tz)
            return source.fetch(window.since_ms, window.until_ms), window
    except (WindowError, SourceError) as exc:
        raise CompileError(str(exc)) from None
    except ValueError as exc:  # a malformed source table
        raise CompileError(f"cannot read {db_path}: {exc}") from None


def _capture(fetched: Fetched, db_path: str | Path) -> Capture:
    try:
        return fetched.capture()
    except ValueError as exc:  # a malformed source row
        raise CompileError(f"cannot read {db_path}: {exc}") from None


def resolve_window(db_path: str | Path, *, day: str | None = None, since: str | None = None,
                   until: str | None = None, tz: str | None = None) -> Window:
    """The instants a day or a range names, read as `read_window` reads them
    (in the capture's recorded zone unless `tz` is given), without reading
    rows: what `phantom forget` and `phantom export` act on."""
    if (day is None) == (since is None) or (since is None) != (until is None):
        raise CompileError("give either a day or both since and until")
    try:
        with collector_paused(), CaptureSource(db_path) as source:
            return _resolve_window(source, day, since, until, tz)
    except (WindowError, SourceError) as exc:
        raise CompileError(str(exc)) from None


def routine_report(db_path: str | Path, *, day: str | None = None, since: str | None = None,
                   until: str | None = None, tz: str | None = None, costs: CostModel | None = None,
                   limit: int | None = None) -> tuple[RoutineReport, Window]:
    """The routine candidates of a window (`read_window`'s: a day, a range or
    the whole history), mined, measured and gated under `costs` (the default
    `CostModel()` when None); at most `limit` of them measured and shown (all
    when None). Render the report with `report_dict`."""
    from .routines import CostModel, report_routines

    capture, window = read_window(db_path, day=day, since=since, until=until, tz=tz)
    return report_routines(capture, window.zone, costs or CostModel(), limit=limit), window


def mined_routines(capture: Capture) -> tuple[Routine, ...]:
    """Every routine mined from a capture's action stream, in the miner's
    order, not yet measured or gated."""
    from .routines import derive_actions, mine, sessions

    return mine(sessions(derive_actions(capture)))


def _resolve_window(source: CaptureSource, day: str | None, since: str | None,
                    until: str | None, tz: str | None) -> Window:
    """The window asked for, in `tz` or else the zone the capture recorded
    nearest to it (UTC for an empty store)."""
    if day is not None:
        parsed = parse_day(day)
        return day_window(parsed, tz or source.zone_near(_noon_utc_ms(parsed)) or "UTC")
    if since is not None:
        assert until is not None  # read_window takes both or neither
        return range_window(since, until, tz or source.zone_near(_rough_ms(since)) or "UTC")
    first, last = source.span()
    zone = tz or (source.zone_near(last) if last is not None else None) or "UTC"
    return Window(first or 0, (last or 0) + 1, zone, "all")
