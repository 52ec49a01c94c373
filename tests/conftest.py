"""Fixtures shared by every test: the virtual desktop (started once per
session, only if a test asks for it) and a scripted user driving it through
XTest."""

from __future__ import annotations

import contextlib
import os

import pytest

from testbed.harness import VirtualDesktop


@contextlib.contextmanager
def _desktop_environment(instance):
    """Point this process's environment (pyatspi, XTest, subprocesses) at a desktop."""
    saved = {key: os.environ.get(key) for key in instance.env}
    os.environ.update(instance.env)
    try:
        yield instance
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture(scope="module")
def managed_desktop():
    """A desktop with a window manager (openbox) for one test module: windows
    are activated, stacked and focused by clicking as on a person's desktop.
    Do not mix it with the session `desktop` fixture in one module."""
    from testbed.harness import DesktopConfig

    instance = VirtualDesktop(DesktopConfig(window_manager=True)).start()
    try:
        with _desktop_environment(instance):
            yield instance
    finally:
        instance.stop()


@pytest.fixture(scope="session")
def desktop():
    """Xvfb + session D-Bus + AT-SPI (IsEnabled) for the whole session. The
    test process's environment points at it, so pyatspi and XTest calls made
    by tests see the same desktop as the apps and the daemon."""
    instance = VirtualDesktop().start()
    try:
        with _desktop_environment(instance):
            yield instance
    finally:
        instance.stop()


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
