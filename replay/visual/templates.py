"""A recorded crop ready to match: its pixels (BGR, as OpenCV and mss hold
them), the mask of pixels that may be compared (masked pixels — an
excluded window, a field's interior — are transparent in the image), where
the click lay inside it, and whether it is flat.

A flat crop (a field's empty interior, a plain panel) has next to no
contrast: zero-mean normalised correlation is undefined on it, so it is
matched by normalised squared difference instead (docs/VISUAL.md §2), and
its look-alikes are expected rather than alarming — any plain patch of the
same colour looks like it. The matcher lets the larger variants decide then.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from core.errors import PhantomError

# Standard deviation of the grey levels (0–255) below which a crop counts as flat.
FLAT_STD = 6.0


class BadCrop(PhantomError):
    """A crop blob that is missing, corrupt or not an image."""


@dataclass(frozen=True, slots=True)
class Template:
    """One crop variant as the matcher uses it."""

    kind: str                               # target | context | wide
    ratio: tuple[float, float]              # where the click lay in it (share of width, height)
    origin: tuple[int, int]                 # its top-left on the screen when recorded
    pixels: np.ndarray = field(compare=False, repr=False)     # H×W×3 uint8, BGR
    mask: np.ndarray | None = field(compare=False, repr=False)  # H×W uint8 (255 = compare), None = all
    flat: bool = False

    @property
    def size(self) -> tuple[int, int]:
        return self.pixels.shape[1], self.pixels.shape[0]


def from_pixels(kind: str, pixels: np.ndarray, ratio: tuple[float, float],
                origin: tuple[int, int] = (0, 0), mask: np.ndarray | None = None) -> Template:
    """A template from BGR pixels (and an optional mask, nonzero = compare)."""
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] != 3 or min(pixels.shape[:2]) < 4:
        raise BadCrop(f"the {kind} crop is not a colour image of at least 4×4 pixels")
    if mask is not None:
        mask = np.where(mask > 0, 255, 0).astype(np.uint8)
        if mask.all():
            mask = None
        elif not mask.any():
            raise BadCrop(f"every pixel of the {kind} crop is masked")
    pixels = np.ascontiguousarray(pixels)
    return Template(kind, (float(ratio[0]), float(ratio[1])), (int(origin[0]), int(origin[1])),
                    pixels, mask, is_flat(pixels, mask))


def decode(data: bytes, sha256: str, kind: str, ratio: tuple[float, float],
           origin: tuple[int, int]) -> Template:
    """A template from a stored crop blob (lossless WebP, or the PNG of an
    older store), checked against its address."""
    import cv2

    if hashlib.sha256(data).hexdigest() != sha256:
        raise BadCrop(f"the {kind} crop blob {sha256[:12]}… does not hash to its address (corrupt)")
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim not in (2, 3):
        raise BadCrop(f"the {kind} crop blob {sha256[:12]}… is not a readable image")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    mask = None
    if image.shape[2] == 4:
        mask = image[:, :, 3]
        image = image[:, :, :3]
    return from_pixels(kind, image, ratio, origin, mask)


def core(template: Template) -> Template:
    """The middle of a crop around its click: half its width and height,
    centred on the click (moved inside the crop near its edges). The
    surroundings say where a control is; the core says it is the control."""
    width, height = template.size
    cw, ch = max(4, width // 2), max(4, height // 2)
    cx, cy = template.ratio[0] * width, template.ratio[1] * height
    left = int(min(max(round(cx - cw / 2), 0), width - cw))
    top = int(min(max(round(cy - ch / 2), 0), height - ch))
    pixels = template.pixels[top:top + ch, left:left + cw]
    mask = None if template.mask is None else template.mask[top:top + ch, left:left + cw]
    if mask is not None and not mask.any():
        return template
    return from_pixels(f"{template.kind} core", pixels, ((cx - left) / cw, (cy - top) / ch),
                       (template.origin[0] + left, template.origin[1] + top), mask)


def is_flat(pixels: np.ndarray, mask: np.ndarray | None = None) -> bool:
    """Whether the compared pixels have next to no contrast."""
    grey = pixels.astype(np.float32) @ np.array([0.114, 0.587, 0.299], dtype=np.float32)
    values = grey[mask > 0] if mask is not None else grey
    return float(values.std()) < FLAT_STD
