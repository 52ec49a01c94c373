"""The compact block tells the truth about a session (issue 26): planted
store rows for each fact a reader asks — idle and away time, pages in the
order visited with visit counts and titles, the last frame's dwell up to the
row that says capture stopped, input at frame edges, and every cut said.

Each case failed on the compiler before this change: it either credited
idle time as active, counted snapshots as visits, gave the last snapshot no
dwell, filed a focus click under an earlier frame, or cut a list silently."""

from __future__ import annotations

import orjson

from compiler.frames import CompileOptions, compile_capture
from compiler.records import BlindSpot, Capture, Element, InputEvent, Snapshot
from compiler.render import render_compact, render_json, render_markdown
from compiler.render.text import readable
from compiler.timefmt import TimeFormat
from core.labels import once, once_in

S = 1000
T0 = 1_772_438_400_000  # 2026-03-02 08:00:00 UTC
IDLE_AFTER = 5 * S      # tests lower idle_after_seconds, as the issue says


def snap(sid, t, app="mousepad", url=None, title=None, monitor=0, idle=False):
    return Snapshot(sid, T0 + int(t * S), 0, "Etc/UTC", monitor, "focus", app,
                    title or f"{app} window", url, idle, True)


def key(eid, t, kind="key", snapshot_id=None, element=None, resolution=None):
    return InputEvent(eid, T0 + int(t * S), T0 + int(t * S), 0, kind, 1, None, None, None,
                      resolution, element, None, None, snapshot_id=snapshot_id)


def spot(sid, start, end, kind="not_running", reason="capture stopped"):
    return BlindSpot(sid, T0 + start * S, None if end is None else T0 + end * S, kind, reason, None)


def compiled(snapshots, inputs=(), blind=(), idle_after=IDLE_AFTER, until=3600):
    capture = Capture("phantom", 4, T0 - 60 * S, T0 + until * S, tuple(snapshots), tuple(inputs),
                      tuple(blind))
    return compile_capture(capture, CompileOptions(zone="Etc/UTC", inferred=False,
                                                   idle_after_ms=idle_after))


def block(document):
    return render_compact(document, TimeFormat(None, 0), "2026-03-02").decode()


def as_json(document):
    return orjson.loads(render_json(document, TimeFormat(None, 0), "2026-03-02"))


def heartbeats(first, start, stop, step=30, app="mousepad", **kw):
    return [snap(first + i, t, app, **kw) for i, t in enumerate(range(start, stop + 1, step))]


# -- 1. idle and away ---------------------------------------------------------------------
def test_a_stretch_without_input_is_idle_not_active_and_coverage_sums_to_the_span():
    # typing 0-50 s, nothing 50-220 s (170 s: idle), typing 220-308 s; heartbeats every 30 s
    # and capture stopped at 310 s
    snapshots = heartbeats(1, 0, 300)
    inputs = [key(100 + t, t) for t in range(0, 51)] + [key(400 + t, t) for t in range(220, 309, 2)]
    document = compiled(snapshots, inputs, [spot(1, 310, None)])
    coverage = document.coverage
    assert (coverage.active_ms, coverage.idle_ms, coverage.away_ms) == (140 * S, 170 * S, 0)
    assert coverage.active_ms + coverage.idle_ms + coverage.away_ms == coverage.span_ms
    frame, = document.frames
    assert (frame.active_ms, frame.idle_ms) == (140 * S, 170 * S)
    assert [(g.start_ms - T0, g.end_ms - T0, g.reason) for g in coverage.quiet] == [(50 * S, 220 * S, "idle")]
    text = block(document)
    assert "coverage: 08:00-08:05, 2m active, 3m idle, 0s away over 5m;" in text
    assert "no input: 08:00–08:03 idle (3m)" in text
    assert "08:00-08:05 mousepad (2m; idle 3m):" in text
    data = as_json(document)
    assert data["coverage"]["idle_minutes"] == 2.8 and data["frames"][0]["idle_seconds"] == 170
    assert data["coverage"]["no_input"][0]["reason"] == "idle"
    markdown = render_markdown(document, TimeFormat(None, 0), "2026-03-02").decode()
    assert "3m idle (no input)" in markdown and "**No input:** 08:00–08:03 idle" in markdown


