"""The core check: the middle of the target crop, around the click, must
match at a chosen place (docs/VISUAL.md §3) — in colour and in grey.

The surroundings say where a control is; the core says it is the control.
Colour is compared with one mean over the three channels, so a place of
the recorded colour but another label can score high on colour alone:
measured on the canvas fixture with the fills of Red and Blue swapped, the
red button now labelled "Blue" matched the recorded Red's core at 0.955.
In grey the labels decide (two fills of equal brightness look alike, two
words do not), so the core must reach the acceptance both ways.
"""

from __future__ import annotations

import numpy as np

from .refine import score_at
from .templates import Template, core, from_pixels

# Grey-level standard deviation (0–255) under which a core shows a place
# rather than a thing: measured, the blank middle of a table cell 7.6–10,
# a cell's text 28–36.
PLAIN_CORE_STD = 12.0


class CoreCheck:
    """The target crop's core, in colour and grey, for one picture (the
    grey copy of the picture is made once, when first needed)."""

    def __init__(self, target: Template, picture: np.ndarray) -> None:
        import cv2

        self.colour = core(target)
        grey = cv2.cvtColor(cv2.cvtColor(self.colour.pixels, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        self.grey = from_pixels(self.colour.kind, grey, self.colour.ratio, self.colour.origin, self.colour.mask)
        self._picture = picture
        self._grey_picture: np.ndarray | None = None
        values = grey[:, :, 0][self.colour.mask > 0] if self.colour.mask is not None else grey[:, :, 0]
        self.plain = float(values.std()) < PLAIN_CORE_STD

    def score(self, point: tuple[float, float], scale: float) -> float:
        """The lower of the core's colour and grey scores at `point` (picture pixels)."""
        colour = score_at(self._picture, self.colour, point, scale)
        if colour <= 0.0 or self.grey.flat:
            return colour
        return min(colour, score_at(self._grey(), self.grey, point, scale))

    def _grey(self) -> np.ndarray:
        if self._grey_picture is None:
            import cv2

            self._grey_picture = cv2.cvtColor(cv2.cvtColor(self._picture, cv2.COLOR_BGR2GRAY),
                                              cv2.COLOR_GRAY2BGR)
        return self._grey_picture
