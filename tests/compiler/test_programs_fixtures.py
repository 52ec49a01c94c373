"""Hand-built captures and traces shared by the program-compiler tests (no
desktop needed). Imported by the other test_programs_* modules; it holds no
tests itself."""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.programs.traces import Recording, Trace, TraceAction
from compiler.records import Action, Capture, Element, InputEvent, Snapshot, Step

APP = "Form"
FRAME = "Form/frame[@name='Sign up']/panel"
NAME = Element(11, "text", "", "Name", f"{FRAME}/text[@label='Name']")
EMAIL = Element(12, "text", "", "Email", f"{FRAME}/text[@label='Email']")
SUBMIT = Element(13, "push button", "Submit", None, f"{FRAME}/push button[@name='Submit'][2]")
PASSWORD = Element(14, "password text", "", "Password", f"{FRAME}/password text[@label='Password']")
HELP = Element(15, "push button", "Help", None, f"{FRAME}/push button[@name='Help']")
CROP_NAME = "a" * 64
CROP_EMAIL = "b" * 64
CROP_SUBMIT = "c" * 64


@dataclass
class CaptureBuilder:
    """Snapshots and input rows in time order, with ids handed out in order."""

    snapshots: list[Snapshot] = field(default_factory=list)
    inputs: list[InputEvent] = field(default_factory=list)
    next_id: int = 1

    def _id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def snapshot(self, ts: int, app: str = APP, *, title: str = "Sign up", focused: bool = True,
                 trigger: str = "focus") -> "CaptureBuilder":
        self.snapshots.append(Snapshot(self._id(), ts, 60, "Europe/Berlin", 0, trigger, app, title,
                                       None, False, focused))
        return self

    def click(self, ts: int, element: Element | None, *, x: int = 10, y: int = 20,
              crop: str | None = None, recording: int | None = None,
              resolution: str = "exact") -> "CaptureBuilder":
        self.inputs.append(InputEvent(self._id(), ts, ts, 0, "click", 1, None, x, y,
                                      resolution if element is not None else "none", element,
                                      recording, None, crop))
        return self

    def type(self, ts: int, element: Element | None, text: str | None, *,
             recording: int | None = None, count: int | None = None) -> "CaptureBuilder":
        keys = count if count is not None else max(len(text or ""), 1)
        self.inputs.append(InputEvent(self._id(), ts, ts + 500, 0, "text", keys, None, None, None,
                                      None, element, recording, text))
        return self

    def key(self, ts: int, key: str, *, recording: int | None = None) -> "CaptureBuilder":
        self.inputs.append(InputEvent(self._id(), ts, ts, 0, "key", 1, key, None, None, None, None,
                                      recording, None))
        return self

    def build(self, since: int = 0, until: int = 10_000_000) -> Capture:
        snapshots = tuple(sorted(self.snapshots, key=lambda s: (s.ts_ms, s.id)))
        inputs = tuple(sorted(self.inputs, key=lambda e: (e.ts_ms, e.id)))
        return Capture("phantom", 2, since, until, snapshots, inputs, ())


def fill_form(builder: CaptureBuilder, start: int, recording: int, name: str | None,
              email: str | None) -> Recording:
    """One demonstration of the sign-up form: click Name, type, click Email,
    type, click Submit."""
    builder.click(start + 100, NAME, x=100, y=200, crop=CROP_NAME, recording=recording)
    builder.type(start + 300, NAME, name, recording=recording)
    builder.click(start + 2000, EMAIL, x=100, y=240, crop=CROP_EMAIL, recording=recording)
    builder.type(start + 2200, EMAIL, email, recording=recording)
    builder.click(start + 4000, SUBMIT, x=300, y=400, crop=CROP_SUBMIT, recording=recording)
    return Recording(recording, "sign up", start, start + 5000)


def form_capture(values: list[tuple[str | None, str | None]]) -> tuple[Capture, tuple[Recording, ...]]:
    """A capture with one recording per (name, email) pair, 20 s apart,
    the form app focused before the first one."""
    builder = CaptureBuilder().snapshot(500)
    recordings = tuple(fill_form(builder, 1000 + 20_000 * n, n + 1, name, email)
                       for n, (name, email) in enumerate(values))
    return builder.build(), recordings


# -- traces without a capture -------------------------------------------------------------
def act(kind: str, target: str, *, text: str | None = None, ts: int = 0, app: str = APP,
        label: str | None = None, role: str = "push button") -> TraceAction:
    """A trace action whose step is named by `target` (a label)."""
    if kind in ("click", "type"):
        label = label if label is not None else target
        path = f"{FRAME}/{role}[@name='{label}']"
        step = Step(kind, app, path, role, label, True)
    else:
        step = Step(kind, app, target)
    return TraceAction(Action(step, ts, ts, 0, (f"input_events:{ts}",), text))


def trace(origin: str, *names: str) -> Trace:
    """A trace of clicks on buttons with these labels."""
    return Trace(origin, tuple(act("click", name, ts=n) for n, name in enumerate(names)))


# -- a real store --------------------------------------------------------------------------
def write_store(path, capture: Capture, recordings, running: tuple = ()) -> None:
    """Write a hand-built capture and its recordings into a Phantom store
    (`running`: (id, name, start) of recordings not stopped yet)."""
    from core.store import open_store
    from core.store.records import BlobRow, ElementRow, InputEventRow, RecordingRow, SnapshotRow, insert_sql

    rows = [RecordingRow(r.id, r.name, r.start_ms, r.end_ms) for r in recordings]
    rows += [RecordingRow(rid, name, start, None) for rid, name, start in running]
    elements = {e.element.id: e.element for e in capture.inputs if e.element is not None}
    rows += [ElementRow(e.id, None, None, 0, 0, e.role, e.name, "", e.labelled_by, "", None, None,
                        None, None, e.path) for _, e in sorted(elements.items())]
    crops = sorted({e.crop for e in capture.inputs if e.crop})
    rows += [BlobRow(sha, "click_crop", "image/png", 1, 1, b"png", 0) for sha in crops]
    rows += [SnapshotRow(s.id, s.ts_ms, s.utc_offset_min, s.tz_name, s.monitor, s.trigger, s.app, "",
                         None, None, s.title, s.url, int(s.idle), int(s.focused), None, None)
             for s in capture.snapshots]
    rows += [InputEventRow(e.id, e.ts_ms, e.end_ms, e.monitor, e.kind, e.count, e.key, None, e.x, e.y,
                           e.element.id if e.element else None, e.resolution, e.crop, e.recording_id,
                           e.text) for e in capture.inputs]
    connection = open_store(path)
    try:
        with connection:
            for row in rows:
                connection.execute(insert_sql(type(row)), row.values())
    finally:
        connection.close()