def test_silence_past_the_session_gap_is_away_and_dwell_before_the_last_input_stays_credited():
    # heartbeats keep coming (the capture never flagged idle) for 400 s without input
    snapshots = heartbeats(1, 0, 480)
    inputs = [key(100, 0), key(101, 10), key(102, 410), key(103, 480)]
    document = compiled(snapshots, inputs, [spot(1, 485, None)], idle_after=60 * S)
    coverage = document.coverage
    # 0-10 s typed: credited; 10-410 s: away; 410-485 s: credited (input 70 s apart, > 5 s: idle)
    assert [(g.reason, (g.end_ms - g.start_ms) // S) for g in coverage.quiet] == [("away", 400), ("idle", 70)]
    assert (coverage.active_ms, coverage.idle_ms, coverage.away_ms) == (15 * S, 70 * S, 400 * S)
    text = block(document)
    assert "15s active, 1m idle, 7m away over 8m" in text and "08:00–08:06 away (7m)" in text


def test_dwell_before_the_idle_point_is_credited_up_to_the_cap():
    # one snapshot, then the next 200 s later: 90 s of dwell, of which 10 s had input
    document = compiled([snap(1, 0), snap(2, 200, "calc")], [key(10, 0), key(11, 10), key(12, 200)],
                        idle_after=60 * S)
    first = document.frames[0]
    assert (first.active_ms, first.idle_ms) == (10 * S, 80 * S)


# -- 2. pages in the order visited, visits and titles ----------------------------------------
BUDGET, LISBON, SOUP = (f"file:///home/ana/pages/{name}.html" for name in ("budget", "lisbon", "soup"))


def test_pages_are_listed_in_visit_order_with_visits_and_local_files_by_title():
    snapshots = [snap(1, 0, "firefox", BUDGET, "Quarterly Budget Review — Mozilla Firefox"),
                 snap(2, 10, "firefox", BUDGET, "Quarterly Budget Review — Mozilla Firefox"),
                 snap(3, 20, "firefox", LISBON, "Lisbon in Three Days — Mozilla Firefox"),
                 snap(4, 30, "firefox", LISBON, "Lisbon in Three Days — Mozilla Firefox"),
                 snap(5, 40, "firefox", SOUP, "Mozilla Firefox"),
                 snap(6, 50, "firefox", BUDGET, "Quarterly Budget Review — Mozilla Firefox"),
                 snap(7, 60, "mousepad")]
    document = compiled(snapshots)
    browser = document.frames[0]
    assert [(p.entity.rsplit("/", 1)[-1], p.count, p.title) for p in browser.pages] == [
        ("budget.html", 2, "Quarterly Budget Review"), ("lisbon.html", 1, "Lisbon in Three Days"),
        ("soup.html", 1, None)]
    text = block(document)
    assert ('local_file "Quarterly Budget Review" ×2, local_file "Lisbon in Three Days", '
            'local_file "soup.html"') in text
    assert "file://" not in text and "/home/ana" not in text
    page = as_json(document)["frames"][0]["pages"][0]
    assert page == {"kind": "local_file", "entity": "/home/ana/pages/budget.html", "visits": 2,
                    "title": "Quarterly Budget Review"}


def test_coming_back_from_another_app_is_a_new_visit():
    # budget, a 10 s detour to the chat (folded into the frame), budget again: two visits
    snapshots = [snap(1, 0, "firefox", BUDGET), snap(2, 15, "firefox", BUDGET), snap(3, 30, "chat"),
                 snap(4, 40, "firefox", BUDGET), snap(5, 70, "mousepad")]
    browser = compiled(snapshots).frames[0]
    assert browser.interruptions and [p.count for p in browser.pages] == [2]


def test_a_capped_page_list_says_how_many_more():
    urls = [f"https://github.com/acme/{name}" for name in "abcde"]
    snapshots = [snap(i + 1, i * 10, "firefox", url) for i, url in enumerate(urls)] + [snap(9, 60, "mousepad")]
    text = block(compiled(snapshots))
    line, = [line for line in text.splitlines() if line.startswith("- ") and "firefox" in line]
    assert line.endswith(", +2 more")


# -- 3. the last frame's dwell ---------------------------------------------------------------
def test_the_last_frame_is_credited_until_capture_stopped():
    # a firefox frame from 30 s; the daemon's closing row at 50 s (capture stopped, open-ended)
    snapshots = [snap(1, 0), snap(2, 30, "firefox")]
    inputs = [key(10, 1), key(11, 31), key(12, 49)]
    document = compiled(snapshots, inputs, [spot(1, 50, None)], idle_after=600 * S)
    assert [f.active_ms // S for f in document.frames] == [30, 20]
    note, = [n for n in document.blind_spots if n.kind == "not_running"]
    assert note.end_ms == T0 + 3600 * S     # open-ended: lasts to the window's end
    assert "capture not running 08:00-09:00 (capture stopped)" in block(document)


def test_a_window_without_accessibility_keeps_its_screen_time():
    # the daemon opens no_accessibility at the terminal's own focus snapshot (20-80 s): the
    # screen is still captured, so the terminal earns its 60 s (it earned 0 when that spot ended dwell)
    snapshots = [snap(1, 0), snap(2, 20, "gnome-terminal-server"), snap(3, 80)]
    inputs = [key(10, 1), key(11, 21), key(12, 50), key(13, 79), key(14, 81)]
    document = compiled(snapshots, inputs, [spot(1, 20, 80, "no_accessibility", "no_app")], idle_after=600 * S,
                        until=90)
    assert [(f.app, f.active_ms // S) for f in document.frames] == [
        ("mousepad", 20), ("gnome-terminal-server", 60), ("mousepad", 0)]
    assert "apps: gnome-terminal-server 1m, 2 keys; mousepad 20s, 3 keys" in block(document)


def test_a_silence_in_a_window_without_accessibility_is_said():
    # the terminal has no accessibility data (spot 10-400 s) and nobody types 20-390 s: that is
    # said as away (over 300 s), not hidden by the spot (input is still captured there)
    snapshots = [snap(1, 0), snap(2, 10, "gnome-terminal-server")] + [
        snap(3 + i, 40 + 30 * i, "gnome-terminal-server") for i in range(12)] + [snap(20, 400)]
    inputs = [key(10, 1), key(11, 20), key(12, 390), key(13, 401)]
    document = compiled(snapshots, inputs, [spot(1, 10, 400, "no_accessibility", "no_app")], until=420)
    assert ("away", 370) in [(g.reason, (g.end_ms - g.start_ms) // S) for g in document.coverage.quiet]
    silences, = [line for line in block(document).splitlines() if line.startswith("no input: ")]
    assert "; 08:00–08:06 away (6m); " in silences


def test_dwell_ends_at_a_suspension_and_an_open_spot_lasts_to_the_next_snapshot():
    # suspended 45-400 s (heartbeat gap): the snapshot at 30 s earns 15 s, not 0 (gap > 300 s)
    snapshots = [snap(1, 0), snap(2, 30), snap(3, 400), snap(4, 430)]
    inputs = [key(10, 1), key(11, 31), key(12, 44), key(13, 401), key(14, 429)]
    suspended = compiled(snapshots, inputs, [spot(1, 45, 400, reason="capture was suspended")],
                         idle_after=600 * S)
    assert [f.active_ms // S for f in suspended.frames] == [45, 30]
    reopened = compiled(snapshots, inputs, [spot(1, 45, None)], idle_after=600 * S)
    note, = reopened.blind_spots[:1]
    assert note.end_ms == T0 + 400 * S      # open-ended, closed by the next snapshot


# -- 4. input at frame edges ---------------------------------------------------------------
def test_a_focus_click_belongs_to_the_frame_it_opens_and_a_key_before_a_switch_to_its_own():
    """The daemon links input to the receiving window's latest *written*
    snapshot, which can be one from an earlier visit to that window."""
    button = Element(1, "text", "", None, "mousepad/text")
    snapshots = [snap(1, 0), snap(2, 60, "firefox"), snap(3, 120), snap(4, 180, "firefox")]
    inputs = [key(10, 10, snapshot_id=1),
              key(11, 119.8, "click", snapshot_id=1, element=button, resolution="exact"),  # opens f3
              key(12, 150, snapshot_id=1),
              key(13, 179.9, snapshot_id=1),                                     # just before the switch
              key(14, 181, snapshot_id=4)]
    document = compiled(snapshots, inputs, idle_after=600 * S)
    first, _, third, last = document.frames
    assert (first.input.keys, first.input.clicks) == (1, 0)
    assert (third.input.keys, third.input.clicks, third.input_ids) == (2, 1, (11, 12, 13))
    assert last.input_ids == (14,)


# -- 5. every cut said, labels said once ------------------------------------------------------
def test_click_targets_beyond_the_cap_are_counted_and_labels_are_said_once_when_rendered():
    buttons = [Element(i, "push button", f"{n} {n}", None, f"calc/push button[{n}]")
               for i, n in enumerate("1234567", start=1)]
    inputs = [key(10 + i, 1 + i, "click", element=b, resolution="exact") for i, b in enumerate(buttons)]
    inputs.append(key(30, 20, "click", resolution="zone", element=Element(99, "panel", "", None, "calc/panel")))
    document = compiled([snap(1, 0, "calc"), snap(2, 30, "calc")], inputs, idle_after=600 * S)
    frame, = document.frames
    assert len(frame.targets) == 5 and frame.targets_more == 2
    assert frame.targets[0].label == "1 1"                       # stored as captured
    data = as_json(document)
    assert data["frames"][0]["click_targets_more"] == 2
    markdown = render_markdown(document, TimeFormat(None, 0), "2026-03-02").decode()
    assert "push button '1'" in markdown and "'1 1'" not in markdown and "+2 more" in markdown
    text = block(document)
    assert "1 clicks that landed in a container, not on a control" in text
    assert "zone only" not in text


def test_repeated_labels_are_said_once_in_rendered_text_only():
    assert once("4 4") == "4" and once("Save As Save As") == "Save As" and once("a b") == "a b"
    assert readable("click push button '4 4' in calc → click push button '× ×' in calc") == (
        "click push button '4' in calc → click push button '×' in calc")
    assert once_in("type into text 'Name:' in form") == "type into text 'Name:' in form"


def test_blind_spots_cut_for_the_budget_say_how_many_more():
    spots = [spot(i, 100 + i * 20, 110 + i * 20, kind="excluded", reason=f"app {i}") for i in range(1, 40)]
    document = compiled(heartbeats(1, 0, 900), [key(10, t) for t in range(0, 900, 3)], spots)
    text = render_compact(document, TimeFormat(None, 0), "2026-03-02", 300).decode()
    line, = [line for line in text.splitlines() if line.startswith("blind spots: ")]
    assert line.endswith(" more")


def test_an_inferred_tier_left_out_for_the_budget_says_so():
    from compiler.records import InferredItem

    routine = InferredItem("routine", "click push button '4 4' in calc → click push button '= =' in calc",
                           "high", "the same 2 actions occurred 5 times", ("f-0001",), ("input_events:1..2",),
                           (("id", "r-1"), ("steps", "2"), ("support", "5")))
    document = compiled(heartbeats(1, 0, 600, app="app"), [key(10, t) for t in range(0, 600, 3)])
    text = block(document._replace(inferred=(routine,)))
    assert "click push button '4' in calc → click push button '=' in calc" in text   # said once
    frames = [compiled([snap(i, i * 40, f"app{i % 7}") for i in range(1, 200)]).frames]
    crowded = document._replace(frames=frames[0], inferred=(routine,) * 3)
    small = render_compact(crowded, TimeFormat(None, 0), "2026-03-02", 400).decode()
    assert "(+3 inferred routine(s) left out for the token budget)" in small


def test_markdown_gives_every_page_its_title():
    pr = "https://github.com/acme/api/pull/412"
    document = compiled([snap(1, 0, "firefox", pr, "Fix the flaky test · Pull Request #412 — Mozilla Firefox"),
                         snap(2, 30, "mousepad")])
    markdown = render_markdown(document, TimeFormat(None, 0), "2026-03-02").decode()
    assert 'github_pull_request acme/api#412 "Fix the flaky test · Pull Request #412"' in markdown


# -- the day's totals: what held each full hour ------------------------------------------------
def test_the_hour_line_names_a_detour_at_the_hour_and_away_in_a_long_silence():
    # 08:59:50 mousepad, 09:00:00 a 10 s detour to the calculator (folded), back at 09:00:10;
    # then nothing typed from 09:01 to 10:01 while the screen stays on (away at 10:00)
    hour = 3600
    snapshots = [snap(1, hour - 10), snap(2, hour, "gnome-calculator"), snap(3, hour + 10)] + [
        snap(4 + i, hour + 60 + 80 * i) for i in range(46)] + [snap(60, 2 * hour + 100)]
    inputs = [key(10, hour - 9), key(11, hour + 1), key(12, hour + 11), key(13, hour + 60),
              key(14, 2 * hour + 90), key(15, 2 * hour + 99)]
    document = compiled(snapshots, inputs, until=2 * hour + 200)
    assert document.frames[0].interruptions
    hours, = [line for line in block(document).splitlines() if line.startswith("on screen: ")]
    assert hours == "on screen: 09:00 gnome-calculator; 10:00 away"
