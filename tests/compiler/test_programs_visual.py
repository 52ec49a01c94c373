"""Visual evidence in programs (format 2): crops, where they lay and where the
click lay in them, carried per click step; lifted from the daemon's click
crop where the store shows it is centred on the click; bodies without it
keep their ids; format 1 never has it."""

from __future__ import annotations

import orjson
import pytest
from test_programs_fixtures import CROP_SUBMIT, form_capture, write_store

from compiler.programs.build import compile_program
from compiler.programs.errors import ProgramCompileError
from compiler.programs.evidence import (
    read_store_evidence,
    store_crop_visual,
    visual_of,
    with_store_evidence,
    with_visual,
)
from compiler.programs.recordings import traces_for_recordings
from compiler.programs.records import Crop, ProgramFormatError, Visual, from_json, to_json
from compiler.programs.traces import recording_traces

TARGET = Crop("target", "d" * 64, 268, 368, 64, 64, 0.5078, 0.5078)
CONTEXT = Crop("context", "e" * 64, 236, 336, 128, 128, 0.5039, 0.5039)


def program():
    capture, recordings = form_capture([("Ada Lovelace", "a@x"), ("Alan Turing", "a@x")])
    return compile_program("sign up", recording_traces(capture, recordings),
                           source="demonstration").program


def test_a_program_without_visual_evidence_writes_no_visual_key():
    body = orjson.loads(to_json(program()))
    assert all("visual" not in step["target"] for step in body["steps"] if step["target"])


def test_visual_evidence_round_trips_and_changes_the_id():
    plain = program()
    seen = with_visual(plain, {4: Visual((TARGET, CONTEXT), (0, 0, 800, 600))})
    assert seen.id != plain.id
    assert seen.steps[4].target.visual == Visual((TARGET, CONTEXT), (0, 0, 800, 600))
    again = from_json(to_json(seen), expected_id=seen.id)
    assert again == seen and again.steps[4].target.visual.crops[1].kind == "context"


def test_only_click_steps_carry_visual_evidence():
    with pytest.raises(ProgramCompileError, match="step 1 is a type step"):
        with_visual(program(), {1: Visual((TARGET,))})


@pytest.mark.parametrize("change, message", [
    (lambda crop: {**crop, "kind": "huge"}, "unreadable 'huge' crop"),
    (lambda crop: {**crop, "ratio_x": 1.5}, "unreadable 'target' crop"),
    (lambda crop: {**crop, "blob": "abc"}, "unreadable 'target' crop"),
])
def test_an_unreadable_crop_is_a_corrupt_program(change, message):
    body = orjson.loads(to_json(with_visual(program(), {4: Visual((TARGET,))})))
    body["steps"][4]["target"]["visual"]["crops"][0] = change(body["steps"][4]["target"]["visual"]["crops"][0])
    with pytest.raises(ProgramFormatError, match=message):
        from_json(orjson.dumps(body))


def test_format_one_has_no_visual_evidence():
    body = orjson.loads(to_json(with_visual(program(), {4: Visual((TARGET,))})))
    body["format"] = 1
    body["guard"].pop("title_tokens")
    body.pop("end_state")
    for step in body["steps"]:
        step.pop("entry", None)
    with pytest.raises(ProgramFormatError, match="visual evidence on a format-1 click step"):
        from_json(orjson.dumps(body))


def test_the_daemons_crop_is_lifted_only_when_it_is_surely_centred_on_the_click():
    lifted = store_crop_visual(300, 400, CROP_SUBMIT, (64, 64), (0, 0, 800, 600))
    assert lifted == Visual((Crop("target", CROP_SUBMIT, 268, 368, 64, 64, 0.5078, 0.5078),),
                            (0, 0, 800, 600))
    assert store_crop_visual(300, 400, CROP_SUBMIT, (64, 64), None) is None        # window unknown
    assert store_crop_visual(20, 400, CROP_SUBMIT, (64, 64), (0, 0, 800, 600)) is None  # clamped
    assert store_crop_visual(300, 400, None, None, (0, 0, 800, 600)) is None


def test_the_capture_hooks_crops_become_program_evidence():
    import numpy as np

    from core.visual_evidence import crop_variants

    shot = np.zeros((600, 800, 3), np.uint8)
    shot[::7] = 200
    variants = crop_variants(shot, 400, 300, (0, 0, 800, 600))
    visual = visual_of(variants, (0, 0, 800, 600))
    assert [c.kind for c in visual.crops] == ["target", "context", "wide"]
    assert visual.crops[0].blob == variants[0].sha256 and visual.window == (0, 0, 800, 600)
    assert visual_of((), None) is None


