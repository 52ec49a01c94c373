"""Tightening modes never reaches past files and directories: a device
named as a config file (`phantom capture --config /dev/null`, which the CLI
fuzz passes) keeps its mode — as root, a chmod there would take /dev/null
from every other user of the machine."""

from __future__ import annotations

import os
import stat

from core.store.paths import remove_group_other


def test_a_socket_keeps_its_mode(tmp_path):
    """(A socket stands for every file that is not a file: a test that
    tried /dev/null itself would, failing, break the machine.)"""
    import socket

    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(path))
        os.chmod(path, 0o666)
        remove_group_other(path)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o666


def test_a_file_still_loses_group_and_other_bits(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("")
    os.chmod(path, 0o644)
    remove_group_other(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
