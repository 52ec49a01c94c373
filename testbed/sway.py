"""A private headless sway desktop, for the Wayland tests and benchmarks.

The same order as the X11 desktop (`testbed/harness.py`, docs/DESIGN.md),
with sway in Xvfb's place, every program started as an unprivileged user
(`as_user`): a directory that user owns holding the runtime, config, cache
and data directories; sway on wlroots' headless backend with the pixman
renderer and no input devices (`WLR_BACKENDS=headless
WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman`), one 1280×800 output; a
session D-Bus; the AT-SPI bus launcher with accessibility switched on; the
applications last, as native Wayland clients (`GDK_BACKEND=wayland`). sway
leaves `WAYLAND_DISPLAY` (`wayland-N`) and `SWAYSOCK` (`sway-ipc.*`) in the
runtime directory; the desktop finds them there. It stops exactly the
processes it started, in the reverse order.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

from core.wayland.ipc import SwayIpc, SwayUnavailable

from .as_user import as_user, give, owned_dir
from .executables import executable
from .processes import DesktopError, StartedProcess, start_session_bus, terminate
from .waiting import wait_until

CONFIG = """default_border normal 2
focus_follows_mouse no
"""
OUTPUT = "output HEADLESS-{n} resolution {width}x{height} position {x} 0\n"
SWAY_ENV = {"WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"}


class SwayDesktop:
    """`with SwayDesktop() as sway:`; `sway.env` is the environment of its
    clients, `sway.launch(argv)` starts one as the desktop's user."""

    def __init__(self, *, width: int = 1280, height: int = 800, outputs: int = 1) -> None:
        """`outputs` side by side, HEADLESS-1 leftmost, each `width` × `height`."""
        self.size = (width, height)
        self.outputs = outputs
        self.root: Path | None = None
        self.env: dict[str, str] = {}
        self.display = ""
        self.swaysock = ""
        self._started: list[StartedProcess] = []
        self.apps: list[StartedProcess] = []

    def __enter__(self) -> SwayDesktop:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> SwayDesktop:
        for name in ("sway", "dbus-daemon", "at-spi-bus-launcher", "gdbus"):
            executable(name)
        try:
            self._make_dirs()
            self._start_sway()
            self._start_session_bus()
            self._start_atspi()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for app in reversed(self.apps):
            terminate(app)
        self.apps.clear()
        for process in reversed(self._started):
            terminate(process)
        self._started.clear()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    # -- clients ------------------------------------------------------------------
    def launch(self, argv: list[str], *, name: str | None = None,
               extra_env: dict[str, str] | None = None) -> StartedProcess:
        """A native Wayland client, in its own process group, as the desktop's user."""
        env = {**self.env, "GDK_BACKEND": "wayland", **(extra_env or {})}
        process = subprocess.Popen(as_user(argv), env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        app = StartedProcess(name or Path(argv[0]).name, process.pid, process, group=True)
        self.apps.append(app)
        return app

    def launch_xwayland(self, argv: list[str], x_class: str, *, timeout: float = 30.0) -> StartedProcess:
        """An X client on sway's Xwayland. Only sway knows the X display it
        chose (`:0` and `:1` may be taken by other desktops), and it gives
        it to the programs it starts: so sway starts this one (`exec`), with
        the session bus and the desktop's directories passed along. sway
        detaches what it starts; its pid comes from sway's tree, and
        `stop` ends it by that pid."""
        keep = ("DBUS_SESSION_BUS_ADDRESS", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME",
                "XDG_DATA_DIRS", "GSETTINGS_BACKEND", "HOME")
        assignments = [f"{key}={shlex.quote(self.env[key])}" for key in keep if key in self.env]
        line = " ".join(["env", "GDK_BACKEND=x11", *assignments, *map(shlex.quote, argv)])
        # In double quotes: a comma (the bus address has one) would end sway's command.
        self.command(f'exec "{line}"')

        def probe() -> dict[str, Any] | None:
            return next((v for v in self.views() if v.get("shell") == "xwayland"
                         and (v.get("window_properties") or {}).get("class") == x_class), None)

        found = wait_until(probe, timeout=timeout, what=f"an Xwayland window of class {x_class}")
        assert found is not None   # wait_until returns only a truthy answer
        app = StartedProcess(Path(argv[0]).name, int(found["pid"]))
        self.apps.append(app)
        return app

    def run(self, argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        """A short command as the desktop's user, in its environment."""
        kwargs.setdefault("capture_output", True)
        kwargs.setdefault("text", True)
        kwargs.setdefault("timeout", 15)
        return subprocess.run(as_user(argv), env=self.env, **kwargs)

    def ipc(self) -> SwayIpc:
        return SwayIpc(self.swaysock)

    def command(self, text: str) -> None:
        """A sway command (`focus`, `[app_id=...] focus`), which must succeed."""
        ipc = self.ipc()
        try:
            replies = ipc.command(text)
        finally:
            ipc.close()
        if not replies or not all(reply.get("success") for reply in replies):
            raise DesktopError(f"sway refused {text!r}: {replies}")

    def views(self) -> list[dict[str, Any]]:
        """Every client window in sway's tree (its JSON nodes)."""
        ipc = self.ipc()
        try:
            tree = ipc.tree()
        finally:
            ipc.close()
        found: list[dict[str, Any]] = []

        def walk(node: dict[str, Any]) -> None:
            children = [*node.get("nodes", ()), *node.get("floating_nodes", ())]
            if not children and node.get("pid"):
                found.append(node)
            for child in children:
                walk(child)

        walk(tree)
        return found

    def wait_for_view(self, app_id: str, timeout: float = 20.0) -> dict[str, Any]:
        def probe() -> dict[str, Any] | None:
            return next((v for v in self.views() if v.get("app_id") == app_id), None)

        found = wait_until(probe, timeout=timeout, what=f"a sway window with app_id {app_id}")
        assert found is not None   # wait_until returns only a truthy answer
        return found

    # -- infrastructure -----------------------------------------------------------
    def _make_dirs(self) -> None:
        self.root = owned_dir("phantom-sway-")
        os.chmod(self.root, 0o755)   # others (root's tests) read the store kept here
        dirs = {name: self.root / name for name in ("runtime", "config", "cache", "data")}
        for path in dirs.values():
            path.mkdir(mode=0o700)
            give(path)
        config = self.root / "sway.conf"
        width, height = self.size
        config.write_text(CONFIG + "".join(OUTPUT.format(n=n + 1, width=width, height=height, x=n * width)
                                           for n in range(self.outputs)), encoding="utf-8")
        give(config)
        keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TZ", "PYTHONPATH",
                                                             "PYTHONHASHSEED", "VIRTUAL_ENV")}
        self.env = {**keep, "HOME": str(self.root), "XDG_RUNTIME_DIR": str(dirs["runtime"]),
                    "XDG_CONFIG_HOME": str(dirs["config"]), "XDG_CACHE_HOME": str(dirs["cache"]),
                    "XDG_DATA_HOME": str(dirs["data"]),
                    "XDG_DATA_DIRS": f"{dirs['data']}:/usr/local/share:/usr/share",
                    "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway",
                    "GSETTINGS_BACKEND": "memory", "PYTHONDONTWRITEBYTECODE": "1"}

    def _start_sway(self) -> None:
        assert self.root is not None
        runtime = Path(self.env["XDG_RUNTIME_DIR"])
        log = open(self.root / "sway.log", "wb")
        try:
            process = subprocess.Popen(as_user([executable("sway"), "-c", str(self.root / "sway.conf")]),
                                       env={**self.env, **SWAY_ENV, "WLR_HEADLESS_OUTPUTS": str(self.outputs)},
                                       stdin=subprocess.DEVNULL,
                                       stdout=log, stderr=log, start_new_session=True)
        finally:
            log.close()
        self._started.append(StartedProcess("sway", process.pid, process, group=True))

        def sockets() -> tuple[str, str] | None:
            if process.poll() is not None:
                said = (self.root / "sway.log").read_text(errors="replace").strip().splitlines()  # type: ignore[operator]
                raise DesktopError(f"sway exited ({process.returncode}): {said[-1] if said else ''}")
            wayland = sorted(p.name for p in runtime.glob("wayland-*") if not p.name.endswith(".lock"))
            ipc = sorted(str(p) for p in runtime.glob("sway-ipc.*.sock"))
            return (wayland[0], ipc[0]) if wayland and ipc else None

        found = wait_until(sockets, timeout=20.0, what="sway's sockets")
        assert found is not None   # wait_until returns only a truthy answer
        self.display, self.swaysock = found
        self.env.update({"WAYLAND_DISPLAY": self.display, "SWAYSOCK": self.swaysock})

        def answers() -> bool:
            try:
                self.ipc().close()
                return True
            except SwayUnavailable:
                return False

        wait_until(answers, timeout=10.0, what="sway's IPC to answer")

    def _start_session_bus(self) -> None:
        self._started.append(start_session_bus(self.env, as_user))

    def _start_atspi(self) -> None:
        process = subprocess.Popen(as_user([executable("at-spi-bus-launcher"), "--launch-immediately"]),
                                   env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        self._started.append(StartedProcess("at-spi-bus-launcher", process.pid, process, group=True))
        owner = [executable("gdbus"), "call", "--session", "--dest", "org.freedesktop.DBus",
                 "--object-path", "/org/freedesktop/DBus", "--method",
                 "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.a11y.Bus"]
        # setpriv executes the launcher in its own place: the pid Popen gave is the launcher's.
        wait_until(lambda: f"(uint32 {process.pid}," in self.run(owner, timeout=5).stdout,
                   timeout=15.0, what="the AT-SPI bus launcher to own org.a11y.Bus")
        enable = [executable("gdbus"), "call", "--session", "--dest", "org.a11y.Bus", "--object-path",
                  "/org/a11y/bus", "--method", "org.freedesktop.DBus.Properties.Set",
                  "org.a11y.Status", "IsEnabled", "<true>"]
        result = self.run(enable)
        if result.returncode != 0:
            raise DesktopError(f"could not enable AT-SPI: {result.stderr.strip()}")

