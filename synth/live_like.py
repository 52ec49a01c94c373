"""The rows a live daemon writes that the default synthetic corpus leaves
out (`phantom synth --live-like`), so benchmarks and tests see a store shaped
like months of real capture, not only like the published corpus:

- every input row names the snapshot of the window that received it
  (`input_events.snapshot_id`), as `capturer/count_writer.py` and
  `capturer/input_path.py` do: the latest snapshot of that window written
  when the row is final — at a burst's end, and for a click after its hit
  test answered (`HIT_SETTLE_MS`), which is how a click that brings a window
  forward comes to name the window's focus snapshot; a window with no
  snapshot yet is named by its first one (the daemon snapshots such a
  window before it counts the input);
- a snapshot names its X window (`snapshots.window_id`);
- a click carries what its hit test found inline (`target_role`,
  `target_name`, `target_path`) and its visual evidence: three crops around
  it (target 64 px, context 128 px, wide 256 px, placed as
  `core.visual_evidence.placed` places them inside the window, or inside
  the monitor for a click off the window), each a content-addressed blob
  with a `click_evidence` row; `input_events.crop` names the target crop
  (capturer/pictures.py).

Accessibility trees need nothing extra: the default corpus already gives
focused snapshots of accessible apps their cached walk, as the daemon does.
The crops are flat colour bands (small PNGs, not screen pictures). Pure
functions of the plan, the ids the writer assigned and a generator derived
from (seed, "live", day): the same seed gives the same bytes, and the
default corpus draws nothing from it."""

from __future__ import annotations

import hashlib
import random
import struct
import zlib
from bisect import bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.geometry import Rect, intersect
from core.visual_evidence import RATIO_DIGITS, VARIANTS, placed

from .records import DayPlan, PlannedInput
from .world import MONITORS

if TYPE_CHECKING:
    from apsw import SQLiteValues

# A click's row is rewritten once its hit test answers and its window's
# pending snapshot is written (HIT_TEST_BUDGET_S, SNAPSHOT_BUDGET_S at most;
# a few hundred milliseconds as measured): the snapshot it names is the
# latest at that moment.
HIT_SETTLE_MS = 300
# X window ids as a composited X server hands them out: one client base per window.
WINDOW_ID_BASE = 0x1E00003
WINDOW_ID_STEP = 0x200000
RESOLVED = frozenset({"exact", "tolerance", "zone"})


def window_id(serial: int) -> int | None:
    """The X id of the day's window number `serial` (None for an unknown window)."""
    return WINDOW_ID_BASE + serial * WINDOW_ID_STEP if serial >= 0 else None


def snapshot_links(plan: DayPlan, snapshot_ids: Sequence[int]) -> list[int | None]:
    """For each input of the plan, the id of the snapshot it names."""
    seen: dict[int, tuple[list[int], list[int]]] = {}
    for snapshot, snapshot_id in zip(plan.snapshots, snapshot_ids):   # in time order
        times, ids = seen.setdefault(snapshot.window, ([], []))
        times.append(snapshot.ts_ms)
        ids.append(snapshot_id)
    links: list[int | None] = []
    for event in plan.inputs:
        window = seen.get(event.window)
        if window is None:
            links.append(None)
            continue
        times, ids = window
        final_ms = event.ts_ms + HIT_SETTLE_MS if event.kind == "click" else event.end_ms
        latest = bisect_right(times, final_ms) - 1
        links.append(ids[max(latest, 0)])
    return links


def hit_target(plan: DayPlan, event: PlannedInput) -> tuple[str | None, str | None, str | None]:
    """(role, name, path) of what a click's hit test found, as the daemon
    stores them inline: the element's name, else the label naming it."""
    if event.kind != "click" or event.element is None or event.resolution not in RESOLVED:
        return None, None, None
    tree, index = event.element
    node = plan.trees[tree].tree.nodes[index]
    return node.role, node.name or node.labelled_by or "", node.path


def click_evidence(rng: random.Random, event: PlannedInput, input_id: int
                   ) -> tuple[list[SQLiteValues], list[SQLiteValues], str | None]:
    """A click's crops: (blob rows, click_evidence rows, the target crop's
    sha256), in `BlobRow` and `ClickEvidenceRow` column order."""
    if event.x is None or event.y is None:
        return [], [], None
    monitor = MONITORS[event.monitor]
    bounds: Rect = (monitor.x, monitor.y, monitor.w, monitor.h)
    window: Rect | None = intersect(monitor.window_rect(), bounds)
    x, y = event.x, event.y
    if window is None or not (window[0] <= x < window[0] + window[2] and window[1] <= y < window[1] + window[3]):
        window = None      # a click off the window (its frame): the crops are placed in the monitor
    within = window or bounds
    if not (within[0] <= x < within[0] + within[2] and within[1] <= y < within[1] + within[3]):
        return [], [], None
    blobs: list[SQLiteValues] = []
    rows: list[SQLiteValues] = []
    target = None
    frame = window or (None, None, None, None)
    placed_already: set[Rect] = set()
    for kind, side in VARIANTS:
        left, top, width, height = rect = placed(x, y, side, within)
        if rect in placed_already:
            continue
        placed_already.add(rect)
        data = banded_png(rng, width, height)
        digest = hashlib.sha256(data).hexdigest()
        blobs.append((digest, "click_crop", "image/png", width, height, data, event.ts_ms))
        rows.append((input_id, kind, digest, left, top, width, height,
                     round((x - left + 0.5) / width, RATIO_DIGITS), round((y - top + 0.5) / height, RATIO_DIGITS),
                     *frame))
        if kind == "target":
            target = digest
    return blobs, rows, target


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def banded_png(rng: random.Random, width: int, height: int) -> bytes:
    """An RGB PNG of a few flat colour bands, built a band at a time (a
    day's 3,000 crops must not cost seconds)."""
    count = rng.randint(3, 6)
    colours = [bytes((rng.randint(30, 250), rng.randint(30, 250), rng.randint(30, 250))) for _ in range(count)]
    band = max(1, height // count)
    rows = []
    for index, colour in enumerate(colours):
        top = index * band
        bottom = height if index == count - 1 else min(height, top + band)
        if bottom > top:
            rows.append((b"\x00" + colour * width) * (bottom - top))
    raw = b"".join(rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 6))
            + _chunk(b"IEND", b""))
