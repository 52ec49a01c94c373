"""The web view's read-only pages: a day (timeline and frames), one frame,
search, routines. Each reads through the compiler's front door exactly as
the CLI does, so a page shows what `phantom compile`/`search`/`routines`
print for the same window."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .html import e, page, table
from .timeline_svg import day_svg, iso_ms

__all__ = ["day_page", "frame_page", "routines_page", "search_page"]

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _now() -> int:
    from core.clock import now_ms

    return now_ms()


def _document(db: Path, day: str | None) -> tuple[str, dict[str, Any]]:
    from compiler.api import compile_window
    from compiler.render.json_doc import document_dict

    compiled = compile_window(db, day=day, now_ms=_now())
    label = compiled.window.label
    return label, document_dict(compiled.document, compiled.times, label, compiled.window.note)


def _day_of(query: dict[str, str]) -> str | None:
    day = query.get("day") or None
    if day is not None and not DAY.fullmatch(day):
        from core.errors import PhantomError

        raise PhantomError(f"not a day: {day[:40]!r}; use YYYY-MM-DD", code="invalid_window")
    return day


def day_page(db: Path, query: dict[str, str]) -> str:
    from core.store.images import screenshots_between

    label, document = _document(db, _day_of(query))
    day = label[:10]
    window = document["window"]
    shots = screenshots_between(db, iso_ms(window["since"]), iso_ms(window["until"]))
    words = query.get("q", "").strip()
    hits = _hits(db, words, day) if words else []
    coverage = document["coverage"]
    picker = (f'<form method="get" action="/"><label>Day <input type="date" name="day" value="{e(day)}">'
              f'</label> <label>Mark where these words were on screen <input type="search" name="q" '
              f'value="{e(words)}" maxlength="500"></label> <button type="submit">Show</button></form>')
    summary = (f"<p>{e(coverage['active_minutes'])} min active over {e(coverage['span_minutes'])} min; "
               f"first activity {e((coverage['first_activity'] or '—')[11:16])}, last "
               f"{e((coverage['last_activity'] or '—')[11:16])}; {len(coverage['gaps'])} gaps, "
               f"{len(document['blind_spots'])} blind spots.</p>")
    rows = []
    for frame in document["frames"]:
        link = f'<a href="/frame?day={quote(day)}&amp;id={quote(str(frame["id"]))}">{e(frame["start"][11:16])}</a>'
        rows.append([link, e(frame["end"][11:16]), e(frame["app"]), e(frame.get("site") or ""),
                     e(frame["active_minutes"]), e(frame["input"]["keys"]), e(frame["input"]["clicks"])])
    frames = table(f"Frames of {day}", ["start", "end", "app", "site", "active min", "keys", "clicks"],
                   rows, raw=True)
    blind = table("Gaps and blind spots", ["kind", "start", "end", "why"],
                  [["gap", g["start"][11:16], g["end"][11:16], g["reason"]] for g in coverage["gaps"]]
                  + [[b["kind"], (b["start"] or "")[11:16], (b["end"] or "")[11:16], b["detail"]]
                     for b in document["blind_spots"]])
    found = f"<p>{len(hits)} stretches with {words!r} are marked in red above the lanes.</p>" if words else ""
    picture = day_svg(document, day, shots, hits)
    return page(f"Day {day}", picker + summary + found + picture + frames + blind, current="/")


def _hits(db: Path, words: str, day: str) -> list[tuple[str, str, str]]:
    """The search stretches of this day, for the timeline's strip."""
    from compiler.api import search
    from compiler.search import search_dict
    from core.store.search_index import update_index

    update_index(db)
    result, window = search(db, words, day=day, now_ms=_now(), limit=200)
    return [(s["start"], s["end"], f"{s['app']}: {s['matched']} {s['text']}")
            for s in search_dict(result, window)["stretches"]]


