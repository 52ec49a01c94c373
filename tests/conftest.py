"""Fixtures shared by every test: the virtual desktop (started once per
session, only if a test asks for it) and a scripted user driving it through
XTest."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from testbed.harness import VirtualDesktop


def pytest_addoption(parser):
    parser.addoption("--load", action="store_true",
                     help="keep the CPU busy for the whole run: as many spinning processes as twice "
                          "the cores (`make test-load`), as on a laptop during a build or a video call")


@pytest.fixture(scope="session", autouse=True)
def cpu_hogs(request):
    """With `--load`, busy processes at the tests' own priority for the
    whole session: every wait on the desktop must then hold on a loaded
    machine. They are ended with the session (and die with it, by the pipe
    they read: a killed pytest leaves none behind)."""
    if not request.config.getoption("--load"):
        yield []
        return
    spin = ("import os, threading\n"
            "threading.Thread(target=lambda: os.read(0, 1) or os._exit(0), daemon=True).start()\n"
            "while True:\n    pass\n")
    hogs = [subprocess.Popen([sys.executable, "-c", spin], stdin=subprocess.PIPE)
            for _ in range(2 * (os.cpu_count() or 1))]
    yield hogs
    for hog in hogs:
        hog.kill()
        hog.wait()


@pytest.fixture(scope="session", autouse=True)
def private_cache_home(tmp_path_factory):
    """Compiles made by tests (and the processes they start) cache their
    documents in a temporary folder, never in the user's own cache."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if saved is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = saved


@pytest.fixture(scope="module")
def managed_desktop(desktop):
    """The session desktop with a window manager (openbox) for one test
    module: windows are activated, stacked and focused by clicking, as on a
    person's desktop. (The same desktop, not a second one: libatspi binds a
    process to one accessibility bus for good.)"""
    desktop.start_window_manager()
    try:
        yield desktop
    finally:
        desktop.stop_window_manager()


@pytest.fixture(scope="session")
def desktop():
    """Xvfb + session D-Bus + AT-SPI (IsEnabled) for the whole session. The
    test process's environment points at it, so pyatspi and XTest calls made
    by tests see the same desktop as the apps and the daemon."""
    instance = VirtualDesktop().start()
    saved = {key: os.environ.get(key) for key in instance.env}
    os.environ.update(instance.env)
    try:
        yield instance
    finally:
        instance.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture(autouse=True)
def keyboard_follows_pointer(request):
    """Each test on the plain desktop starts with X's own focus mode (an
    earlier test's closed window must not leave the keyboard on the root)."""
    if "desktop" in request.fixturenames:
        request.getfixturevalue("desktop").keyboard_follows_pointer()


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A private XDG config, data and runtime home (install and unit tests)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    return tmp_path


@pytest.fixture
def apps(desktop):
    """Launch fixture apps for one test; they are closed afterwards."""
    started = []

    def launch(kind: str, *args: str):
        app = desktop.launch_fixture(kind, *args)
        started.append(app)
        return app

    yield launch
    for app in started:
        desktop.close_app(app)


@pytest.fixture
def user(desktop):
    """A scripted user: real pointer and keyboard input through XTest."""
    from replay.xinput import XTestInput

    scripted = XTestInput(desktop.display)
    yield scripted
    scripted.close()
