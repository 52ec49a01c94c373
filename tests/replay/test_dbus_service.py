"""org.phantom.Replay1 on a private session bus, driven the way desktop
shortcuts and scripts drive it: gdbus, busctl and dbus-send. The service is
started by D-Bus activation from the file `phantom install` writes, and
exits after its idle timeout."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from programs.store import save_program
from support.cli import phantom
from support.programs import EMAIL, form_program
from testbed.executables import executable
from testbed.harness import VirtualDesktop
from testbed.waiting import wait_until

pytestmark = pytest.mark.desktop

DEST = ("--dest", "org.phantom.Replay1", "--object-path", "/org/phantom/Replay1")


@pytest.fixture(scope="module")
def bus_desktop():
    """A desktop of this module's own: its session bus is where the replay
    service gets activated, and its XDG dirs are where `phantom install`
    writes. The store lives at the default path the activated service uses."""
    desktop = VirtualDesktop().start()
    try:
        installed = phantom(desktop, "install")
        assert installed.returncode == 0, installed.stderr
        store = Path(desktop.env["XDG_DATA_HOME"]) / "phantom" / "phantom.sqlite3"
        store.parent.mkdir(parents=True, exist_ok=True)
        save_program(store, form_program(), created_ms=1_795_990_000_000)
        yield desktop, store
    finally:
        desktop.stop()


@pytest.fixture
def form_app(bus_desktop):
    desktop, _ = bus_desktop
    app = desktop.launch_fixture("form", "--geometry", "320x230+20+20")
    yield app
    desktop.close_app(app)


def gdbus(desktop, method: str, *args: str) -> subprocess.CompletedProcess:
    return desktop.run([executable("gdbus"), "call", "--session", *DEST, "--method",
                        f"org.phantom.Replay1.{method}", *args], timeout=90)


def form_state(desktop) -> str:
    out = desktop.run([executable("gdbus"), "call", "--session", "--dest", "org.a11y.Bus", "--object-path",
                       "/org/a11y/bus", "--method", "org.a11y.Bus.GetAddress"])
    assert out.returncode == 0
    probe = ("import pyatspi;from testbed.scripted_user import app_named, find, text_of;"
             "f=app_named('phantom-form');print(text_of(find(f,'label',name='Status')))")
    return subprocess.run([str(Path(os.sys.executable)), "-c", probe], env=desktop.env,
                          capture_output=True, text=True, timeout=30).stdout.strip()


def owner_running(desktop) -> bool:
    out = desktop.run([executable("gdbus"), "call", "--session", "--dest", "org.freedesktop.DBus",
                       "--object-path", "/org/freedesktop/DBus", "--method",
                       "org.freedesktop.DBus.NameHasOwner", "org.phantom.Replay1"])
    return "true" in out.stdout


def test_activation_from_the_installed_file_and_introspection(bus_desktop):
    desktop, _ = bus_desktop
    service_file = Path(desktop.env["XDG_DATA_HOME"]) / "dbus-1" / "services" / "org.phantom.Replay1.service"
    assert "Exec=" in service_file.read_text() and "replay-service" in service_file.read_text()
    introspect = desktop.run([executable("gdbus"), "introspect", "--session", *DEST], timeout=60)
    assert introspect.returncode == 0, introspect.stderr
    for member in ("ListPrograms", "Describe", "Replay", "ReplayAsync", "Context", "ListRoutines",
                   "StepFinished", "RunFinished", "Escalated", "Busy"):
        assert member in introspect.stdout
    listed = gdbus(desktop, "ListPrograms")
    assert listed.returncode == 0 and "'fill form'" in listed.stdout


def test_gdbus_busctl_and_dbus_send_drive_the_service(bus_desktop, form_app):
    desktop, _ = bus_desktop
    described = desktop.run([executable("busctl"), "--user", "call", "org.phantom.Replay1", "/org/phantom/Replay1",
                             "org.phantom.Replay1", "Describe", "s", "fill form"])
    assert described.returncode == 0, described.stderr
    assert "P0" in described.stdout and "phantom-form" in described.stdout
    sent = desktop.run([executable("dbus-send"), "--session", "--print-reply", "--dest=org.phantom.Replay1",
                        "/org/phantom/Replay1", "org.phantom.Replay1.Replay", "string:fill form",
                        "dict:string:string:P0,Grace Hopper"], timeout=90)
    assert sent.returncode == 0, sent.stderr
    assert '"success"' in sent.stdout
    assert form_state(desktop) == f"Submitted: Grace Hopper <{EMAIL}>"
    replayed = gdbus(desktop, "Replay", "'fill form'", "{'P0': 'Ada Lovelace'}")
    assert replayed.returncode == 0 and replayed.stdout.startswith("('success',")
    assert form_state(desktop) == f"Submitted: Ada Lovelace <{EMAIL}>"
    routines = desktop.run([executable("busctl"), "--user", "call", "org.phantom.Replay1", "/org/phantom/Replay1",
                            "org.phantom.Replay1", "ListRoutines"])
    assert routines.returncode == 0 and "routines" in routines.stdout


@pytest.mark.parametrize("args, error", [
    (("'no such program'", "{'P0': 'x'}"), "org.phantom.Error.UnknownProgram"),
    (("'fill form'", "{'P9': 'x'}"), "org.phantom.Error.InvalidParameter"),
    (("'fill form'", "@a{ss} {}"), "org.phantom.Error.InvalidParameter"),
])
def test_bad_calls_get_named_errors_and_send_nothing(bus_desktop, form_app, args, error):
    desktop, _ = bus_desktop
    before = form_state(desktop)
    result = gdbus(desktop, "Replay", *args)
    assert result.returncode != 0 and error in result.stderr, result.stderr
    assert form_state(desktop) == before == "Ready"


@pytest.mark.parametrize("arguments", [("string:fill form", "int32:42"), ("string:fill form",),
                                       ("int32:7", "dict:string:string:P0,x")])
def test_wrong_argument_types_get_invalid_arguments(bus_desktop, form_app, arguments):
    """gdbus checks types itself from introspection; dbus-send does not, so
    the service must answer a wrong signature with its own named error."""
    desktop, _ = bus_desktop
    result = desktop.run([executable("dbus-send"), "--session", "--print-reply", "--dest=org.phantom.Replay1",
                          "/org/phantom/Replay1", "org.phantom.Replay1.Replay", *arguments])
    assert result.returncode != 0
    assert "org.phantom.Error.InvalidArguments" in result.stderr and "sa{ss}" in result.stderr
    assert form_state(desktop) == "Ready"


def test_guard_mismatch_and_busy(bus_desktop):
    desktop, _ = bus_desktop
    missing = gdbus(desktop, "Replay", "'fill form'", "{'P0': 'x'}")
    assert "org.phantom.Error.GuardMismatch" in missing.stderr  # the form is not running
    app = desktop.launch_fixture("form", "--geometry", "320x230+20+20")
    try:
        monitor = subprocess.Popen([executable("gdbus"), "monitor", "--session", "--dest", "org.phantom.Replay1"],
                                   env=desktop.env, stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)
        started = gdbus(desktop, "ReplayAsync", "'fill form'", "{'P0': 'Barbara Liskov'}")
        assert started.returncode == 0 and started.stdout.startswith("(uint32 ")
        busy = gdbus(desktop, "Replay", "'fill form'", "{'P0': 'Second Caller'}")
        assert "org.phantom.Error.Busy" in busy.stderr
        wait_until(lambda: form_state(desktop) == f"Submitted: Barbara Liskov <{EMAIL}>",
                   timeout=30, what="the asynchronous replay to submit the form")
        time.sleep(1.0)
        monitor.terminate()
        signals = monitor.communicate(timeout=10)[0]
        assert signals.count("org.phantom.Replay1.StepFinished") == 4
        assert "org.phantom.Replay1.RunFinished" in signals and "'success'" in signals
    finally:
        desktop.close_app(app)


def test_context_over_dbus_and_bad_windows(bus_desktop):
    desktop, _ = bus_desktop
    ok = gdbus(desktop, "Context", "'2026-11-29T00:00:00+00:00'", "'2026-11-30T00:00:00+00:00'",
               "'compact'")
    assert ok.returncode == 0 and "ACTIVITY" in ok.stdout
    bad = gdbus(desktop, "Context", "'yesterday'", "'2026-11-30T00:00:00+00:00'", "'compact'")
    assert "org.phantom.Error.InvalidWindow" in bad.stderr


def test_the_service_exits_when_idle_and_is_activated_again(tmp_path):
    with VirtualDesktop() as desktop:
        services = Path(desktop.env["XDG_DATA_HOME"]) / "dbus-1" / "services"
        services.mkdir(parents=True)
        phantom_script = Path(os.sys.executable).with_name("phantom")
        (services / "org.phantom.Replay1.service").write_text(
            "[D-BUS Service]\nName=org.phantom.Replay1\n"
            f"Exec={phantom_script} replay-service --db {tmp_path / 'store.sqlite3'} --idle-timeout 2\n")
        started = time.monotonic()
        first = gdbus(desktop, "ListPrograms")
        cold = time.monotonic() - started
        assert first.returncode == 0, first.stderr
        assert owner_running(desktop)
        wait_until(lambda: not owner_running(desktop), timeout=15, what="the idle service to exit")
        again = gdbus(desktop, "ListPrograms")
        assert again.returncode == 0 and owner_running(desktop)
        assert cold < 30  # generous: a functional bound, not a benchmark
