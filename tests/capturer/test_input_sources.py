"""What the capture's X and accessibility sources do per piece of input, on
the virtual desktop: the costs a real hand brings (pointer motion, keys into
a child window, clicks on empty space) are not paid for nothing, and the
answers stay right while they are saved.
"""

from __future__ import annotations

import time

import pytest

from support.apps import app_by_pid, center, find
from support.daemon import settle
from testbed.executables import executable

pytestmark = pytest.mark.desktop


@pytest.fixture
def pointer(desktop):
    from replay.xinput import XTestInput

    scripted = XTestInput(desktop.display)
    yield scripted
    scripted.close()


def test_the_mouse_listener_is_sent_presses_and_no_motion(desktop, apps, pointer):
    """A moving mouse sends the X server ~125 motion events a second; pynput
    records them all unless told not to. The listener must be handed the
    click alone: one event for 150 motions, a press and a release."""
    from capturer.sources.input_listener import InputListener, RawClick
    from testbed.waiting import wait_until

    apps("form", "--geometry", "320x230+20+20")
    delivered: list[object] = []
    listener = InputListener(delivered.append)
    listener.start()
    try:
        handled = []
        mouse = listener._mouse
        original = mouse._handle_message
        mouse._handle_message = lambda *args: (handled.append(args[1].type), original(*args))
        for step in range(150):
            pointer.move(30 + step, 40 + step // 2)
            time.sleep(0.002)
        pointer.click(200, 120)
        wait_until(lambda: any(isinstance(e, RawClick) for e in delivered), timeout=5, what="the click")
        settle(0.3)
    finally:
        listener.stop()
    clicks = [e for e in delivered if isinstance(e, RawClick)]
    assert [(c.x, c.y) for c in clicks] == [(200, 120)]
    assert clicks[0].window is not None and clicks[0].window.app == "phantom-form"
    assert len(handled) == 1, f"the listener parsed {len(handled)} events for one click"


def test_scrolls_still_reach_the_listener(desktop, apps, pointer):
    """Scrolls are button presses (4 and 5) too: recording presses alone
    keeps them, one RawScroll per notch, over the window under the pointer."""
    from capturer.sources.input_listener import InputListener, RawClick, RawScroll
    from testbed.waiting import wait_until

    form = apps("form", "--geometry", "320x230+20+20")
    window = desktop.wait_for_window("phantom-form", pid=form.pid)
    delivered: list[object] = []
    listener = InputListener(delivered.append)
    listener.start()
    try:
        pointer.scroll(150, 100, steps=3, down=True)
        pointer.scroll(150, 100, steps=2, down=False)
        wait_until(lambda: sum(isinstance(e, RawScroll) for e in delivered) >= 5, timeout=5,
                   what="five scroll notches")
        settle(0.3)
    finally:
        listener.stop()
    scrolls = [e for e in delivered if isinstance(e, RawScroll)]
    assert len(scrolls) == 5
    assert {(s.x, s.y, s.window_id) for s in scrolls} == {(150, 100, window)}
    assert not any(isinstance(e, RawClick) for e in delivered), "a scroll is not a click"


def test_only_windows_over_the_grab_are_described(desktop, apps):
    """A click's crops ask only about the windows they could show; a
    thumbnail (the whole monitor) still hears about every one."""
    from capturer.sources.x11 import X11Source

    apps("form", "--geometry", "300x200+20+20")
    apps("notes", "--geometry", "300x200+500+300")
    settle(0.5)
    source = X11Source(desktop.display)
    try:
        everywhere = {w.app for w in source.visible_windows()}
        near_form = {w.app for w in source.visible_windows((100, 100, 64, 64))}
        near_both = {w.app for w in source.visible_windows((300, 200, 256, 256))}
        nowhere = source.visible_windows((1000, 20, 50, 50))
    finally:
        source.close()
    assert {"phantom-form", "phantom-notes"} <= everywhere
    assert near_form == {"phantom-form"}
    assert near_both == {"phantom-form", "phantom-notes"}
    assert nowhere == []


def test_framed_windows_are_described_from_the_frame_cache(managed_desktop):
    """With a window manager the root's children are frames; the client
    found in each is remembered, and a window closed or opened since is
    seen at the next grab."""
    from capturer.sources.x11 import X11Source

    desktop = managed_desktop
    form = desktop.launch_fixture("form", "--geometry", "300x200+20+20")
    notes = desktop.launch_fixture("notes", "--geometry", "300x200+500+300")
    for process, wm_class in ((form, "phantom-form"), (notes, "phantom-notes")):
        desktop.wait_for_window(wm_class, pid=process.pid)
    settle(0.8)
    source = X11Source(desktop.display)
    other = None
    try:
        first = {w.app: (w.x, w.y) for w in source.visible_windows()}
        again = {w.app: (w.x, w.y) for w in source.visible_windows()}
        desktop.close_app(notes)
        settle(0.8)
        source.drain_events()
        after_close = {w.app for w in source.visible_windows()}
        other = desktop.launch_fixture("browser", "--geometry", "300x150+100+500")
        desktop.wait_for_window("phantom-browser", pid=other.pid)
        settle(0.8)
        after_open = {w.app for w in source.visible_windows()}
        source.drain_events()
        drained = {w.app for w in source.visible_windows()}
    finally:
        source.close()
        for process in (form, notes, other):
            if process is not None and process in desktop.apps:
                desktop.close_app(process)
    assert {"phantom-form", "phantom-notes"} <= set(first) and first == again
    assert "phantom-notes" not in after_close and "phantom-form" in after_close
    assert {"phantom-form", "phantom-browser"} <= after_open == drained


def test_keyboard_window_follows_focus_between_children(desktop, apps):
    """The climb from a focused child to its top-level is remembered; moving
    the focus to another window (and back) still names the right one."""
    from capturer.sources.receiver import ReceiverProbe

    form = apps("form", "--geometry", "300x200+20+20")
    notes = apps("notes", "--geometry", "300x200+500+300")
    form_window = desktop.wait_for_window("phantom-form", pid=form.pid)
    notes_window = desktop.wait_for_window("phantom-notes", pid=notes.pid)
    probe = ReceiverProbe(desktop.display)
    try:
        answers = []
        for window in (form_window, notes_window, form_window, notes_window):
            desktop.run([executable("xdotool"), "windowfocus", "--sync", str(window)])
            settle(0.2)
            answers.append((probe.keyboard_window(), probe.keyboard_window()))
    finally:
        probe.close()
    expected = [form_window, notes_window, form_window, notes_window]
    assert answers == [(w, w) for w in expected]


class _Rows:
    class _Ids:
        def __init__(self) -> None:
            self.last = 0

        def next(self, _table: str) -> int:
            self.last += 1
            return self.last

    def __init__(self) -> None:
        self.ids = self._Ids()
        self.rows: list[object] = []

    def submit(self, row) -> None:
        self.rows.append(row)


def test_a_click_on_space_the_walk_shows_empty_is_asked_once(desktop, apps, monkeypatch):
    """Polling a container answer (the application may be re-laying itself
    out) is for the first click into a window, or where its walk has a
    control; on space the walk shows empty the first answer stands."""
    import pyatspi

    import capturer.sources.a11y_reads as reads_module
    from capturer.sources.receiver import ReceiverProbe
    from core.a11y.tree import WalkLimits

    form = apps("form", "--geometry", "320x230+20+20")
    window_id = desktop.wait_for_window("phantom-form", pid=form.pid)
    settle(0.5)
    probe = ReceiverProbe(desktop.display)
    window = probe.describe(window_id)
    probe.close()
    submit = find(app_by_pid(form.pid), "push button", name="Submit")
    queries = []
    real = reads_module.hit_test
    monkeypatch.setattr(reads_module, "hit_test", lambda *a, **k: (queries.append(a[1:3]), real(*a, **k))[1])

    unwalked = reads_module.TreeReads(pyatspi, _Rows(), WalkLimits(), frozenset())
    walked = reads_module.TreeReads(pyatspi, _Rows(), WalkLimits(), frozenset())
    walked.tree_for(window)
    blank = (window.x + window.width - 6, window.y + window.height - 6)

    first = unwalked.hit_test(window, *blank)
    polled = len(queries)
    queries.clear()
    later = walked.hit_test(window, *blank)
    assert first.resolution in ("zone", "none") and later.resolution in ("zone", "none")
    assert polled >= 2, "the first click into a window polls a container answer"
    assert len(queries) == 1, "empty space in the walk is answered by the first query"

    queries.clear()
    on_button = walked.hit_test(window, *center(submit))
    assert (on_button.resolution, on_button.role, on_button.name) == ("exact", "push button", "Submit")
    assert len(queries) == 1
