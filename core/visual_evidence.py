"""The visual evidence of one click: three crops of the screen around it —
the target (64 px), its context (128 px) and a wide context (256 px) — each
with its origin, its size and where the click lies inside it, ready to be
stored as content-addressed blobs (docs/VISUAL.md §1).

Replay re-aims a click by finding these crops on the screen as it is then
(`replay/visual/`); the target crop comes first, the larger ones hold the
surroundings that tell a control from a look-alike. The capture daemon calls
`crop_variants` at click time with the screenshot it already holds; it is a
pure function so that capture, the compiler and tests make the same crops.

Privacy (DESIGN.md): pixels of excluded windows are painted black, and the
interior of every editable field is painted black too (the field's frame
stays, its text never does). Both are written as fully transparent pixels
(alpha 0) so the matcher leaves them out through OpenCV's template mask:
what a field held at recording time must neither leak nor decide a match.

The crops are cut and masked with Pillow, not numpy: the capture daemon
calls this with the Pillow image its one grab gave, and importing numpy
(with the OpenBLAS its wheel bundles) would cost the daemon about 13 MB of
its 80 MB memory budget. Callers that hold a numpy array (replay's tests,
the benchmarks) pass it as it is; both give the same bytes.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import PhantomError
from .geometry import Rect, intersect

if TYPE_CHECKING:
    from PIL import Image


# (kind, side in pixels), smallest first: replay tries them in this order.
VARIANTS: tuple[tuple[str, int], ...] = (("target", 64), ("context", 128), ("wide", 256))
# An editable field keeps this many pixels of its frame visible; the rest is masked.
FIELD_FRAME_PX = 3
# A crop with fewer usable (unmasked) pixels than this share is left out:
# there would be too little of the screen to recognise.
MIN_USABLE_SHARE = 1 / 3
RATIO_DIGITS = 4
# Crops are encoded as lossless WebP: the same pixels (alpha included, and
# the black under a masked pixel kept exactly) in about 40 % of the bytes a
# PNG took, for about 0.2 ms more a crop than PNG's level 6. Method 1 at
# quality 50 is the cheapest setting that small: below quality 30 it is 20 %
# larger, higher methods save 1–3 % for much more time (docs/BENCHMARKS.md,
# "Store growth"). Every reader decodes by content (OpenCV, Pillow) or
# serves the media type with the bytes.
MEDIA_TYPE = "image/webp"
_WEBP = {"lossless": True, "quality": 50, "method": 1, "exact": True}


class EvidenceError(PhantomError):
    """A screenshot or rectangle that cannot give evidence."""


@dataclass(frozen=True, slots=True)
class Masks:
    """Rectangles (desktop coordinates) whose pixels must not be kept:
    windows excluded from capture, and editable fields (only their
    interior: `FIELD_FRAME_PX` of the frame stay)."""

    excluded: tuple[Rect, ...] = ()
    editable: tuple[Rect, ...] = ()


@dataclass(frozen=True, slots=True)
class CropVariant:
    """One encoded crop: where it was on the screen, where the click lay in
    it (as a share of its width and height), how many pixels are masked,
    and the encoded image (`MEDIA_TYPE`; RGBA when any pixel is masked,
    else RGB) with its sha256."""

    kind: str
    x: int
    y: int
    width: int
    height: int
    ratio_x: float
    ratio_y: float
    masked: int
    data: bytes
    sha256: str


def crop_variants(screenshot: Any, x: int, y: int, window: Rect, masks: Masks = Masks(), *,
                  origin: tuple[int, int] = (0, 0)) -> tuple[CropVariant, ...]:
    """The crops around a click at desktop point (x, y) in `window`.

    `screenshot` is an H×W×3 (RGB) or H×W×4 (RGBA/RGBX, alpha ignored)
    uint8 numpy array, or a Pillow image, whose top-left pixel is desktop
    point `origin`. Each crop is centred on the click where it can be and
    pushed inside the window's visible part where it cannot (a click near
    the window's edge keeps its true ratio inside the crop). A crop that
    would repeat a smaller one (a small window) is left out, as is one that
    is mostly masked. A click outside the window's visible part has no
    evidence: the result is empty.
    """
    pixels = _Pixels(screenshot)
    x, y = int(round(x)), int(round(y))
    visible = intersect(window, (origin[0], origin[1], pixels.width, pixels.height))
    if visible is None or not _inside(visible, x, y):
        return ()
    found: list[CropVariant] = []
    seen: set[Rect] = set()
    for kind, side in VARIANTS:
        rect = placed(x, y, side, visible)
        if rect in seen:
            continue
        seen.add(rect)
        keep = _usable(rect, masks)
        masked = _masked(keep)
        if rect[2] * rect[3] - masked < MIN_USABLE_SHARE * rect[2] * rect[3]:
            continue
        left, top, width, height = rect
        crop = pixels.crop((left - origin[0], top - origin[1], left - origin[0] + width,
                            top - origin[1] + height))
        found.append(_encode(kind, rect, crop, keep if masked else None, masked, x, y))
    return tuple(found)


def evidence_region(x: int, y: int, window: Rect, screen: Rect) -> Rect | None:
    """The one rectangle of the screen that holds every crop of a click at
    (x, y) in `window` (the widest crop's place: each smaller one lies inside
    it), so capture grabs only that; None when the click is outside the
    window's visible part."""
    visible = intersect(window, screen)
    if visible is None or not _inside(visible, int(round(x)), int(round(y))):
        return None
    return placed(int(round(x)), int(round(y)), VARIANTS[-1][1], visible)


