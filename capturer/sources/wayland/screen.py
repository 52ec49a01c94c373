"""Thumbnails and click regions on a wlroots compositor, through `grim`.

grim asks the compositor for the pixels (wlr-screencopy) of one output
(`-o NAME`) or one rectangle in logical coordinates (`-g "X,Y WxH"`) and
writes them as PPM to a pipe: no encoding on grim's side, so what Phantom
pays for is the copy itself (about 50 ms for a 1280×800 output here) and
its own downscale. The thumbnail rules are X11's (`capturer.sources.screen`):
the same width, the same painting of excluded windows and text fields
before anything is encoded, the same "unchanged, so nothing" digest.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.errors import PhantomError
from core.geometry import Rect

from ..base import EncodedImage, Monitor
from ..screen import thumbnail_of

if TYPE_CHECKING:
    from PIL.Image import Image

GRIM_TIMEOUT_S = 5.0


class GrimFailed(PhantomError):
    """grim is missing or the compositor would not give it the pixels."""

    code = "unavailable"


class GrimScreen:
    """Each grab is one `grim` run; used only from the daemon's loop thread."""

    def __init__(self, *, thumbnail_width: int = 320, grim: str | None = None) -> None:
        found = grim or shutil.which("grim")
        if not found:
            raise GrimFailed("grim is not installed: no screenshots on Wayland without it "
                             "(Debian package grim)")
        self._grim = found
        self._thumbnail_width = thumbnail_width
        self._last_thumbnail_digest: dict[int, bytes] = {}

    def close(self) -> None:
        """Nothing held between grabs."""

    def thumbnail(self, monitor: Monitor, redact: Sequence[Rect] = (),
                  masks: Sequence[Rect] = ()) -> EncodedImage | None:
        from PIL import Image

        image = self._grab(["-o", monitor.name])
        if image.size != (monitor.width, monitor.height):   # a scaled output: back to logical pixels
            image = image.resize((monitor.width, monitor.height), Image.Resampling.BILINEAR)
        return thumbnail_of(image, monitor, redact, masks, self._thumbnail_width, self._last_thumbnail_digest)

    def region(self, rect: Rect) -> Image:
        from PIL import Image

        left, top, width, height = rect
        image = self._grab(["-g", f"{left},{top} {width}x{height}"])
        if image.size != (width, height):
            image = image.resize((width, height), Image.Resampling.BILINEAR)
        return image

    def _grab(self, where: list[str]) -> Image:
        from PIL import Image

        try:
            done = subprocess.run([self._grim, "-t", "ppm", *where, "-"], capture_output=True,
                                  timeout=GRIM_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise GrimFailed(f"grim did not run: {exc}") from None
        if done.returncode != 0 or not done.stdout:
            said = done.stderr.decode(errors="replace").strip().splitlines()
            raise GrimFailed(f"grim failed: {said[-1] if said else f'exit {done.returncode}'}")
        return Image.open(io.BytesIO(done.stdout)).convert("RGB")
