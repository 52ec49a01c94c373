"""The capture daemon under the faults a person's machine really has, on the
virtual desktop: kill -9 at random moments under a scripted typist, the
accessibility bus stopped and killed, an application restarted under the
window id X gave its last instance, a 3 MB disk that fills up, a second
daemon reaching the store through a symlink or a hard link, and the
sandbox these machines can apply without a user manager (no network, a
read-only file system but for the store and the state directories).

The desktop and the fixture form are shared wherever the fault leaves them
intact; the accessibility-bus test breaks its bus and has a desktop of its
own. (X server loss and hung applications: test_capture_faults.py.)"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.bus import CAPTURE, call
from support.apps import app_named, center, find, focus
from support.daemon import PHANTOM, CaptureProcess, query, settle, wait_for_rows
from support.mounts import tmpfs
from testbed.executables import executable
from testbed.harness import VirtualDesktop
from testbed.waiting import wait_until

pytestmark = pytest.mark.desktop

ROUNDS = 10


def typed_since(db: Path, since_ms: int) -> int:
    return query(db, "SELECT coalesce(sum(count), 0) FROM input_events WHERE kind = 'text' AND ts_ms >= ?",
                 (since_ms,))[0][0]


def status() -> dict:
    return json.loads(call(CAPTURE, "Status", timeout=5)[0])


# -- kill -9 ----------------------------------------------------------------------------------
def test_kill_9_at_random_moments_loses_at_most_a_second_and_leaves_a_consistent_store(desktop, apps, tmp_path):
    """Ten kills: while typing, a moment after, inside a recording, while
    paused. Each time the store is intact, every key typed more than a
    second before the kill is in it, and the next start closes what the
    killed run left open (a recording ends where it was last alive, a pause
    goes on as a new row)."""
    from replay.xinput import XTestInput

    apps("form", "--geometry", "300x220+0+0")
    db = tmp_path / "store.sqlite3"
    rng = random.Random(1414)
    user = XTestInput(desktop.display)
    losses, interrupted = [], None
    try:
        for round_ in range(ROUNDS):
            capture = CaptureProcess(desktop, db).start()
            restarted_ms = int(time.time() * 1000)
            if interrupted is not None:
                check_interrupted_state(db, *interrupted, restarted_ms)
            if status()["state"] == "paused":
                assert call(CAPTURE, "Resume")[0] is True
            focus(desktop, "phantom-form")
            wait_for_rows(db, "SELECT count(*) FROM snapshots WHERE ts_ms >= ?".replace("?", str(restarted_ms)),
                          lambda r: r[0][0] >= 1, what="the form's snapshot")
            mode = ("typing", "recording", "paused")[round_ % 3]
            if mode == "recording":
                call(CAPTURE, "StartRecording", "s", [f"demo {round_}"])
            started_ms = int(time.time() * 1000)
            typed = []
            until = time.monotonic() + rng.uniform(0.8, 2.4)
            while time.monotonic() < until:
                user.type("x", delay=0)
                typed.append(time.time())
                time.sleep(rng.uniform(0.01, 0.06))
            if mode == "paused":
                assert call(CAPTURE, "Pause")[0] is True
            time.sleep(rng.choice([0.0, rng.uniform(0.0, 0.7)]))
            killed = time.time()
            capture.process.send_signal(signal.SIGKILL)
            capture.process.wait(10)
            capture.notify.close()
            assert "Traceback" not in capture.log()
            assert query(db, "PRAGMA integrity_check") == [("ok",)]
            stored = typed_since(db, started_ms)
            assert stored <= len(typed)
            loss = killed - typed[stored] if stored < len(typed) else 0.0
            losses.append(loss)
            assert loss <= 1.0, f"round {round_} ({mode}): keys typed {loss:.2f} s before the kill were lost"
            interrupted = (mode, int(killed * 1000), round_)
    finally:
        user.close()
    capture = CaptureProcess(desktop, db).start()
    check_interrupted_state(db, *interrupted, int(time.time() * 1000))
    assert capture.stop() == 0
    assert query(db, "SELECT kind, reason FROM blind_spots WHERE end_ms IS NULL") == [
        ("not_running", "capture stopped")]   # the clean stop, closed by the next start
    assert query(db, "SELECT count(*) FROM recordings WHERE end_ms IS NULL") == [(0,)]
    print(f"input lost at kill -9 over {ROUNDS} rounds: max {max(losses):.2f} s, "
          f"mean {sum(losses) / len(losses):.2f} s")


def check_interrupted_state(db: Path, mode: str, killed_ms: int, round_: int, restarted_ms: int) -> None:
    """What the run killed in `round_` left open is settled by the next
    start, on disk before it says it is ready."""
    recordings = query(db, "SELECT end_ms FROM recordings WHERE name = ?", (f"demo {round_}",))
    paused = query(db, "SELECT start_ms, end_ms FROM blind_spots WHERE kind = 'paused' ORDER BY id")
    if mode == "recording":
        [(end,)] = recordings
        assert killed_ms - 1_500 <= end <= killed_ms    # when the killed run was last alive
        assert status()["recording"] is None          # `record stop`: nothing in progress
    if mode == "paused":
        *_, (old_start, old_end), (new_start, new_end) = paused
        assert old_end is not None and old_start <= old_end <= killed_ms
        assert new_start >= restarted_ms - 2_000 and new_end is None   # the pause goes on, as a new row
        assert status()["state"] == "paused"


# -- the accessibility bus -----------------------------------------------------------------------
def test_the_accessibility_bus_stopped_or_killed_is_a_blind_spot_until_the_daemon_re_executes(tmp_path):
    """Stopped (SIGTERM: the launcher takes its address off the root
    window) and killed (-9 with its bus: the root window keeps naming a dead
    socket, on which libatspi would abort): the daemon opens a blind spot
    the moment its connection drops, finds the bus again (D-Bus starts a new
    launcher), re-executes itself and reads the new bus; no command aborts."""
    desktop = VirtualDesktop().start()
    try:
        db = tmp_path / "store.sqlite3"
        commands_survive_a_dead_bus(desktop, tmp_path)
        desktop.start_accessibility_bus()
        desktop.launch_fixture("form", "--geometry", "300x220+0+0")   # on the bus it finds now
        capture = CaptureProcess(desktop, db).start()
        focus(desktop, "phantom-form")
        wait_for_rows(db, "SELECT count(*) FROM snapshots WHERE tree_id IS NOT NULL", lambda r: r[0][0] >= 1,
                      what="a snapshot with its accessibility tree")
        for number, sig in enumerate((signal.SIGTERM, signal.SIGKILL), start=1):
            lost_ms = int(time.time() * 1000)
            desktop.kill_accessibility_bus(sig)
            [(start, end)] = wait_for_rows(
                db, f"SELECT start_ms, end_ms FROM blind_spots WHERE kind = 'no_accessibility' AND "
                    f"reason = 'accessibility bus lost' AND start_ms >= {lost_ms}",
                lambda r: len(r) == 1 and r[0][1] is not None, timeout=20,
                what=f"the blind spot of bus loss {number} to open and close")
            assert start - lost_ms < 1_000 and end - start < 6_000
            wait_until(lambda n=number: capture.log().count("re-executing the capture daemon") == n,
                       timeout=10, what="the daemon to re-execute")
            wait_until(lambda n=number: sum("READY=1" in m for m in capture.notify.poll()) == n + 1,
                       timeout=20, what="the re-executed daemon to be ready")
            assert capture.alive()
            # An application started now talks to the new bus; the daemon reads it.
            notes = desktop.launch_fixture("notes", "--geometry", "400x300+420+0")
            focus(desktop, "phantom-notes")
            wait_for_rows(db, f"SELECT count(*) FROM snapshots WHERE app = 'phantom-notes' AND tree_id IS NOT NULL "
                              f"AND ts_ms > {end}", lambda r: r[0][0] >= 1, timeout=15,
                          what="a snapshot read through the new bus")
            desktop.close_app(notes)
        assert capture.stop() == 0
        log = capture.log()
        assert "Traceback" not in log and "dbind" not in log
        assert query(db, "SELECT kind, reason FROM blind_spots WHERE end_ms IS NULL") == [
            ("not_running", "capture stopped")]   # the clean stop, closed by the next start
    finally:
        desktop.stop()


def commands_survive_a_dead_bus(desktop, tmp_path: Path) -> None:
    """With the bus killed -9 and no way to start another (no session bus
    to ask), libatspi would find the dead address on the root window and
    abort: `phantom doctor`, `phantom replay` and `phantom capture` say so
    in one line instead."""
    from programs.store import save_program
    from support.programs import form_program

    desktop.kill_accessibility_bus(signal.SIGKILL)
    assert desktop.run([executable("xprop"), "-root", "AT_SPI_BUS"]).stdout.count("unix:") == 1   # the stale address
    env = dict(desktop.env, DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent/bus", PATH=os.environ["PATH"])
    store = tmp_path / "programs.sqlite3"
    save_program(store, form_program(), created_ms=1_795_990_000_000)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([PHANTOM, *args], env=env, capture_output=True, text=True, timeout=60)

    doctor = run("doctor", "--db", str(store))
    assert doctor.returncode in (0, 1), doctor.stderr
    [line] = [line for line in doctor.stdout.splitlines() if line[3:].startswith(" accessibility")]
    assert line.startswith("!!") and "root window: " in line and "refused the connection" in line
    replayed = run("replay", "fill form", "--param", "P0=Ada", "--db", str(store))
    assert replayed.returncode == 1, (replayed.returncode, replayed.stderr)
    [line] = replayed.stderr.strip().splitlines()
    assert "nothing was sent: the accessibility (AT-SPI) bus is not reachable" in line and len(line) <= 300
    capture = CaptureProcess(desktop, tmp_path / "blind.sqlite3", extra_args=("--no-dbus",),
                             extra_env={"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"}).start()
    assert capture.stop() == 0
    assert "accessibility unavailable" in capture.log() and "dbind" not in capture.log()
    assert query(capture.db, "SELECT kind, reason, end_ms IS NOT NULL FROM blind_spots") == [
        ("no_accessibility", "accessibility bus unavailable", 1), ("not_running", "capture stopped", 0)]


# -- an application restarted under its old window id -------------------------------------------
def test_an_application_restarted_under_its_old_window_id_is_a_new_window(desktop, apps, user, tmp_path):
    """X hands a restarted client the id its last instance had (on Xvfb,
    every time): the new instance gets its own snapshot and tree, and its
    clicks resolve in its own tree — the entry, not the dead instance's label."""
    first = apps("form", "--geometry", "300x220+0+0")
    first_id = desktop.wait_for_window("phantom-form")
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        focus(desktop, "phantom-form")
        user.click(*center(find(app_named("phantom-form"), "text", label="Name:")))
        wait_for_rows(db, "SELECT count(*) FROM input_events WHERE kind = 'click' AND resolution != 'none'",
                      lambda r: r[0][0] == 1, what="the first instance's click")
        desktop.close_app(first)
        apps("form", "--geometry", "300x220+0+0")
        assert desktop.wait_for_window("phantom-form") == first_id, "X did not reuse the window id"
        focus(desktop, "phantom-form")
        # Click where the entry is, found in the new instance's own tree.
        user.click(*center(find(app_named("phantom-form"), "text", label="Name:")))
        wait_for_rows(db, "SELECT count(*) FROM input_events WHERE kind = 'click' AND resolution != 'none'",
                      lambda r: r[0][0] == 2, what="the second instance's click")
        assert capture.stop() == 0
    snapshots = query(db, "SELECT id, pid, tree_id FROM snapshots WHERE app = 'phantom-form' AND trigger = 'focus' "
                          "AND window_id = ? ORDER BY id", (first_id,))
    pids = sorted({pid for _, pid, _ in snapshots})
    assert len(pids) == 2, snapshots                                   # one window per instance
    clicks = query(db, "SELECT target_role, target_name, s.pid, s.tree_id FROM input_events i "
                       "JOIN snapshots s ON s.id = i.snapshot_id WHERE i.kind = 'click' ORDER BY i.id")
    assert [(role, name) for role, name, _, _ in clicks] == [("text", "Name:"), ("text", "Name:")]
    assert [pid for _, _, pid, _ in clicks] == pids                    # each credited to its own instance
    assert clicks[0][3] != clicks[1][3] and None not in (clicks[0][3], clicks[1][3])   # two trees


