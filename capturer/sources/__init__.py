"""The capture sources, each behind a small protocol (`base`), and the bundle
of factories the daemon makes them with. `Sources()` makes the real ones;
tests hand the daemon fakes. Each factory imports its library only when it is
called: python-xlib, mss and pynput need a display, pyatspi a session bus."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .base import AccessibilitySource, InputSource, ScreenGrabber, WindowSource

if TYPE_CHECKING:
    from core.store import StoreWriter

    from ..config import Config


def x11_windows(display: str) -> WindowSource:
    from .x11 import X11Source

    return X11Source(display)


def mss_screen(display: str, config: Config) -> ScreenGrabber:
    from .screen import ScreenSource

    return ScreenSource(display, thumbnail_width=config.capture.thumbnail_width)


def pynput_input(deliver: Callable[[object], None]) -> InputSource:
    from .input_listener import InputListener

    return InputListener(deliver)


def atspi_worker(writer: StoreWriter, config: Config) -> AccessibilitySource:
    from .a11y import AccessibilityWorker

    return AccessibilityWorker(writer, config.accessibility, config.browsers)


@dataclass(frozen=True, slots=True)
class Sources:
    """How the daemon makes each source. `windows` raises DisplayLost when
    the display cannot be reached; `screen` and `input` may raise anything
    (capture goes on without pictures or input counts)."""

    windows: Callable[[str], WindowSource] = x11_windows
    screen: Callable[[str, Config], ScreenGrabber] = mss_screen
    input: Callable[[Callable[[object], None]], InputSource] = pynput_input
    accessibility: Callable[[StoreWriter, Config], AccessibilitySource] = atspi_worker
