"""Frozen records the compiler's passes read and produce.

Input records mirror just the store columns the compiler needs (read by
`compiler.sources`); everything downstream is built from them by pure
functions. Times are UTC milliseconds; local rendering happens only in the
renderers, from the zone recorded with each snapshot.

The per-row input records (Snapshot, Element, InputEvent, BlindSpot) are
typed NamedTuples rather than frozen dataclasses: immutable and named all
the same, but built from a database row at C speed — a day is ~7,000 of
them, and creating them as dataclasses cost more than the SQL that read them.
The document's records are NamedTuples too: a day has hundreds of frames,
and each frozen dataclass also cost about half a millisecond to define when
`phantom compile` starts, and to load from the compiled-document cache.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import NamedTuple

# Field getters shared by the passes, for map() and sort keys at C speed over
# thousands of records (a generator or lambda per record costs several times more).
ID, TS_MS, MONITOR, IDLE, URL = (attrgetter("id"), attrgetter("ts_ms"), attrgetter("monitor"),
                                 attrgetter("idle"), attrgetter("url"))
CHRONOLOGICAL = attrgetter("ts_ms", "id")


# -- input: what the sources read ------------------------------------------------------
class Snapshot(NamedTuple):
    """What one monitor showed at one instant."""

    id: int
    ts_ms: int
    utc_offset_min: int
    tz_name: str
    monitor: int
    trigger: str
    app: str
    title: str
    url: str | None
    idle: bool
    focused: bool


class Element(NamedTuple):
    """The accessibility element a click or a text burst landed on."""

    id: int
    role: str
    name: str
    labelled_by: str | None
    path: str

    @property
    def label(self) -> str:
        """What a person would call it: its name, else the label naming it."""
        return self.name or self.labelled_by or ""


class InputEvent(NamedTuple):
    """A count of input (one store row)."""

    id: int
    ts_ms: int
    end_ms: int
    monitor: int
    kind: str                 # key | text | click | scroll | copy
    count: int  # type: ignore[assignment]  # the column's name; shadows tuple.count on purpose
    key: str | None
    x: int | None
    y: int | None
    resolution: str | None    # clicks: exact | tolerance | zone | none
    element: Element | None
    recording_id: int | None
    text: str | None          # only inside an opted-in recording
    crop: str | None = None   # clicks: sha256 of the click-target crop blob
    snapshot_id: int | None = None  # the snapshot of the window that received it, when the source says
    field_chars: int | None = None  # text inside a recording: characters the field held before


class BlindSpot(NamedTuple):
    """A stretch the capture could not or would not see."""

    id: int
    start_ms: int
    end_ms: int | None
    kind: str
    reason: str
    monitor: int | None


@dataclass(frozen=True, slots=True)
class ReplayRun:
    """A run of Phantom's own replay: its input is not the user's."""

    id: int
    start_ms: int
    end_ms: int | None


@dataclass(frozen=True, slots=True)
class Capture:
    """Everything a compilation reads from one source for one window."""

    source: str                      # "phantom" | "nocta"
    schema_version: int
    since_ms: int
    until_ms: int
    snapshots: tuple[Snapshot, ...]
    inputs: tuple[InputEvent, ...]
    blind_spots: tuple[BlindSpot, ...]
    replay_runs: tuple[ReplayRun, ...] = ()
    digest: str | None = None        # sha256 of the rows as read, when the source computed it


# -- actions: the unit routines are made of -------------------------------------------
class Step(NamedTuple):
    """What an action does, without when. Two actions are the same step when
    every field is equal; routines are sequences of steps. A NamedTuple, so
    comparing and hashing steps (done for every action) runs at C speed.

    `target` is the accessibility path for clicks and text entry, the key
    combination for keys, and `app` or `app/site` for switches. `specific`
    marks a step anchored on something nameable — a resolved accessibility
    element or a URL — as opposed to an unresolved click or a bare key."""

    kind: str          # click | type | key | switch
    app: str
    target: str
    role: str = ""
    label: str = ""
    specific: bool = False

    def describe(self) -> str:
        if self.kind == "switch":
            return f"switch to {self.target}"
        if self.kind == "key":
            return f"press {self.target} in {self.app}"
        what = f"{self.role} '{self.label}'" if self.label else (self.role or "somewhere")
        verb = "type into" if self.kind == "type" else "click"
        return f"{verb} {what} in {self.app}"


class Action(NamedTuple):
    """One step as it happened: when, on which monitor, with what evidence.
    A NamedTuple like the input rows: a day derives thousands of them."""

    step: Step
    ts_ms: int
    end_ms: int
    monitor: int
    evidence: tuple[str, ...]     # "snapshots:12", "input_events:40", …
    text: str | None = None       # recorded text (opted-in recordings only)
    recording_id: int | None = None


# -- output: the activity-frames document -----------------------------------------------
class PageVisit(NamedTuple):
    """A typed page reference, how many times it was arrived at (from
    another page or app) and the title it showed, where one was captured."""

    kind: str
    entity: str | None
    count: int  # type: ignore[assignment]  # visits; the document's key; shadows tuple.count on purpose
    title: str | None = None        # the page's own title (the browser's name cut off)


class InputVolume(NamedTuple):
    """Counts of input attributed to a frame; never content."""

    keys: int = 0
    clicks: int = 0
    scrolls: int = 0
    copies: int = 0
    text_bursts: int = 0
    clicks_exact: int = 0
    clicks_tolerance: int = 0
    clicks_zone: int = 0
    clicks_none: int = 0


class ClickTarget(NamedTuple):
    """A named element clicked in a frame, with how often."""

    role: str
    label: str
    count: int  # type: ignore[assignment]  # the document's key; shadows tuple.count on purpose


class Interruption(NamedTuple):
    """A short detour (A→B→A, B at most 20 s) folded into A. Input made
    during the detour is the detour's own, not the host frame's."""

    app: str
    site: str | None
    start_ms: int
    end_ms: int
    snapshots: tuple[int, ...]
    input: "InputVolume | None" = None     # None: no input during the detour
    input_ids: tuple[int, ...] = ()


class Frame(NamedTuple):
    """One bounded stretch of attention on one monitor, keyed by (app, site)."""

    id: str
    monitor: int
    app: str
    site: str | None
    start_ms: int
    end_ms: int
    active_ms: int
    utc_offset_min: int
    tz_name: str
    titles: tuple[str, ...]
    pages: tuple[PageVisit, ...]
    input: InputVolume
    targets: tuple[ClickTarget, ...]
    interruptions: tuple[Interruption, ...]
    snapshot_ids: tuple[int, ...]
    input_ids: tuple[int, ...]
    idle_snapshots: int
    idle_ms: int = 0          # credited screen time with no input (quiet.py), not in active_ms
    away_ms: int = 0
    targets_more: int = 0     # named click targets beyond those kept in `targets`


class Gap(NamedTuple):
    """A stretch of more than 300 s with no activity on any monitor, or (in
    Coverage.quiet) a stretch with no input: 'idle' up to 300 s, else 'away'."""

    start_ms: int
    end_ms: int
    reason: str        # away | idle | blind spot kind


class Coverage(NamedTuple):
    """active + idle + away = span (first to last activity)."""

    first_activity_ms: int | None
    last_activity_ms: int | None
    active_ms: int
    span_ms: int
    gaps: tuple[Gap, ...]
    monitors: tuple[int, ...]
    idle_ms: int = 0
    away_ms: int = 0
    quiet: tuple[Gap, ...] = ()     # idle and away stretches inside the span, outside the gaps


class BlindSpotNote(NamedTuple):
    """What the document cannot see: a stored blind spot, or something the
    compiler could not resolve (counted, never guessed)."""

    kind: str
    source: str        # store | compiler
    start_ms: int | None
    end_ms: int | None
    detail: str
    count: int = 1  # type: ignore[assignment]  # the document's key; shadows tuple.count on purpose


class Provenance(NamedTuple):
    document_schema: str
    compiler_version: str
    source: str
    store_schema: int
    since_ms: int
    until_ms: int
    zone: str
    input_digest: str
    rows: tuple[tuple[str, int], ...]   # (table, rows read)


class InferredItem(NamedTuple):
    """Second tier: interpretation, namespaced, confidence-tagged and linked
    to the evidence it rests on; removable without touching the measured tier."""

    kind: str
    label: str
    confidence: str          # low | medium | high
    basis: str               # how it was inferred, in words
    frames: tuple[str, ...]
    evidence: tuple[str, ...]
    details: tuple[tuple[str, str], ...] = ()


class Document(NamedTuple):
    coverage: Coverage
    frames: tuple[Frame, ...]
    blind_spots: tuple[BlindSpotNote, ...]
    provenance: Provenance
    inferred: tuple[InferredItem, ...] | None   # None when stripped (--no-inferred)