def test_focus_left_on_the_root_window_by_a_closed_application_follows_the_pointer(desktop, apps, tmp_path):
    """X gives focus back to the root window when the focused window goes;
    the keyboard then goes to the window under the pointer, and so does
    capture's idea of focus (not "no window", and not an error)."""
    form = apps("form", "--geometry", "300x220+0+0")
    focus(desktop, "phantom-form")
    desktop.close_app(form)
    apps("notes", "--geometry", "400x300+0+0")
    desktop.run([executable("xdotool"), "mousemove", "200", "150"])
    db = tmp_path / "store.sqlite3"
    with CaptureProcess(desktop, db) as capture:
        wait_for_rows(db, "SELECT app FROM snapshots WHERE trigger = 'focus'",
                      lambda r: r == [("phantom-notes",)], what="the notes window taken as focused")
        assert capture.stop() == 0
    assert "Traceback" not in capture.log()


# -- a disk that fills up ---------------------------------------------------------------------------
@pytest.fixture
def small_disk(tmp_path):
    """A 3 MB tmpfs (the tests run as root, as CI does)."""
    with tmpfs(tmp_path / "disk", "3m") as mount:
        yield mount


def fill(disk: Path) -> Path:
    """Fill the disk to the last byte; the filler's path."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for size in (65536, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                continue
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_stops_cleanly_says_so_and_saving_resumes_when_space_returns(desktop, apps, small_disk):
    from replay.xinput import XTestInput

    apps("form", "--geometry", "300x220+0+0")
    db = small_disk / "store.sqlite3"
    filler = fill(small_disk)
    started = subprocess.run([PHANTOM, "capture", "--db", str(db), "--no-dbus"], capture_output=True, text=True,
                             env=dict(desktop.env, PATH=os.environ["PATH"]), timeout=60)
    assert started.returncode == 1 and "Traceback" not in started.stderr
    [line] = started.stderr.strip().splitlines()
    assert "full" in line and not db.exists()          # no empty store left behind
    filler.unlink()

    user = XTestInput(desktop.display)
    try:
        # Full while running: nothing of the typing fits, and the exit says so.
        capture = CaptureProcess(desktop, db, extra_args=("--no-dbus",)).start()
        focus(desktop, "phantom-form")
        filler = fill(small_disk)
        user.type("x" * 20, delay=0.03)
        settle(1.5)
        assert capture.stop() == 1
        log = capture.log()
        errors = [line for line in log.splitlines() if "ERROR" in line]
        assert len(errors) == 1 and "could not be saved" in errors[0] and "store flushed" not in log
        assert "Traceback" not in log
        # Full at start, space back while running: what waited is saved.
        capture = CaptureProcess(desktop, db, extra_args=("--no-dbus",)).start()
        focus(desktop, "phantom-form")
        user.type("y" * 12, delay=0.03)
        settle(1.2)
        filler.unlink()
        wait_for_rows(db, "SELECT coalesce(sum(count), 0) FROM input_events WHERE kind = 'text'",
                      lambda r: r[0][0] >= 12, timeout=10, what="the typing that waited for space")
        assert capture.stop() == 0
        assert "store writable again" in capture.log() and "store flushed" in capture.log()
    finally:
        user.close()
    assert query(db, "PRAGMA integrity_check") == [("ok",)]


# -- one daemon per store ----------------------------------------------------------------------------
def test_a_second_daemon_through_a_symlink_or_a_hard_link_is_refused(desktop, tmp_path):
    db = tmp_path / "store.sqlite3"
    (tmp_path / "link.sqlite3").symlink_to(db)
    with CaptureProcess(desktop, db, extra_args=("--no-dbus",)) as first:
        os.link(db, tmp_path / "hard.sqlite3")
        for other in ("link.sqlite3", "hard.sqlite3"):
            second = subprocess.run([PHANTOM, "capture", "--no-dbus", "--db", str(tmp_path / other)],
                                    env=dict(desktop.env, PATH=os.environ["PATH"]), capture_output=True,
                                    text=True, timeout=60)
            assert second.returncode == 1
            [line] = second.stderr.strip().splitlines()
            assert f"another capture daemon (pid {first.process.pid})" in line
        assert first.stop() == 0


# -- the sandbox -----------------------------------------------------------------------------------------
def sandboxed(kind: str, store_dir: Path, state_dirs: list[str]) -> list[str]:
    """The command prefix of a sandbox these machines can apply without a
    user manager: no network namespace access (`unshare -n`), or that plus
    a read-only file system but for the store and state directories (bwrap)."""
    if kind == "unshare":
        return [executable("unshare"), "-n"]
    binds = []
    for path in (str(store_dir), *state_dirs):
        binds += ["--bind", path, path]
    return [executable("bwrap"), "--unshare-net", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev",
            "--proc", "/proc", *binds]


@pytest.mark.parametrize("kind", ["unshare", "bwrap"])
def test_the_daemon_records_the_desktop_inside_the_sandbox(desktop, apps, tmp_path, kind):
    """X, the session bus and the accessibility bus are reached through
    their socket files (abstract sockets belong to the network namespace
    left behind); everything else is out of reach."""
    apps("form", "--geometry", "300x220+0+0")
    store_dir = tmp_path / "store"
    store_dir.mkdir()
    db = store_dir / "store.sqlite3"
    capture = CaptureProcess(desktop, db)
    prefix = sandboxed(kind, store_dir, [str(capture.workdir), desktop.env["XDG_CONFIG_HOME"]])
    capture.args = prefix + capture.args
    # The same sandbox, asked to reach the network and write outside the store.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    probe = ("import socket, sys\n"
             f"try:\n    socket.create_connection(('127.0.0.1', {listener.getsockname()[1]}), 2)\n"
             "    sys.exit('network reachable')\nexcept OSError:\n    pass\n"
             "try:\n    open('/etc/phantom-sandbox-probe', 'w')\n    sys.exit('file system writable')\n"
             "except OSError:\n    pass\n" if kind == "bwrap" else
             "import socket, sys\n"
             f"try:\n    socket.create_connection(('127.0.0.1', {listener.getsockname()[1]}), 2)\n"
             "    sys.exit('network reachable')\nexcept OSError:\n    pass\n")
    fenced = subprocess.run([*prefix, sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    listener.close()
    assert fenced.returncode == 0, fenced.stderr
    capture.start()
    try:
        focus(desktop, "phantom-form")
        desktop.run([executable("xdotool"), "type", "--delay", "30", "sandboxed"])
        wait_for_rows(db, "SELECT coalesce(sum(count), 0) FROM input_events WHERE kind = 'text'",
                      lambda r: r[0][0] == 9, timeout=10, what="the typing, counted inside the sandbox")
    finally:
        stop_inside(capture)
    assert query(db, "SELECT app, tree_id IS NOT NULL FROM snapshots WHERE trigger = 'focus'")[-1] == (
        "phantom-form", 1)                      # the accessibility bus too, through its socket file
    assert "Traceback" not in capture.log() and "store flushed" in capture.log()


def stop_inside(capture: CaptureProcess) -> None:
    """SIGTERM to the daemon itself: bwrap does not pass signals on."""
    pid = capture.process.pid
    children = Path(f"/proc/{pid}/task/{pid}/children")
    inner = [int(child) for child in children.read_text().split()] if children.exists() else []
    target = inner[0] if inner and Path(capture.args[0]).name == "bwrap" else pid
    os.kill(target, signal.SIGTERM)
    capture.process.wait(20)
    capture.notify.close()
