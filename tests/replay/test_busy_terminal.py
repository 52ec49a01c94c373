"""A terminal routine while the terminal's shell runs a job in front: the
keys would go to the job (`cat > busy.txt` would swallow the commands and
the run would look verified), so the run is refused before any input —
on the real gnome-terminal, and the rule itself on /proc trees built here."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from compiler.programs.records import Guard, Program, ProgramStep
from programs.store import save_program
from replay.busy import busy_reason
from support.cli import phantom
from testbed.executables import executable
from testbed.harness import VirtualDesktop
from testbed.waiting import wait_until


def stat_line(pid: int, comm: str, ppid: int, pgrp: int, tpgid: int) -> str:
    # pid (comm) state ppid pgrp session tty_nr tpgid …
    return f"{pid} ({comm}) S {ppid} {pgrp} {pgrp} 34816 {tpgid} 4194304 0 0\n"


def fake_proc(tmp_path: Path, rows: list[tuple[int, str, int, int, int]]) -> Path:
    for pid, comm, ppid, pgrp, tpgid in rows:
        (tmp_path / str(pid)).mkdir()
        (tmp_path / str(pid) / "stat").write_text(stat_line(pid, comm, ppid, pgrp, tpgid))
    return tmp_path


def test_a_shell_at_its_prompt_is_free_and_one_with_a_job_in_front_is_not(tmp_path):
    proc = fake_proc(tmp_path, [(100, "gnome-terminal-", 1, 100, -1),
                                (200, "bash", 100, 200, 200),                # at its prompt
                                (300, "bash", 100, 300, 310), (310, "cat", 300, 310, 310)])
    reason = busy_reason("gnome-terminal", 100, proc)
    assert reason is not None and "'cat'" in reason and "pid 300" in reason and "nothing was sent" in reason
    (proc / "300" / "stat").write_text(stat_line(300, "bash", 100, 300, 300))   # the job ended
    assert busy_reason("gnome-terminal", 100, proc) is None
    assert busy_reason("gedit", 100, proc) is None                              # not a terminal
    assert busy_reason("gnome-terminal", None, proc) is None
    (proc / "400").mkdir()
    (proc / "400" / "stat").write_text("400 (my (odd) shell) S 100 400 400 0 410 0\n")
    assert busy_reason("gnome-terminal", 100, proc) is None                     # not a shell's name


def terminal_program() -> Program:
    steps = (ProgramStep(0, "key", None, key="Return"),)
    return Program("press return", "demonstration", "gnome-terminal", steps, (),
                   Guard("gnome-terminal", title_tokens=("Terminal",)), 2).with_id()


def type_into(desktop, window: str, text: str) -> None:
    """Focus the terminal (no window manager here) and type, ending with Return."""
    desktop.run([executable("xdotool"), "windowfocus", "--sync", window], timeout=30)
    desktop.run([executable("xdotool"), "type", "--delay", "40", text], timeout=60)
    desktop.run([executable("xdotool"), "key", "Return"], timeout=30)


@pytest.mark.desktop
def test_a_terminal_running_cat_gets_nothing_and_the_run_is_refused(tmp_path):
    db = tmp_path / "store.sqlite3"
    save_program(db, terminal_program(), created_ms=1_795_990_000_000)
    busy_file = tmp_path / "busy.txt"
    with VirtualDesktop() as desktop:
        desktop.launch([executable("gnome-terminal"), "--wait", f"--working-directory={tmp_path}", "--",
                        "bash", "--norc", "--noprofile"], name="gnome-terminal")
        window = wait_until(lambda: desktop.run([executable("xdotool"), "search", "--onlyvisible", "--name",
                                                 "^Terminal$"]).stdout.split(), timeout=30, what="the terminal")[0]
        type_into(desktop, window, f"cat > {busy_file}")
        wait_until(busy_file.exists, timeout=30, what="cat to open busy.txt")
        refused = phantom(desktop, "replay", "press return", "--db", str(db), "--format", "json")
        result = json.loads(refused.stdout)
        assert refused.returncode == 4, refused.stderr
        assert result["status"] == "refused" and not result["sent_input"] and result["code"] == "window_busy"
        assert "'cat'" in result["escalation"]["reason"]
        time.sleep(0.5)
        assert busy_file.read_text() == ""          # no Return reached cat
        desktop.run([executable("xdotool"), "key", "ctrl+d"], timeout=30)       # cat ends
        done = phantom(desktop, "replay", "press return", "--db", str(db), "--dry-run", "--format", "json")
        assert "window_busy" not in done.stdout, done.stdout
    assert os.path.exists(busy_file)
