"""The display supervisor on a fake desktop and a hand-driven clock:
reconnection back-off, listener restarts, sources that fail to start."""

from __future__ import annotations

from capturer.config import Config
from capturer.supervisor import Backoff, DisplaySupervisor
from support.fake_sources import ONE_MONITOR, FakeDesktop


class Clock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def supervisor(desktop: FakeDesktop, clock: Clock, events: list) -> DisplaySupervisor:
    return DisplaySupervisor(
        ":fake", Config(), desktop.sources(), deliver_input=lambda raw: None,
        on_up=lambda monitors: events.append(("up", clock.t, monitors)),
        on_down=lambda reason: events.append(("down", clock.t, reason)),
        on_source_error=lambda what, exc: events.append(("error", clock.t, what)),
        watch=lambda fd: events.append(("watch", clock.t, fd)),
        unwatch=lambda fd: events.append(("unwatch", clock.t, fd)), clock=clock)


def tick_until(display: DisplaySupervisor, clock: Clock, end: float, desktop: FakeDesktop) -> list[float]:
    """Tick every quarter second; the times at which a connection was tried."""
    attempts = []
    while clock.t < end:
        clock.t += 0.25
        before = desktop.connect_attempts
        display.tick()
        if desktop.connect_attempts > before:
            attempts.append(clock.t)
    return attempts


def test_backoff_waits_longer_after_each_failure_up_to_thirty_seconds():
    clock = Clock(0.0)
    backoff = Backoff(clock)
    waits = [backoff.failed() for _ in range(9)]
    assert waits == [0.5, 1, 2, 4, 8, 15, 30, 30, 30]
    assert not backoff.due()
    clock.t = 29.9
    assert not backoff.due()
    clock.t = 30.0
    assert backoff.due()
    backoff.succeeded()
    assert backoff.failed() == 0.5


def test_an_unreachable_display_is_tried_again_on_the_back_off_schedule():
    desktop, clock, events = FakeDesktop(), Clock(), []
    desktop.reachable = False
    display = supervisor(desktop, clock, events)
    assert not display.connect()
    attempts = tick_until(display, clock, 200.0, desktop)
    assert [t - 100 for t in attempts] == [0.5, 1.5, 3.5, 7.5, 15.5, 30.5, 60.5, 90.5]
    assert events == [("down", 100.0, "cannot connect to X display :fake")]  # said once
    desktop.reachable = True
    assert tick_until(display, clock, 230.0, desktop) == [220.5]
    assert events[-1] == ("up", 220.5, ONE_MONITOR)
    assert display.windows is desktop.connection and display.input is desktop.listener


def test_after_a_loss_the_schedule_starts_again_from_half_a_second():
    desktop, clock, events = FakeDesktop(), Clock(), []
    display = supervisor(desktop, clock, events)
    assert display.connect()
    fd = desktop.connection.fileno()
    desktop.reachable = False
    clock.t = 150.0
    display.lost("lost the X display")
    display.lost("lost the X display")
    assert [e for e in events if e[0] in ("down", "unwatch")] == [
        ("down", 150.0, "lost the X display"), ("unwatch", 150.0, fd)]
    assert (display.windows, display.screen, display.input) == (None, None, None)
    assert not desktop.listener.running
    assert tick_until(display, clock, 153.0, desktop) == [150.5, 151.5]


def test_dead_input_listeners_are_restarted_on_the_next_tick():
    desktop, clock, events = FakeDesktop(), Clock(), []
    display = supervisor(desktop, clock, events)
    display.connect()
    first = desktop.listener
    assert display.tick() and desktop.listeners_made == 1
    first.running = False
    assert display.tick()
    assert desktop.listeners_made == 2 and display.input is desktop.listener and desktop.listener.running


def test_a_screen_that_cannot_be_grabbed_is_a_source_error_not_a_lost_display():
    desktop, clock, events = FakeDesktop(), Clock(), []
    desktop.screen_fails = True
    display = supervisor(desktop, clock, events)
    assert display.connect()
    assert [e[0] for e in events] == ["watch", "error", "up"]
    assert events[1] == ("error", 100.0, "screen")
    assert display.screen is None and display.windows is not None and display.input is not None
