"""A simulated desktop session as the capture daemon sees it.

`Desk` keeps the state the daemon keeps (focused window, last snapshot per monitor, idle flag, open blind
spots, cached accessibility trees) and turns what a synthetic user does — focus a window, click, type, press
keys, scroll, wait — into the records the daemon would write, with the daemon's timing rules at their defaults
(`core.capture_timing`): a heartbeat per monitor 30 s after its last snapshot (150 s while idle), an 'idle'
snapshot 120 s after the last input and an 'active' one at the next input, focused snapshots with the cached
tree, unfocused ones without tree or URL, clicks resolved against the focused window's tree. Snapshots and
inputs name their window by a number for the day (a live-like store links input to its window's snapshot).
Time only moves forward; all randomness comes from the day's generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import cast

from compiler.routines.actions import NAVIGATION_KEYS
from core.a11y.path import clip_name
from core.capture_timing import HEARTBEAT_MS, IDLE_AFTER_MS, IDLE_HEARTBEAT_FACTOR

from . import blobs
from .records import Occurrence, PlannedBlindSpot, PlannedBlob, PlannedInput, PlannedSnapshot, PlannedTree
from .trees import Layouts, Tree
from .views import View
from .world import MONITORS, App

TREE_REUSE_MS = 45_000          # a window refocused this soon keeps its cached walk
COPY_KEYS = frozenset({"ctrl+c", "ctrl+shift+c", "ctrl+insert"})
THUMBNAILS_PER_DAY = 4
CROPS_PER_DAY = 3


@dataclass(eq=False)
class Window:
    """One top-level window (mutable simulation state, never stored)."""

    app: App
    monitor: int
    pid: int
    view: View
    tree: int | None = None
    tree_ms: int = -10**12
    dirty: bool = True
    state: dict[str, bool] = field(default_factory=dict)   # "modified": the editor's unsaved mark

    @property
    def rect(self) -> tuple[int, int, int, int]:
        return MONITORS[self.monitor].window_rect()


class DeskError(RuntimeError):
    """The plan asked for something the simulated desktop cannot do."""


class Desk:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.t = 0
        self.trees: list[PlannedTree] = []
        self.snapshots: list[PlannedSnapshot] = []
        self.inputs: list[PlannedInput] = []
        self.blind: list[PlannedBlindSpot] = []
        self.blobs: list[PlannedBlob] = []
        self.occurrences: list[Occurrence] = []
        self.focus: Window | None = None
        self.excluded_since: int | None = None
        self.excluded_reason = ""
        self.noacc_since: int | None = None
        self.mon_window: dict[int, Window | None] = {0: None, 1: None}
        self.mon_last: dict[int, int] = {0: 0, 1: 0}
        self.mon_next: dict[int, int | None] = {0: None, 1: None}
        self.idle = False
        self.idle_at: int | None = None
        self.active_at: int | None = None
        self.awake = False
        self.filler = 0.55            # how often a pause holds a scroll or paging key (paced)
        self.element_count = 0
        self.reuse_ms = TREE_REUSE_MS       # a refocused window keeps its walk this long (paced)
        self.last_action_ms = 0       # conservative: any input that may be an action, any focus/title change
        self._layouts = Layouts()
        self._thumbs = THUMBNAILS_PER_DAY
        self._crops = CROPS_PER_DAY
        # each window's number for the day, in order of first appearance (drawn from no generator)
        self._serials: dict[Window, int] = {}

    # -- time --------------------------------------------------------------------------------
    def wait(self, ms: int) -> None:
        self.advance(self.t + max(0, int(ms)))

    def advance(self, to: int) -> None:
        """Let the daemon's timers fire up to (not including) `to`."""
        while True:
            when: int | None = None
            what: int | str | None = None   # a monitor's heartbeat, "idle" or "active"
            for monitor in (0, 1):
                due = self.mon_next[monitor]
                if due is not None and (when is None or due < when):
                    when, what = due, monitor
            if self.idle_at is not None and not self.idle and (when is None or self.idle_at < when):
                when, what = self.idle_at, "idle"
            if self.active_at is not None and (when is None or self.active_at <= when):
                when, what = self.active_at, "active"
            if when is None or when >= to:
                break
            if what == "active":
                self.active_at = None
                if self.focus is not None and self.excluded_since is None and self.awake:
                    self._snapshot(when, self.focus, "active", focused=True)
            elif what == "idle":
                self._go_idle(when)
            else:
                self._heartbeat(cast(int, what), when)   # neither "idle" nor "active": a monitor
        self.t = max(self.t, to)

    def _period(self) -> int:
        return HEARTBEAT_MS * (IDLE_HEARTBEAT_FACTOR if self.idle else 1)

    def _schedule(self, monitor: int, after: int | None = None) -> None:
        base = self.mon_last[monitor] + self._period()
        if after is not None:
            base = max(base, after)
        self.mon_next[monitor] = base + self.rng.randint(0, 999) if self.mon_window[monitor] else None

    def _heartbeat(self, monitor: int, ts: int) -> None:
        window = self.mon_window[monitor]
        if window is None:
            self.mon_next[monitor] = None
            return
        self._snapshot(ts, window, "heartbeat", focused=window is self.focus and self.excluded_since is None)

    def _go_idle(self, ts: int) -> None:
        self.idle = True
        self.idle_at = None
        if self.focus is not None and self.excluded_since is None:
            self._snapshot(ts, self.focus, "idle", focused=True)
        for monitor in (0, 1):
            self._schedule(monitor, ts)

    def _input_happened(self, start: int, end: int) -> None:
        if self.idle:
            # The daemon notices at its next tick and snapshots whatever has
            # focus then (a title may change in between).
            self.idle = False
            self.active_at = start + self.rng.randint(100, 900)
            for monitor in (0, 1):
                self._schedule(monitor, start)
        self.idle_at = end + IDLE_AFTER_MS + self.rng.randint(0, 999)

    # -- snapshots and trees -------------------------------------------------------------------
    def _snapshot(self, ts: int, window: Window, trigger: str, *, focused: bool) -> None:
        tree = window.tree if focused and window.app.accessible else None
        shot = None
        if focused and trigger == "focus" and self._thumbs and self.rng.random() < 0.02:
            shot = self._blob("thumbnail", 64, 36, ts)
            self._thumbs -= 1
        self.snapshots.append(PlannedSnapshot(
            ts, window.monitor, trigger, window.app, window.pid, window.view.title,
            window.view.url if focused else None, self.idle, focused, tree, shot, window.view.url,
            self._serials.setdefault(window, len(self._serials))))
        self.mon_window[window.monitor] = window
        self.mon_last[window.monitor] = ts
        if focused and trigger in ("focus", "title", "resume", "active"):
            self.last_action_ms = max(self.last_action_ms, ts)
        self._schedule(window.monitor)

    def _blob(self, kind: str, width: int, height: int, ts: int) -> int:
        self.blobs.append(PlannedBlob(kind, width, height, blobs.tiny_png(self.rng, width, height), ts))
        return len(self.blobs) - 1

    def _walk(self, window: Window, ts: int) -> int:
        """Walk the window's tree now; returns how long the walk took."""
        root = window.view.root
        if root is None:
            raise DeskError(f"{window.app.app} has no accessibility tree")
        tree = self._layouts.walk(root, window.app.app, window.rect)
        walk_ms = self.rng.randint(25, 60) + len(tree.nodes) // 3
        self.trees.append(PlannedTree(ts, tree, walk_ms))
        self.element_count += len(tree.nodes)
        window.tree = len(self.trees) - 1
        window.tree_ms = ts
        window.dirty = False
        return walk_ms

    def node(self, window: Window, role: str, label: str) -> int:
        """Index of the element in the window's current tree."""
        index = self.tree_of(window).find(role, clip_name(label))
        if index < 0:
            raise DeskError(f"{window.app.app}: no {role} {label!r} in the current tree ({window.view.kind})")
        return index

    def has_node(self, window: Window, role: str, label: str) -> bool:
        try:
            self.node(window, role, label)
        except DeskError:
            return False
        return True

    def tree_of(self, window: Window) -> Tree:
        if window.tree is None:
            raise DeskError(f"{window.app.app} has no walked tree")
        return self.trees[window.tree].tree

    # -- focus and views -------------------------------------------------------------------------
    def start(self, ts: int, windows: list[Window]) -> None:
        """The session appears: focus each window in turn (the last one keeps focus)."""
        self.awake = True
        self.t = max(self.t, ts)
        for window in windows:
            self.focus_window(window, via="pointer")
            self.wait(self.rng.randint(400, 2500))

    def focus_window(self, window: Window, *, via: str = "pointer", trigger: str = "focus") -> None:
        if not self.awake:
            raise DeskError("focus change while capture is not running")
        if window is self.focus:
            return
        old = self.focus
        if self.idle and old is not None and self.excluded_since is None:
            self.scroll(self.rng.randint(1, 3))
            self.wait(self.rng.randint(300, 900))
        if via == "alttab" and old is not None and self.excluded_since is None:
            self._record("key", 1, key="alt+Tab", monitor=old.monitor)
            self.wait(self.rng.randint(250, 700))
        elif via == "click" and old is not None and self.excluded_since is None:
            x0, y0, w, h = window.rect
            self._record("click", 1, button=1, x=x0 + self.rng.randint(40, w - 40),
                         y=y0 + self.rng.randint(60, h - 40), resolution="none", monitor=window.monitor,
                         receiver=window)
            self.wait(self.rng.randint(80, 250))
        self._close_blind("no_accessibility")
        if window.app.excluded_by:
            self.focus = window
            if self.excluded_since is None:
                self.excluded_since = self.t
                self.excluded_reason = window.app.excluded_by
            return
        self._close_blind("excluded")
        self.focus = window
        self._refocus(trigger)

    def _refocus(self, trigger: str) -> None:
        window = self.focus
        assert window is not None
        ts = self.t
        if window.app.accessible:
            if window.dirty or window.tree is None or ts - window.tree_ms > self.reuse_ms:
                took = self._walk(window, ts)
            else:
                took = self.rng.randint(2, 9)
        else:
            took = self.rng.randint(3, 15)
        self.advance(ts + took)
        self._snapshot(self.t, window, trigger, focused=True)
        if not window.app.accessible:
            self.noacc_since = self.t

    def set_view(self, window: Window, view: View, *, walk: bool = True) -> None:
        """The window's content changed (navigation, new title)."""
        old_title = window.view.title
        window.view = view
        window.dirty = True
        if window is not self.focus or self.excluded_since is not None or not self.awake:
            return
        ts = self.t
        took = self._walk(window, ts) if window.app.accessible and walk else self.rng.randint(2, 9)
        if view.title != old_title:
            self.advance(ts + took)
            self._snapshot(self.t, window, "title", focused=True)

    def refresh(self, window: Window) -> None:
        """The focused window's children changed without a title change: the
        worker re-walks it; the next snapshot carries the new tree."""
        window.dirty = True
        if window is self.focus and window.app.accessible and self.awake:
            self._walk(window, self.t)

    # -- blind spots -------------------------------------------------------------------------------
    def _close_blind(self, kind: str) -> None:
        if kind == "no_accessibility" and self.noacc_since is not None:
            self.blind.append(PlannedBlindSpot(self.noacc_since, self.t, kind, "no_app"))
            self.noacc_since = None
        if kind == "excluded" and self.excluded_since is not None:
            self.blind.append(PlannedBlindSpot(self.excluded_since, self.t, kind, self.excluded_reason))
            self.excluded_since = None

    def outage(self, kind: str, reason: str, duration_ms: int, trigger: str) -> None:
        """Capture stops for a while (paused, display lost, suspended);
        afterwards the focused window is snapshotted again."""
        self._close_blind("no_accessibility")
        self._close_blind("excluded")
        start = self.t
        self.awake = False
        self.mon_next = {0: None, 1: None}
        self.idle_at = None
        self.active_at = None
        self.t = start + duration_ms
        if kind:
            self.blind.append(PlannedBlindSpot(start, self.t, kind, reason))
        self.awake = True
        self.idle = False
        self.idle_at = self.t + IDLE_AFTER_MS
        if self.focus is not None:
            if self.focus.app.excluded_by:
                raise DeskError("an outage must not end on an excluded window")
            self.focus.dirty = True
            self._refocus(trigger)
        other = 1 - self.focus.monitor if self.focus is not None else 1
        if self.mon_window[other] is not None:
            self.mon_last[other] = self.t - HEARTBEAT_MS + self.rng.randint(500, 5000)
            self._schedule(other)

    def finish(self) -> None:
        self.advance(self.t + 1)
        self._close_blind("no_accessibility")
        self._close_blind("excluded")
        self.awake = False
        self.mon_next = {0: None, 1: None}
        self.idle_at = None

    # -- input ---------------------------------------------------------------------------------------
    def _context(self) -> Window:
        if self.focus is None or self.excluded_since is not None or not self.awake:
            raise DeskError("input while nothing capturable has focus")
        return self.focus

    def _record(self, kind: str, count: int, *, key: str | None = None, button: int | None = None,
                x: int | None = None, y: int | None = None, element: tuple[int, int] | None = None,
                resolution: str | None = None, monitor: int | None = None, duration: int = 0,
                receiver: Window | None = None) -> None:   # receiver: a window a click brings forward
        window = self._context()
        crop = None
        if kind == "click" and self._crops and self.rng.random() < 0.01:
            crop = self._blob("click_crop", 48, 48, self.t)
            self._crops -= 1
        start, end = self.t, self.t + duration
        self.inputs.append(PlannedInput(start, end, window.monitor if monitor is None else monitor, kind, count,
                                        key, button, x, y, element, resolution, crop, window.app,
                                        window.view.title, window.view.url,
                                        self._serials.setdefault(receiver or window, len(self._serials))))
        self._input_happened(start, end)
        if kind != "scroll" and not (kind == "key" and key in NAVIGATION_KEYS):
            self.last_action_ms = max(self.last_action_ms, end)
        self.advance(end)

    def click(self, role: str = "", label: str = "", *, resolution: str = "exact", button: int = 1) -> None:
        window = self._context()
        rng = self.rng
        x0, y0, w, h = window.rect
        if resolution == "none" or not window.app.accessible:
            self._record("click", 1, button=button, x=x0 + rng.randint(20, w - 20), y=y0 + rng.randint(20, h - 20),
                         resolution="none")
            return
        index = self.node(window, role, label)
        assert window.tree is not None, "node() finds elements only in a walked tree"
        node = self.tree_of(window).nodes[index]
        if resolution == "exact":
            x = node.x + (rng.randint(node.w // 4, max(node.w // 4, 3 * node.w // 4)) if node.w > 1 else 0)
            y = node.y + (rng.randint(node.h // 4, max(node.h // 4, 3 * node.h // 4)) if node.h > 1 else 0)
        elif resolution == "tolerance":
            x = node.x - rng.randint(3, 12) if rng.random() < 0.5 else node.x + node.w + rng.randint(2, 11)
            y = node.y + node.h // 2
        else:  # zone: inside a container, on no control
            x = node.x + rng.randint(0, max(0, node.w - 1))
            y = node.y + rng.randint(0, max(0, min(node.h, 400) - 1))
        self._record("click", 1, button=button, x=x, y=y, element=(window.tree, index), resolution=resolution)

    def type(self, role: str, label: str, chars: int) -> None:
        window = self._context()
        rng = self.rng
        element = None
        if window.app.accessible and role:
            tree, index = window.tree, self.node(window, role, label)
            assert tree is not None, "node() finds elements only in a walked tree"
            element = (tree, index)
        chars = max(1, chars)
        count = chars + rng.randint(0, max(0, chars // 7))
        duration = sum(rng.randint(90, 260) for _ in range(min(count, 2000) - 1))
        self._record("text", count, element=element, duration=duration)

    def key(self, name: str, count: int = 1) -> None:
        kind = "copy" if name in COPY_KEYS else "key"
        duration = (count - 1) * self.rng.randint(60, 180)
        self._record(kind, count, key=name, duration=duration)

    def scroll(self, steps: int) -> None:
        window = self._context()
        x0, y0, w, h = window.rect
        self._record("scroll", max(1, steps), x=x0 + self.rng.randint(w // 5, 4 * w // 5),
                     y=y0 + self.rng.randint(h // 4, 3 * h // 4),
                     duration=max(0, steps - 1) * self.rng.randint(40, 120))

    # -- bookkeeping ---------------------------------------------------------------------------------
    def mark(self, routine: str, start: int, variant: str = "") -> None:
        self.occurrences.append(Occurrence(routine, start, self.t, variant))

    def quiet_for(self) -> int:
        """How long nothing that could be an action has happened."""
        return self.t - self.last_action_ms
