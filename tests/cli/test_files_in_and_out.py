"""What the CLI reads and writes is a file, or is treated as what it is.

`--out` (compile, export, timeline) writes a regular file by rename, writes
into a character device or a FIFO as it stands, and refuses a socket — it
never replaces a node that is not a file (as root, a rename over a device
takes it from every program on the machine). An input that is not a
regular file (a config, a history to import, a store) is refused in one
line before anything reads from it: a FIFO would be waited on forever.

The FIFO cases run `phantom` as a process with a timeout, so a regression
fails the test instead of hanging the suite."""

from __future__ import annotations

import os
import select
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from core.errors import ERROR_KINDS

PHANTOM = str(Path(sys.executable).with_name("phantom"))
STORE = Path(__file__).resolve().parents[2] / "fixtures" / "recorded" / "desktop.sqlite3"
DAY = "2026-11-29"
OUTPUTS = {
    "compile": ["compile", "--db", str(STORE), "--day", DAY],
    "export": ["export", "--db", str(STORE), "--day", DAY],
    "timeline": ["timeline", "--db", str(STORE), "--day", DAY],
}


@pytest.fixture
def env(tmp_path) -> dict[str, str]:
    home = tmp_path / "home"
    return {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_RUNTIME_DIR": str(home / "run"), "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"}


def phantom(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PHANTOM, *args], capture_output=True, text=True, env=env, timeout=90)


def refused(result: subprocess.CompletedProcess[str], kind: str, fragment: str) -> str:
    """The one line a refusal prints, after checking its exit status is `kind`'s."""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.returncode == ERROR_KINDS[kind].exit_status, (result.returncode, lines)
    assert fragment in lines[0], lines[0]
    return lines[0]


def out_args(command: str, target: Path) -> list[str]:
    return [*OUTPUTS[command], "--out", str(target)]


class FifoReader:
    """The far end of a FIFO, open before the writer comes (a writer that
    opens without blocking finds a reader there), reading until the writer
    closes. Open without blocking, it waits in `select`: a FIFO no writer
    has opened yet is not readable, and after the writer closes it reads as
    end of file."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.data = bytearray()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while True:
            select.select([self.fd], [], [])
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                return
            self.data += chunk

    def finish(self) -> bytes:
        self.thread.join(timeout=60)
        assert not self.thread.is_alive(), "the writer never closed the FIFO"
        os.close(self.fd)
        return bytes(self.data)


@pytest.mark.parametrize("command", sorted(OUTPUTS))
def test_out_into_a_fifo_writes_into_it_and_leaves_it_a_fifo(command, env, tmp_path):
    fifo = tmp_path / ("out.png" if command == "timeline" else "out")
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    result = phantom(env, *out_args(command, fifo))
    received = reader.finish()
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    regular = tmp_path / ("file.png" if command == "timeline" else "file")
    assert phantom(env, *out_args(command, regular)).returncode == 0
    assert received == regular.read_bytes() and received


def test_out_into_a_fifo_nobody_reads_is_refused_at_once(env, tmp_path):
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    refused(phantom(env, *out_args("compile", fifo)), "failed", "nothing is reading from it")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("command", sorted(OUTPUTS))
def test_out_to_a_socket_is_refused_and_the_socket_stays(command, env, tmp_path):
    path = tmp_path / ("s.png" if command == "timeline" else "s")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(path))
        line = refused(phantom(env, *out_args(command, path)), "failed", "it is a socket")
        assert "never replaces" in line
        assert stat.S_ISSOCK(os.lstat(path).st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root (CI runs as root)")
@pytest.mark.parametrize("command", sorted(OUTPUTS))
def test_out_to_a_device_writes_into_it_and_never_replaces_it(command, env, tmp_path):
    """Device nodes of this test's own (the null and full devices, 1:3 and
    1:7), never the machine's: a failing test must not break /dev."""
    suffix = ".png" if command == "timeline" else ""   # the picture's format is named by the suffix
    null, full = tmp_path / f"null{suffix}", tmp_path / f"full{suffix}"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    assert phantom(env, *out_args(command, null)).returncode == 0
    refused(phantom(env, *out_args(command, full)), "failed", "No space left on device")
    for node in (null, full):
        assert stat.S_ISCHR(os.lstat(node).st_mode) and os.lstat(node).st_size == 0
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]   # no temporary left


def test_out_through_a_link_writes_the_file_it_names_and_keeps_the_link(env, tmp_path):
    (tmp_path / "real.txt").write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to("real.txt")
    result = phantom(env, *out_args("compile", link))
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == "real.txt"
    assert (tmp_path / "real.txt").read_text() == phantom(env, *OUTPUTS["compile"]).stdout


def test_out_to_a_regular_file_still_replaces_it_whole(env, tmp_path):
    target = tmp_path / "day.txt"
    target.write_text("old\n")
    assert phantom(env, *out_args("compile", target)).returncode == 0
    assert target.read_text() == phantom(env, *OUTPUTS["compile"]).stdout
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


# -- inputs --------------------------------------------------------------------------------------
@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "input.toml"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("argv, kind, fragment", [
    (["import", "FIFO"], "failed", "is a FIFO, not a database or export file"),
    (["import", str(STORE), "--config", "FIFO"], "invalid_config", "is a FIFO, not a config file"),
    (["capture", "--config", "FIFO"], "invalid_config", "is a FIFO, not a config file"),
    (["retention", "run", "--config", "FIFO"], "invalid_config", "is a FIFO, not a config file"),
    (["compile", "--day", DAY, "--db", "FIFO"], "store_unavailable", "is a FIFO, not a database file"),
    (["search", "invoice", "--db", "FIFO"], "store_unavailable", "is a FIFO, not a database file"),
    (["routines", "--db", "FIFO"], "store_unavailable", "is a FIFO, not a database file"),
    (["export", "--day", DAY, "--db", "FIFO"], "store_unavailable", "is a FIFO, not a database file"),
    (["status", "--db", "FIFO"], "store_unavailable", "is a FIFO, not a database file"),
    (["programs", "--db", "FIFO"], "store_unavailable", "is a FIFO, not a database file"),
])
def test_an_input_that_is_a_fifo_is_refused_before_anything_waits_on_it(argv, kind, fragment, fifo, env,
                                                                          tmp_path):
    env = {**env, "PHANTOM_DB": str(tmp_path / "store.sqlite3")}
    result = phantom(env, *[str(fifo) if word == "FIFO" else word for word in argv])
    refused(result, kind, fragment)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_store_that_is_a_fifo_is_refused_for_writing_too(fifo, env, tmp_path):
    """`open_store` (a program recorded, a forget) meets the same check."""
    from core.store import StoreError, open_store

    with pytest.raises(StoreError, match="is a FIFO, not a database file"):
        open_store(fifo)


def test_out_through_a_link_to_standard_output_writes_into_the_pipe(env, tmp_path):
    """What `--out /dev/stdout` does, through a link of the test's own (a
    regression must not be able to replace the machine's /dev/stdout)."""
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    result = phantom(env, *out_args("compile", link))
    assert result.returncode == 0, result.stderr
    assert result.stdout == phantom(env, *OUTPUTS["compile"]).stdout and result.stdout
    assert link.is_symlink()