class _Pixels:
    """A screenshot as Pillow sees it, cut into RGB crops."""

    def __init__(self, screenshot: Any) -> None:
        from PIL import Image

        self._image: Image.Image | None = None
        self._array: Any = None
        if isinstance(screenshot, Image.Image):
            self._image = screenshot
            self.width, self.height = screenshot.size
            return
        if type(screenshot).__module__ != "numpy" or getattr(screenshot, "dtype", None) != "uint8" \
                or screenshot.ndim != 3 or screenshot.shape[2] not in (3, 4):
            raise EvidenceError("a screenshot is an H×W×3 or H×W×4 uint8 array, or a Pillow image")
        self._array = screenshot
        self.height, self.width = screenshot.shape[:2]

    def crop(self, box: tuple[int, int, int, int]) -> Image.Image:
        from PIL import Image

        if self._image is not None:
            cut = self._image.crop(box)
            return cut if cut.mode == "RGB" else cut.convert("RGB")
        import numpy as np

        left, top, right, bottom = box
        return Image.fromarray(np.ascontiguousarray(self._array[top:bottom, left:right, :3]), "RGB")


def _usable(rect: Rect, masks: Masks) -> Image.Image:
    """An "L" image over `rect`: 255 where a pixel may be kept and matched, 0 where not."""
    from PIL import Image, ImageDraw

    left, top, width, height = rect
    keep = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(keep)
    inset = FIELD_FRAME_PX
    boxes = [*masks.excluded,
             *((fx + inset, fy + inset, fw - 2 * inset, fh - 2 * inset)
               for fx, fy, fw, fh in masks.editable)]
    for bx, by, bw, bh in boxes:
        cut = intersect((bx, by, bw, bh), rect) if bw > 0 and bh > 0 else None
        if cut is not None:
            cx, cy, cw, ch = cut
            draw.rectangle((cx - left, cy - top, cx - left + cw - 1, cy - top + ch - 1), fill=0)
    return keep


def _masked(keep: Image.Image) -> int:
    return int(keep.histogram()[0])


def _inside(rect: Rect, x: int, y: int) -> bool:
    return rect[0] <= x < rect[0] + rect[2] and rect[1] <= y < rect[1] + rect[3]


def placed(x: int, y: int, side: int, within: Rect) -> Rect:
    """A side×side square centred on (x, y), moved (and if need be cut) to lie inside `within`."""
    width, height = min(side, within[2]), min(side, within[3])
    left = min(max(x - width // 2, within[0]), within[0] + within[2] - width)
    top = min(max(y - height // 2, within[1]), within[1] + within[3] - height)
    return left, top, width, height


def _encode(kind: str, rect: Rect, crop: Image.Image, keep: Image.Image | None, masked: int,
            x: int, y: int) -> CropVariant:
    from PIL import Image

    image = crop
    if keep is not None:
        # Masked pixels are (0, 0, 0, 0): black and left out of matching.
        image = Image.new("RGBA", crop.size, (0, 0, 0, 0))
        image.paste(crop, (0, 0), keep)
    buffer = io.BytesIO()
    image.save(buffer, "WEBP", **_WEBP)
    data = buffer.getvalue()
    left, top, width, height = rect
    # The click's pixel centre, as a share of the crop: (x - left + 0.5) / width.
    return CropVariant(kind, left, top, width, height,
                       round((x - left + 0.5) / width, RATIO_DIGITS),
                       round((y - top + 0.5) / height, RATIO_DIGITS),
                       masked, data, hashlib.sha256(data).hexdigest())
