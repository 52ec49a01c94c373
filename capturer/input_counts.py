"""Turning a stream of key, click and scroll events into input counts.

Pure state machine, no I/O: the pynput adapter feeds it plain values and the
daemon writes what it emits. The rules:

- printable keys (no ctrl/alt/super held) less than `TEXT_GAP_MS` apart,
  with no other key, click or focus change between them, form one *text
  burst* counted in keys; BackSpace and Delete inside a burst count as
  editing keys of that burst. Each burst has a sequence number so the daemon
  can attach the field it went into (resolved asynchronously). The characters
  are held only when the caller says so (inside an explicit recording) and
  the daemon drops them unless the field is known and not a password field;
- other named keys (Return, Tab, arrows…) become *key* rows, named with
  every modifier held (`shift+End` selects where `End` only moves: the
  difference is what the person did); repeats of the same key less than
  `KEY_REPEAT_GAP_MS` apart are one row with a count;
- a key pressed with ctrl, alt or super is a *shortcut* row named like
  `ctrl+shift+t`; the copy shortcuts become *copy* rows;
- scroll steps less than `SCROLL_GAP_MS` apart are one *scroll* row;
- modifier keys on their own are not counted: they only modify.

Every aggregated row (burst or run) has a sequence number, and
`open_counts()` shows the rows still growing, so the daemon can write them
under a stable row id before they close: a crash then loses at most the
moments since the last checkpoint, not a whole burst.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TEXT_GAP_MS = 2000
KEY_REPEAT_GAP_MS = 1000
SCROLL_GAP_MS = 1000
EDITING_KEYS = frozenset({"BackSpace", "Delete"})
COPY_SHORTCUTS = frozenset({"ctrl+c", "ctrl+shift+c", "ctrl+insert"})
SHORTCUT_MODIFIERS = ("ctrl", "alt", "super")
MODIFIER_ORDER = ("ctrl", "alt", "shift", "super")


@dataclass(frozen=True, slots=True)
class FieldRef:
    """The focused field keys went into, as the accessibility worker saw it."""

    element_id: int | None
    role: str
    secret: bool
    chars: int | None = None     # characters in the field when it was asked about
    # What the field held when asked (never stored, never of a password
    # field): the answer can arrive after the first keys reached the field.
    text: str | None = field(default=None, repr=False)

    def held_before(self, typed: str | None) -> int | None:
        """How many characters the field held before this burst: `chars`
        less the burst's first characters the field already shows at its
        end (measured on Firefox: its empty fields were asked about after
        two keys had arrived, and counted 2). Without the text or the
        typed characters, `chars` as counted."""
        if self.chars is None or self.text is None or not typed:
            return self.chars
        shown = next((k for k in range(min(len(typed), len(self.text)), 0, -1)
                      if self.text.endswith(typed[:k])), 0)
        return max(0, len(self.text) - shown) if len(self.text) == self.chars else self.chars


@dataclass(frozen=True, slots=True)
class InputCount:
    """One row's worth of input, ready for the daemon to store."""

    kind: str                    # key | text | scroll | copy
    start_ms: int
    end_ms: int
    count: int
    key: str | None = None
    x: int | None = None
    y: int | None = None
    burst: int | None = None
    text: str | None = None


@dataclass
class _TextBurst:
    seq: int
    start_ms: int
    last_ms: int
    keep_text: bool
    count: int = 0
    chars: list[str] = field(default_factory=list)


@dataclass
class _Run:
    seq: int
    kind: str
    key: str | None
    start_ms: int
    last_ms: int
    count: int
    x: int | None = None
    y: int | None = None


def shortcut_name(base: str, modifiers: frozenset[str]) -> str:
    """`ctrl+shift+t`: modifiers in a fixed order, then the key."""
    held = [m for m in MODIFIER_ORDER if m in modifiers]
    return "+".join([*held, base])


# Events stamped by different listener threads (or from the X server's
# clock and the daemon's) may arrive this much out of order.
OUT_OF_ORDER_MS = 1_000


