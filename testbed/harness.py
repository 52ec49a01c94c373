"""A private virtual desktop: Xvfb, a session D-Bus, the AT-SPI bus (with
`IsEnabled` set) and optionally openbox, plus Phantom's GTK fixture apps.

Tests, benchmarks and `phantom demo` all use this one harness. It keeps every
runtime file in a private temporary directory (so the AT-SPI socket and dconf
do not land in the real `~/.cache` or `~/.config`), records the PID of every
process it starts, and on `stop()` ends exactly those — nothing else.

Start order matters (docs/DESIGN.md, "The test desktop", says why): XDG dirs
first, then Xvfb, then the session bus, then the AT-SPI bus launcher, then apps.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .executables import executable
from .processes import DesktopError, StartedProcess, alive, descendants, read_line, start_session_bus, terminate
from .waiting import wait_until

__all__ = ["APPS_DIR", "App", "DesktopConfig", "DesktopError", "StartedProcess", "VirtualDesktop"]

APPS_DIR = Path(__file__).resolve().parent / "apps"
FIXTURE_APPS = {
    "form": APPS_DIR / "form_app.py",
    "notes": APPS_DIR / "notes_app.py",
    "browser": APPS_DIR / "browser_app.py",
    "canvas": APPS_DIR / "canvas_app.py",
}
# What every desktop needs before anything starts (a missing one is named
# with its Debian package).
REQUIRED = ("Xvfb", "dbus-daemon", "dbus-send", "gdbus", "xdpyinfo", "xdotool", "xprop", "xrandr",
            "at-spi-bus-launcher")


@dataclass(frozen=True, slots=True)
class DesktopConfig:
    """How the virtual desktop looks: screen size, and whether to run a window
    manager (needed only for `_NET_ACTIVE_WINDOW` and decorations)."""

    width: int = 1280          # per monitor
    height: int = 800
    window_manager: bool = False
    monitors: int = 1          # side by side, as RandR monitors


@dataclass
class App:
    """A running application on the virtual desktop."""

    name: str
    process: subprocess.Popen[bytes]
    argv: list[str] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.process.pid


class VirtualDesktop:
    """Start with `start()` or `with VirtualDesktop() as desktop:`; read the
    environment for child processes from `desktop.env`."""

    def __init__(self, config: DesktopConfig = DesktopConfig(), *, base_dir: Path | None = None):
        self.config = config
        self._base_dir = base_dir
        self.root: Path | None = None
        self.env: dict[str, str] = {}
        self.display = ""
        self._started: list[StartedProcess] = []
        self.apps: list[App] = []

    # -- lifecycle ------------------------------------------------------------
    def __enter__(self) -> "VirtualDesktop":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> "VirtualDesktop":
        for name in REQUIRED:
            executable(name)
        try:
            self._make_private_dirs()
            self._start_xvfb()
            self._split_monitors()
            self._start_session_bus()
            self._start_atspi()
            if self.config.window_manager:
                self.start_window_manager()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop apps, then infrastructure in reverse start order; remove the
        private directory."""
        for app in reversed(self.apps):
            terminate(StartedProcess(app.name, app.pid, app.process, group=True))
        self.apps.clear()
        for process in reversed(self._started):
            terminate(process)
        self._started.clear()
        if self.root is not None and self._base_dir is None:
            shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    # -- apps -------------------------------------------------------------------
    def launch(self, argv: list[str], *, name: str | None = None,
               extra_env: dict[str, str] | None = None) -> App:
        """Start an application in its own process group on this desktop."""
        env = dict(self.env)
        env.update(extra_env or {})
        process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        app = App(name or Path(argv[0]).name, process, list(argv))
        self.apps.append(app)
        return app

    def launch_fixture(self, kind: str, *args: str, wait: bool = True,
                       timeout: float = 15.0) -> App:
        """Start one of Phantom's fixture apps ('form', 'notes', 'browser', 'canvas') and
        by default wait until its window is mapped."""
        if kind not in FIXTURE_APPS:
            raise ValueError(f"unknown fixture app {kind!r}; choose from {sorted(FIXTURE_APPS)}")
        app = self.launch([sys.executable, str(FIXTURE_APPS[kind]), *args], name=f"phantom-{kind}")
        if wait:
            self.wait_for_window(f"phantom-{kind}", timeout=timeout)
        return app

    def close_app(self, app: App) -> None:
        terminate(StartedProcess(app.name, app.pid, app.process, group=True))
        if app in self.apps:
            self.apps.remove(app)

    def wait_for_window(self, wm_class: str, *, timeout: float = 15.0, pid: int | None = None) -> int:
        """Wait until a mapped window with this WM_CLASS exists (of process
        `pid`, when given: another instance's window must not be taken for
        it); return its id."""
        owner = ["--all", "--pid", str(pid)] if pid is not None else []

        def probe() -> int:
            out = subprocess.run([executable("xdotool"), "search", *owner, "--onlyvisible", "--class", wm_class],
                                 env=self.env, capture_output=True, text=True, timeout=5)
            ids = out.stdout.split()
            return int(ids[0]) if ids else 0
        return wait_until(probe, timeout=timeout, what=f"a window of class {wm_class}")

    def place_window(self, window: int, x: int, y: int, width: int, height: int, *,
                     timeout: float = 15.0) -> None:
        """Size and move a window, and repeat until it stays put for half a
        second. A toolkit can configure its own window just after mapping it
        (GTK applies its natural size; a window manager places a window it
        has just taken on): a move made in that moment is undone, and a test
        would click where the window no longer is."""
        def geometry() -> tuple[int, int, int, int]:
            out = self.run([executable("xdotool"), "getwindowgeometry", "--shell", str(window)], timeout=5).stdout
            fields = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
            left, top, wide, high = (int(fields.get(k, -1)) for k in ("X", "Y", "WIDTH", "HEIGHT"))
            return left, top, wide, high

        def settled() -> bool:
            # no --sync: it waits for a change, forever when the window is already so
            moved = self.run([executable("xdotool"), "windowsize", str(window), str(width), str(height),
                              "windowmove", str(window), str(x), str(y)], timeout=10)
            if moved.returncode != 0:
                raise DesktopError(f"xdotool could not place window {window}: {moved.stderr.strip()}")
            time.sleep(0.2)
            first = geometry()
            time.sleep(0.5)
            return first == geometry()    # (a window with a larger minimum keeps that size)

        wait_until(settled, timeout=timeout, what=f"window {window} to stay at {width}x{height}+{x}+{y}")

    def run(self, argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        """Run a short command on this desktop (xdotool, gdbus, …)."""
        kwargs.setdefault("capture_output", True)
        kwargs.setdefault("text", True)        # every caller reads its output as text
        kwargs.setdefault("timeout", 30)
        return subprocess.run(argv, env=self.env, **kwargs)

    # -- faults (for robustness tests) ------------------------------------------------
    def kill_display(self) -> None:
        """Kill the X server, as a crash or a logout would."""
        for process in [p for p in self._started if p.name == "Xvfb"]:
            terminate(process, grace=1.0)
            self._started.remove(process)

    def restart_display(self) -> None:
        """Start an X server again on the same display number."""
        process = subprocess.Popen(
            [executable("Xvfb"), self.display, "-screen", "0",
             f"{self.config.width * self.config.monitors}x{self.config.height}x24", "-nolisten",
             "tcp", "-noreset"],
            env=self.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        self._started.insert(0, StartedProcess("Xvfb", process.pid, process))
        wait_until(lambda: subprocess.run([executable("xdpyinfo")], env=self.env, capture_output=True,
                                          timeout=5).returncode == 0,
                   timeout=15.0, what=f"X server {self.display} to answer again")

    def kill_accessibility_bus(self, sig: int = signal.SIGTERM) -> None:
        """Stop the AT-SPI bus: the launcher that owns `org.a11y.Bus` (found
        on the session bus, whoever started it). SIGTERM: it shuts its bus
        down and takes its address off the root window, as on a logout.
        SIGKILL: the launcher and its bus die at once (the registry follows
        its bus) and the root window keeps naming the dead bus, as after a
        crash."""
        owner = self.accessibility_bus_owner()
        if owner is None:
            return
        # The launcher and the bus daemon it runs — not its process group: a
        # launcher D-Bus activated shares the session bus's.
        for pid in ([owner, *descendants(owner)] if sig == signal.SIGKILL else [owner]):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        wait_until(lambda: self.accessibility_bus_owner() is None and not alive(owner), timeout=10.0,
                   what="the AT-SPI bus launcher to go")
        self._started = [p for p in self._started if p.pid != owner]

    def start_accessibility_bus(self) -> None:
        """Start an AT-SPI bus launcher again (after `kill_accessibility_bus`)."""
        self._start_atspi()

    def accessibility_bus_owner(self) -> int | None:
        """The pid of the process that owns `org.a11y.Bus` (asking the bus
        daemon, which never activates anything)."""
        result = self.run([executable("dbus-send"), "--session", "--print-reply", "--dest=org.freedesktop.DBus",
                           "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID",
                           "string:org.a11y.Bus"], timeout=5)
        if result.returncode != 0:
            return None
        return int(result.stdout.split()[-1])

    # -- start-up steps -------------------------------------------------------
    def _make_private_dirs(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="phantom-desktop-", dir=self._base_dir))
        os.chmod(self.root, 0o700)
        dirs = {name: self.root / name for name in ("runtime", "config", "cache", "data")}
        for path in dirs.values():
            path.mkdir(mode=0o700)
        keep = {k: v for k, v in os.environ.items()
                if k in ("PATH", "HOME", "LANG", "LC_ALL", "TZ", "USER", "LOGNAME", "PYTHONPATH",
                         "VIRTUAL_ENV", "PYTHONHASHSEED", "TMPDIR")}
        self.env = {
            **keep,
            "XDG_RUNTIME_DIR": str(dirs["runtime"]),
            "XDG_CONFIG_HOME": str(dirs["config"]),
            "XDG_CACHE_HOME": str(dirs["cache"]),
            "XDG_DATA_HOME": str(dirs["data"]),
            "XDG_DATA_DIRS": f"{dirs['data']}:/usr/local/share:/usr/share",
            "GDK_BACKEND": "x11",
            "GSETTINGS_BACKEND": "memory",
            "NO_AT_BRIDGE": "0",
        }
        self.env.pop("NO_AT_BRIDGE")

    def _start_xvfb(self) -> None:
        read_fd, write_fd = os.pipe()
        try:
            size = f"{self.config.width * self.config.monitors}x{self.config.height}x24"
            process = subprocess.Popen(
                [executable("Xvfb"), "-displayfd", str(write_fd), "-screen", "0", size,
                 "-nolisten", "tcp", "-noreset"],
                env=self.env, pass_fds=(write_fd,), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            self._started.append(StartedProcess("Xvfb", process.pid, process))
            os.close(write_fd)
            write_fd = -1
            number = read_line(read_fd, timeout=15.0, what="Xvfb to choose a display")
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)
        self.display = f":{number}"
        self.env["DISPLAY"] = self.display
        wait_until(lambda: subprocess.run([executable("xdpyinfo")], env=self.env, capture_output=True,
                                          timeout=5).returncode == 0,
                   timeout=15.0, what=f"X server {self.display} to answer")

    def _split_monitors(self) -> None:
        """Divide the one Xvfb screen into side-by-side RandR monitors (the
        first takes over Xvfb's own output, so no whole-screen monitor is left)."""
        if self.config.monitors <= 1:
            return
        width, height = self.config.width, self.config.height
        for index in range(self.config.monitors):
            output = "screen" if index == 0 else "none"
            geometry = f"{width}/{width * 254 // 960}x{height}/{height * 254 // 960}+{index * width}+0"
            result = self.run([executable("xrandr"), "--setmonitor", f"PHANTOM-{index}", geometry, output])
            if result.returncode != 0:
                raise DesktopError(f"could not create monitor {index}: {result.stderr.strip()}")

    def _start_session_bus(self) -> None:
        self._started.append(start_session_bus(self.env))

    def _start_atspi(self) -> None:
        process = subprocess.Popen([executable("at-spi-bus-launcher"), "--launch-immediately"], env=self.env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        self._started.append(StartedProcess("at-spi-bus-launcher", process.pid, process, group=True))
        # Wait for the launcher to own its name before calling it: a call
        # made earlier would have D-Bus activate a second launcher, and then
        # which of the two runs the bus is a race.
        wait_until(lambda: self.accessibility_bus_owner() == process.pid,
                   timeout=15.0, what="the AT-SPI bus launcher to own org.a11y.Bus")
        enable = [executable("gdbus"), "call", "--session", "--dest", "org.a11y.Bus", "--object-path",
                  "/org/a11y/bus", "--method", "org.freedesktop.DBus.Properties.Set",
                  "org.a11y.Status", "IsEnabled", "<true>"]
        result = self.run(enable)
        if result.returncode != 0:
            raise DesktopError(f"could not enable AT-SPI: {result.stderr.strip()}")

    def start_window_manager(self) -> None:
        """Start openbox (also on a running desktop: a test module can act
        with a window manager on the session's one desktop, whose AT-SPI bus
        the test process is bound to for good)."""
        process = subprocess.Popen([executable("openbox"), "--sm-disable"], env=self.env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, start_new_session=True)
        self._started.append(StartedProcess("openbox", process.pid, process, group=True))
        probe = [executable("xprop"), "-root", "_NET_SUPPORTING_WM_CHECK"]
        wait_until(lambda: "window id" in self.run(probe, timeout=5).stdout,
                   timeout=15.0, what="openbox to manage the screen")

    def stop_window_manager(self) -> None:
        """Stop openbox and clear what it announced on the root window, so
        the desktop is again one without a window manager."""
        for process in [p for p in self._started if p.name == "openbox"]:
            terminate(process)
            self._started.remove(process)
        for atom in ("_NET_SUPPORTING_WM_CHECK", "_NET_ACTIVE_WINDOW", "_NET_SUPPORTED",
                     "_NET_CLIENT_LIST", "_NET_CLIENT_LIST_STACKING"):
            self.run([executable("xprop"), "-root", "-remove", atom], timeout=5)
        self.keyboard_follows_pointer()

    @property
    def window_manager_running(self) -> bool:
        return any(p.name == "openbox" for p in self._started)

    def keyboard_follows_pointer(self) -> None:
        """X's own focus mode without a window manager, as at the desktop's
        start. A window given the keyboard that then closes leaves it on the
        root window, where no click moves it: the next test's app would never
        be focused. Called between tests; a no-op under a window manager."""
        if self.window_manager_running:
            return
        from Xlib import X, display

        connection = display.Display(self.display)
        try:
            connection.set_input_focus(X.PointerRoot, X.RevertToPointerRoot, X.CurrentTime)
            connection.sync()
        finally:
            connection.close()

