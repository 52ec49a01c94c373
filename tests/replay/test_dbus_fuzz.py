"""Property-based fuzz of both D-Bus services' argument handling
(hypothesis), over a real private session bus: org.phantom.Replay1 (the
replay service, serving a copy of the recorded fixture store) and
org.phantom.Capture1 (the capture daemon's loop on fake sources). Whatever
a caller sends — any method with any signature, megabyte strings, control
characters — the answer is a reply or a named error of one line that says
why and never echoes the megabyte back; both services keep serving."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from testbed.executables import executable
from testbed.waiting import wait_until

FIXTURE_STORE = Path(__file__).resolve().parents[2] / "fixtures" / "recorded" / "desktop.sqlite3"

REPLAY = ("org.phantom.Replay1", "/org/phantom/Replay1", "org.phantom.Replay1")
CAPTURE = ("org.phantom.Capture1", "/org/phantom/Capture1", "org.phantom.Capture1")
METHODS = {
    REPLAY: {"ListPrograms": "", "Describe": "s", "Replay": "sa{ss}", "ReplayChecked": "sa{ss}",
             "ReplayAsync": "sa{ss}",
             "Cancel": "", "Context": "sss", "ListRoutines": ""},
    CAPTURE: {"Status": "", "Pause": "", "Resume": "", "StartRecording": "s", "StopRecording": ""},
}
# What a D-Bus string can carry: UTF-8 without NUL.
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)
HUGE = st.builds(lambda text, times: (text or "x") * times, TEXT, st.integers(2_000, 60_000))
STRING = st.one_of(TEXT, HUGE, st.sampled_from(["", "save note", "2026-11-29T00:00", "2026-11-30T00:00",
                                                "compact", "json", "p-0", "\x07", "a\nb"]))


class BusThread:
    """An event loop on a thread of its own, for services and a client."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout: float = 60):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture(scope="module")
def private_bus(tmp_path_factory):
    directory = tmp_path_factory.mktemp("bus")
    process = subprocess.Popen([executable("dbus-daemon"), "--session", "--nofork", "--print-address=1",
                                f"--address=unix:dir={directory}"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    address = process.stdout.readline().strip()
    yield address
    process.terminate()
    process.wait(5)


@pytest.fixture(scope="module")
def services(private_bus, tmp_path_factory):
    """Both services on the private bus, with no display anywhere."""
    saved = {key: os.environ.get(key) for key in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "XDG_RUNTIME_DIR")}
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = private_bus
    os.environ.pop("DISPLAY", None)
    os.environ["XDG_RUNTIME_DIR"] = str(tmp_path_factory.mktemp("runtime"))
    store = tmp_path_factory.mktemp("replay") / "store.sqlite3"
    shutil.copy(FIXTURE_STORE, store)
    from capturer.config import CaptureSettings, Config
    from capturer.daemon import CaptureDaemon
    from capturer.notify import Notifier
    from replay.service import ReplayService
    from support.fake_sources import FakeDesktop

    config = Config(capture=CaptureSettings(focus_poll_ms=50, screenshots=False))

    replay_thread, capture_thread, client = BusThread(), BusThread(), BusThread()
    replay = ReplayService(store, idle_timeout=3600)
    served = asyncio.run_coroutine_threadsafe(replay.serve(), replay_thread.loop)
    daemon = CaptureDaemon(Path(tmp_path_factory.mktemp("capture")) / "store.sqlite3", config, display=":fake",
                           notifier=Notifier({}), control_bus=True, sources=FakeDesktop().sources())
    captured = asyncio.run_coroutine_threadsafe(daemon.run(), capture_thread.loop)
    from dbus_fast.aio import MessageBus

    async def connect():
        return await MessageBus(bus_address=private_bus).connect()

    bus = client.run(connect())

    async def owned(name: str) -> bool:
        from dbus_fast import Message

        reply = await bus.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                                       interface="org.freedesktop.DBus", member="NameHasOwner",
                                       signature="s", body=[name]))
        return bool(reply.body and reply.body[0])

    wait_until(lambda: client.run(owned(REPLAY[0])) and client.run(owned(CAPTURE[0])), timeout=20,
               what="both services on the private bus")
    yield client, bus
    capture_thread.loop.call_soon_threadsafe(daemon.request_stop)
    assert captured.result(20) == 0
    bus.disconnect()
    served.cancel()
    replay_thread.run(asyncio.sleep(0.2))   # the service's task runs its cancellation
    for thread in (replay_thread, capture_thread, client):
        thread.stop()
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def body_for(signature: str, draw) -> list:
    values = []
    for code in ("s" if part == "s" else part for part in _split(signature)):
        if code == "s":
            values.append(draw(STRING))
        elif code == "a{ss}":
            values.append(draw(st.dictionaries(STRING, STRING, max_size=3)))
        elif code == "i":
            values.append(draw(st.integers(-(2 ** 31), 2 ** 31 - 1)))
        elif code == "b":
            values.append(draw(st.booleans()))
    return values


