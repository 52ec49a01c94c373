"""The compiler pauses Python's cyclic GC while it works and must always
hand the collector back exactly as it found it."""

from __future__ import annotations

import gc

import pytest

from compiler.collector import collector_paused


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    gc.enable() if was else gc.disable()


def test_paused_inside_and_restored_after(collector_on):
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_restored_after_an_error(collector_on):
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("compile failed")
    assert gc.isenabled()


def test_nested_pauses_resume_only_at_the_outermost(collector_on):
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_disabled_by_the_application_stays_disabled(collector_on):
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()
