"""The pictures capture keeps: a thumbnail per monitor at most once per
`screenshot_interval_seconds`, and a crop around each click. Windows the
exclusion rules hide are blacked out of both: pictures must not show what a
blind spot hides. Both are stored as content-addressed blobs."""

from __future__ import annotations

from collections.abc import Callable

from core.store import BlobRow, StoreWriter

from .config import Config
from .privacy import excluding_rule
from .sources.base import DisplayLost, EncodedImage, Monitor, Rect
from .supervisor import DisplaySupervisor

# Listing windows costs a few round trips each; their rectangles are
# reused for this long.
REDACT_CACHE_S = 2.0


class Pictures:
    """`on_error(what, exc)` hears about a failed grab; capture goes on."""

    def __init__(self, writer: StoreWriter, config: Config, display: DisplaySupervisor,
                 clock: Callable[[], float], on_error: Callable[[str, Exception], None]) -> None:
        self._writer = writer
        self._settings = config.capture
        self._exclusions = config.exclusions
        self._display = display
        self._clock = clock
        self._on_error = on_error
        self._last_thumbnail_ms: dict[int, int] = {}
        self._redact_cache: tuple[float, list[Rect]] | None = None

    def thumbnail(self, monitor: Monitor, now: int) -> str | None:
        """The blob of a new thumbnail of `monitor` when one is due and the
        screen changed, else None. A lost display is raised, not reported."""
        screen = self._display.screen
        if not self._settings.screenshots or screen is None:
            return None
        last = self._last_thumbnail_ms.get(monitor.index, 0)
        if now - last < self._settings.screenshot_interval_seconds * 1000:
            return None
        try:
            image = screen.thumbnail(monitor, self._excluded_rects())
        except DisplayLost:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed grab costs one thumbnail, not capture
            self._on_error("screenshot", exc)
            return None
        self._last_thumbnail_ms[monitor.index] = now
        return self._store(image, now) if image is not None else None

    def click_crop(self, x: int, y: int, monitor: Monitor, ts_ms: int) -> str | None:
        """The blob of a crop around a click, or None."""
        screen = self._display.screen
        if not self._settings.click_crops or screen is None:
            return None
        try:
            return self._store(screen.click_crop(x, y, monitor, self._excluded_rects()), ts_ms)
        except Exception as exc:  # noqa: BLE001 - the click is stored without its picture
            self._on_error("click crop", exc)
            return None

    def _store(self, image: EncodedImage, ts_ms: int) -> str:
        self._writer.submit(BlobRow(image.sha256, image.kind, image.media_type, image.width,
                                    image.height, image.data, ts_ms))
        return image.sha256

    def _excluded_rects(self) -> list[Rect]:
        """Rectangles of visible excluded windows, cached briefly."""
        now = self._clock()
        cached = self._redact_cache
        if cached is not None and now - cached[0] < REDACT_CACHE_S:
            return cached[1]
        rects = []
        windows = self._display.windows
        if windows is not None:
            for window in windows.visible_windows():
                if excluding_rule(self._exclusions, window):
                    rects.append((window.x, window.y, window.width, window.height))
        self._redact_cache = (now, rects)
        return rects
