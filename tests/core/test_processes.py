"""Naming a process for a person (core/processes.py), read from /proc."""

from __future__ import annotations

import os
import subprocess
import sys

from core.processes import MAX_COMMAND_CHARS, command_line, describe_process, parent_pid

WAIT = "import sys; print('ready', flush=True); sys.stdin.read()"


def started(*argv: str) -> subprocess.Popen[bytes]:
    """A child that has run its own program (it said so), and waits."""
    child = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline() == b"ready\n"
    return child


def test_a_process_is_named_by_its_executable_its_command_and_its_parent():
    child = started(sys.executable, "-c", WAIT, "a(b) c")
    try:
        described = describe_process(child.pid)
    finally:
        child.communicate(b"")
    me = os.path.realpath(sys.executable)
    assert described.startswith(f"{me} (pid {child.pid}: {os.path.basename(sys.executable)} -c "), described
    assert "a(b) c" in described
    assert f", started by {me} (pid {os.getpid()}" in described


def test_the_parent_is_read_past_a_name_with_parentheses_and_spaces(tmp_path):
    odd = tmp_path / "a) b ("
    odd.symlink_to(sys.executable)
    child = started(str(odd), "-c", WAIT)
    try:
        assert parent_pid(child.pid) == os.getpid()
    finally:
        child.communicate(b"")


def test_a_process_that_is_gone_is_not_guessed_at():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    described = describe_process(child.pid)
    assert described == f"an executable that could not be read (pid {child.pid})"


def test_a_long_or_unprintable_command_line_is_cut_and_escaped():
    child = started(sys.executable, "-c", WAIT, "x\ny" * 200)
    try:
        line = command_line(child.pid)
    finally:
        child.communicate(b"")
    assert len(line) == MAX_COMMAND_CHARS and line.endswith("…") and "\n" not in line
