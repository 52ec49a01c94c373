"""The pictures capture keeps: a thumbnail per monitor at most once per
`screenshot_interval_seconds`, and a crop around each click. Both are
stored as content-addressed blobs.

What a picture must not show, decided at the moment of the grab:
- windows the exclusion rules hide (and apps the person keeps out of
  pictures, `[privacy] no_pictures`) are painted black — their rectangles
  are read from X at each grab, never from a cache: a window moved a tenth
  of a second ago is blacked out where it is now;
- the inside of every editable text field and password field the
  accessibility tree knows (the cached walks of the windows on screen, and
  the field that last took keyboard focus), moved with its window, is
  painted grey — outside an explicit recording; password fields always. In a
  click crop those pixels are also transparent, so visual re-aiming leaves
  them out of matching.
"""

from __future__ import annotations

from collections.abc import Callable

from core.store import BlobRow, StoreWriter

from .config import Config
from .privacy import excluding_rule
from .sources.base import AccessibilitySource, DisplayLost, EncodedImage, FieldMask, Monitor, Rect, WindowInfo
from .supervisor import DisplaySupervisor

# Masks cover a field's inside: its border stays, for visual re-aiming.
MASK_INSET_PX = 2


class Pictures:
    """`on_error(what, exc)` hears about a failed grab; capture goes on.
    `recording()` says whether an explicit recording is in progress."""

    def __init__(self, writer: StoreWriter, config: Config, display: DisplaySupervisor,
                 a11y: AccessibilitySource, recording: Callable[[], bool],
                 on_error: Callable[[str, Exception], None]) -> None:
        self._writer = writer
        self._settings = config.capture
        self._exclusions = config.exclusions
        self._no_pictures = frozenset(config.no_pictures)
        self._display = display
        self._a11y = a11y
        self._recording = recording
        self._on_error = on_error
        self._last_thumbnail_ms: dict[int, int] = {}

    def thumbnail(self, monitor: Monitor, now: int, focus: WindowInfo | None = None) -> str | None:
        """The blob of a new thumbnail of `monitor` when one is due and the
        screen changed, else None (also while a no-pictures app has focus).
        A lost display is raised, not reported."""
        screen = self._display.screen
        if not self._settings.screenshots or screen is None:
            return None
        if focus is not None and focus.app in self._no_pictures:
            return None
        last = self._last_thumbnail_ms.get(monitor.index, 0)
        if now - last < self._settings.screenshot_interval_seconds * 1000:
            return None
        try:
            redact, masks = self._hidden()
            image = screen.thumbnail(monitor, redact, masks)
        except DisplayLost:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed grab costs one thumbnail, not capture
            self._on_error("screenshot", exc)
            return None
        self._last_thumbnail_ms[monitor.index] = now
        return self._store(image, now) if image is not None else None

    def click_crop(self, x: int, y: int, monitor: Monitor, ts_ms: int,
                   window: WindowInfo | None = None) -> str | None:
        """The blob of a crop around a click, or None (also in a no-pictures app)."""
        screen = self._display.screen
        if not self._settings.click_crops or screen is None:
            return None
        if window is not None and window.app in self._no_pictures:
            return None
        try:
            redact, masks = self._hidden()
            return self._store(screen.click_crop(x, y, monitor, redact, masks), ts_ms)
        except Exception as exc:  # noqa: BLE001 - the click is stored without its picture
            self._on_error("click crop", exc)
            return None

    def _store(self, image: EncodedImage, ts_ms: int) -> str:
        self._writer.submit(BlobRow(image.sha256, image.kind, image.media_type, image.width,
                                    image.height, image.data, ts_ms))
        return image.sha256

    def _hidden(self) -> tuple[list[Rect], list[Rect]]:
        """(rectangles to black out, rectangles to mask) as the screen is now."""
        windows = self._display.windows
        if windows is None:
            return [], []
        redact = [(w.x, w.y, w.width, w.height) for w in windows.visible_windows()
                  if w.app in self._no_pictures or excluding_rule(self._exclusions, w)]
        return redact, self._masks(windows)

    def _masks(self, windows) -> list[Rect]:
        recording = self._recording()
        masks: list[FieldMask] = [m for m in self._a11y.field_masks() if m.secret or not recording]
        where: dict[int, WindowInfo | None] = {}
        rects = []
        for mask in masks:
            if mask.window_id not in where:
                where[mask.window_id] = windows.describe(mask.window_id)
            now = where[mask.window_id]
            if now is None:
                continue   # the window is gone: nothing of it is on screen
            x, y, w, h = mask.rect
            dx, dy = now.x - mask.origin[0], now.y - mask.origin[1]
            inset = min(MASK_INSET_PX, (w - 1) // 2, (h - 1) // 2)
            rects.append((x + dx + inset, y + dy + inset, w - 2 * inset, h - 2 * inset))
        return rects
