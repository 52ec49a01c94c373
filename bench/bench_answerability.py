"""Answerability of the compact block on synthetic days (issue 26).

    python bench/bench_answerability.py [--days 51] [--budget 2000] [--live-like] [--day D] [--list]

The synthetic corpus knows what it generated: `synth.day.plan_day` gives each
day's planned snapshots, input (with the window that received each) and
blind spots, which is the oracle here. Each day is compiled to its compact
block, the block is read back by `bench/block_reader.py` (the documented
grammar, docs/COMPACT_BLOCK.md, nothing else), and templated questions are
asked of it:

- first activity, last activity (local HH:MM; ±1 min, last +2 min since a
  snapshot's dwell runs up to 90 s past it);
- every stretch of over 2 minutes with no input: is it stated (a silence,
  a gap or a listed blind spot overlapping it)?
- minutes per app (±1 min): the plan's screen time by the documented dwell
  rules (`screen_time`), against the `apps` line;
- keys and clicks per app over the day (exact), against the `apps` line;
- what was on screen at each full hour inside the day (the apps of every
  monitor, or away), against the `on screen` line.

Each answer is right, wrong, or "not in the block" — said by a cut the block
states ("+N more", "(+N shorter frame(s) left out…)", a head shortened for
the budget) or, for per-app input counts, by the block's own note that N
inputs were credited to the nearest snapshot because their window was not
recorded (the Phantom layout without links; `--live-like` is the store as
the daemon writes it): that counts as right but not as answered. A
question the block cannot answer without saying why is wrong. Reported:
facts right / asked, answered / asked, and cl100k tokens of the raw rows /
the block.

Not yet asked (the issue's list): pages visited in order with counts, which
routine ran when; nor the >= 10-minute real-app session.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.block_reader import Block, minute_of, read  # noqa: E402

SILENCE_S = 120
RIGHT, WRONG, NOT_IN_BLOCK = "right", "wrong", "not in the block"


@dataclass(frozen=True)
class Answer:
    day: str
    question: str
    truth: str
    answer: str
    verdict: str


def local_minute(ms: int, zone: ZoneInfo) -> int:
    moment = datetime.fromtimestamp(ms / 1000, tz=zone)
    return moment.hour * 60 + moment.minute


def hm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def screen_time(plan: object) -> Counter[str]:
    """The generator's screen time per app, by the documented rules
    (docs/COMPACT_BLOCK.md, coverage): per monitor, each snapshot that is
    not idle earns the time to the next snapshot on that monitor or to the
    next blind spot that applies to it (not one of missing accessibility
    data: the screen is still captured), at most 90 s, none across more than
    300 s; the stretches with no input of at least 120 s (from the last
    input on) are taken out. Computed from the plan, not the compiler."""
    snapshots = plan.snapshots  # type: ignore[attr-defined]
    spots = sorted((b for b in plan.blind_spots if b.kind != "no_accessibility"),  # type: ignore[attr-defined]
                   key=lambda b: b.start_ms)   # the screen is still captured through those
    silences = silences_of(plan)
    by_monitor: dict[int, list[object]] = {}
    for snapshot in snapshots:
        by_monitor.setdefault(snapshot.monitor, []).append(snapshot)
    earned: Counter[str] = Counter()
    for monitor, stream in by_monitor.items():
        stops = [b.start_ms for b in spots if b.monitor is None or b.monitor == monitor]
        for index, snap in enumerate(stream):
            if snap.idle:  # type: ignore[attr-defined]
                continue
            at = snap.ts_ms  # type: ignore[attr-defined]
            following = stream[index + 1].ts_ms if index + 1 < len(stream) else None  # type: ignore[attr-defined]
            stop = next((x for x in stops if x >= at), None)
            ends = [x for x in (following, stop) if x is not None]
            if not ends or (following is not None and following - at > 300_000
                            and (stop is None or stop > following)):
                continue
            credit = min(min(ends) - at, 90_000)
            quiet = sum(max(0, min(at + credit, e) - max(at, s)) for s, e in silences if s < at + credit and e > at)
            earned[snap.app.app] += credit - quiet  # type: ignore[attr-defined]
    return earned


def on_screen(plan: object, instant: int, silences: list[tuple[int, int]]) -> set[str]:
    """What the plan showed at an instant: nothing when the person was away
    then (inside a silence over 300 s or a blind spot that hides the
    screen); else per monitor the app of the latest snapshot at or before
    it, at most 90 s old (idle or not: the screen showed it)."""
    if any(start <= instant < end for start, end in silences if end - start > 300_000):
        return set()
    if any(b.start_ms <= instant < b.end_ms for b in plan.blind_spots  # type: ignore[attr-defined]
           if b.kind != "no_accessibility"):
        return set()
    latest: dict[int, object] = {}
    for snapshot in plan.snapshots:  # type: ignore[attr-defined]
        if snapshot.ts_ms > instant:
            break
        latest[snapshot.monitor] = snapshot
    return {s.app.app for s in latest.values() if instant - s.ts_ms <= 90_000}  # type: ignore[attr-defined]


def silences_of(plan: object) -> list[tuple[int, int]]:
    """[last input, next input) of every stretch of at least 120 s with no input."""
    found: list[tuple[int, int]] = []
    reach: int | None = None
    for event in sorted(plan.inputs, key=lambda i: i.ts_ms):  # type: ignore[attr-defined]
        if reach is not None and event.ts_ms - reach >= SILENCE_S * 1000:
            found.append((reach, event.ts_ms))
        reach = max(reach or 0, event.end_ms, event.ts_ms)
    return found


def ask(day: str, plan: object, block: Block) -> list[Answer]:
    """Every templated question of one day's block, against its plan."""
    zone = ZoneInfo(plan.day.tz)  # type: ignore[attr-defined]
    snapshots = [s for s in plan.snapshots if not s.idle]  # type: ignore[attr-defined]
    inputs = sorted(plan.inputs, key=lambda i: i.ts_ms)  # type: ignore[attr-defined]
    answers: list[Answer] = []

    def note(question: str, truth: str, answer: str, verdict: str) -> None:
        answers.append(Answer(day, question, truth, answer, verdict))

    first = local_minute(snapshots[0].ts_ms, zone)
    last = local_minute(max(s.ts_ms for s in snapshots), zone)
    got = minute_of(block.first) if block.first else None
    note("first activity", hm(first), block.first or "—",
         RIGHT if got is not None and abs(got - first) <= 1 else WRONG)
    got = minute_of(block.last) if block.last else None
    note("last activity", hm(last), block.last or "—",
         RIGHT if got is not None and -1 <= got - last <= 2 else WRONG)

    # a silence is said as one, inside a gap, or as the blind spot it fell in
    stated = [(minute_of(s.start), minute_of(s.end)) for s in block.silences + block.gaps + block.blind_spans]
    cut = block.silences_more or block.gaps_more
    reach = inputs[0].end_ms if inputs else 0
    for previous, event in zip(inputs, inputs[1:]):
        reach = max(reach, previous.end_ms, previous.ts_ms)
        if event.ts_ms - reach > SILENCE_S * 1000:
            start, end = local_minute(reach, zone), local_minute(event.ts_ms, zone)
            found = any(a <= end and b >= start for a, b in stated)
            note(f"no input over 2 min from {hm(start)}", f"{hm(start)}–{hm(end)}",
                 "stated" if found else ("cut" if cut else "not stated"),
                 RIGHT if found else NOT_IN_BLOCK if cut else WRONG)

    # an input belongs to the window that received it (a focus click into
    # slack is slack's), which the plan knows; `app` is only its context
    window_app = {s.window: s.app.app for s in plan.snapshots}  # type: ignore[attr-defined]
    keys: Counter[str] = Counter()
    clicks: Counter[str] = Counter()
    for event in inputs:
        receiver = window_app.get(event.window, event.app.app)
        if event.kind in ("key", "text", "copy"):
            keys[receiver] += event.count
        elif event.kind == "click":
            clicks[receiver] += event.count
    totals = {entry.app: entry for entry in block.apps_total}
    screen = screen_time(plan)
    for app in sorted(set(keys) | set(clicks) | set(screen)):
        entry = totals.get(app)
        if entry is None:
            said = "cut" if block.apps_more else "absent"
            verdict = NOT_IN_BLOCK if block.apps_more else WRONG
            for name in ("minutes", "keys", "clicks"):
                note(f"{name} in {app}", "?", said, verdict)
            continue
        truth_s = screen[app] // 1000
        note(f"minutes in {app}", f"{truth_s / 60:.1f}", f"{entry.active / 60:.1f}",
             RIGHT if abs(entry.active - truth_s) <= 60 else WRONG)
        for name, truth, got_count in (("keys", keys[app], entry.keys), ("clicks", clicks[app], entry.clicks)):
            if block.input_guessed:   # the block says it guessed where some input went: no exact count
                note(f"{name} in {app}", str(truth), f"{got_count} ({block.input_guessed} guessed)", NOT_IN_BLOCK)
                continue
            note(f"{name} in {app}", str(truth), str(got_count), RIGHT if got_count == truth else WRONG)

    quiet = silences_of(plan)
    for hour in range(first // 60 + 1, last // 60 + 1):
        at = hm(hour * 60)
        instant = int(datetime.fromisoformat(day).replace(hour=hour, tzinfo=zone).timestamp() * 1000)
        truth_apps = on_screen(plan, instant, quiet)
        shown = " + ".join(sorted(truth_apps)) or "away"
        if at not in block.on_screen:
            note(f"on screen at {at}", shown, "cut" if block.hours_cut else "absent",
                 NOT_IN_BLOCK if block.hours_cut else WRONG)
            continue
        held = sorted({what.split(" · ")[0] for what in block.on_screen[at]})
        note(f"on screen at {at}", shown, " + ".join(held) or "away",
             RIGHT if set(held) == truth_apps else WRONG)
    return answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=5)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--list", action="store_true", help="print every question and its verdict")
    parser.add_argument("--day", action="append", help="ask only of this day (repeatable)")
    parser.add_argument("--live-like", action="store_true",
                        help="the store as the daemon writes it (input linked to the window that received it)")
    args = parser.parse_args()

    from bench.bench_compile import corpus, raw_rows_text
    from compiler.api import compile_window, render
    from compiler.tokens import count_tokens
    from synth import DEFAULT_SEED, DEFAULT_START, DEFAULT_TZ
    from synth.calendar import active_days
    from synth.day import plan_day

    db = corpus(args.days, "phantom", live_like=args.live_like)
    answers: list[Answer] = []
    raw = block_tokens = 0
    for day in active_days(DEFAULT_START, args.days, DEFAULT_TZ):
        if args.day and day.iso not in args.day:
            continue
        text = render(compile_window(db, day=day.iso, tz=DEFAULT_TZ, cache=False), "compact",
                      budget=args.budget).decode()
        block = read(text)
        if block.unread:
            print(f"{day.iso}: {len(block.unread)} line(s) outside the grammar: {block.unread[0]!r}")
        answers += ask(day.iso, plan_day(DEFAULT_SEED, day, args.days), block)
        raw += count_tokens(raw_rows_text(db, day.iso))
        block_tokens += count_tokens(text)
    verdicts = Counter(a.verdict for a in answers)
    asked = len(answers)
    if args.list:
        for a in answers:
            print(f"{a.day} {a.question}: truth {a.truth}, block {a.answer} → {a.verdict}")
    by_question = Counter((a.question.split(" from ")[0].split(" at ")[0].split(" in ")[0], a.verdict)
                          for a in answers)
    for (question, verdict), n in sorted(by_question.items()):
        print(f"  {question:24s} {verdict:18s} {n}")
    asked_days = len({a.day for a in answers})
    print(f"{asked_days} of {args.days} synthetic day(s), budget {args.budget}: {asked} facts asked; "
          f"right {verdicts[RIGHT] + verdicts[NOT_IN_BLOCK]}/{asked}, wrong {verdicts[WRONG]}, "
          f"answered {verdicts[RIGHT]}/{asked} ({100 * verdicts[RIGHT] / max(asked, 1):.1f} %); "
          f"raw rows {raw:,} tokens / blocks {block_tokens:,} tokens = {raw / max(block_tokens, 1):.0f}x")
    return 0 if not verdicts[WRONG] else 1


if __name__ == "__main__":
    raise SystemExit(main())
