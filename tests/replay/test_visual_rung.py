"""The visual rung without a desktop: what it does with the program's
evidence (loaded from a real store file), with a picture it cannot have,
with a match it must not click, and what lies under a re-aimed point."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from compiler.programs.evidence import visual_of, with_visual
from compiler.programs.records import Crop, Program, ProgramStep, Target, Visual
from core.store import open_store
from core.store.records import BlobRow, insert_sql
from core.visual_evidence import crop_variants
from replay import live
from replay.visual import rung
from replay.visual.evidence import load_evidence, needs_evidence
from replay.visual.rung import Eyes, hit_problem
from replay.visual.screen import Shot, Unseen

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "visual"
CANVAS = np.asarray(Image.open(FIXTURES / "canvas.png").convert("RGB"))
WINDOW = (0, 0, CANVAS.shape[1], CANVAS.shape[0])
RED = (8 + 24 + 48, 8 + 56 + 20)          # the canvas app's Red button, window pixels
SAVE = (8 + 264 + 48, 8 + 136 + 20)       # its grey Save button


@dataclass(frozen=True)
class Accessible:
    path: str


def element(role: str, name: str = "", path: str = "/a/1") -> live.LiveElement:
    return live.LiveElement(Accessible(path), role, name, "")


def step(label: str = "", visual: Visual | None = None, index: int = 0, at=RED) -> ProgramStep:
    target = Target("phantom-canvas", "phantom-canvas/frame/filler/drawing area", "drawing area",
                    label, "", None, at[0], at[1], None, visual)
    return ProgramStep(index, "click", target)


def stored(db, variants) -> None:
    connection = open_store(db)
    try:
        with connection:
            for v in variants:
                connection.execute(insert_sql(BlobRow),
                                   BlobRow(v.sha256, "click_crop", "image/png", v.width, v.height,
                                           v.data, 0).values())
    finally:
        connection.close()


def program_with(visual: Visual, at=RED) -> Program:
    from compiler.programs.records import Guard, from_json, to_json

    plain = Program("palette", "demonstration", "phantom-canvas", (step(at=at),), (),
                    Guard("phantom-canvas"), 2)
    return with_visual(from_json(to_json(plain)), {0: visual})


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "store.sqlite3"
    open_store(path).close()
    return path


def test_evidence_is_loaded_decoded_and_ordered_smallest_first(db):
    variants = crop_variants(CANVAS, *RED, WINDOW)
    stored(db, variants)
    program = program_with(visual_of(variants[::-1], WINDOW))
    assert needs_evidence(program)
    evidence = load_evidence(db, program)[0]
    assert evidence.problem is None and evidence.click == RED and evidence.window == WINDOW
    assert [t.kind for t in evidence.templates] == ["target", "context", "wide"]


def test_a_missing_or_corrupt_blob_is_a_one_line_problem(db):
    variants = crop_variants(CANVAS, *RED, WINDOW)
    stored(db, variants[:2])
    missing = load_evidence(db, program_with(visual_of(variants, WINDOW)))[0]
    assert missing.templates == () and "wide crop blob" in missing.problem
    assert "missing from the store" in missing.problem
    corrupt = Crop("target", "f" * 64, 0, 0, 64, 64, 0.5, 0.5)
    connection = open_store(db)
    with connection:
        connection.execute(insert_sql(BlobRow), BlobRow("f" * 64, "click_crop", "image/png", 64, 64,
                                                        b"garbage", 0).values())
    connection.close()
    problem = load_evidence(db, program_with(Visual((corrupt,), WINDOW)))[0].problem
    assert "does not hash to its address" in problem and "\n" not in problem


def eyes_on(db, picture, at=WINDOW, click=RED, **options) -> Eyes:
    variants = crop_variants(CANVAS, *click, WINDOW)
    stored(db, variants)
    evidence = load_evidence(db, program_with(visual_of(variants, WINDOW), click))
    return Eyes(evidence, lambda: Shot(at, at, (0, 0, 1280, 800), picture[:, :, ::-1].copy()),
                **options)


def test_an_accepted_re_aim_on_the_recorded_surface(db, monkeypatch):
    surface = element("drawing area", path="/canvas")
    monkeypatch.setattr(rung.live, "element_at", lambda x, y, window: surface)
    seen = eyes_on(db, CANVAS).see(step(), surface, window=None)
    assert seen.verdict == "accepted" and seen.point == RED and seen.hit is surface
    assert seen.aim.score == pytest.approx(1.0) and seen.aim.shift == (0, 0)
    assert seen.reason.startswith("visual re-aim: γ*=1.000, margin")


def test_a_point_that_falls_on_another_element_is_refused(db, monkeypatch):
    surface = element("drawing area", path="/canvas")
    monkeypatch.setattr(rung.live, "element_at", lambda x, y, window: element("push button", "Cancel"))
    seen = eyes_on(db, CANVAS).see(step(), surface, window=None)
    assert seen.verdict == "refused" and seen.point is None
    assert "not on the recorded drawing area" in seen.reason and "nothing was clicked" in seen.reason


def test_a_window_that_cannot_be_seen_escalates_and_a_covered_one_waits_in_a_dry_run(db):
    variants = crop_variants(CANVAS, *RED, WINDOW)
    stored(db, variants)
    evidence = load_evidence(db, program_with(visual_of(variants, WINDOW)))

    def off_screen():
        raise Unseen("'Phantom Canvas' lies off-screen")

    def covered():
        raise Unseen("'Terminal' lies over 'Phantom Canvas'", covered=True)

    gone = Eyes(evidence, off_screen).see(step(), None, window=None)
    assert (gone.verdict, gone.pending) == ("escalated", False) and "off-screen" in gone.reason
    waiting = Eyes(evidence, covered, defer_covered=True).see(step(), None, window=None)
    assert (waiting.verdict, waiting.pending) == ("escalated", True)
    assert Eyes(evidence, covered).see(step(), None, window=None).pending is False


def test_one_picture_per_eyes_and_a_fresh_one_after(db):
    looks = []
    variants = crop_variants(CANVAS, *RED, WINDOW)
    stored(db, variants)
    evidence = load_evidence(db, program_with(visual_of(variants, WINDOW)))

    def look():
        looks.append(1)
        return Shot(WINDOW, WINDOW, (0, 0, 1280, 800), CANVAS[:, :, ::-1].copy())

    eyes = Eyes(evidence, look)
    eyes.shot(), eyes.shot()
    eyes.fresh().shot()
    assert len(looks) == 2


def test_a_gone_target_escalates_with_its_best_score(db, monkeypatch):
    monkeypatch.setattr(rung.live, "element_at", lambda *args: pytest.fail("nothing may be hit-tested"))
    blank = CANVAS.copy()
    blank[40:120, 20:380] = CANVAS[20, 20]
    seen = eyes_on(db, blank).see(step(), None, window=None)
    assert seen.verdict == "escalated" and seen.point is None and seen.aim.verdict == "not_found"
    assert f"{seen.aim.score:.3f}" in seen.reason


@pytest.mark.parametrize("recorded, hit, problem", [
    ("", element("drawing area", path="/canvas"), None),
    ("Delete", element("drawing area", path="/canvas"), None),          # an unnamed surface carries no verb
    ("Delete", element("push button", "Delete"), None),
    ("Delete", element("push button", "Send"), "delete → send"),
    ("Star", element("push button", "Remove"), "no consequential verb → remove"),
    ("Star", element("push button", "Open"), None),
    ("Star", None, None),
])
def test_what_lies_under_a_re_aimed_point(recorded, hit, problem):
    found = hit_problem(step(recorded), None, hit)
    assert (found is None) if problem is None else (problem in found)


def test_the_recorded_surface_must_be_under_the_point():
    surface = element("drawing area", path="/canvas")
    assert hit_problem(step(), surface, element("drawing area", path="/canvas")) is None
    assert "nothing, not on the recorded drawing area" in hit_problem(step(), surface, None)
    assert "panel" in hit_problem(step(), surface, element("panel", path="/other"))


def test_a_consequential_label_makes_the_matcher_thorough(db, monkeypatch):
    """The canvas buttons share their shape: grey Save has a rival above 0.78,
    so a step recorded as 'Delete' is refused where an unlabelled one is re-aimed."""
    surface = element("drawing area", path="/canvas")
    monkeypatch.setattr(rung.live, "element_at", lambda x, y, window: surface)
    eyes = eyes_on(db, CANVAS, click=SAVE)
    plain = step(at=SAVE)
    assert eyes.fresh().see(plain, surface, window=None).verdict == "accepted"
    strict = eyes.fresh().see(replace(plain, target=replace(plain.target, name="Delete")), surface,
                              window=None)
    assert strict.verdict == "refused" and "consequential" in strict.reason


@pytest.mark.parametrize("with_eyes", [False, True])
def test_a_click_on_an_unnamed_surface_without_pictures_escalates_and_nothing_is_clicked(
        monkeypatch, with_eyes):
    """Where on a drawing area the person clicked is all that matters, and a
    program without crops of it cannot know: its centre would be a blind
    click. (With eyes that hold no crops of this step, the same.)"""
    from replay import policy

    surface = element("drawing area", path="/canvas")
    monkeypatch.setattr(policy, "_decide", lambda *args: policy.Decision(
        policy.Policy.DIRECT, surface, "the recorded path resolves to one element", 1.0))
    eyes = Eyes({}, lambda: pytest.fail("nothing to look at")) if with_eyes else None
    decision = policy.decide(step(), None, None, eyes)
    assert decision.policy == policy.Policy.ESCALATE and not decision.may_act and decision.element is None
    assert decision.reason == ("the recorded click landed on an unnamed drawing area and the program "
                               "holds no picture of where: its centre would be a guess; nothing was "
                               "clicked")
