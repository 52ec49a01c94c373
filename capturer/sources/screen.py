"""Small screenshots with mss + pillow: a downscaled thumbnail per monitor at a
low cadence (skipped when nothing changed), and the region around a click
that its visual evidence is cut from (`capturer/pictures.py` hands it to the
capture hook, which masks and encodes the crops). In a thumbnail, rectangles
to hide are painted before anything is encoded: excluded windows black, the
inside of text fields grey.

Grabbing is cheap (about 1 ms for a full 1280×800 screen); encoding is not,
so only thumbnails and small crops are ever encoded, and a click grabs only
the widest crop's place (at most 256×256).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.geometry import Rect

from .base import EncodedImage, Monitor

if TYPE_CHECKING:
    from PIL.Image import Image


class ScreenSource:
    """Owns one mss handle; used only from the daemon's loop thread."""

    def __init__(self, display_name: str, *, thumbnail_width: int = 320) -> None:
        import mss  # lazy: needs a display

        self._mss = mss.MSS(display=display_name)
        self._thumbnail_width = thumbnail_width
        self._last_thumbnail_digest: dict[int, bytes] = {}

    def close(self) -> None:
        try:
            self._mss.close()
        except Exception:  # noqa: BLE001 - closing after the display died
            pass

    def thumbnail(self, monitor: Monitor, redact: Sequence[Rect] = (),
                  masks: Sequence[Rect] = ()) -> EncodedImage | None:
        """A downscaled WebP of the monitor, or None when it shows exactly what
        the previous thumbnail of this monitor showed. `redact` rectangles
        (excluded windows, in root coordinates) are painted black first and
        `masks` (text fields' insides) grey."""
        from PIL import Image

        shot = self._mss.grab({"left": monitor.x, "top": monitor.y,
                               "width": monitor.width, "height": monitor.height})
        image = Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")
        return thumbnail_of(image, monitor, redact, masks, self._thumbnail_width, self._last_thumbnail_digest)

    def region(self, rect: Rect) -> Image:
        """The screen's pixels in `rect` (x, y, width, height in root
        coordinates, on the screen) as an RGB Pillow image: one grab."""
        from PIL import Image

        left, top, width, height = rect
        shot = self._mss.grab({"left": left, "top": top, "width": width, "height": height})
        return Image.frombytes("RGB", shot.size, shot.bgra, "raw", "BGRX")


BLACK = (0, 0, 0)
GREY = (128, 128, 128)


def thumbnail_of(image: Image, monitor: Monitor, redact: Sequence[Rect], masks: Sequence[Rect], width: int,
                 last_digests: dict[int, bytes]) -> EncodedImage | None:
    """A monitor's grab (in logical pixels) as its thumbnail: `redact` painted
    black, `masks` grey, downscaled to `width`, WebP — or None when it shows
    exactly what the monitor's previous thumbnail showed (`last_digests`,
    per monitor, is updated). Shared by the X11 and the Wayland screens."""
    from PIL import Image as Pillow

    _paint(image, redact, monitor.x, monitor.y, BLACK)
    _paint(image, masks, monitor.x, monitor.y, GREY)
    height = max(1, round(monitor.height * width / monitor.width))
    small = image.resize((width, height), Pillow.Resampling.BILINEAR)
    digest = hashlib.blake2b(small.tobytes(), digest_size=16).digest()
    if last_digests.get(monitor.index) == digest:
        return None
    last_digests[monitor.index] = digest
    return _encode(small, "thumbnail", "WEBP", "image/webp", quality=60)


def _paint(image: Image, rects: Sequence[Rect], origin_x: int, origin_y: int, fill: tuple[int, int, int]) -> None:
    if not rects:
        return
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    for x, y, w, h in rects:
        if w > 0 and h > 0:
            draw.rectangle((x - origin_x, y - origin_y, x - origin_x + w - 1, y - origin_y + h - 1),
                           fill=fill)


def _encode(image: Image, kind: str, fmt: str, media_type: str, **options: int) -> EncodedImage:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    data = buffer.getvalue()
    return EncodedImage(hashlib.sha256(data).hexdigest(), kind, media_type, image.width,
                        image.height, data)
