"""Finding the accessibility (AT-SPI) bus before libatspi does.

libatspi looks for the bus in this order: `AT_SPI_BUS_ADDRESS`, then the
`AT_SPI_BUS` property the bus launcher puts on the X root window, then the
launcher's `org.a11y.Bus.GetAddress` on the session bus (which D-Bus may
activate). If the address it takes does not answer, it does not report an
error: it calls `g_error`, and the process dies of SIGTRAP. That happens
for real: a launcher killed with -9 leaves its root-window property behind,
naming a socket nobody listens on any more.

So every Phantom process that is about to touch libatspi (the capture
daemon, replay, `phantom doctor`) asks here first: the candidates are tried
in libatspi's order, each by connecting to it (the D-Bus handshake, with a
timeout), and the first that answers is pinned in `AT_SPI_BUS_ADDRESS` for
libatspi to use — without its `guid=`: a relaunched bus listens on the same
socket path under a new guid, libdbus refuses a server whose guid differs
from the address's (and libatspi aborts on that too), while the handshake
checked here ignores it. When none answers, the caller gets one line
instead of an abort. `dbus-fast` and python-xlib are imported only when
asked.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass

from ..bus import ACCESSIBILITY, BusCallFailed, BusUnavailable, call_async
from ..errors import PhantomError

ENV = "AT_SPI_BUS_ADDRESS"
ROOT_PROPERTY = "AT_SPI_BUS"
CONNECT_TIMEOUT_S = 3.0

# What this process pinned (None: nothing), and what the variable held before.
_pinned: dict[str, str | None] = {}


class AccessibilityBusError(PhantomError):
    """The accessibility bus cannot be reached; libatspi must not be touched."""

    code = "unavailable"


@dataclass(frozen=True, slots=True)
class Candidate:
    address: str
    source: str          # environment | X root window | session bus


async def locate(display: str | None = None, *, timeout: float = CONNECT_TIMEOUT_S,
                 activate: bool = True) -> str:
    """The address of an accessibility bus that answers, tried in libatspi's
    order; raises AccessibilityBusError naming, briefly, what was tried."""
    tried: list[str] = []
    for candidate in await _candidates(display, timeout, activate, tried):
        address = without_guid(candidate.address)
        problem = await reachable(address, timeout)
        if problem is None:
            return address
        tried.append(f"{candidate.source} {_short(address)} {problem}")
    raise AccessibilityBusError("the accessibility (AT-SPI) bus is not reachable ("
                                + ("; ".join(tried) or "nothing names one") + ")")


def ensure(display: str | None = None, *, timeout: float = CONNECT_TIMEOUT_S) -> str:
    """`locate` from synchronous code, and pin the address for libatspi."""
    address = asyncio.run(locate(display, timeout=timeout))
    pin_address(address)
    return address


async def reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> str | None:
    """None when a D-Bus connection to `address` completes its handshake in
    time; else, in a word or two, what went wrong."""
    from dbus_fast.aio import MessageBus

    try:
        bus = await asyncio.wait_for(MessageBus(bus_address=address).connect(), timeout)
    except asyncio.TimeoutError:
        return f"did not answer in {timeout:.0f} s"
    except ConnectionRefusedError:
        return "refused the connection"
    except FileNotFoundError:
        return "does not exist"
    except Exception as exc:  # noqa: BLE001 - a bad address, failed authentication
        return f"failed ({exc.__class__.__name__})"
    bus.disconnect()
    return None


def pin_address(address: str) -> None:
    """Make libatspi use `address` (it reads the environment first)."""
    if ENV not in _pinned:
        _pinned[ENV] = os.environ.get(ENV)
    os.environ[ENV] = address


def unpin_address() -> None:
    """Give the environment back what it held before `pin_address`."""
    if ENV in _pinned:
        before = _pinned.pop(ENV)
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before


async def _candidates(display: str | None, timeout: float, activate: bool, tried: list[str]) -> list[Candidate]:
    found = []
    pinned_by_us = ENV in _pinned
    environment = os.environ.get(ENV)
    if environment and not pinned_by_us:
        found.append(Candidate(environment, "AT_SPI_BUS_ADDRESS:"))
    root = root_window_address(display)
    if root:
        found.append(Candidate(root, "root window:"))
    try:
        reply = await call_async(ACCESSIBILITY, "GetAddress", timeout=timeout, activate=activate)
        if reply and reply[0]:
            found.append(Candidate(str(reply[0]), "org.a11y.Bus:"))
    except BusUnavailable as exc:
        tried.append("org.a11y.Bus: " + ("no session bus" if "session D-Bus" in str(exc) else "not running"))
    except (BusCallFailed, PhantomError) as exc:   # an error reply, a timeout
        tried.append(f"org.a11y.Bus: {' '.join(str(exc).split())[:60]}")
    return found


def root_window_address(display: str | None = None) -> str | None:
    """The address the bus launcher left on the X root window, if any."""
    name = display if display is not None else os.environ.get("DISPLAY")
    if not name:
        return None
    try:
        from Xlib import X
        from Xlib import display as xdisplay

        connection = xdisplay.Display(name)
    except Exception:  # noqa: BLE001 - no X: libatspi skips this step too
        return None
    try:
        atom = connection.intern_atom(ROOT_PROPERTY, only_if_exists=True)
        if not atom:
            return None
        prop = connection.screen().root.get_full_property(atom, X.AnyPropertyType)
        if prop is None or not prop.value:
            return None
        value = prop.value
        return (value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)).strip("\0") or None
    except Exception:  # noqa: BLE001 - the display went away mid-question
        return None
    finally:
        connection.close()


def without_guid(address: str) -> str:
    """A D-Bus address with every `guid=` key left out."""
    parts = []
    for transport in address.split(";"):
        method, _, keys = transport.partition(":")
        kept = [key for key in keys.split(",") if key and not key.startswith("guid=")]
        parts.append(f"{method}:{','.join(kept)}")
    return ";".join(parts)


def _short(address: str) -> str:
    """An address, its long socket path cut to the end that tells it apart."""
    text = without_guid(address)
    return text if len(text) <= 48 else "…" + text[-47:]