def _split(signature: str) -> list[str]:
    parts, index = [], 0
    while index < len(signature):
        if signature.startswith("a{ss}", index):
            parts.append("a{ss}")
            index += 5
        else:
            parts.append(signature[index])
            index += 1
    return parts


@st.composite
def calls(draw):
    service = draw(st.sampled_from([REPLAY, CAPTURE]))
    method = draw(st.sampled_from(sorted(METHODS[service])))
    right = METHODS[service][method]
    # Mostly the method's own signature; sometimes another one.
    signature = draw(st.sampled_from([right, right, right, "s", "ss", "sss", "i", "b", "sa{ss}", ""]))
    return service, method, signature, body_for(signature, draw)


def test_both_services_answer_any_call_in_one_short_line(services):
    client, bus = services
    from dbus_fast import Message, MessageType

    seen = set()

    @settings(max_examples=120, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                     HealthCheck.data_too_large])
    @given(calls())
    def check(case) -> None:
        (destination, path, interface), method, signature, body = case
        seen.add((destination, method))
        message = Message(destination=destination, path=path, interface=interface, member=method,
                          signature=signature, body=body)
        reply = client.run(asyncio.wait_for(bus.call(message), 60))
        if reply.message_type == MessageType.ERROR:
            text = reply.body[0] if reply.body else ""
            assert reply.error_name.startswith(("org.phantom.Error.", "org.freedesktop.DBus.Error.")), \
                (method, reply.error_name, text[:200])
            assert text.strip() and "\n" not in text and len(text) <= 600, (method, text[:300])
            for value in body:
                if isinstance(value, str) and len(value) > 1000:
                    assert value[:600] not in text

    check()
    assert len(seen) >= 10       # nearly every method of both services was called


def test_a_megabyte_program_name_is_refused_without_coming_back(services):
    client, bus = services
    from dbus_fast import Message, MessageType

    for member, signature, body in (("Describe", "s", ["x" * 1_000_000]),
                                    ("Replay", "sa{ss}", ["x" * 1_000_000, {"P0": "y"}]),
                                    ("Context", "sss", ["x" * 1_000_000, "", "compact"])):
        reply = client.run(bus.call(Message(destination=REPLAY[0], path=REPLAY[1], interface=REPLAY[2],
                                            member=member, signature=signature, body=body)))
        assert reply.message_type == MessageType.ERROR and reply.error_name.startswith("org.phantom.Error.")
        assert len(reply.body[0]) <= 600 and "\n" not in reply.body[0]


def test_sqlite_damage_met_by_a_method_is_a_named_store_error():
    import apsw

    from replay.dbus_errors import dbus_error

    error = dbus_error(apsw.CorruptError("database disk image is malformed"), Path("/stores/store.sqlite3"))
    assert error.type == "org.phantom.Error.StoreDamaged"
    assert "/stores/store.sqlite3 is damaged" in error.text and "phantom doctor --repair" in error.text
    assert dbus_error(apsw.SQLError("no such column: x"), None).type == "org.phantom.Error.Failed"
