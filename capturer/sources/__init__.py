"""The capture sources, each behind a small protocol (`base`), and the bundle
of factories the daemon makes them with. `Sources()` makes the real ones;
tests hand the daemon fakes. Each factory imports its library only when it is
called: python-xlib, mss and pynput need a display, pyatspi a session bus."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .base import AccessibilityBusSource, AccessibilitySource, IdleSource, InputSource, ScreenGrabber, WindowSource

if TYPE_CHECKING:
    from core.store import StoreWriter

    from ..config import Config
    from .input_listener import RawInput


def x11_windows(display: str) -> WindowSource:
    from .x11 import X11Source

    return X11Source(display)


def x11_answers(display: str) -> bool:
    from core.x11 import display_answers

    return display_answers(display)


def mss_screen(display: str, config: Config) -> ScreenGrabber:
    from .screen import ScreenSource

    return ScreenSource(display, thumbnail_width=config.capture.thumbnail_width)


def pynput_input(deliver: Callable[[RawInput], None]) -> InputSource:
    from .input_listener import InputListener

    return InputListener(deliver)


def no_idle_source(report: Callable[[bool], None], config: Config) -> IdleSource | None:
    """X11 has none: idle is the time since the last input the listeners saw."""
    return None


def atspi_worker(writer: StoreWriter, config: Config) -> AccessibilitySource:
    from .a11y import AccessibilityWorker

    return AccessibilityWorker(writer, config.accessibility, config.browsers)


def atspi_bus(display: str, on_lost: Callable[[str], None]) -> AccessibilityBusSource:
    from .a11y_bus import AccessibilityBusWatch

    return AccessibilityBusWatch(display, on_lost)


def sway_sources(swaysock: str) -> Sources:
    """The factories for a sway session (`session.Session`): windows from its
    IPC, pictures from grim, no input observation, and accessibility extents
    moved onto the screen through each window's rectangle."""
    def windows(_display: str) -> WindowSource:
        from .wayland.windows import SwaySource

        return SwaySource(swaysock)

    def answers(_display: str) -> bool:
        from .wayland.windows import answers as sway_answers

        return sway_answers(swaysock)

    def screen(_display: str, config: Config) -> ScreenGrabber:
        from .wayland.screen import GrimScreen

        return GrimScreen(thumbnail_width=config.capture.thumbnail_width)

    def accessibility(writer: StoreWriter, config: Config) -> AccessibilitySource:
        from .a11y import AccessibilityWorker
        from .wayland.extents import wayland_origin

        return AccessibilityWorker(writer, config.accessibility, config.browsers, origin=wayland_origin)

    def accessibility_bus(_display: str, on_lost: Callable[[str], None]) -> AccessibilityBusSource:
        return atspi_bus("", on_lost)   # no X root window to read the bus address from

    def idle(report: Callable[[bool], None], config: Config) -> IdleSource | None:
        from .wayland.idle import CompositorIdle

        return CompositorIdle(report, timeout_ms=round(config.capture.idle_after_seconds * 1000))

    from .wayland.input import no_input

    return Sources(windows=windows, answers=answers, screen=screen, input=no_input,
                   accessibility=accessibility, accessibility_bus=accessibility_bus, idle=idle,
                   display_kind="sway")


@dataclass(frozen=True, slots=True)
class Sources:
    """How the daemon makes each source. `windows` raises DisplayLost when
    the display cannot be reached; `answers` says cheaply whether it could
    be; `screen` and `input` may raise anything (capture goes on without
    pictures or input counts); `accessibility_bus` watches the AT-SPI bus
    the worker reads through; `idle`, where the compositor offers one, says
    when the person went idle (None: idle is input-less time)."""

    windows: Callable[[str], WindowSource] = x11_windows
    answers: Callable[[str], bool] = x11_answers
    screen: Callable[[str, Config], ScreenGrabber] = mss_screen
    input: Callable[[Callable[[RawInput], None]], InputSource] = pynput_input
    accessibility: Callable[[StoreWriter, Config], AccessibilitySource] = atspi_worker
    accessibility_bus: Callable[[str, Callable[[str], None]], AccessibilityBusSource] = atspi_bus
    idle: Callable[[Callable[[bool], None], Config], IdleSource | None] = no_idle_source
    display_kind: str = "X server"   # what a `display_lost` blind spot says went away
