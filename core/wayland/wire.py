"""Just enough of the Wayland wire protocol to ask for one global.

A message is the object id (32 bits), then the size in bytes (high 16 bits)
and the opcode (low 16 bits), then the arguments: 32-bit integers and
object ids, strings as a length (with the NUL) and the bytes padded to 4.
Object 1 is the display: `get_registry` (opcode 1) makes a registry, whose
`global` events (opcode 0) name each interface the compositor offers, and
`bind` (opcode 0) makes an object of one; `sync` (opcode 0 on the display)
answers with `done` on a new callback once everything asked before it is
answered. That is all Phantom needs for `org_kde_kwin_idle` (wlroots 0.15),
so it needs neither pywayland nor `libwayland-dev`, nor the protocol XMLs.
No file descriptors are passed: the protocols used here have none.
"""

from __future__ import annotations

import os
import socket
import struct

from core.errors import PhantomError

DISPLAY_ID = 1
TIMEOUT_S = 2.0


class WaylandUnavailable(PhantomError, ConnectionError):
    """The Wayland socket is missing, refuses, closed, or reported an error."""

    code = "unavailable"


def socket_path(display: str, runtime_dir: str | None) -> str:
    """Where `WAYLAND_DISPLAY` points: an absolute path, or a name in `XDG_RUNTIME_DIR`."""
    if os.path.isabs(display):
        return display
    if not runtime_dir:
        raise WaylandUnavailable("XDG_RUNTIME_DIR is not set: cannot find the Wayland socket")
    return os.path.join(runtime_dir, display or "wayland-0")


def message(obj: int, opcode: int, payload: bytes = b"") -> bytes:
    return struct.pack("=II", obj, ((8 + len(payload)) << 16) | opcode) + payload


def string(text: str) -> bytes:
    data = text.encode() + b"\0"
    return struct.pack("=I", len(data)) + data + b"\0" * (-len(data) % 4)


def uints(*values: int) -> bytes:
    return struct.pack(f"={len(values)}I", *values)


def parse(buffer: bytearray) -> list[tuple[int, int, bytes]]:
    """Every whole message in `buffer` (removed from it): (object, opcode, arguments)."""
    found = []
    while len(buffer) >= 8:
        obj, size_opcode = struct.unpack_from("=II", buffer)
        size = size_opcode >> 16
        if size < 8:
            raise WaylandUnavailable("the compositor sent a malformed Wayland message")
        if len(buffer) < size:
            break
        found.append((obj, size_opcode & 0xFFFF, bytes(buffer[8:size])))
        del buffer[:size]
    return found


def read_string(data: bytes, offset: int) -> tuple[str, int]:
    """A string argument at `offset`, and the offset after it."""
    (length,) = struct.unpack_from("=I", data, offset)
    text = data[offset + 4:offset + 4 + max(0, length - 1)].decode(errors="replace")
    return text, offset + 4 + ((length + 3) & ~3)


class WaylandConnection:
    """One client connection; objects are numbered from 2 up as they are made."""

    def __init__(self, path: str, *, timeout: float = TIMEOUT_S) -> None:
        self.path = path
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        try:
            self._sock.connect(path)
        except OSError as exc:
            self._sock.close()
            raise WaylandUnavailable(f"cannot reach the Wayland socket {path}: {exc.strerror or exc}") from None
        self._buffer = bytearray()
        self._next_id = DISPLAY_ID + 1
        self.globals: dict[str, tuple[int, int]] = {}   # interface -> (name, version)
        self._registry = self.new_id()
        self.send(DISPLAY_ID, 1, uints(self._registry))   # wl_display.get_registry
        self.roundtrip()

    def fileno(self) -> int:
        return self._sock.fileno()

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id - 1

    def send(self, obj: int, opcode: int, payload: bytes = b"") -> None:
        try:
            self._sock.sendall(message(obj, opcode, payload))
        except OSError as exc:
            raise WaylandUnavailable(f"lost the Wayland socket {self.path}: {exc}") from None

    def bind(self, interface: str, version: int) -> int:
        """An object of a global interface (at most `version`); WaylandUnavailable if not offered."""
        offered = self.globals.get(interface)
        if offered is None:
            raise WaylandUnavailable(f"the compositor does not offer {interface}")
        name, most = offered
        new = self.new_id()
        self.send(self._registry, 0, uints(name) + string(interface) + uints(min(version, most), new))
        return new

    def roundtrip(self) -> list[tuple[int, int, bytes]]:
        """Wait until the compositor has answered everything sent so far;
        the events that arrived meanwhile (registry globals are taken here)."""
        callback = self.new_id()
        self.send(DISPLAY_ID, 0, uints(callback))   # wl_display.sync
        events: list[tuple[int, int, bytes]] = []
        while True:
            for event in self.receive(block=True):
                if event[0] == callback:
                    return events
                events.append(event)

    def receive(self, *, block: bool) -> list[tuple[int, int, bytes]]:
        """What has arrived (waiting for something when `block` and nothing
        is buffered); display errors are raised, registry globals
        remembered, the rest returned."""
        found = self._drain()
        if found and block:
            return found
        try:
            data = self._sock.recv(65536) if block else self._sock.recv(65536, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return found
        except OSError as exc:
            raise WaylandUnavailable(f"lost the Wayland socket {self.path}: {exc}") from None
        if not data:
            raise WaylandUnavailable(f"the compositor closed the Wayland socket {self.path}")
        self._buffer += data
        return found + self._drain()

    def _drain(self) -> list[tuple[int, int, bytes]]:
        found = []
        for obj, opcode, args in parse(self._buffer):
            if obj == DISPLAY_ID and opcode == 0:   # wl_display.error(object, code, message)
                text, _ = read_string(args, 8)
                raise WaylandUnavailable(f"the compositor reported a protocol error: {text}")
            if obj == DISPLAY_ID:
                continue   # delete_id: nothing to free here
            if obj == self._registry and opcode == 0:   # wl_registry.global(name, interface, version)
                (name,) = struct.unpack_from("=I", args)
                interface, offset = read_string(args, 4)
                (version,) = struct.unpack_from("=I", args, offset)
                self.globals[interface] = (name, version)
                continue
            if obj == self._registry:
                continue   # global_remove: a seat or output went; not followed here
            found.append((obj, opcode, args))
        return found

    def close(self) -> None:
        self._sock.close()
