"""The systemd user unit: installed by `phantom install`, valid for
`systemd-analyze verify --user`, no hard-coded display."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cli.main import main
from testbed.executables import executable

ROOT = Path(__file__).resolve().parents[2]


def test_checked_in_unit_is_a_notify_service_bound_to_the_session():
    text = (ROOT / "systemd" / "phantom-capture.service").read_text()
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure",
                 "PartOf=graphical-session.target", "WantedBy=graphical-session.target"):
        assert line in text
    assert "DISPLAY" not in text.replace("# ", "").split("[Unit]", 1)[1]


def test_installed_units_pass_systemd_analyze_verify(home, capsys):
    phantom_script = Path(sys.executable).with_name("phantom")
    assert main(["install", "--executable", str(phantom_script)]) == 0
    units = home / "config" / "systemd" / "user"
    capture, replay = units / "phantom-capture.service", units / "phantom-replay.service"
    assert f"ExecStart={phantom_script} capture" in capture.read_text()
    assert f"ExecStart={phantom_script} replay-service" in replay.read_text()
    assert "Type=dbus" in replay.read_text() and "BusName=org.phantom.Replay1" in replay.read_text()
    activation = home / "data" / "dbus-1" / "services" / "org.phantom.Replay1.service"
    assert f"Exec={phantom_script} replay-service" in activation.read_text()
    assert "SystemdService=phantom-replay.service" in activation.read_text()
    result = subprocess.run([executable("systemd-analyze"), "verify", "--user", str(capture), str(replay)],
                            capture_output=True, text=True, env=dict(os.environ), timeout=60)
    assert result.returncode == 0, result.stderr
    assert main(["uninstall"]) == 0
    assert not capture.exists() and not replay.exists() and not activation.exists()
    assert "wrote" in capsys.readouterr().out
