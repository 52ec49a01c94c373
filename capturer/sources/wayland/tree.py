"""sway's GET_TREE and GET_OUTPUTS answers read into capture's records.

Pure functions of the JSON sway sends. A view is a leaf container with a
pid: a native client names itself by `app_id`, an Xwayland one by its X
class in `window_properties` — both appear once in sway's tree, so an
Xwayland window inside a Wayland session is captured once, as what it is.
A window's place is its content: the container's `rect` (which includes
sway's title bar and border) moved by `window_rect`, the surface's place
inside it — where the application's own (0, 0) lies on the screen.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from core.x11 import app_name, executable_of

from ..base import Monitor, WindowInfo

SCRATCHPAD = "__i3"


@dataclass(frozen=True, slots=True)
class View:
    """One client window in sway's tree."""

    info: WindowInfo
    output: str
    focused: bool
    visible: bool
    shell: str          # xdg_shell | xwayland
    outer: tuple[int, int, int, int]   # with sway's title bar and border (what a picture must hide)


def views(tree: dict[str, Any]) -> Iterator[View]:
    """Every view in the tree, in sway's order (the scratchpad's too)."""
    yield from _walk(tree, "")


def _walk(node: dict[str, Any], output: str) -> Iterator[View]:
    if node.get("type") == "output":
        output = str(node.get("name") or "")
    children = [*node.get("nodes", ()), *node.get("floating_nodes", ())]
    if not children and node.get("pid") and node.get("type") in ("con", "floating_con"):
        yield View(window_info(node), output, bool(node.get("focused")), bool(node.get("visible")),
                   str(node.get("shell") or ""), outer_rect(node))
        return
    for child in children:
        yield from _walk(child, output)


def outer_rect(node: dict[str, Any]) -> tuple[int, int, int, int]:
    """The container with its title bar: sway draws the title (`deco_rect`,
    relative to the parent when tiled, absolute when floating, so only its
    height is used) right above `rect`, which holds border and content."""
    rect = node.get("rect") or {}
    title = int((node.get("deco_rect") or {}).get("height", 0))
    return (int(rect.get("x", 0)), int(rect.get("y", 0)) - title, int(rect.get("width", 0)),
            int(rect.get("height", 0)) + title)


def window_info(node: dict[str, Any]) -> WindowInfo:
    properties = node.get("window_properties") or {}
    pid = int(node["pid"]) if node.get("pid") else None
    executable = executable_of(pid)
    if node.get("app_id"):
        instance = klass = str(node["app_id"])
    else:   # Xwayland: the X class, as the X11 source would name it
        instance, klass = str(properties.get("instance") or ""), str(properties.get("class") or "")
    x, y = content_origin(node)
    inner = node.get("window_rect") or {}
    rect = node.get("rect") or {}
    width = int(inner.get("width") or rect.get("width") or 0)
    height = int(inner.get("height") or rect.get("height") or 0)
    return WindowInfo(window_id=int(node["id"]), app=app_name(instance, klass, executable),
                      wm_class=f"{instance}.{klass}", pid=pid, executable=executable,
                      title=str(node.get("name") or properties.get("title") or ""),
                      x=x, y=y, width=width, height=height)


def content_origin(node: dict[str, Any]) -> tuple[int, int]:
    """Where the window's own (0, 0) lies on the screen."""
    rect = node.get("rect") or {}
    inner = node.get("window_rect") or {}
    return int(rect.get("x", 0)) + int(inner.get("x", 0)), int(rect.get("y", 0)) + int(inner.get("y", 0))


def focused(tree: dict[str, Any]) -> View | None:
    return next((view for view in views(tree) if view.focused), None)


def monitors(outputs: list[dict[str, Any]]) -> tuple[Monitor, ...]:
    """Active outputs as monitors, ordered as X11's are (left to right, top
    to bottom), in sway's logical coordinates."""
    active = [o for o in outputs if o.get("active") and o.get("rect")]
    active.sort(key=lambda o: (int(o["rect"]["x"]), int(o["rect"]["y"])))
    return tuple(Monitor(index, str(o.get("name") or f"output-{index}"), int(o["rect"]["x"]),
                         int(o["rect"]["y"]), int(o["rect"]["width"]), int(o["rect"]["height"]),
                         index == 0)
                 for index, o in enumerate(active))
