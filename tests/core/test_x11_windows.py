"""One application is one app, whatever its windows' classes: the names
capture records and replay looks windows up by (core/x11.py), read from
real X windows on the test desktop, made by this process as a toolkit
would make them."""

from __future__ import annotations

import os

import pytest

from core.x11 import app_name


@pytest.mark.parametrize(("instance", "klass", "name"), [
    ("libreoffice", "libreoffice-writer", "libreoffice"),
    ("libreoffice", "libreoffice-calc", "libreoffice"),
    ("soffice", "Soffice", "libreoffice"),
    ("gedit", "Gedit", "gedit"),
    ("", "", "unknown"),
])
def test_every_class_of_an_application_family_is_one_name(instance, klass, name):
    assert app_name(instance, klass, None) == name


def _window(connection, instance: str, klass: str, title: str, *, owner=None, popup: bool = False):
    from Xlib import X, Xatom

    root = connection.screen().root
    window = root.create_window(40, 40, 200, 120, 0, X.CopyFromParent, X.InputOutput, X.CopyFromParent,
                                override_redirect=popup)
    window.set_wm_class(instance, klass)
    window.set_wm_name(title)
    window.change_property(connection.intern_atom("_NET_WM_PID"), Xatom.CARDINAL, 32, [os.getpid()])
    if owner is not None:
        window.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [owner.id])
    window.map()
    return window


@pytest.mark.desktop
def test_a_dialog_is_filed_under_the_window_it_belongs_to_and_a_tooltip_is_no_window(desktop):
    from Xlib import display

    from capturer.sources.x11 import window_info
    from core.x11 import Atoms
    from replay.windows import XSession
    from testbed.waiting import wait_until

    connection = display.Display(desktop.display)
    try:
        main = _window(connection, "phantom-writer", "Phantom-Writer", "Untitled 1 - Writer")
        dialog = _window(connection, "phantom-dialogs", "Phantom-Dialogs", "Find & Replace", owner=main)
        stranger = _window(connection, "phantom-other", "Phantom-Other", "Other")   # no owner
        _window(connection, "phantom-writer", "Phantom-Writer", "tip", popup=True)
        connection.sync()
        session = XSession(desktop.display)
        try:
            windows = wait_until(lambda: (lambda found: found if len(found) == 2 else None)(
                session.app_windows("phantom-writer")), timeout=5, what="both windows mapped")
            others = session.app_windows("phantom-other")
        finally:
            session.close()
        assert sorted((w.title, w.dialog) for w in windows) == [("Find & Replace", True),
                                                               ("Untitled 1 - Writer", False)]
        assert [w.title for w in others] == ["Other"]
        atoms, root = Atoms(connection), connection.screen().root
        assert window_info(dialog, root, atoms).app == "phantom-writer"     # as capture files it
        assert window_info(stranger, root, atoms).app == "phantom-other"
    finally:
        connection.close()
