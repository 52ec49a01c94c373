"""Top-level X11 windows read one way for capture and replay alike: which
application a window belongs to (its WM_CLASS class, case-folded — the `app`
every snapshot and program names), its title, its owning process, where it
is, whether it is a dialog, and whether it is a popup: a tooltip, a menu, a
popover or a drag icon, which the toolkit maps as a top-level of its own
(override-redirect, or typed so) though it is part of another window.

The caller owns the connection (python-xlib, imported by the caller) and its
thread; every function here is a handful of round trips. A window that
vanishes mid-query is reported as absent, never as an error: windows come
and go while we look.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from typing import Any

# Window types of surfaces that belong to another window and come and go
# with the pointer: GTK 4 maps its tooltips as top-levels with a WM_CLASS.
POPUP_TYPES = ("_NET_WM_WINDOW_TYPE_TOOLTIP", "_NET_WM_WINDOW_TYPE_MENU", "_NET_WM_WINDOW_TYPE_POPUP_MENU",
               "_NET_WM_WINDOW_TYPE_DROPDOWN_MENU", "_NET_WM_WINDOW_TYPE_COMBO", "_NET_WM_WINDOW_TYPE_DND")
ATOM_NAMES = ("_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "_NET_WM_PID", "UTF8_STRING", "WM_STATE",
              "_NET_SUPPORTING_WM_CHECK", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_DIALOG", *POPUP_TYPES)

ICONIC_STATE = 3     # WM_STATE's IconicState (ICCCM 4.1.3.1)

# python-xlib ships no type information: these name what is passed (an
# Xlib.display.Display, an Xlib window resource), not a checked shape.
XDisplay = Any
XWindow = Any


@dataclass(frozen=True, slots=True)
class TopLevel:
    """A mapped top-level client window. `frame_id` is the child of the root
    that holds it (the window manager's frame, or the client itself)."""

    window_id: int
    frame_id: int
    app: str
    wm_class: str
    pid: int | None
    title: str
    x: int
    y: int
    width: int
    height: int
    dialog: bool          # transient for another window, or typed as a dialog
    popup: bool = False   # a tooltip, menu, popover or drag icon (see POPUP_TYPES), or override-redirect

    def describe(self) -> str:
        return f"{self.title or '(untitled)'!r} ({self.app}, window 0x{self.window_id:x})"


# Applications that give their windows several WM_CLASS classes, filed
# under one name: LibreOffice names a document window after its module
# (libreoffice-writer, libreoffice-calc, …) and its dialogs and its windows
# while it starts `soffice`; one soffice.bin process holds them all.
# (class prefix, the one name)
APP_FAMILIES = (("libreoffice-", "libreoffice"), ("soffice", "libreoffice"))


def app_name(instance: str, klass: str, executable: str | None) -> str:
    """The application name Phantom records: WM_CLASS class, else instance,
    else the executable's file name, case-folded — one name for every class
    of an application in APP_FAMILIES."""
    name = (klass or instance or (executable or "").rsplit("/", 1)[-1] or "unknown").casefold()
    return next((family for prefix, family in APP_FAMILIES if name.startswith(prefix)), name)


def owner_app(window: XWindow, atoms: Atoms, pid: int | None) -> str | None:
    """The application name of the window `window` is transient for, when
    the same process made both: a dialog is filed under the application of
    the window it belongs to, whatever class its toolkit gave it."""
    from Xlib import Xatom, error
    from Xlib.xobject.drawable import Window

    if pid is None:
        return None
    owner_id = window.get_full_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW)
    if owner_id is None or not len(owner_id.value) or not owner_id.value[0]:
        return None
    try:
        owner = Window(window.display, int(owner_id.value[0]))
        instance, klass = owner.get_wm_class() or ("", "")
        if not (instance or klass) or pid_of(owner, atoms) != pid:
            return None
    except (error.BadWindow, error.BadDrawable, error.BadValue):
        return None
    return app_name(instance, klass, None)


def executable_of(pid: int | None) -> str | None:
    if not pid:
        return None
    try:
        return os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return None


class Atoms:
    """The atoms these reads need, interned once per connection."""

    def __init__(self, connection: XDisplay) -> None:
        self._ids: dict[str, int] = {name: connection.intern_atom(name) for name in ATOM_NAMES}

    def __getitem__(self, name: str) -> int:
        return self._ids[name]


def title_of(window: XWindow, atoms: Atoms) -> str:
    prop = window.get_full_property(atoms["_NET_WM_NAME"], atoms["UTF8_STRING"])
    if prop is not None and prop.value:
        value = prop.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    name = window.get_wm_name()
    if isinstance(name, bytes):
        return name.decode("latin-1")
    return name or ""


def pid_of(window: XWindow, atoms: Atoms) -> int | None:
    """The window's process: its _NET_WM_PID, else what the X server knows
    of the client that made it (the X-Resource extension, local clients
    only) — toolkits such as Xaw and Tk never set _NET_WM_PID."""
    from Xlib import Xatom

    prop = window.get_full_property(atoms["_NET_WM_PID"], Xatom.CARDINAL)
    if prop is not None and len(prop.value):
        return int(prop.value[0])
    return _client_pid(window)