class InputCounter:
    """Accumulates bursts and runs; `emit()` hands out what has closed."""

    def __init__(self) -> None:
        self._text: _TextBurst | None = None
        self._run: _Run | None = None
        self._out: list[InputCount] = []
        self._next_seq = 1

    # -- events -----------------------------------------------------------------
    def key(self, ts_ms: int, *, name: str | None, char: str | None,
            modifiers: frozenset[str], keep_text: bool) -> int | None:
        """One key press. `char` is the printable character (None for named
        keys); `name` the key's name ('Return', 'a', 'F5'). Returns the
        sequence number of a text burst this key *started*, else None."""
        shortcut = any(m in modifiers for m in SHORTCUT_MODIFIERS)
        if shortcut:
            base = (char.lower() if char and char.isprintable() and not char.isspace() else name) or "?"
            combo = shortcut_name(base, modifiers)
            self._close_all()
            kind = "copy" if combo in COPY_SHORTCUTS else "key"
            self._out.append(InputCount(kind, ts_ms, ts_ms, 1, key=combo))
            return None
        if char is not None and char.isprintable():
            self._close_run()
            started = None
            burst = self._continuing(ts_ms)
            if burst is None or burst.keep_text != keep_text:
                self._close_text()
                started = self._take_seq()
                burst = self._text = _TextBurst(started, ts_ms, ts_ms, keep_text)
            burst.count += 1
            burst.last_ms = max(burst.last_ms, ts_ms)
            if burst.keep_text:
                burst.chars.append(char)
            return started
        editing = self._continuing(ts_ms) if name in EDITING_KEYS else None
        if editing is not None:
            editing.count += 1
            editing.last_ms = max(editing.last_ms, ts_ms)
            if editing.keep_text and name == "BackSpace" and editing.chars:
                editing.chars.pop()
            return None
        self._close_text()
        key = shortcut_name(name or "?", modifiers)
        run = self._run
        if run and run.kind == "key" and run.key == key and _follows(ts_ms, run.last_ms, KEY_REPEAT_GAP_MS):
            run.count += 1
            run.last_ms = max(run.last_ms, ts_ms)
            return None
        self._close_run()
        self._run = _Run(self._take_seq(), "key", key, ts_ms, ts_ms, 1)
        return None

    def scroll(self, ts_ms: int, x: int, y: int, steps: int = 1) -> None:
        self._close_text()
        run = self._run
        if run and run.kind == "scroll" and _follows(ts_ms, run.last_ms, SCROLL_GAP_MS):
            run.count += steps
            run.last_ms = max(run.last_ms, ts_ms)
            return
        self._close_run()
        self._run = _Run(self._take_seq(), "scroll", None, ts_ms, ts_ms, steps, x, y)

    def click(self, ts_ms: int) -> None:
        """A click ends every open burst (the click itself is stored by the
        daemon with its hit-test result)."""
        self._close_all()

    def focus_changed(self) -> None:
        self._close_all()

    def tick(self, now_ms: int) -> None:
        """Close bursts and runs that have been quiet long enough."""
        if self._text is not None and now_ms - self._text.last_ms > TEXT_GAP_MS:
            self._close_text()
        run = self._run
        if run is not None:
            gap = SCROLL_GAP_MS if run.kind == "scroll" else KEY_REPEAT_GAP_MS
            if now_ms - run.last_ms > gap:
                self._close_run()

    def emit(self) -> list[InputCount]:
        out, self._out = self._out, []
        return out

    def close(self) -> list[InputCount]:
        """Close everything (shutdown, pause) and return what is left."""
        self._close_all()
        return self.emit()

    def open_counts(self) -> list[InputCount]:
        """The burst and run still open, as they stand now."""
        counts = []
        if self._text is not None and self._text.count:
            counts.append(self._text_count(self._text))
        if self._run is not None:
            counts.append(self._run_count(self._run))
        return counts

    # -- internals ----------------------------------------------------------------
    def _take_seq(self) -> int:
        seq = self._next_seq
        self._next_seq += 1
        return seq

    @staticmethod
    def _text_count(burst: _TextBurst) -> InputCount:
        text = "".join(burst.chars) if burst.keep_text else None
        return InputCount("text", burst.start_ms, burst.last_ms, burst.count, burst=burst.seq,
                          text=text)

    @staticmethod
    def _run_count(run: _Run) -> InputCount:
        return InputCount(run.kind, run.start_ms, run.last_ms, run.count, key=run.key, x=run.x,
                          y=run.y, burst=run.seq)

    def _continuing(self, ts_ms: int) -> _TextBurst | None:
        """The open text burst when a key at `ts_ms` continues it, else None."""
        burst = self._text
        return burst if burst is not None and _follows(ts_ms, burst.last_ms, TEXT_GAP_MS) else None

    def _close_text(self) -> None:
        burst = self._text
        if burst is None:
            return
        self._text = None
        if burst.count:
            self._out.append(self._text_count(burst))

    def _close_run(self) -> None:
        run = self._run
        if run is None:
            return
        self._run = None
        self._out.append(self._run_count(run))

    def _close_all(self) -> None:
        self._close_text()
        self._close_run()


def _follows(ts_ms: int, last_ms: int, gap_ms: int) -> bool:
    """Whether an event at `ts_ms` continues a burst last grown at `last_ms`:
    within the gap, and not from before it by more than the two listeners'
    stamps may disagree (a clock set back starts a new burst: no row may
    end before it starts)."""
    return -OUT_OF_ORDER_MS <= ts_ms - last_ms <= gap_ms