def frame_page(db: Path, query: dict[str, str]) -> str:
    from core.errors import PhantomError
    from core.store.images import first_thumbnail

    label, document = _document(db, _day_of(query))
    wanted = query.get("id", "")
    frame = next((f for f in document["frames"] if str(f["id"]) == wanted), None)
    if frame is None:
        raise PhantomError(f"no frame {wanted[:40]!r} on {label[:10]}", code="usage")
    body = [f"<p>{e(frame['app'])} on monitor {e(frame['monitor'])}, {e(frame['start'])} – "
            f"{e(frame['end'])}: {e(frame['active_minutes'])} min active of "
            f"{e(frame['wall_minutes'])}.</p>"]
    snapshots = frame["evidence"]["snapshots"]
    if snapshots:
        first = snapshots.split(",")[0].split("-")
        sha = first_thumbnail(db, int(first[0]), int(first[-1]))
        if sha:
            body.append(f'<p><img class="thumb" src="/image/{e(sha)}" alt="Screenshot of '
                        f'{e(frame["app"])} at {e(frame["start"][11:16])}"></p>')
    body.append(table("Pages, in the order visited", ["kind", "page", "visits"],
                      [[p["kind"], p.get("title") or p["entity"], p.get("visits", p.get("count", ""))]
                       for p in frame["pages"]]))
    volume = frame["input"]
    body.append(table("Input counts", ["keys", "clicks", "scrolls", "copies", "text bursts"],
                      [[volume["keys"], volume["clicks"], volume["scrolls"], volume["copies"],
                        volume["text_bursts"]]]))
    body.append(table("Click targets", ["role", "label", "clicks"],
                      [[t["role"], t["label"], t["count"]] for t in frame["click_targets"]]))
    body.append(table("Titles", ["title"], [[title] for title in frame["titles"]]))
    body.append(table("Evidence rows", ["table", "ids"],
                      [["snapshots", snapshots], ["input_events", frame["evidence"]["input_events"]]]))
    back = f'<p><a href="/?day={quote(label[:10])}">Back to the day</a></p>'
    return page(f"{frame['app']} at {frame['start'][11:16]}", back + "".join(body), current="/")


def search_page(db: Path, query: dict[str, str]) -> str:
    text = query.get("q", "").strip()
    box = (f'<form method="get" action="/search" role="search"><label>Words <input type="search" '
           f'name="q" value="{e(text)}" maxlength="500" required></label> '
           '<button type="submit">Search</button></form>')
    if not text:
        return page("Search", box, current="/search")
    from compiler.api import search
    from compiler.search import search_dict
    from core.store.search_index import update_index

    warning = update_index(db)
    result, window = search(db, text, now_ms=_now(), limit=100)
    answer = search_dict(result, window)
    rows = [[f'<a href="/?day={quote(s["start"][:10])}&amp;q={quote(text)}">{e(s["start"][:16])}</a>',
             e(s["end"][11:16]),
             e(s["app"]), e(s["matched"]), e(s["text"])] for s in answer["stretches"]]
    found = table(f"{answer['stretches_found']} stretches for {text!r}", ["from", "until", "app", "matched",
                                                                          "text"], rows, raw=True)
    return page("Search", box + found, current="/search", notice=warning or "")


def routines_page(db: Path, query: dict[str, str]) -> str:
    from compiler.api import report_dict, routine_report

    report, _ = routine_report(db, now_ms=_now(), limit=50)
    data = report_dict(report)
    rows = []
    for routine in data["routines"]:
        decision = routine.get("decision") or {}
        measures = routine.get("measures") or {}
        gates = ", ".join(f"{c['name']} {'passed' if c['passed'] else 'failed'}"
                          for c in decision.get("criteria", []))
        verdict = "crystallize" if decision.get("crystallize") else "not yet"
        rows.append([routine["id"], routine["label"], len(routine["steps"]), measures.get("support", ""),
                     gates, verdict, decision.get("reason", "")])
    body = (f"<p>{e(data['actions'])} actions in {e(data['sessions'])} sessions; "
            f"{e(data['routines_found'])} routines found.</p>")
    return page("Routines", body + table("Routines and their verdicts", ["id", "routine", "steps", "support",
                                                                         "gates", "verdict", "why"], rows),
                current="/routines")
