"""The visual evidence of one click: three crops of the screen around it —
the target (64 px), its context (128 px) and a wide context (256 px) — each
with its origin, its size and where the click lies inside it, ready to be
stored as content-addressed PNG blobs (docs/VISUAL.md §1).

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
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass

import numpy as np

from .errors import PhantomError

Rect = tuple[int, int, int, int]          # x, y, width, height in desktop coordinates

# (kind, side in pixels), smallest first: replay tries them in this order.
VARIANTS: tuple[tuple[str, int], ...] = (("target", 64), ("context", 128), ("wide", 256))
# An editable field keeps this many pixels of its frame visible; the rest is masked.
FIELD_FRAME_PX = 3
# A crop with fewer usable (unmasked) pixels than this share is left out:
# there would be too little of the screen to recognise.
MIN_USABLE_SHARE = 1 / 3
RATIO_DIGITS = 4


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
    and the PNG (RGBA when any pixel is masked, else RGB) with its sha256."""

    kind: str
    x: int
    y: int
    width: int
    height: int
    ratio_x: float
    ratio_y: float
    masked: int
    png: bytes
    sha256: str


def crop_variants(screenshot: np.ndarray, x: int, y: int, window: Rect, masks: Masks = Masks(), *,
                  origin: tuple[int, int] = (0, 0)) -> tuple[CropVariant, ...]:
    """The crops around a click at desktop point (x, y) in `window`.

    `screenshot` is an H×W×3 (RGB) or H×W×4 (RGBA/RGBX, alpha ignored)
    uint8 array whose top-left pixel is desktop point `origin`. Each crop is
    centred on the click where it can be and pushed inside the window's
    visible part where it cannot (a click near the window's edge keeps its
    true ratio inside the crop). A crop that would repeat a smaller one (a
    small window) is left out, as is one that is mostly masked. A click
    outside the window's visible part has no evidence: the result is empty.
    """
    pixels = _rgb(screenshot)
    x, y = int(round(x)), int(round(y))
    visible = _intersect(window, (origin[0], origin[1], pixels.shape[1], pixels.shape[0]))
    if visible is None or not _inside(visible, x, y):
        return ()
    usable = _usable(pixels.shape[:2], origin, masks)
    found: list[CropVariant] = []
    seen: set[Rect] = set()
    for kind, side in VARIANTS:
        rect = _placed(x, y, side, visible)
        if rect in seen:
            continue
        seen.add(rect)
        left, top, width, height = rect
        rows = slice(top - origin[1], top - origin[1] + height)
        cols = slice(left - origin[0], left - origin[0] + width)
        crop, keep = pixels[rows, cols], usable[rows, cols]
        if keep.mean() < MIN_USABLE_SHARE:
            continue
        found.append(_encode(kind, rect, crop, keep, x, y))
    return tuple(found)


def _rgb(screenshot: np.ndarray) -> np.ndarray:
    if not isinstance(screenshot, np.ndarray) or screenshot.dtype != np.uint8 \
            or screenshot.ndim != 3 or screenshot.shape[2] not in (3, 4):
        raise EvidenceError("a screenshot is an H×W×3 or H×W×4 uint8 array")
    return screenshot[:, :, :3]


def _usable(shape: tuple[int, int], origin: tuple[int, int], masks: Masks) -> np.ndarray:
    """True where a pixel may be kept and matched."""
    keep = np.ones(shape, dtype=bool)
    inset = FIELD_FRAME_PX
    boxes = [*masks.excluded,
             *((fx + inset, fy + inset, fw - 2 * inset, fh - 2 * inset)
               for fx, fy, fw, fh in masks.editable)]
    for bx, by, bw, bh in boxes:
        if bw <= 0 or bh <= 0:
            continue
        top, left = max(by - origin[1], 0), max(bx - origin[0], 0)
        bottom, right = by - origin[1] + bh, bx - origin[0] + bw
        keep[top:max(bottom, top), left:max(right, left)] = False
    return keep


def _intersect(a: Rect, b: Rect) -> Rect | None:
    left, top = max(a[0], b[0]), max(a[1], b[1])
    right, bottom = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return (left, top, right - left, bottom - top) if right > left and bottom > top else None


def _inside(rect: Rect, x: int, y: int) -> bool:
    return rect[0] <= x < rect[0] + rect[2] and rect[1] <= y < rect[1] + rect[3]


def _placed(x: int, y: int, side: int, within: Rect) -> Rect:
    """A side×side square centred on (x, y), moved (and if need be cut) to lie inside `within`."""
    width, height = min(side, within[2]), min(side, within[3])
    left = min(max(x - width // 2, within[0]), within[0] + within[2] - width)
    top = min(max(y - height // 2, within[1]), within[1] + within[3] - height)
    return left, top, width, height


def _encode(kind: str, rect: Rect, crop: np.ndarray, keep: np.ndarray, x: int, y: int) -> CropVariant:
    from PIL import Image

    masked = int((~keep).sum())
    if masked:
        rgba = np.zeros((*crop.shape[:2], 4), dtype=np.uint8)
        rgba[keep, :3] = crop[keep]
        rgba[keep, 3] = 255
        image = Image.fromarray(rgba, "RGBA")
    else:
        image = Image.fromarray(np.ascontiguousarray(crop), "RGB")
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=6)
    data = buffer.getvalue()
    left, top, width, height = rect
    # The click's pixel centre, as a share of the crop: (x - left + 0.5) / width.
    return CropVariant(kind, left, top, width, height,
                       round((x - left + 0.5) / width, RATIO_DIGITS),
                       round((y - top + 0.5) / height, RATIO_DIGITS),
                       masked, data, hashlib.sha256(data).hexdigest())
