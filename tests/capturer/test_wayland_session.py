"""The session kind is chosen once at start: X11 as before, sway through its
IPC, and any other Wayland session refused with one line — never a daemon
that records nothing."""

from __future__ import annotations

import os
import subprocess

import pytest

from capturer.sources.session import UnsupportedSession, detect
from core.wayland.ipc import SwayUnavailable, decode, encode
from support.daemon import PHANTOM


@pytest.mark.parametrize(("environ", "display", "kind", "name"), [
    ({"DISPLAY": ":3"}, None, "x11", ":3"),
    ({"XDG_SESSION_TYPE": "x11", "DISPLAY": ":3", "WAYLAND_DISPLAY": "wayland-1"}, None, "x11", ":3"),
    ({"WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/run/s.sock", "DISPLAY": ":0"}, None, "sway", "wayland-1"),
    ({"WAYLAND_DISPLAY": "wayland-1"}, ":5", "x11", ":5"),
])
def test_the_session_kind(environ, display, kind, name):
    session = detect(environ, display)
    assert (session.kind, session.display) == (kind, name)


@pytest.mark.parametrize(("environ", "said"), [
    ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"}, "GNOME on Wayland"),
    ({"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE"}, "KDE Plasma on Wayland"),
    ({"WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "Hyprland"}, "(hyprland, no SWAYSOCK)"),
    ({}, "DISPLAY is not set"),
])
def test_a_session_phantom_cannot_serve_is_refused(environ, said):
    with pytest.raises(UnsupportedSession, match=said.replace("(", r"\(").replace(")", r"\)")):
        detect(environ)


def test_the_wire_format_round_trips_and_waits_for_whole_messages():
    message = bytearray(encode(4, '{"a": 1}'))
    part = bytearray(message[:10])
    assert decode(part) is None and len(part) == 10
    assert decode(message) == (4, {"a": 1}) and message == bytearray()
    with pytest.raises(SwayUnavailable):
        decode(bytearray(b"x11-ipc" + bytes(12)))


def _capture(tmp_path, environ):
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "PYTHONPATH", "LANG", "HOME")}
    env.update(environ)
    (tmp_path / "c.toml").write_text("", encoding="utf-8")
    return subprocess.run([PHANTOM, "capture", "--db", str(tmp_path / "s.sqlite3"), "--no-dbus",
                           "--config", str(tmp_path / "c.toml")],
                          env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("environ", "said"), [
    ({"WAYLAND_DISPLAY": "wayland-9", "XDG_CURRENT_DESKTOP": "GNOME"}, "cannot capture GNOME on Wayland"),
    ({"WAYLAND_DISPLAY": "wayland-9", "SWAYSOCK": "/nonexistent/sway-ipc.sock"},
     "cannot reach sway's IPC socket /nonexistent/sway-ipc.sock"),
])
def test_capture_refuses_with_one_line_and_records_nothing(tmp_path, environ, said):
    result = _capture(tmp_path, environ)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert said in lines[0]
    assert not (tmp_path / "s.sqlite3").exists() or os.path.getsize(tmp_path / "s.sqlite3") == 0


def test_doctor_names_the_unsupported_session(tmp_path):
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "PYTHONPATH", "LANG", "HOME")}
    env.update({"WAYLAND_DISPLAY": "wayland-9", "XDG_CURRENT_DESKTOP": "KDE", "XDG_DATA_HOME": str(tmp_path)})
    result = subprocess.run([PHANTOM, "doctor"], env=env, capture_output=True, text=True, timeout=60)
    line = next(line for line in result.stdout.splitlines() if " display " in line)
    assert line.startswith("!!") and "cannot capture KDE Plasma on Wayland" in line, result.stdout
    assert result.returncode == 1