def _client_pid(window: XWindow) -> int | None:
    from Xlib import error
    from Xlib.ext import res

    try:
        window.display.get_extension_major(res.extname)     # KeyError: the server has no X-Resource
        # The request helper takes anything with a `.display`: the window's own connection.
        reply = res.query_client_ids(window, [{"client": window.id, "mask": res.LocalClientPIDMask}])
    except (KeyError, error.XError):
        return None
    for found in reply.ids:
        if found.spec.mask == res.LocalClientPIDMask and len(found.value):
            return int(found.value[0])
    return None


def window_types(window: XWindow, atoms: Atoms) -> frozenset[int]:
    """The window's _NET_WM_WINDOW_TYPE atoms (none set: empty)."""
    from Xlib import X

    kinds = window.get_full_property(atoms["_NET_WM_WINDOW_TYPE"], X.AnyPropertyType)
    return frozenset(int(kind) for kind in kinds.value) if kinds is not None else frozenset()


def is_dialog(window: XWindow, atoms: Atoms, kinds: frozenset[int] | None = None) -> bool:
    from Xlib import Xatom

    if window.get_full_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW) is not None:
        return True
    kinds = window_types(window, atoms) if kinds is None else kinds
    return atoms["_NET_WM_WINDOW_TYPE_DIALOG"] in kinds


def is_popup(frame: XWindow, atoms: Atoms, kinds: frozenset[int]) -> bool:
    """A surface of another window mapped as a top-level of its own: typed
    as one (`POPUP_TYPES`), or override-redirect — placed by the toolkit
    itself, which no window manager ever manages: no window a person
    switches to is made so."""
    return bool(frame.get_attributes().override_redirect) or any(atoms[name] in kinds for name in POPUP_TYPES)


def window_manager_running(connection: XDisplay, atoms: Atoms) -> bool:
    """A EWMH window manager announces itself on the root window."""
    from Xlib import X

    root = connection.screen().root
    return root.get_full_property(atoms["_NET_SUPPORTING_WM_CHECK"], X.AnyPropertyType) is not None


def client_of(frame: XWindow) -> XWindow | None:
    """The client window (the one with WM_CLASS) in a root child: the child
    itself, or one of its children when a window manager framed it."""
    if frame.get_wm_class() is not None:
        return frame
    for child in frame.query_tree().children:
        if child.get_wm_class() is not None:
            return child
    return None


def top_levels(connection: XDisplay, atoms: Atoms) -> list[TopLevel]:
    """Every viewable top-level client window, bottom of the stack first."""
    from Xlib import X, error

    root = connection.screen().root
    found: list[TopLevel] = []
    for frame in root.query_tree().children:
        try:
            if frame.get_attributes().map_state != X.IsViewable:
                continue
            client = client_of(frame)
            if client is None:
                continue
            found.append(describe(client, frame, root, atoms))
        except (error.BadWindow, error.BadDrawable, error.BadMatch, error.BadValue):
            continue
    return found


def minimised(connection: XDisplay, atoms: Atoms) -> list[TopLevel]:
    """Every top-level client window that is iconified (WM_STATE Iconic):
    minimised by the person, so not on screen, though its application runs."""
    from Xlib import X, error

    root = connection.screen().root
    found: list[TopLevel] = []
    for frame in root.query_tree().children:
        try:
            if frame.get_attributes().map_state == X.IsViewable:
                continue
            client = client_of(frame)
            if client is None:
                continue
            state = client.get_full_property(atoms["WM_STATE"], atoms["WM_STATE"])
            if state is None or not len(state.value) or int(state.value[0]) != ICONIC_STATE:
                continue
            found.append(describe(client, frame, root, atoms))
        except (error.BadWindow, error.BadDrawable, error.BadMatch, error.BadValue):
            continue
    return found


def describe(client: XWindow, frame: XWindow, root: XWindow, atoms: Atoms) -> TopLevel:
    instance, klass = client.get_wm_class() or ("", "")
    pid = pid_of(client, atoms)
    geometry = client.get_geometry()
    origin = client.translate_coords(root, 0, 0)
    kinds = window_types(client, atoms)
    app = owner_app(client, atoms, pid) or app_name(instance, klass, executable_of(pid))
    return TopLevel(client.id, frame.id, app,
                    f"{instance}.{klass}", pid, title_of(client, atoms), -origin.x, -origin.y,
                    geometry.width, geometry.height, is_dialog(client, atoms, kinds),
                    is_popup(frame, atoms, kinds))


def display_answers(name: str, timeout: float = 0.2) -> bool:
    """Whether an X server accepts connections for display `name` (":1",
    ":1.0", "host:1"): a connect to its socket, without the X handshake —
    cheap enough to ask four times a second while the server is gone."""
    host, _, rest = name.rpartition(":")
    number = rest.split(".")[0]
    if not number.isdigit():
        return False
    if host and host != "unix":
        try:
            socket.create_connection((host, 6000 + int(number)), timeout).close()
            return True
        except OSError:
            return False
    path = f"/tmp/.X11-unix/X{number}"
    for address in (path, "\0" + path):   # the file, then the abstract socket of that name
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(timeout)
            try:
                probe.connect(address)
                return True
            except OSError:
                continue
    return False
