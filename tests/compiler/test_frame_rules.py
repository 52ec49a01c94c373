"""Hand-built capture streams that exercise each compilation rule, checked
against frames computed on paper (activity-frames §4 rules)."""

from __future__ import annotations

from compiler.frames import CompileOptions, compile_capture
from compiler.records import BlindSpot, Capture, Element, InputEvent, Snapshot

S = 1000  # ms per second
T0 = 1_772_438_400_000  # 2026-03-02 08:00:00 UTC


def snap(sid, t, app="editor", monitor=0, url=None, idle=False, title=None):
    return Snapshot(sid, T0 + t * S, 60, "Europe/Berlin", monitor, "focus", app,
                    title or f"{app} window", url, idle, True)


def event(eid, t, kind="key", count=1, monitor=0, resolution=None, element=None):
    return InputEvent(eid, T0 + t * S, T0 + t * S, monitor, kind, count, None, None, None,
                      resolution, element, None, None)


def compiled(snapshots, inputs=(), blind=()):
    capture = Capture("phantom", 1, T0 - 3600 * S, T0 + 86_400 * S, tuple(snapshots),
                      tuple(inputs), tuple(blind))
    return compile_capture(capture, CompileOptions(zone="Europe/Berlin", inferred=False))


def shape(document):
    """Frames as (app, start s, end s, active s, monitor) from T0."""
    return [(f.app, (f.start_ms - T0) // S, (f.end_ms - T0) // S, f.active_ms // S, f.monitor)
            for f in document.frames]


def test_dwell_is_capped_at_90_seconds():
    # A@0 earns min(200, 90) = 90; A@200 earns the 60 s until B; B is last and earns 0.
    document = compiled([snap(1, 0), snap(2, 200), snap(3, 260, app="browser")])
    assert shape(document) == [("editor", 0, 260, 150, 0), ("browser", 260, 260, 0, 0)]


def test_a_gap_over_300_seconds_closes_the_frame_and_becomes_a_coverage_gap():
    document = compiled([snap(1, 0), snap(2, 30), snap(3, 400), snap(4, 430)])
    assert shape(document) == [("editor", 0, 30, 30, 0), ("editor", 400, 430, 30, 0)]
    gap, = document.coverage.gaps
    assert ((gap.start_ms - T0) // S, (gap.end_ms - T0) // S, gap.reason) == (30, 400, "away")
    assert document.coverage.active_ms == 60 * S
    # exactly 300 s is not a gap
    assert len(compiled([snap(1, 0), snap(2, 300)]).frames) == 1


def test_a_short_detour_is_folded_into_an_interruption():
    # A@0, B@10, A@25: B held the screen 15 s (≤ 20 s) → one frame A.
    document = compiled([snap(1, 0), snap(2, 10, app="chat"), snap(3, 25), snap(4, 60)])
    frame, = document.frames
    assert (frame.app, (frame.active_ms) // S) == ("editor", 10 + 35)  # B's 15 s not credited
    detour, = frame.interruptions
    assert (detour.app, (detour.start_ms - T0) // S, (detour.end_ms - T0) // S) == ("chat", 10, 25)
    assert frame.snapshot_ids == (1, 2, 3, 4)


def test_a_detour_longer_than_20_seconds_is_its_own_frame():
    document = compiled([snap(1, 0), snap(2, 10, app="chat"), snap(3, 31), snap(4, 60)])
    assert [f.app for f in document.frames] == ["editor", "chat", "editor"]


def test_no_fold_across_a_session_gap():
    document = compiled([snap(1, 0), snap(2, 10, app="chat"), snap(3, 400)])
    assert [f.app for f in document.frames] == ["editor", "chat", "editor"]


def test_monitors_are_segmented_separately_and_active_time_is_not_doubled():
    document = compiled([snap(1, 0, app="editor", monitor=0), snap(2, 5, app="video", monitor=1),
                         snap(3, 60, app="editor", monitor=0), snap(4, 65, app="video", monitor=1)])
    assert shape(document) == [("editor", 0, 60, 60, 0), ("video", 5, 65, 60, 1)]
    assert document.coverage.active_ms == 65 * S  # union of [0,60] and [5,65]
    assert document.coverage.monitors == (0, 1)


def test_input_goes_to_the_nearest_snapshot_on_its_monitor():
    snapshots = [snap(1, 0), snap(2, 100, app="browser"), snap(3, 0, app="video", monitor=1)]
    inputs = [event(10, 40), event(11, 60), event(12, 50), event(13, 70, monitor=1)]
    first, second, third = compiled(snapshots, inputs).frames
    # 40 s is nearer 0 than 100; 60 s is nearer 100; 50 s is a tie → the earlier snapshot.
    assert (first.app, first.input_ids, first.input.keys) == ("editor", (10, 12), 2)
    assert (third.app, third.input_ids) == ("browser", (11,))
    assert (second.app, second.input_ids) == ("video", (13,))


def test_input_with_no_snapshot_within_300_seconds_is_unattributed():
    document = compiled([snap(1, 0)], [event(10, 10), event(11, 500)])
    assert document.frames[0].input_ids == (10,)
    note, = [n for n in document.blind_spots if n.kind == "unattributed_input"]
    assert note.count == 1


def test_every_click_resolution_kind_is_counted_and_none_is_never_named():
    button = Element(1, "push button", "Send", None, "mail/frame/push button[@name='Send']")
    panel = Element(2, "panel", "", None, "mail/frame/panel")
    inputs = [event(10, 1, "click", resolution="exact", element=button),
              event(11, 2, "click", resolution="tolerance", element=button),
              event(12, 3, "click", resolution="zone", element=panel),
              event(13, 4, "click", resolution="none")]
    frame, = compiled([snap(1, 0, app="mail")], inputs).frames
    volume = frame.input
    assert (volume.clicks, volume.clicks_exact, volume.clicks_tolerance, volume.clicks_zone,
            volume.clicks_none) == (4, 1, 1, 1, 1)
    assert [(t.role, t.label, t.count) for t in frame.targets] == [("push button", "Send", 2)]
    kinds = {n.kind: n.count for n in compiled([snap(1, 0, app="mail")], inputs).blind_spots}
    # hand-made events name no receiving window: the nearest-snapshot rule, said so
    assert kinds == {"unresolved_clicks": 1, "zone_only_clicks": 1, "input_window_unrecorded": 4}


def linked(eid, t, snapshot_id, kind="key", count=1, monitor=0):
    return event(eid, t, kind, count, monitor)._replace(snapshot_id=snapshot_id)


def anchor(sid, t, app, monitor=0):
    """A snapshot the daemon took only because `app` got input without focus."""
    return Snapshot(sid, T0 + t * S, 60, "Europe/Berlin", monitor, "input", app, f"{app} window",
                    None, False, False)


def test_input_goes_to_the_window_that_received_it_not_the_nearest_snapshot():
    """Keys typed into the editor just before switching to the mail app are
    nearer in time to mail's snapshot, but the capture recorded that the
    editor received them; the click that switched is mail's, named by an
    anchor snapshot that earns no dwell and opens no frame."""
    snapshots = [snap(1, 0, app="editor"), anchor(2, 59.5, "mail"), snap(3, 60, app="mail")]
    inputs = [linked(10, 59, 1, "text", count=18), linked(11, 59.5, 2, "click"),
              linked(12, 61, 3, "text", count=4)]
    document = compiled(snapshots, inputs)
    editor, mail = document.frames
    assert (editor.app, editor.input.keys, editor.input.clicks) == ("editor", 18, 0)
    assert (mail.app, mail.input.keys, mail.input.clicks) == ("mail", 4, 1)
    assert mail.snapshot_ids == (3,) and editor.active_ms == 60 * S
    assert "input_window_unrecorded" not in {n.kind for n in document.blind_spots}


def test_a_detour_keeps_its_own_input():
    snapshots = [snap(1, 0, app="editor"), snap(2, 30, app="chat"), snap(3, 40, app="editor"),
                 snap(4, 60, app="editor")]
    inputs = [linked(10, 10, 1, count=5), linked(11, 31, 2, count=7), linked(12, 35, 2, "click"),
              linked(13, 45, 3, count=2)]
    frame, = compiled(snapshots, inputs).frames
    assert (frame.input.keys, frame.input.clicks) == (7, 0)
    detour, = frame.interruptions
    assert (detour.app, detour.input.keys, detour.input.clicks, detour.input_ids) == ("chat", 7, 1, (11, 12))
    assert frame.input_ids == (10, 13)


def test_idle_snapshots_earn_nothing_and_a_long_idle_stretch_splits_frames():
    snapshots = [snap(1, 0), snap(2, 30, idle=True), snap(3, 180, idle=True),
                 snap(4, 330, idle=True), snap(5, 400), snap(6, 430)]
    document = compiled(snapshots)
    assert shape(document) == [("editor", 0, 30, 30, 0), ("editor", 400, 430, 30, 0)]
    assert document.frames[0].idle_snapshots == 3
    gap, = document.coverage.gaps
    assert gap.reason == "idle"


def test_site_keys_frames_and_pages_are_typed():
    pr = "https://github.com/acme/api/pull/412"
    document = compiled([snap(1, 0, app="firefox", url=pr), snap(2, 30, app="firefox", url=pr),
                         snap(3, 60, app="firefox", url="https://www.google.com/search?q=phantom")])
    github, google = document.frames
    assert (github.site, google.site) == ("github.com", "google.com")
    assert [(p.kind, p.entity, p.count) for p in github.pages] == [
        ("github_pull_request", "acme/api#412", 1)]  # two snapshots, one visit
    assert google.pages[0].kind == "search_query"


def test_stored_blind_spots_are_clipped_to_the_window_and_name_gaps():
    blind = [BlindSpot(1, T0 + 60 * S, T0 + 900 * S, "paused", "paused by the user", None)]
    document = compiled([snap(1, 0), snap(2, 30), snap(3, 1000)], blind=blind)
    assert document.coverage.gaps[0].reason == "paused"
    note, = [n for n in document.blind_spots if n.source == "store"]
    assert (note.kind, note.detail) == ("paused", "paused by the user")


def test_empty_capture_gives_an_empty_document():
    document = compiled([])
    assert document.frames == () and document.coverage.first_activity_ms is None
