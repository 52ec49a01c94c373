"""Fixtures shared by every test: the virtual desktop (started once per
session, only if a test asks for it) and a scripted user driving it through
XTest."""

from __future__ import annotations

import os

import pytest

from testbed.harness import VirtualDesktop


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
