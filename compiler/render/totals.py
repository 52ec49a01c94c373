"""Day-wide lines of the compact block that survive its token budget.

A busy day has hundreds of frames and the block keeps a few dozen, so the
questions a person asks most — how long was I in each app, how much did I
type and click there, what was on screen at ten — cannot be answered from
the frame lines alone. These lines say them for the whole window in a few
tokens each and sit in the block's head, which the budget never cuts:

- `apps:` every app's active time, keys and clicks summed over all its
  frames (kept or not) and the short detours to it that were folded into
  another app's frame (their time is not the host's, and their input is
  the detour's own), longest first;
- `on screen:` the apps (and sites) whose frames held each full local hour
  inside the coverage span, one entry per hour, `away` where none did.

Both are sums or lookups over the document's frames: nothing new is
inferred, and the same frames give the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from ..records import Frame, Gap
from ..timefmt import TimeFormat, duration

LISTED_APPS = 10      # apps named on the apps line; the rest are counted with their time
_HOUR_MS = 3_600_000


def app_line(frames: Sequence[Frame], listed: int = LISTED_APPS) -> str:
    """`apps: APP DUR[, N keys][, N clicks]; …` longest first (then by
    name), at most `listed`, then `+N more (DUR in all)`."""
    totals: dict[str, list[int]] = {}
    for frame in frames:
        entry = totals.setdefault(frame.app, [0, 0, 0])
        entry[0] += frame.active_ms
        entry[1] += frame.input.keys
        entry[2] += frame.input.clicks
        for detour in frame.interruptions:   # folded into the host, but the detour app's own
            entry = totals.setdefault(detour.app, [0, 0, 0])
            entry[0] += detour.end_ms - detour.start_ms
            if detour.input is not None:
                entry[1] += detour.input.keys
                entry[2] += detour.input.clicks
    ordered = sorted(totals.items(), key=lambda item: (-item[1][0], item[0]))
    items: list[str] = []
    for app, (active, keys, clicks) in ordered[:listed]:
        parts = [f"{app} {duration(active)}"]
        if keys:
            parts.append(f"{keys} key" + ("" if keys == 1 else "s"))
        if clicks:
            parts.append(f"{clicks} click" + ("" if clicks == 1 else "s"))
        items.append(", ".join(parts))
    rest = ordered[listed:]
    if rest:
        items.append(f"+{len(rest)} more ({duration(sum(entry[0] for _, entry in rest))} in all)")
    return "apps: " + "; ".join(items)


def hour_line(frames: Sequence[Frame], times: TimeFormat, first_ms: int, last_ms: int,
              shown: bool = True, away: Sequence[Gap] = ()) -> str | None:
    """`on screen: HM WHAT { + WHAT }; …` at every full local hour strictly
    after the first activity and up to the last; None when the span holds
    no full hour. WHAT is `APP` or `APP · SITE`, in the order their frames
    started, each once; a short detour folded into a frame is named for
    its own app while it lasted. `away` inside a stretch of `away` (the
    coverage gaps and the silences over 300 s: a frame may span one with
    the idle snapshots the screen showed meanwhile) or where no frame held
    the instant. Not `shown` (a tight budget): `on screen: +N more`."""
    start = times.local(first_ms)
    hour = start.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    instant = first_ms + int((hour - start).total_seconds() * 1000)
    items: list[str] = []
    ordered = sorted(frames, key=lambda f: (f.start_ms, f.monitor))
    while instant <= last_ms:
        held: list[str] = []
        for frame in () if any(g.start_ms <= instant < g.end_ms for g in away) else ordered:
            if frame.start_ms > instant:
                break
            if frame.end_ms > instant:
                shown_by = next((d for d in frame.interruptions if d.start_ms <= instant < d.end_ms), frame)
                what = shown_by.app if shown_by.site is None else f"{shown_by.app} · {shown_by.site}"
                if what not in held:
                    held.append(what)
        items.append(f"{times.hm(instant)} " + (" + ".join(held) if held else "away"))
        instant += _HOUR_MS
    if not items:
        return None
    return "on screen: " + ("; ".join(items) if shown else f"+{len(items)} more")
