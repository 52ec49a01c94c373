"""`phantom install`: files readable by systemd and dbus whatever the umask,
an executable path quoted the way each reader splits it, and units that a
systemd security review rates as sandboxed."""

from __future__ import annotations

import os
import re
import stat
import subprocess
from pathlib import Path

import pytest

from cli.commands.install import dbus_exec_word, systemd_exec_word
from cli.main import main
from testbed.executables import executable

ROOT = Path(__file__).resolve().parents[2]


def test_files_and_directories_have_fixed_modes_under_umask_000(home, tmp_path):
    phantom_script = tmp_path / "bin dir" / "phantom"
    phantom_script.parent.mkdir()
    phantom_script.write_text("#!/bin/sh\n")
    previous = os.umask(0)
    try:
        assert main(["install", "--executable", str(phantom_script)]) == 0
    finally:
        os.umask(previous)
    written = [home / "config" / "systemd" / "user" / "phantom-capture.service",
               home / "config" / "systemd" / "user" / "phantom-replay.service",
               home / "data" / "dbus-1" / "services" / "org.phantom.Replay1.service"]
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
        for directory in (path.parent, path.parent.parent):
            assert stat.S_IMODE(directory.stat().st_mode) == 0o755, directory
    assert f'ExecStart="{phantom_script}" capture' in written[0].read_text()
    assert f"Exec='{phantom_script}' replay-service" in written[2].read_text()


@pytest.mark.parametrize("path, systemd, dbus", [
    ("/usr/bin/phantom", "/usr/bin/phantom", "/usr/bin/phantom"),
    ("/opt/my apps/phantom", '"/opt/my apps/phantom"', "'/opt/my apps/phantom'"),
    ("/opt/100%/phantom", "/opt/100%%/phantom", "/opt/100%/phantom"),
    ('/o"dd\\path/it\'s', '"/o\\"dd\\\\path/it\'s"', "'/o\"dd\\path/it'\\''s'"),
])
def test_executable_paths_are_quoted_for_each_reader(path, systemd, dbus):
    assert systemd_exec_word(path) == systemd
    assert dbus_exec_word(path) == dbus


@pytest.mark.parametrize("unit", ["phantom-capture.service", "phantom-replay.service",
                                  "phantom-retention.service"])
def test_units_are_sandboxed(home, unit):
    result = subprocess.run([executable("systemd-analyze"), "security", "--offline=true", "--user",
                             str(ROOT / "systemd" / unit)], capture_output=True, text=True,
                            env=dict(os.environ), timeout=60)
    exposure = re.search(r"Overall exposure level for \S+: ([\d.]+)", result.stdout)
    assert exposure is not None, result.stdout + result.stderr
    assert float(exposure.group(1)) <= 2.5
    text = (ROOT / "systemd" / unit).read_text()
    for line in ("IPAddressDeny=any", "RestrictAddressFamilies=AF_UNIX", "NoNewPrivileges=yes",
                 "ProtectSystem=strict", "PrivateUsers=yes"):
        assert line in text


def test_install_adds_the_daily_retention_timer_and_its_service(home, tmp_path):
    phantom_script = tmp_path / "phantom"
    phantom_script.write_text("#!/bin/sh\n")
    phantom_script.chmod(0o755)
    assert main(["install", "--executable", str(phantom_script)]) == 0
    units = home / "config" / "systemd" / "user"
    service, timer = units / "phantom-retention.service", units / "phantom-retention.timer"
    assert f"ExecStart={phantom_script} retention run" in service.read_text()
    assert "OnCalendar=daily" in timer.read_text() and "Persistent=yes" in timer.read_text()
    result = subprocess.run([executable("systemd-analyze"), "verify", "--user", str(timer), str(service)],
                            capture_output=True, text=True, env=dict(os.environ), timeout=60)
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr
    assert main(["uninstall"]) == 0
    assert not timer.exists() and not service.exists()
