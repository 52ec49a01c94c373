"""Input on Wayland: nothing to observe, said once.

No Wayland protocol lets a client see another client's keyboard or pointer
(that is the point of Wayland's isolation), and evdev needs `/dev/input`
and the `input` group. The sway backend therefore observes no input: its
factory fails with this one line, which the daemon records as a source
failure (a `capture_error` instant) and logs; capture goes on without input
counts; idle is the compositor's word (`idle`), docs/WAYLAND.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from core.errors import PhantomError

if TYPE_CHECKING:
    from ..base import InputSource
    from ..input_listener import RawInput

NO_INPUT = ("no input observation on Wayland: no protocol lets a client observe global input "
            "(no key or click counts; idle comes from the compositor where it offers org_kde_kwin_idle)")


class NoInputObservation(PhantomError):
    code = "unavailable"


def no_input(deliver: Callable[[RawInput], None]) -> InputSource:
    raise NoInputObservation(NO_INPUT)
