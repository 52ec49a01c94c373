"""The pictures capture keeps: a thumbnail per monitor at most once per
`screenshot_interval_seconds`, and a click's visual evidence — three crops
around it (target 64 px, context 128 px, wide 256 px; docs/VISUAL.md §1),
made by the capture hook `core.visual_evidence.crop_variants` from one grab
of the widest crop's place (at most 256×256, inside the receiving window and
the monitor). All are stored as content-addressed blobs; a click's crops
also get `click_evidence` rows (their places, the click's place in each, the
window's rectangle), and its input row names the target crop's blob.

What a picture must not show, decided at the moment of the grab:
- windows the exclusion rules hide (and apps the person keeps out of
  pictures, `[privacy] no_pictures`) are painted black — their rectangles
  are read from X at each grab, never from a cache: a window moved a tenth
  of a second ago is blacked out where it is now;
- the inside of every editable text field and password field the
  accessibility tree knows (the cached walks of the windows on screen, and
  the field that last took keyboard focus), moved with its window, is
  painted over — outside an explicit recording; password fields always. In
  a click's crops both are black and transparent (alpha 0), so visual
  re-aiming leaves them out of matching;
- a browser's address bar is blacked out whole, with its frame and its
  dropdown, recording or not (`FieldMask.chrome`): it shows the page's full
  URL, whose query and fragment the stored URL never keeps. A browser
  window whose bar the accessibility worker has not read as it is now has
  the band of its toolbars blacked out instead (`_chrome`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.geometry import Rect, intersect
from core.store import BlobRow, ClickEvidenceRow, StoreWriter
from core.visual_evidence import MEDIA_TYPE as CROP_MEDIA_TYPE
from core.visual_evidence import CropVariant, Masks, crop_variants, evidence_region

from .config import Config
from .privacy import excluding_rule
from .sources.base import AccessibilitySource, DisplayLost, EncodedImage, FieldMask, Monitor, WindowInfo, WindowSource
from .supervisor import DisplaySupervisor

# Thumbnail masks cover a field's inside: its border stays. (A click's crops
# keep `core.visual_evidence.FIELD_FRAME_PX` of it.)
MASK_INSET_PX = 2
# How far down from a browser window's top its toolbars may reach: tabs,
# the navigation bar and a bookmarks bar (Firefox ESR: 85 px without, 115
# with; Chromium about as much), with room for a shown menu bar.
BROWSER_CHROME_BAND_PX = 150


@dataclass(frozen=True, slots=True)
class ClickPictures:
    """A click's crops (smallest first, already submitted as blobs) and the
    rectangle of the window that received it (None when the click lay
    outside it: the crops were then placed inside the monitor)."""

    crops: tuple[CropVariant, ...]
    window: Rect | None

    @property
    def target(self) -> str | None:
        """The target crop's blob: what `input_events.crop` names."""
        return next((c.sha256 for c in self.crops if c.kind == "target"), None)

    def rows(self, input_id: int) -> list[ClickEvidenceRow]:
        window = self.window or (None, None, None, None)
        return [ClickEvidenceRow(input_id, c.kind, c.sha256, c.x, c.y, c.width, c.height, c.ratio_x,
                                 c.ratio_y, *window) for c in self.crops]


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
        self._browsers = frozenset(config.browsers)
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
            redact, masks = self._hidden((monitor.x, monitor.y, monitor.width, monitor.height))
            image = screen.thumbnail(monitor, redact, masks)
        except DisplayLost:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed grab costs one thumbnail, not capture
            self._on_error("screenshot", exc)
            return None
        self._last_thumbnail_ms[monitor.index] = now
        return self._store(image, now) if image is not None else None

    def click_evidence(self, x: int, y: int, monitor: Monitor, ts_ms: int,
                       window: WindowInfo | None = None) -> ClickPictures | None:
        """The crops around a click in `window` (the window under the
        pointer), their blobs submitted; None when pictures are off, in a
        no-pictures app, or when the grab failed (the click is stored
        without its pictures)."""
        screen = self._display.screen
        if not self._settings.click_crops or screen is None:
            return None
        if window is not None and window.app in self._no_pictures:
            return None
        bounds = (monitor.x, monitor.y, monitor.width, monitor.height)
        rect = (window.x, window.y, window.width, window.height) if window is not None else None
        region = evidence_region(x, y, rect, bounds) if rect is not None else None
        if region is None:      # the click lay outside the window (its frame, say): the monitor bounds it
            rect, region = None, evidence_region(x, y, bounds, bounds)
        if region is None:
            return None
        try:
            redact, fields = self._hidden(region, inset=0)
            image = screen.region(region)
            crops = crop_variants(image, x, y, rect or bounds, Masks(tuple(redact), tuple(fields)),
                                  origin=(region[0], region[1]))
        except Exception as exc:  # noqa: BLE001 - the click is stored without its pictures
            self._on_error("click crop", exc)
            return None
        for crop in crops:
            self._writer.submit(BlobRow(crop.sha256, "click_crop", CROP_MEDIA_TYPE, crop.width, crop.height,
                                        crop.data, ts_ms))
        return ClickPictures(crops, rect) if crops else None

    def _store(self, image: EncodedImage, ts_ms: int) -> str:
        self._writer.submit(BlobRow(image.sha256, image.kind, image.media_type, image.width,
                                    image.height, image.data, ts_ms))
        return image.sha256

    def _hidden(self, area: Rect, inset: int = MASK_INSET_PX) -> tuple[list[Rect], list[Rect]]:
        """(rectangles to black out, rectangles to mask) as the screen is
        now, for a grab of `area` (only windows overlapping it are asked
        about); the fields' rectangles shrunk by `inset` on every side.
        Browsers' address bars are blacked out whole (`_chrome`)."""
        windows = self._display.windows
        if windows is None:
            return [], []
        visible = windows.visible_windows(area)
        hidden = [w for w in visible if w.app in self._no_pictures or excluding_rule(self._exclusions, w)]
        redact = [(w.x, w.y, w.width, w.height) for w in hidden]
        masks = [m for m in self._a11y.field_masks() if m.secret or m.chrome or not self._recording()]
        where: dict[int, WindowInfo | None] = {}
        fields = [rect for mask in masks if not mask.chrome and (rect := _placed(mask, windows, where, inset))]
        chrome = [m for m in masks if m.chrome]
        return redact + self._chrome(visible, hidden, chrome, windows, where), fields

    def _chrome(self, visible: list[WindowInfo], hidden: list[WindowInfo], masks: list[FieldMask],
                windows: WindowSource, where: dict[int, WindowInfo | None]) -> list[Rect]:
        """What to black out of the browser windows on screen (`visible`,
        bottom of the stack first): the address bars the accessibility
        worker read (`masks`), where their windows are now — and for a
        window whose bar it has not read as it is now, the band where
        browsers draw their toolbars. That is a window never walked yet
        (the click that first brings it to the front is cropped before its
        walk), one whose walk stopped short of its toolbars, a hung one, one
        resized since (its bar is elsewhere). Its bar shows the page's full
        URL, so the band is covered conservatively, without asking the
        browser, which may not answer within a click's budget. The parts
        that windows stacked above hide are left alone: a bar's dropdown
        cover or a band must not blank the window in front."""
        rects: list[Rect] = []
        for index, window in enumerate(visible):
            if window.app not in self._browsers or window in hidden:
                continue
            if window.window_id not in where:
                where[window.window_id] = windows.describe(window.window_id)
            client = where[window.window_id] or window
            own = [mask for mask in masks if mask.window_id == window.window_id]
            read = [rect for mask in own if _current(mask, client) and (rect := _placed(mask, windows, where, 0))]
            if not read:
                read = [(client.x, client.y, client.width, min(client.height, BROWSER_CHROME_BAND_PX))]
            above = [(w.x, w.y, w.width, w.height) for w in visible[index + 1:]]
            rects.extend(piece for rect in read for piece in uncovered(rect, above))
        return rects


