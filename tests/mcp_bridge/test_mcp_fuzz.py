"""Property-based fuzz of the MCP tools' argument handling (hypothesis):
whatever an agent sends — wrong types, missing or extra keys, NUL and other
control characters, megabyte strings — the answer is a result or a tool
error of one line that says why, never echoes the megabyte back, and never
takes the server down. The server is built in-process on a copy of the
recorded fixture store, with no display and no session bus."""

from __future__ import annotations

import asyncio
import shutil
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.mcpserver.exceptions import ToolError

from support.mcp import FIXTURE_STORE

TOOLS = {
    "phantom_context": ["since", "until", "format", "budget"],
    "phantom_frames": ["since", "until"],
    "phantom_routines": ["since", "until", "limit"],
    "phantom_programs": [],
    "phantom_record": ["name"],
    "phantom_stop_record": [],
    "phantom_compile_program": ["name"],
    "phantom_replay": ["program", "parameters", "dry_run"],
}
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
HUGE = st.builds(lambda text, times: (text or "x") * times, TEXT, st.integers(1_000, 60_000))
SCALAR = st.one_of(TEXT, HUGE, st.integers(-(10 ** 20), 10 ** 20), st.floats(), st.booleans(), st.none(),
                   st.sampled_from(["2026-11-29T00:00", "2026-11-30T00:00", "compact", "json", "a\x00b",
                                    "save note", "\x00", "P0"]))
VALUE = st.one_of(SCALAR, st.lists(SCALAR, max_size=3), st.dictionaries(TEXT, SCALAR, max_size=3))


@st.composite
def calls(draw):
    tool = draw(st.sampled_from(sorted(TOOLS)))
    keys = TOOLS[tool] + ["bogus"]
    arguments = {key: draw(VALUE) for key in draw(st.lists(st.sampled_from(keys), unique=True, max_size=4))}
    return tool, arguments


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    store = tmp_path_factory.mktemp("mcp-fuzz") / "store.sqlite3"
    shutil.copy(FIXTURE_STORE, store)
    from mcp_bridge.server import build_server

    return build_server(store)


@pytest.fixture(autouse=True)
def bare_host(monkeypatch, tmp_path):
    for key in ("DISPLAY", "AT_SPI_BUS_ADDRESS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/phantom-fuzz-bus")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))


def call(server, tool: str, arguments: dict):
    return asyncio.run(server.call_tool(tool, arguments))


def test_every_tool_answers_bad_arguments_in_one_short_line(server):
    seen: Counter = Counter()

    @settings(max_examples=120, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                     HealthCheck.data_too_large])
    @given(calls())
    def check(case) -> None:
        tool, arguments = case
        seen[tool] += 1
        try:
            call(server, tool, arguments)
        except ToolError as exc:
            message = str(exc)
            assert "\n" not in message and len(message) <= 560, (tool, message[:300])
            assert "Traceback" not in message
            reason = message.split(": ", 1)[-1]
            assert reason.strip(), (tool, message)      # an error always says why
            long_values = [v for v in arguments.values() if isinstance(v, str) and len(v) > 1000]
            for value in long_values:
                assert value[:600] not in message

    check()
    assert set(seen) == set(TOOLS) and sum(seen.values()) >= 120    # every tool, every example ran


@pytest.mark.parametrize("tool, arguments, fragment", [
    ("phantom_record", {"name": "a\x00b"}, "holds a control character (U+0000 at position 1)"),
    ("phantom_compile_program", {"name": "\x00"}, "holds a control character (U+0000 at position 0)"),
    ("phantom_replay", {"program": "a\x00b"}, "holds a control character (U+0000 at position 1)"),
    ("phantom_replay", {"program": "x" * 1_000_000}, "is 1000000 characters long; at most 200"),
    ("phantom_context", {"since": "x" * 1_000_000, "until": "y"}, "not a time"),
    ("phantom_routines", {"limit": 10 ** 30}, "usage: phantom_routines: argument 'limit': Input should be less than"),
    ("phantom_context", {"since": 5, "until": []}, "argument 'since': Input should be a valid string"),
])
def test_named_faults_give_their_reason(server, tool, arguments, fragment):
    with pytest.raises(ToolError) as raised:
        call(server, tool, arguments)
    message = str(raised.value)
    assert fragment in message and "\n" not in message and len(message) <= 560, message[:300]


def test_a_damaged_store_is_a_one_line_tool_error_naming_the_repair(tmp_path):
    from mcp_bridge.server import build_server
    from support.damage import damage_page, leaf_pages

    store = tmp_path / "store.sqlite3"
    shutil.copy(FIXTURE_STORE, store)
    pages = leaf_pages(store, "snapshots")
    damage_page(store, pages[len(pages) // 2])
    with pytest.raises(ToolError) as raised:
        call(build_server(store), "phantom_context", {"since": "2026-11-29T00:00", "until": "2026-11-30T00:00"})
    message = str(raised.value)
    assert "store_damaged:" in message and "phantom doctor --repair" in message and "\n" not in message
