"""Whether a run did what the demonstrations did, judged by the screen after
its last step — never assumed from the steps having been sent.

With an end state (format-2 programs): the keyboard ends in a window of the
demonstrations' final application whose title has every word their final
titles shared, and every parameter the final title showed in every
demonstration (a saved file's name) shows this run's value; and no dialog
the run opened is left open (a "Replace?" question, an error), nor any other
window it opened but the one it ends in. Without one (programs compiled before end states were kept):
the weaker rule — no window or dialog of the run's applications left open
that was not open at the start — and the result says it was checked so.
The screen may lag the last step — by seconds on a busy machine — so the
check is repeated until it holds or the step timeout has passed: a success
that shows late is still a success, and only what is on the screen when
time is up can fail the run.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass

from compiler.programs.records import EndState
from compiler.programs.titles import contains_value, has_words
from core.x11 import TopLevel

from .outcomes import BY_END_STATE, BY_NO_NEW_WINDOWS
from .scene import Scene

# The step timeout (phantom.md §4.4, `engine.Timing.step_timeout_s`): the
# last step's effect may show as late as any step's.
SETTLE_TIMEOUT_S = 5.0
_POLL_S = 0.05


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    how: str
    reason: str


def verify(end: EndState | None, values: Mapping[str, str], scene: Scene,
           timeout: float = SETTLE_TIMEOUT_S) -> Verdict:
    how = BY_END_STATE if end is not None else BY_NO_NEW_WINDOWS
    deadline = time.monotonic() + timeout
    while True:
        problem = _problem(end, values, scene.focused(), scene.windows_opened())
        if problem is None:
            return Verdict(True, how, "the end state was reached" if end is not None else
                           "every postcondition held and no unexpected window is open "
                           "(no end state recorded: the weaker check)")
        if time.monotonic() >= deadline:
            return Verdict(False, how, problem)
        time.sleep(_POLL_S)


def _problem(end: EndState | None, values: Mapping[str, str], focused: TopLevel | None,
             opened: list[TopLevel]) -> str | None:
    if end is None:
        return _left_open(opened) if opened else None
    stray = [w for w in opened if focused is None or w.window_id != focused.window_id or w.dialog]
    if stray:   # a question the run left unanswered comes first: it says the most
        return _left_open(stray)
    if focused is None or focused.app != end.app:
        where = focused.describe() if focused is not None else "no window of the program's applications"
        return f"the run ended in {where}, not in {end.app} as the demonstrations did"
    missing = [w for w in end.title_tokens if not has_words(focused.title, (w,))]
    if missing:
        return (f"the window is titled {focused.title!r}, without {' '.join(missing)!r} "
                "as at the end of every demonstration")
    for name in end.title_parameters:
        value = values.get(name, "")
        if not contains_value(focused.title, value):
            return f"the window is titled {focused.title!r}, without ${name} ({value!r}) as expected"
    return None


def _left_open(windows: list[TopLevel]) -> str:
    kinds = ", ".join(("dialog " if w.dialog else "window ") + repr(w.title or "(untitled)")
                      for w in windows[:3])
    return f"unexpected {kinds} left open"
