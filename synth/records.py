"""Frozen records of one planned day: what the capture daemon would have
written, before ids are assigned. Writers for each layout turn a `DayPlan`
into rows; trees and blobs are referenced by their index in the plan."""

from __future__ import annotations

from dataclasses import dataclass

from .calendar import Day
from .trees import Tree
from .world import App


@dataclass(frozen=True, slots=True)
class PlannedTree:
    ts_ms: int
    tree: Tree
    walk_ms: int


@dataclass(frozen=True, slots=True)
class PlannedBlob:
    kind: str                 # thumbnail | click_crop
    width: int
    height: int
    data: bytes
    created_ms: int
    media_type: str = "image/png"


@dataclass(frozen=True, slots=True)
class PlannedSnapshot:
    ts_ms: int
    monitor: int
    trigger: str
    app: App
    pid: int
    title: str
    url: str | None
    idle: bool
    focused: bool
    tree: int | None          # index into DayPlan.trees
    screenshot: int | None    # index into DayPlan.blobs
    browser_url: str | None   # the page shown, also when unfocused (nocta keeps it)
    window: int = -1          # which window (the day's serial number), for live-like links


@dataclass(frozen=True, slots=True)
class PlannedInput:
    ts_ms: int
    end_ms: int
    monitor: int
    kind: str                 # key | text | click | scroll | copy
    count: int
    key: str | None
    button: int | None
    x: int | None
    y: int | None
    element: tuple[int, int] | None   # (tree index, node index)
    resolution: str | None
    crop: int | None
    app: App                  # context, for layouts that store it per event
    title: str
    url: str | None
    window: int = -1          # the window that received it (serial), for live-like links


@dataclass(frozen=True, slots=True)
class PlannedBlindSpot:
    start_ms: int
    end_ms: int
    kind: str
    reason: str
    monitor: int | None = None


@dataclass(frozen=True, slots=True)
class Occurrence:
    """Where one planted routine occurrence lies (for the manifest)."""

    routine: str
    start_ms: int
    end_ms: int
    variant: str = ""


@dataclass(frozen=True, slots=True)
class DayPlan:
    day: Day
    trees: tuple[PlannedTree, ...]
    snapshots: tuple[PlannedSnapshot, ...]
    inputs: tuple[PlannedInput, ...]
    blind_spots: tuple[PlannedBlindSpot, ...]
    blobs: tuple[PlannedBlob, ...]
    occurrences: tuple[Occurrence, ...]

    @property
    def element_count(self) -> int:
        return sum(len(t.tree.nodes) for t in self.trees)
