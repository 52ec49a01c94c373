"""Progress on long commands: a bar on a terminal, nothing on a pipe, and
nothing at all for a call quicker than the delay."""

from __future__ import annotations

import io
import sys
import time

from cli.progress import TerminalProgress, busy


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_and_nothing_on_a_pipe(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with TerminalProgress("indexing") as bar:
        assert bar is not None
        bar("indexing for search", 5, 10)
    assert "indexing for search" in terminal.getvalue()
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", piped)
    with TerminalProgress("indexing") as bar:
        assert bar is None
    assert piped.getvalue() == ""


def test_busy_shows_only_what_outlasts_its_delay(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with busy("compiling", delay_s=5.0):
        pass
    assert terminal.getvalue() == ""
    with busy("mining routines", delay_s=0.01):
        time.sleep(0.3)
    assert "mining routines" in terminal.getvalue()