def _placed(mask: FieldMask, windows: WindowSource, where: dict[int, WindowInfo | None],
            inset_px: int) -> Rect | None:
    """A mask where its window is now (None when the window is gone: nothing
    of it is on screen), shrunk by `inset_px`."""
    if mask.window_id not in where:
        where[mask.window_id] = windows.describe(mask.window_id)
    now = where[mask.window_id]
    if now is None:
        return None
    x, y, w, h = mask.rect
    dx, dy = now.x - mask.origin[0], now.y - mask.origin[1]
    inset = min(inset_px, (w - 1) // 2, (h - 1) // 2)
    return x + dx + inset, y + dy + inset, w - 2 * inset, h - 2 * inset


def _current(mask: FieldMask, now: WindowInfo) -> bool:
    """Whether a mask was read at its window's present size."""
    return mask.size is None or mask.size == (now.width, now.height)


def uncovered(rect: Rect, covers: list[Rect]) -> list[Rect]:
    """The parts of `rect` no rectangle of `covers` lies over (at most four
    pieces per cover)."""
    pieces = [rect]
    for cover in covers:
        cut: list[Rect] = []
        for piece in pieces:
            overlap = intersect(piece, cover)
            if overlap is None:
                cut.append(piece)
                continue
            px, py, pw, ph = piece
            ox, oy, ow, oh = overlap
            cut.extend(r for r in ((px, py, pw, oy - py),                            # above
                                   (px, oy + oh, pw, py + ph - oy - oh),             # below
                                   (px, oy, ox - px, oh),                            # left
                                   (ox + ow, oy, px + pw - ox - ow, oh))             # right
                       if r[2] > 0 and r[3] > 0)
        pieces = cut
    return pieces
