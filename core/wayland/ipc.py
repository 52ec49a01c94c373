"""A small client of sway's IPC (the i3-ipc wire format) over `$SWAYSOCK`.

A message is the magic `i3-ipc`, a 32-bit payload length and a 32-bit type,
both in the machine's byte order, then a JSON payload. Requests get one
reply of the same type; a connection that subscribed to events receives
them with the type's high bit set. Two connections, then: `SwayIpc` asks
(GET_TREE, GET_OUTPUTS) and blocks for the answer with a deadline;
`SwayEvents` subscribes and is read without blocking whenever its
descriptor is readable, so the capture loop can watch it like the X
connection. No new dependency: a Unix socket and `json`.
"""

from __future__ import annotations

import json
import os
import socket
import struct
from typing import Any

from core.errors import PhantomError

MAGIC = b"i3-ipc"
_HEADER = struct.Struct("=6sII")
EVENT_BIT = 0x80000000

RUN_COMMAND = 0
GET_WORKSPACES = 1
SUBSCRIBE = 2
GET_OUTPUTS = 3
GET_TREE = 4
GET_VERSION = 7

# Event types (with EVENT_BIT set), by the name SUBSCRIBE takes.
EVENTS = {"workspace": 0, "output": 1, "mode": 2, "window": 3, "barconfig_update": 4,
          "binding": 5, "shutdown": 6, "tick": 7}
EVENT_NAMES = {EVENT_BIT | number: name for name, number in EVENTS.items()}

TIMEOUT_S = 2.0
_MAX_PAYLOAD = 64 * 1024 * 1024


class SwayUnavailable(PhantomError, ConnectionError):
    """sway's IPC socket is missing, refuses, or closed mid-answer."""

    code = "unavailable"


def encode(kind: int, payload: str = "") -> bytes:
    data = payload.encode()
    return _HEADER.pack(MAGIC, len(data), kind) + data


def decode(buffer: bytearray) -> tuple[int, Any] | None:
    """The first whole message in `buffer` (removed from it), or None while
    it holds only part of one."""
    if len(buffer) < _HEADER.size:
        return None
    magic, length, kind = _HEADER.unpack_from(buffer)
    if magic != MAGIC or length > _MAX_PAYLOAD:
        raise SwayUnavailable("sway's IPC socket sent something that is not an i3-ipc message")
    end = _HEADER.size + length
    if len(buffer) < end:
        return None
    payload = bytes(buffer[_HEADER.size:end])
    del buffer[:end]
    try:
        return kind, json.loads(payload) if payload else None
    except ValueError:
        raise SwayUnavailable("sway's IPC socket sent a payload that is not JSON") from None


def _connect(path: str, timeout: float) -> socket.socket:
    if not path:
        raise SwayUnavailable("SWAYSOCK is not set: no sway IPC socket to ask")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
    except OSError as exc:
        sock.close()
        raise SwayUnavailable(f"cannot reach sway's IPC socket {path}: {exc.strerror or exc}") from None
    return sock


class SwayIpc:
    """Requests and their replies, one at a time, each within `timeout`."""

    def __init__(self, path: str | None = None, *, timeout: float = TIMEOUT_S) -> None:
        self.path = path if path is not None else os.environ.get("SWAYSOCK", "")
        self._sock = _connect(self.path, timeout)
        self._buffer = bytearray()

    def request(self, kind: int, payload: str = "") -> Any:
        try:
            self._sock.sendall(encode(kind, payload))
            while True:
                message = decode(self._buffer)
                if message is not None:
                    reply_kind, body = message
                    if reply_kind == kind:
                        return body
                    continue   # an event on a connection that never subscribed: not ours
                data = self._sock.recv(65536)
                if not data:
                    raise SwayUnavailable(f"sway closed its IPC socket {self.path}")
                self._buffer += data
        except (OSError, TimeoutError) as exc:
            raise SwayUnavailable(f"sway's IPC socket {self.path} did not answer: {exc}") from None

    def tree(self) -> dict[str, Any]:
        reply = self.request(GET_TREE)
        return reply if isinstance(reply, dict) else {}

    def outputs(self) -> list[dict[str, Any]]:
        reply = self.request(GET_OUTPUTS)
        return reply if isinstance(reply, list) else []

    def command(self, text: str) -> list[dict[str, Any]]:
        reply = self.request(RUN_COMMAND, text)
        return reply if isinstance(reply, list) else []

    def version(self) -> dict[str, Any]:
        reply = self.request(GET_VERSION)
        return reply if isinstance(reply, dict) else {}

    def close(self) -> None:
        self._sock.close()


class SwayEvents:
    """A subscribed connection, read without blocking (`fileno`, `read`)."""

    def __init__(self, events: tuple[str, ...], path: str | None = None, *,
                 timeout: float = TIMEOUT_S) -> None:
        self.path = path if path is not None else os.environ.get("SWAYSOCK", "")
        self._sock = _connect(self.path, timeout)
        self._buffer = bytearray()
        self._fd = self._sock.fileno()
        try:
            self._sock.sendall(encode(SUBSCRIBE, json.dumps(list(events))))
            reply = None
            while reply is None:
                data = self._sock.recv(65536)
                if not data:
                    raise SwayUnavailable(f"sway closed its IPC socket {self.path}")
                self._buffer += data
                reply = decode(self._buffer)
        except (OSError, TimeoutError) as exc:
            self._sock.close()
            raise SwayUnavailable(f"sway's IPC socket {self.path} did not answer: {exc}") from None
        if not (isinstance(reply[1], dict) and reply[1].get("success")):
            self._sock.close()
            raise SwayUnavailable(f"sway refused to send the events {', '.join(events)}")
        self._sock.setblocking(False)

    def fileno(self) -> int:
        return self._fd

    def read(self) -> list[tuple[str, dict[str, Any]]]:
        """Every whole event that has arrived, by name; SwayUnavailable once
        sway has closed the socket (it exited)."""
        closed = False
        while True:
            try:
                data = self._sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                break
            except OSError as exc:
                raise SwayUnavailable(f"lost sway's IPC socket {self.path}: {exc}") from None
            if not data:
                closed = True
                break
            self._buffer += data
        found = []
        while (message := decode(self._buffer)) is not None:
            kind, body = message
            name = EVENT_NAMES.get(kind)
            if name is not None:
                found.append((name, body if isinstance(body, dict) else {}))
        if closed:   # sway exited: what it said last no longer matters
            raise SwayUnavailable(f"sway closed its IPC socket {self.path}")
        return found

    def close(self) -> None:
        self._sock.close()
