"""What every capture source promises: the records it hands out and the small
protocol it follows, so the daemon can run on fakes as well as on the real
desktop. Nothing here touches a display; the real sources import their
libraries (python-xlib, mss, pynput, pyatspi) themselves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from core.errors import PhantomError
from core.geometry import Rect

from ..input_counts import FieldRef

if TYPE_CHECKING:
    from PIL.Image import Image


class DisplayLost(PhantomError, ConnectionError):
    """The X server is gone (or never answered): `unavailable`, one line for
    whoever started capture, and a connection error for the supervisor that
    reconnects."""

    code = "unavailable"


@dataclass(frozen=True, slots=True)
class WindowInfo:
    """A top-level client window as the capturer sees it. X reuses window
    ids: `generation` counts how often this id was destroyed or unmapped
    before, and with the owning pid it tells a new client with an old id
    from the window that had it (`key`)."""

    window_id: int
    app: str
    wm_class: str
    pid: int | None
    executable: str | None
    title: str
    x: int
    y: int
    width: int
    height: int
    generation: int = 0

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.width // 2, self.y + self.height // 2

    @property
    def key(self) -> tuple[int, int, int | None]:
        """What makes two descriptions one window: X id, generation, pid."""
        return self.window_id, self.generation, self.pid


@dataclass(frozen=True, slots=True)
class Monitor:
    """One monitor's rectangle in root coordinates."""

    index: int
    name: str
    x: int
    y: int
    width: int
    height: int
    primary: bool

    def contains(self, px: int, py: int) -> bool:
        return self.x <= px < self.x + self.width and self.y <= py < self.y + self.height


@dataclass(frozen=True, slots=True)
class EncodedImage:
    """An encoded image ready to store as a content-addressed blob."""

    sha256: str
    kind: str
    media_type: str
    width: int
    height: int
    data: bytes


@dataclass(frozen=True, slots=True)
class A11yContext:
    """What the accessibility worker knows about a window for its snapshot."""

    status: str                  # ok | no_app | hung | unavailable | disabled | slow
    tree_id: int | None = None
    url: str | None = None
    since_ms: int | None = None  # hung: when the first call the application left unanswered was made
    detail: str = ""             # no_app: the toolkit and what would expose it (core.a11y.exposure)


@dataclass(frozen=True, slots=True)
class HitResult:
    """The element under a click and how it was resolved."""

    element_id: int | None
    resolution: str              # exact | tolerance | zone | none
    role: str | None = None      # the element, inline (what the store keeps with the click)
    name: str | None = None
    path: str | None = None


@dataclass(frozen=True, slots=True)
class FieldMask:
    """Where a window shows text a person typed: an editable field's (or a
    password field's) rectangle on the desktop as the accessibility tree
    last read it, and the window's top-left corner then — a window that has
    moved since moves its masks with it.

    A `chrome` mask is a browser's address bar: the whole box around it
    (its dropdown too, once the walk has seen it open), covered frame and
    all and whatever the recording, because what it shows is the page's
    full URL — query and fragment included, which the stored URL never
    keeps — not text the person chose to record. `size` is the window's
    size when it was read: the bar of a window resized since is elsewhere."""

    window_id: int
    origin: tuple[int, int]
    rect: Rect
    secret: bool
    chrome: bool = False
    size: tuple[int, int] | None = None


class WindowSource(Protocol):
    """Windows, focus, titles and monitors of one X display (`X11Source`).
    Any call may raise DisplayLost."""

    def fileno(self) -> int:
        """A descriptor that becomes readable when `drain_events` has news."""

    def close(self) -> None: ...

    def focused_window_id(self) -> int | None: ...

    def describe(self, window_id: int) -> WindowInfo | None:
        """None when the window vanished."""

    def watch_title(self, window_id: int | None) -> None: ...

    def drain_events(self) -> set[str]:
        """What the pending events signal: 'focus' and/or 'title'."""

    def visible_windows(self, within: Rect | None = None) -> list[WindowInfo]:
        """Mapped top-level windows; with `within`, only those overlapping it."""

    def window_alive(self, window_id: int) -> bool: ...

    def monitors(self) -> tuple[Monitor, ...]: ...


class ScreenGrabber(Protocol):
    """Thumbnails and the regions click crops are cut from (`ScreenSource`)."""

    def close(self) -> None: ...

    def thumbnail(self, monitor: Monitor, redact: Sequence[Rect] = (),
                  masks: Sequence[Rect] = ()) -> EncodedImage | None:
        """None when the monitor shows what its previous thumbnail showed.
        `redact` is painted black, `masks` grey (root coordinates)."""

    def region(self, rect: Rect) -> Image:
        """The pixels of `rect` (root coordinates) as an RGB Pillow image;
        nothing painted: the capture hook masks what must not be kept."""


class InputSource(Protocol):
    """Keyboard and mouse listeners (`InputListener`); they call the
    `deliver` they were made with, from their own threads."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def alive(self) -> bool: ...


class IdleSource(Protocol):
    """The compositor's own word on idle (`CompositorIdle`, Wayland): it
    calls the `report(idle)` it was made with, from its own thread."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def alive(self) -> bool: ...


class AccessibilitySource(Protocol):
    """The accessibility worker (`AccessibilityWorker`); thread-safe, and
    every answer is a Future."""

    status: str
    last_error: str | None

    @property
    def initialised(self) -> bool:
        """Whether libatspi was set up in this process (it cannot be set up
        twice: a returning bus needs a fresh process)."""

    def start(self) -> bool: ...

    def stop(self) -> None: ...

    def lose(self, reason: str) -> None:
        """The bus went away: no more calls into libatspi; every request is
        answered at once as unavailable."""

    def hung_bus_name(self, pid: int | None) -> str | None:
        """The accessibility-bus name of an application found hung."""

    def answered(self, pid: int | None) -> None:
        """A hung application answers again: read it again."""

    def set_target(self, window: WindowInfo | None) -> None: ...

    def context(self, window: WindowInfo) -> Future[A11yContext]: ...

    def focused_field(self, window: WindowInfo) -> Future[FieldRef | None]: ...

    def hit_test(self, window: WindowInfo, x: int, y: int) -> Future[HitResult]: ...

    def field_masks(self) -> tuple[FieldMask, ...]:
        """Every editable field known now: of each window whose tree is
        cached, and the field that last took keyboard focus (known from
        focus events even when a walk stopped short of it)."""

    def forget_trees(self) -> Future[None]:
        """Drop cached walks whose rows a forget removes; done when dropped."""


class AccessibilityBusSource(Protocol):
    """The daemon's own watch on the AT-SPI bus (`AccessibilityBusWatch`),
    used from the event loop: `on_lost(reason)`, given when it was made, is
    called the moment the bus connection drops."""

    async def connect(self) -> str | None:
        """Find the bus and hold a connection to it; None when connected,
        else why not (one line)."""

    async def answers(self, bus_name: str, timeout: float) -> bool:
        """Whether the application at `bus_name` answers an accessibility
        call within `timeout` (a name that is gone answers too: it is not hung)."""

    async def close(self) -> None: ...


T = TypeVar("T")
F = TypeVar("F")


async def await_answer(future: Future[T], budget: float, fallback: F) -> T | F:
    """A threaded source's answer if it comes within `budget` seconds, else
    `fallback`. Shielded: giving up waiting must not cancel the request,
    whose late answer may still matter."""
    try:
        answer: T = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), budget)
    except Exception:  # noqa: BLE001 - the answer arrives late (a timeout) or never
        return fallback
    return answer
