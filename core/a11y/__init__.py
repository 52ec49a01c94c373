"""Accessibility as both capture and replay read it: element paths
(`path`), the role groups they act on (`roles`) and bounded reads of a live
AT-SPI tree (`tree`)."""

from typing import Any

# A live AT-SPI accessible (pyatspi's Atspi.Accessible). Debian's pyatspi ships
# no type information, so the name says what is passed, not a checked shape.
Accessible = Any
