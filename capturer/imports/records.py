"""What an importer makes of a foreign history before it reaches the store:
moments a window was shown (future snapshots), stretches the privacy rules
hide (future blind spots) and input events, each carrying the key of the
source record it came from.

A foreign capture is read by the compiler's reader of its layout
(`compiler.api.read_nocta`), which the caller hands in: the capturer and the
compiler do not import each other. What the importers use of its records is
written down here, as protocols (`compiler.records` has the records)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol


class ForeignElement(Protocol):
    """The accessibility element an input event landed on."""

    @property
    def role(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def path(self) -> str: ...


class InputEvent(Protocol):
    """A foreign input event, as `compiler.records.InputEvent` has it."""

    @property
    def id(self) -> int: ...

    @property
    def ts_ms(self) -> int: ...

    @property
    def end_ms(self) -> int: ...

    @property
    def monitor(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def count(self) -> int: ...

    @property
    def key(self) -> str | None: ...

    @property
    def x(self) -> int | None: ...

    @property
    def y(self) -> int | None: ...

    @property
    def resolution(self) -> str | None: ...

    @property
    def element(self) -> ForeignElement | None: ...

    @property
    def snapshot_id(self) -> int | None: ...


class Snapshot(Protocol):
    """A foreign frame, as `compiler.records.Snapshot` has it."""

    @property
    def id(self) -> int: ...

    @property
    def ts_ms(self) -> int: ...

    @property
    def monitor(self) -> int: ...

    @property
    def app(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def url(self) -> str | None: ...

    @property
    def idle(self) -> bool: ...

    @property
    def focused(self) -> bool: ...


class Capture(Protocol):
    """A foreign capture, read whole (`compiler.records.Capture`)."""

    @property
    def snapshots(self) -> Sequence[Snapshot]: ...

    @property
    def inputs(self) -> Sequence[InputEvent]: ...


class Shown(NamedTuple):
    """A window on a screen at one instant: one snapshot."""

    key: str
    ts_ms: int
    monitor: int
    trigger: str
    app: str
    title: str
    url: str | None
    idle: bool = False
    focused: bool = True


class Hidden(NamedTuple):
    """A stretch an exclusion rule hides: one blind spot, for every source
    record it covers."""

    keys: tuple[str, ...]
    start_ms: int
    end_ms: int
    monitor: int | None
    reason: str


class Typed(NamedTuple):
    """An input event, the source record it came from and — when the source
    links it to the frame of the window that received it — that frame's key."""

    key: str
    event: InputEvent
    window_key: str | None = None


@dataclass(frozen=True, slots=True)
class History:
    """One source's history, ready to write: time-ordered within each kind."""

    source: str                    # 'activitywatch' | 'nocta'
    description: str               # for messages: what was read
    shown: tuple[Shown, ...]
    hidden: tuple[Hidden, ...]
    inputs: tuple[Typed, ...] = ()
    already: int = 0               # source records skipped: imported before


@dataclass(slots=True)
class _Stretch:
    """A blind spot while pieces still join it; `keys` is an ordered set."""

    start_ms: int
    end_ms: int
    monitor: int | None
    reason: str
    keys: dict[str, None]


def merge_hidden(pieces: list[Hidden]) -> tuple[Hidden, ...]:
    """Touching or overlapping pieces on one monitor with one reason become
    one stretch (a password manager used for an hour is one blind spot)."""
    spans: list[_Stretch] = []
    open_by: dict[tuple[int | None, str], _Stretch] = {}
    for piece in sorted(pieces, key=lambda p: (p.start_ms, p.end_ms)):
        slot = (piece.monitor, piece.reason)
        span = open_by.get(slot)
        if span is not None and piece.start_ms <= span.end_ms:
            span.end_ms = max(span.end_ms, piece.end_ms)
            span.keys.update(dict.fromkeys(piece.keys))
            continue
        span = _Stretch(piece.start_ms, piece.end_ms, piece.monitor, piece.reason, dict.fromkeys(piece.keys))
        open_by[slot] = span
        spans.append(span)
    return tuple(Hidden(tuple(s.keys), s.start_ms, s.end_ms, s.monitor, s.reason) for s in spans)
