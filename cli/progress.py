"""A progress bar on stderr for long commands — import, synth, retention,
building the search index, compiling or mining many days — shown only when
stderr is a terminal (rich's live display); nothing at all when it is a pipe
or a file, so scripts and agents read clean output."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import threading

    from rich.progress import Progress, TaskID


class TerminalProgress:
    """`with TerminalProgress("indexing") as bar:` gives a callable
    `bar(phase, done, total)` on a terminal and None elsewhere; a total of
    0 shows a bar that only says it is busy."""

    def __init__(self, phase: str = "working", *, force: bool = False) -> None:
        self._phase = phase
        self._force = force
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> "TerminalProgress | None":
        if not (self._force or sys.stderr.isatty()):
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        self._bar.start()
        self._task = self._bar.add_task(self._phase, total=None)
        return self

    def __call__(self, phase: str, done: int, total: int) -> None:
        # Called only through what `__enter__` returned, which set both.
        assert self._bar is not None and self._task is not None
        self._bar.update(self._task, description=phase, completed=done, total=total or None)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


def busy(phase: str, delay_s: float = 0.5) -> _Busy:
    """A context for one long call with no count to show (compiling or
    mining many days): on a terminal, a bar that says it is busy appears if
    the call is still running after `delay_s` — a quick compile shows
    nothing, and loads nothing for it."""
    return _Busy(phase, delay_s)


class _Busy:
    def __init__(self, phase: str, delay_s: float) -> None:
        self._phase = phase
        self._delay = delay_s
        self._timer: threading.Timer | None = None
        self._progress: TerminalProgress | None = None
        self._lock: threading.Lock | None = None

    def __enter__(self) -> None:
        if not sys.stderr.isatty():
            return
        import threading

        self._lock = threading.Lock()
        self._timer = threading.Timer(self._delay, self._show)
        self._timer.daemon = True
        self._timer.start()

    def _show(self) -> None:
        assert self._lock is not None   # made before the timer that calls this
        with self._lock:
            if self._timer is None:
                return
            progress = TerminalProgress(self._phase)
            if progress.__enter__() is not None:
                progress(self._phase, 0, 0)
                self._progress = progress

    def __exit__(self, *exc: object) -> None:
        if self._timer is None:
            return
        self._timer.cancel()
        assert self._lock is not None   # made with the timer
        with self._lock:
            self._timer = None
            if self._progress is not None:
                self._progress.__exit__(*exc)
