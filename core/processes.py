"""A local process named for a person: its executable, its command line
and the process that started it, read from /proc. A notification that
typed-text recording was switched on names the program that asked (a
desktop shortcut's `gdbus`, an agent's `phantom mcp`) and what started it
(the shell, the agent's host), so the person can tell whether it was them."""

from __future__ import annotations

import os

MAX_COMMAND_CHARS = 120


def describe_process(pid: int) -> str:
    """`/usr/bin/gdbus (pid 4242: gdbus call …)`, then `, started by …`
    for its parent; what /proc no longer holds (the process has exited)
    is left out, never guessed."""
    described = _one(pid)
    parent = parent_pid(pid)
    if parent is not None and parent > 1:
        described += f", started by {_one(parent)}"
    return described


def _one(pid: int) -> str:
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        exe = "an executable that could not be read"
    command = command_line(pid)
    return f"{exe} (pid {pid}{': ' + command if command else ''})"


def command_line(pid: int) -> str:
    """The process's arguments joined by spaces, cut to MAX_COMMAND_CHARS
    (empty when it cannot be read)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            raw = handle.read(4096)
    except OSError:
        return ""
    words = [os.path.basename(w) if i == 0 else w
             for i, w in enumerate(raw.decode("utf-8", "replace").split("\0")) if w]
    text = "".join(c if c.isprintable() else "?" for c in " ".join(words))
    return text if len(text) <= MAX_COMMAND_CHARS else text[:MAX_COMMAND_CHARS - 1] + "…"


def parent_pid(pid: int) -> int | None:
    """The parent's pid from /proc/PID/stat (None when it cannot be read).
    The name in parentheses may hold spaces and parentheses itself, so the
    fields are read after the last ')'."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read().decode("utf-8", "replace")
        return int(stat[stat.rindex(")") + 2:].split()[1])
    except (OSError, ValueError, IndexError):
        return None
