"""Naming why an application is missing from the accessibility bus, from the
libraries its process maps (pure: no process is read)."""

from __future__ import annotations

import os

import pytest

from core.a11y.exposure import UNKNOWN, explain, of_process

LIB = "/usr/lib/x86_64-linux-gnu"


@pytest.mark.parametrize("libraries, toolkit, supported", [
    ([f"{LIB}/libgtk-3.so.0.2406.32", f"{LIB}/libatk-bridge-2.0.so.0"], "GTK 3", True),
    ([f"{LIB}/libgtk-4.so.1.800.3"], "GTK 4", True),
    ([f"{LIB}/libQt5Gui.so.5.15.8", f"{LIB}/libgtk-3.so.0"], "Qt 5", True),   # Qt with GTK dialogs is Qt
    ([f"{LIB}/libQt6Gui.so.6.4.2"], "Qt 6", True),
    (["/usr/lib/firefox-esr/libxul.so"], "Firefox (Gecko)", True),
    (["/opt/app/libelectron.so"], "Chromium/Electron", True),
    ([f"{LIB}/libXaw7.so.7.0.0"], "Xaw (X athena widgets)", False),
    ([f"{LIB}/libtk8.6.so"], "Tk", False),
    (["/usr/lib/jvm/java-17/lib/server/libjvm.so"], "Java", True),
])
def test_the_toolkit_comes_from_the_mapped_libraries(libraries, toolkit, supported):
    exposure = explain(libraries)
    assert (exposure.toolkit, exposure.supported) == (toolkit, supported)
    assert exposure.fix


def test_no_toolkit_is_unknown_and_no_at_bridge_is_named_only_where_it_matters():
    assert explain([f"{LIB}/libc.so.6"]) == UNKNOWN
    hidden = explain([f"{LIB}/libgtk-3.so.0"], {"NO_AT_BRIDGE": "1"})
    assert hidden.toolkit == "GTK 3" and "NO_AT_BRIDGE=1" in hidden.fix
    assert "NO_AT_BRIDGE" not in explain([f"{LIB}/libXaw7.so.7"], {"NO_AT_BRIDGE": "1"}).fix


def test_a_process_that_cannot_be_read_has_no_answer():
    assert of_process(2 ** 22 + 12345) is None
    assert of_process(os.getpid()) is not None
