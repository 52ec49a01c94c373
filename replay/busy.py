"""Whether a terminal window is free to take a program's input.

A terminal routine was demonstrated by typing at a shell's prompt. If the
shell now runs a job in the foreground (`cat > notes.txt`, a long build, an
editor), what the program types goes into that job instead — and every
check that looks at the window (it is there, it is focused, its title fits)
still passes. So before any input the shells under the terminal window's
process are read from /proc: a shell whose terminal's foreground process
group (field 8 of /proc/PID/stat, tpgid) is not its own (field 5, pgrp) has
a job in front of it, and the run is refused, naming the job. Several shells
under one terminal process (tabs, windows of one gnome-terminal-server) are
each checked: one busy shell refuses the run, since which tab will receive
the keys cannot be told from here (an ambiguous case is refused).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SHELLS", "TERMINALS", "ProcessStat", "busy_reason", "read_stat"]

TERMINALS = frozenset({"gnome-terminal", "gnome-terminal-server", "xterm", "uxterm", "mate-terminal",
                       "xfce4-terminal", "konsole", "tilix", "terminator", "lxterminal", "kitty",
                       "alacritty", "foot", "urxvt", "rxvt", "st", "qterminal", "sakura", "guake"})
SHELLS = frozenset({"bash", "sh", "dash", "zsh", "fish", "ksh", "mksh", "tcsh", "csh", "nu", "xonsh"})
PROC = Path("/proc")


@dataclass(frozen=True, slots=True)
class ProcessStat:
    """The fields of /proc/PID/stat this check reads."""

    pid: int
    comm: str
    ppid: int
    pgrp: int
    tpgid: int


def read_stat(pid: int, proc: Path = PROC) -> ProcessStat | None:
    """/proc/PID/stat parsed (the command name may hold spaces and parentheses:
    it runs to the last ')'); None when the process is gone or unreadable."""
    try:
        text = (proc / str(pid) / "stat").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    head, _, rest = text.rpartition(")")
    fields = rest.split()
    try:
        return ProcessStat(pid, head.partition("(")[2], int(fields[1]), int(fields[2]), int(fields[5]))
    except (IndexError, ValueError):
        return None


def _children(pid: int, proc: Path) -> list[ProcessStat]:
    found = []
    for entry in os.scandir(proc):
        if entry.name.isdigit():
            stat = read_stat(int(entry.name), proc)
            if stat is not None and stat.ppid == pid:
                found.append(stat)
    return found


def busy_reason(app: str, pid: int | None, proc: Path = PROC) -> str | None:
    """Why the terminal window of `app` run by process `pid` must not take
    input now, or None (not a terminal, no pid, or every shell at its prompt)."""
    if pid is None or app.casefold() not in TERMINALS:
        return None
    for shell in sorted(_children(pid, proc), key=lambda s: s.pid):
        if shell.comm not in SHELLS or shell.tpgid <= 0 or shell.tpgid == shell.pgrp:
            continue
        job = read_stat(shell.tpgid, proc)
        what = f"{job.comm!r}" if job is not None else f"process group {shell.tpgid}"
        return (f"the shell in {app} (pid {shell.pid}) is running {what} in the foreground: what the "
                "program types would go to it, not to the prompt the demonstrations typed at; finish or "
                "stop it, then replay; nothing was sent")
    return None