def add_window(db, width=800, height=600):
    """Give every snapshot a walked tree whose root (the window) has extents."""
    from core.store import open_store

    connection = open_store(db)
    try:
        with connection:
            connection.execute("INSERT INTO a11y_trees(id, ts_ms, app, node_count, walk_ms) "
                               "VALUES (900, 0, 'Form', 1, 1)")
            connection.execute("INSERT INTO elements(id, tree_id, depth, ordinal, role, x, y, w, h, "
                               "path) VALUES (901, 900, 0, 0, 'frame', 0, 0, ?, ?, 'Form/frame')",
                               (width, height))
            connection.execute("UPDATE snapshots SET tree_id = 900")
            connection.execute("UPDATE blobs SET width = 64, height = 64")
    finally:
        connection.close()


def test_compiling_from_a_store_lifts_the_click_crops_of_a_known_window(tmp_path):
    capture, recordings = form_capture([("Ada Lovelace", "a@x"), ("Alan Turing", "a@x")])
    db = tmp_path / "store.sqlite3"
    write_store(db, capture, recordings)
    add_window(db)
    traces = traces_for_recordings(db, "sign up")
    compiled = compile_program("sign up", traces, source="demonstration").program
    clicks = [s for s in compiled.steps if s.action == "click"]
    assert [s.target.visual.crops[0].blob for s in clicks] == [s.target.crop for s in clicks]
    submit = clicks[-1].target.visual
    assert submit.window == (0, 0, 800, 600)
    assert (submit.crops[0].x, submit.crops[0].y, submit.crops[0].ratio_x) == (268, 368, 0.5078)


def test_a_store_without_the_window_gives_no_evidence_and_the_same_program(tmp_path):
    capture, recordings = form_capture([("Ada Lovelace", "a@x"), ("Alan Turing", "a@x")])
    db = tmp_path / "store.sqlite3"
    write_store(db, capture, recordings)
    traces = traces_for_recordings(db, "sign up")
    assert read_store_evidence(db, traces)
    assert with_store_evidence(traces, read_store_evidence(db, traces)) == traces
    assert compile_program("sign up", traces, source="demonstration").program == program()


def add_click_evidence(db, x=300, y=400, window=(0, 0, 800, 600)) -> dict[str, str]:
    """The capture hook's three crops for every click at (x, y) (the
    Submit clicks), as the daemon stores them; kind → blob."""
    from core.store import ClickEvidenceRow, open_store
    from core.store.records import BlobRow, insert_sql

    blobs = {kind: kind[0] * 64 for kind in ("target", "context", "wide")}
    connection = open_store(db)
    try:
        with connection:
            events = [row[0] for row in connection.execute(
                "SELECT id FROM input_events WHERE kind = 'click' AND x = ? AND y = ?", (x, y))]
            for kind, side in (("wide", 256), ("target", 64), ("context", 128)):    # any order
                connection.execute(insert_sql(BlobRow), BlobRow(blobs[kind], "click_crop", "image/png", side,
                                                                side, b"png", 0).values())
                for event in events:
                    connection.execute(insert_sql(ClickEvidenceRow), ClickEvidenceRow(
                        event, kind, blobs[kind], x - side // 2, y - side // 2, side, side,
                        round((side // 2 + 0.5) / side, 4), round((side // 2 + 0.5) / side, 4),
                        *window).values())
    finally:
        connection.close()
    return blobs


def test_a_store_with_the_capture_hooks_crops_gives_all_three_and_the_window(tmp_path):
    capture, recordings = form_capture([("Ada Lovelace", "a@x"), ("Alan Turing", "a@x")])
    db = tmp_path / "store.sqlite3"
    write_store(db, capture, recordings)
    add_window(db, 1000, 700)                       # the one-crop lift would say 1000×700
    blobs = add_click_evidence(db, window=(0, 0, 800, 600))
    compiled = compile_program("sign up", traces_for_recordings(db, "sign up"),
                               source="demonstration").program
    clicks = [s for s in compiled.steps if s.action == "click"]
    submit = clicks[-1].target.visual
    assert [(c.kind, c.blob, c.width) for c in submit.crops] == [
        ("target", blobs["target"], 64), ("context", blobs["context"], 128), ("wide", blobs["wide"], 256)]
    assert submit.window == (0, 0, 800, 600) and submit.crops[1].x == 236
    # Clicks the hook did not store crops for fall back to the lifted crop.
    assert [len(s.target.visual.crops) for s in clicks[:-1]] == [1, 1]
    assert from_json(to_json(compiled), expected_id=compiled.id) == compiled


def test_stored_crops_without_the_window_still_come_without_a_window(tmp_path):
    capture, recordings = form_capture([("Ada Lovelace", "a@x"), ("Alan Turing", "a@x")])
    db = tmp_path / "store.sqlite3"
    write_store(db, capture, recordings)
    add_click_evidence(db, window=(None, None, None, None))     # the click lay outside its window
    traces = traces_for_recordings(db, "sign up")
    submits = [t.visual for trace in traces for t in trace.actions if t.visual is not None]
    assert len(submits) == 2 and all(v.window is None and len(v.crops) == 3 for v in submits)
