"""`phantom mcp` over stdio with the SDK's own client: the tool list and its
hints, context byte-identical to `phantom compile`, errors as `isError`
results that leave the server serving, programs with their parameters, the
today resource, and a stdout that carries nothing but protocol."""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import threading

import pytest

from support.mcp import FIXTURE_STORE, PHANTOM, SINCE, UNTIL, McpServer, error_text, server_env
from support.programs import program_fixtures

READ_TOOLS = {"phantom_context", "phantom_frames", "phantom_routines", "phantom_programs",
              "phantom_find_program", "phantom_search"}
ACTING_TOOLS = {"phantom_record", "phantom_stop_record", "phantom_compile_program", "phantom_replay"}
NO_BUS = "unix:path=/nonexistent/phantom-test-bus"


@pytest.fixture(scope="module")
def fixture_server():
    """One server on the recorded fixture store for the module (read-only use);
    no session bus, no display: what a bare host gives."""
    with McpServer(FIXTURE_STORE, env=server_env(DBUS_SESSION_BUS_ADDRESS=NO_BUS)) as server:
        yield server


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PHANTOM, *args], capture_output=True, encoding="utf-8", env=server_env(),
                          timeout=120)


# -- the tool list ------------------------------------------------------------------------------
def test_exactly_the_phantom_tools_with_hints_and_typed_schemas(fixture_server):
    tools = fixture_server.tools()
    assert set(tools) == READ_TOOLS | ACTING_TOOLS
    for name in READ_TOOLS:
        assert tools[name].annotations.read_only_hint is True, name
        assert tools[name].title
    for name in ACTING_TOOLS:
        assert not tools[name].annotations.read_only_hint, name
        assert tools[name].title
    assert tools["phantom_replay"].annotations.destructive_hint is True
    assert tools["phantom_record"].annotations.destructive_hint is False

    context = tools["phantom_context"].input_schema
    assert "required" not in context  # no window: today; a start alone: until now
    assert {"type": "string"} in context["properties"]["since"]["anyOf"]
    assert "-2h" in context["properties"]["since"]["description"]
    assert "now" in context["properties"]["until"]["description"]
    assert context["properties"]["format"]["enum"] == ["compact", "json", "markdown"]
    replay = tools["phantom_replay"].input_schema
    assert not replay.get("required")             # a program or an intent, checked by the tool
    assert {"program", "intent", "parameters", "dry_run"} <= set(replay["properties"])
    assert tools["phantom_find_program"].input_schema["required"] == ["intent"]
    assert replay["properties"]["parameters"]["type"] == "object"
    assert replay["properties"]["parameters"]["additionalProperties"] == {"type": "string"}
    assert tools["phantom_routines"].input_schema["properties"]["limit"]["type"] == "integer"
    # Data tools give structured output; the context block is text only.
    assert tools["phantom_frames"].output_schema["type"] == "object"
    assert tools["phantom_context"].output_schema is None


# -- context and frames -------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["compact", "json", "markdown"])
def test_context_is_byte_identical_to_phantom_compile(fixture_server, fmt):
    result = fixture_server.call("phantom_context", {"since": SINCE, "until": UNTIL, "format": fmt})
    assert not result.is_error, result
    printed = cli("compile", "--db", str(FIXTURE_STORE), "--since", SINCE, "--until", UNTIL,
                  "--format", fmt)
    assert printed.returncode == 0, printed.stderr
    assert len(result.content) == 1 and result.structured_content is None
    assert result.content[0].text == printed.stdout
    if fmt == "compact":
        assert result.content[0].text.startswith("ACTIVITY 2026-11-29T00:00:00+00:00/")


def test_frames_are_the_measured_part_of_the_json_document(fixture_server):
    result = fixture_server.call("phantom_frames", {"since": SINCE, "until": UNTIL})
    assert not result.is_error, result
    document = json.loads(fixture_server.call(
        "phantom_context", {"since": SINCE, "until": UNTIL, "format": "json"}).content[0].text)
    frames = result.structured_content
    assert set(frames) == {"schema", "window", "coverage", "frames", "blind_spots", "provenance"}
    assert frames == {key: document[key] for key in frames}
    assert frames["frames"] and frames["provenance"]["input_digest"].startswith("sha256:")


def test_routines_match_phantom_routines(fixture_server):
    result = fixture_server.call("phantom_routines", {"limit": 20})
    assert not result.is_error, result
    printed = cli("routines", "--db", str(FIXTURE_STORE), "--format", "json", "--limit", "20")
    assert printed.returncode == 0, printed.stderr
    report = dict(result.structured_content)
    assert report.pop("window") == {"label": "all", "zone": "Etc/UTC"}
    assert report == json.loads(printed.stdout)
    assert report["routines"] and "decision" in report["routines"][0]


# -- errors are results, and the server keeps serving ------------------------------------------
@pytest.mark.parametrize("tool, arguments, message", [
    ("phantom_context", {"since": "teatime", "until": UNTIL}, "not a time: 'teatime'"),
    ("phantom_context", {"since": UNTIL, "until": SINCE}, "reversed range"),
    ("phantom_frames", {"since": SINCE, "until": "2026-13-45"}, "not a date"),
    ("phantom_routines", {"since": "3 fortnights ago"}, "unknown unit"),
    ("phantom_record", {}, "usage: phantom_record: missing argument 'name'"),
    ("phantom_context", {"budget": 5}, "usage: phantom_context: argument 'budget': Input should be "
                                       "greater than or equal to 100"),
    ("phantom_search", {"text": "?!"}, "nothing to search for"),
    ("phantom_search", {}, "usage: phantom_search: missing argument 'text'"),
    ("phantom_replay", {"program": "no such program"}, "no program named or with id 'no such program'"),
    ("phantom_compile_program", {"name": "sign up"}, "no finished recording named 'sign up'"),
    ("phantom_record", {"name": "sign up"}, "capture daemon not reachable"),
    ("phantom_stop_record", {}, "capture daemon not reachable"),
    ("phantom_replay", {"name": "sign up"}, "usage: phantom_replay takes no argument 'name'; it takes "
                                            "dry_run, intent, parameters, program"),
    ("phantom_programs", {"limit": 3}, "usage: phantom_programs takes no argument 'limit'; it takes cursor"),
    ("phantom_frames", {"cursor": "page-2"}, "usage: cursor 'page-2' is not one this tool gave"),
    ("phantom_compile_program", {"name": "x", "since": "today"}, "since and until choose where to "
                                                                 "find a routine's occurrences"),
])
def test_bad_requests_are_one_line_tool_errors(fixture_server, tool, arguments, message):
    result = fixture_server.call(tool, arguments)
    text = error_text(result)
    assert message in text and "\n" not in text and "Traceback" not in text
    assert "--" not in text and "pydantic" not in text  # no CLI flags, no SDK dump
    after = fixture_server.call("phantom_programs")  # still serving
    assert not after.is_error and after.structured_content == {"programs": []}


def test_schema_violations_are_tool_errors_too(fixture_server):
    assert fixture_server.call("phantom_context", {"since": SINCE, "until": UNTIL,
                                                   "format": "csv"}).is_error
    assert fixture_server.call("phantom_replay", {"program": "x", "parameters": {"P0": 3}}).is_error
    assert fixture_server.call("phantom_routines", {"limit": -1}).is_error
    assert not fixture_server.call("phantom_frames", {"since": SINCE, "until": UNTIL}).is_error


def test_today_resource_is_a_compact_block(fixture_server):
    read = fixture_server.read("phantom://context/today")
    (content,) = read.contents
    assert content.mime_type == "text/plain"
    assert content.text.startswith("ACTIVITY ")


def test_the_guide_says_which_tool_comes_first(fixture_server):
    (content,) = fixture_server.read("phantom://guide").contents
    assert content.mime_type == "text/markdown"
    assert "Start with **phantom_context**" in content.text and "-2h" in content.text
    assert "next_cursor" in content.text


def test_a_mined_routine_compiles_through_mcp(tmp_path):
    store = tmp_path / "store.sqlite3"
    shutil.copy(FIXTURE_STORE, store)
    with McpServer(store, env=server_env(DBUS_SESSION_BUS_ADDRESS=NO_BUS)) as server:
        routines = server.call("phantom_routines", {"limit": 5}).structured_content["routines"]
        assert routines, "the fixture store has mined routines"
        compiled = server.call("phantom_compile_program", {"name": "from a routine",
                                                           "routine": routines[0]["id"]})
        assert not compiled.is_error, compiled
        report = compiled.structured_content
        assert report["id"].startswith("p-") and report["state"] == "candidate"
        assert report["traces"] >= 3 and 1 <= report["steps"] <= len(routines[0]["steps"])
        unknown = error_text(server.call("phantom_compile_program", {"name": "x", "routine": "r-0000"}))
        assert "r-0000" in unknown and "\n" not in unknown


# -- programs: compile, list, replay refusals -------------------------------------------------
def _saved_program(db) -> str:
    """Save a program compiled from hand-built traces; return its id."""
    from compiler.programs.build import compile_program
    from compiler.programs.traces import Trace, TraceAction
    from compiler.records import Action, Step
    from programs.store import save_program

    def act(kind: str, role: str, label: str, ts: int, text: str | None = None) -> TraceAction:
        path = f"Notes/frame[@name='Notes']/panel/{role}[@name='{label}']"
        return TraceAction(Action(Step(kind, "Notes", path, role, label, True), ts, ts, 0,
                                  (f"input_events:{ts}",), text))

    def demo(origin: str, title: str) -> Trace:
        return Trace(origin, (act("click", "text", "Title", 1), act("type", "text", "Title", 2, title),
                              act("click", "push button", "Save", 3)))

    report = compile_program("save note", [demo("recording:7", "Groceries"),
                                           demo("recording:8", "Quarterly plan")],
                             source="demonstration")
    return save_program(db, report, created_ms=1_796_000_000_000)


@pytest.fixture(scope="module")
def program_store(tmp_path_factory):
    fixtures = program_fixtures()
    db = tmp_path_factory.mktemp("mcp-programs") / "phantom.sqlite3"
    capture, recordings = fixtures.form_capture([("Ada Lovelace", "ada@analytical.engine"),
                                                 ("Alan Turing", "turing@bletchley.uk")])
    fixtures.write_store(db, capture, recordings)
    saved = _saved_program(db)
    from programs import lifecycle_store

    lifecycle_store.promote(db, saved, 1_796_000_000_001)   # the person vouched for it: agents may run it
    return db, saved


@pytest.fixture(scope="module")
def program_server(program_store):
    db, _ = program_store
    # The initialize handshake that current desktop hosts use, and no DISPLAY.
    with McpServer(db, mode="legacy", env=server_env(DBUS_SESSION_BUS_ADDRESS=NO_BUS)) as server:
        yield server


def test_programs_list_parameters_an_agent_can_fill(program_server, program_store):
    _, saved = program_store
    listed = program_server.call("phantom_programs")
    assert not listed.is_error, listed
    (program,) = listed.structured_content["programs"]
    assert program["id"] == saved and program["name"] == "save note"
    assert program["app"] == "Notes" and program["steps"] == 3
    assert program["outline"] == ["click text 'Title'", "type $P0 into text 'Title'",
                                  "click push button 'Save'"]
    assert program["parameters"] == [{"name": "P0", "field": "Title", "step": 1, "shape": {
        "classes": ["letters", "spaces"], "symbols": "", "length": [9, 14]}}]   # never the values
    assert program["created"] == "2026-11-30T00:53:20+00:00"


def test_compile_program_from_recordings_then_listed(program_server):
    compiled = program_server.call("phantom_compile_program", {"name": "sign up"})
    assert not compiled.is_error, compiled
    report = compiled.structured_content
    assert report["id"].startswith("p-") and report["traces"] == 2
    assert [p["name"] for p in report["parameters"]] == ["P0", "P1"]
    assert report["parameters"][0]["shape"]["length"] == [11, 12]
    assert report["state"] == "candidate" and "Ada" not in json.dumps(report["parameters"])
    assert [d["step"] for d in report["distances"]] == [p["step"] for p in report["parameters"]]
    assert all(d["parameterized"] and d["distance"] > report["delta"] for d in report["distances"])
    assert report["warnings"]  # two demonstrations only: said so
    names = [p["name"] for p in program_server.call("phantom_programs").structured_content["programs"]]
    assert names == ["save note"]                 # a candidate is not shown to agents
    refused = error_text(program_server.call("phantom_replay", {"program": "sign up", "parameters": {
        "P0": "Grace Hopper", "P1": "grace@navy.mil"}}))
    assert refused.startswith(f"not_active: program {report['id']} is a candidate: agents run only "
                              "active programs") and "nothing was sent" in refused


@pytest.mark.parametrize("parameters, message", [
    ({}, "missing P0 (the Title field: letters, spaces; 9–14 characters when recorded); nothing was sent"),
    ({"P0": "x", "P9": "y"}, "has no parameter 'P9'"),
    ({"P0": "bad\x07value"}, "P0 contains control characters"),
    ({"P0": "Holiday"}, "DISPLAY is not set"),
])
def test_replay_refuses_before_sending_anything(program_server, parameters, message):
    text = error_text(program_server.call("phantom_replay", {"program": "save note",
                                                             "parameters": parameters}))
    assert message in text and "\n" not in text


def test_corrupt_program_is_listed_with_its_problem_and_refused(program_server, program_store,
                                                                tmp_path):
    db, saved = program_store
    copy = tmp_path / "corrupt.sqlite3"
    shutil.copy(db, copy)
    import apsw

    connection = apsw.Connection(str(copy))
    connection.execute("UPDATE programs SET body = '{\"format\": 1, \"steps\": 7}' WHERE id = ?",
                       (saved,))
    connection.close()
    with McpServer(copy, env=server_env(DISPLAY=":99")) as server:
        listed = {p["id"]: p for p in server.call("phantom_programs").structured_content["programs"]}
        assert listed[saved]["problem"].startswith("unreadable:")
        text = error_text(server.call("phantom_replay", {"program": saved,
                                                         "parameters": {"P0": "x"}}))
        assert saved in text and "\n" not in text


def test_a_quarantined_program_is_refused_to_agents_with_its_reason(program_store, tmp_path):
    from programs import lifecycle_store
    from programs.lifecycle import RunFacts

    db, saved = program_store
    copy = tmp_path / "quarantine.sqlite3"
    shutil.copy(db, copy)
    for run_id in (4, 5):   # two runs that sent input and failed their verification
        lifecycle_store.record_run(copy, saved, RunFacts(run_id, "failed", True, "", "cli", run_id))
    with McpServer(copy, env=server_env(DBUS_SESSION_BUS_ADDRESS=NO_BUS)) as server:
        assert server.call("phantom_programs").structured_content == {"programs": []}
        text = error_text(server.call("phantom_replay", {"program": "save note",
                                                         "parameters": {"P0": "Holiday"}}))
        assert text.startswith(f"quarantined: program {saved} is quarantined (failed 2 times in a row "
                               "(runs 4, 5))") and "nothing was sent" in text
        text = error_text(server.call("phantom_find_program", {"intent": "write down a new note"}))
        assert text.startswith("no_compatible_program:") and "there are no active programs" in text


@pytest.mark.parametrize("tool, arguments, message", [
    ("phantom_find_program", {"intent": "   "}, "invalid_intent: the intent is empty"),
    ("phantom_find_program", {"intent": "bad\x07intent"}, "invalid_intent:"),
    ("phantom_replay", {"intent": "  ", "parameters": {"P0": "x"}}, "invalid_intent: the intent is empty"),
    ("phantom_replay", {"program": "save note", "intent": "a note"}, "give either program or intent"),
    ("phantom_replay", {}, "give either program or intent"),
    ("phantom_replay", {"intent": "file a note called Holiday"}, "DISPLAY"),
])
def test_bad_intents_are_tool_errors_and_nothing_is_sent(program_server, tool, arguments, message):
    text = error_text(program_server.call(tool, arguments))
    assert message in text and "\n" not in text


def test_intent_schema_violations_are_tool_errors(program_server):
    assert program_server.call("phantom_find_program", {"intent": ""}).is_error
    assert program_server.call("phantom_find_program", {"intent": "x" * 301}).is_error


# -- stdout is the protocol, logs are on stderr ------------------------------------------------
class _Lines:
    """Lines of a pipe, read on a thread, so the test can wait with a timeout."""

    def __init__(self, stream) -> None:
        self.lines: queue.Queue = queue.Queue()
        self.all: list[bytes] = []
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream) -> None:
        for line in iter(stream.readline, b""):
            self.all.append(line)
            self.lines.put(line)

    def reply(self, request_id: int, timeout: float = 60.0) -> dict:
        while True:
            message = json.loads(self.lines.get(timeout=timeout))
            if message.get("id") == request_id:
                return message


def test_raw_stdio_carries_only_json_rpc_and_logs_go_to_stderr():
    process = subprocess.Popen([PHANTOM, "mcp", "--db", str(FIXTURE_STORE)], env=server_env(),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout = _Lines(process.stdout)

    def send(message: dict) -> None:
        process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        process.stdin.flush()

    try:
        send({"id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw-test", "version": "0"}}})
        assert stdout.reply(1)["result"]["serverInfo"]["name"] == "phantom"
        send({"method": "notifications/initialized"})
        send({"id": 2, "method": "tools/list"})
        assert len(stdout.reply(2)["result"]["tools"]) == 10
        send({"id": 3, "method": "tools/call", "params": {
            "name": "phantom_replay", "arguments": {"program": "nope"}}})  # logged by the SDK
        assert stdout.reply(3)["result"]["isError"] is True
        send({"id": 4, "method": "tools/call", "params": {
            "name": "phantom_context", "arguments": {"since": SINCE, "until": UNTIL}}})
        assert stdout.reply(4)["result"]["content"][0]["text"].startswith("ACTIVITY")
    finally:
        process.stdin.close()  # EOF: the server exits on its own
        code = process.wait(timeout=20)
        stderr = process.stderr.read().decode(errors="replace")
    assert code == 0, stderr
    assert stdout.all, "no protocol output"
    for line in stdout.all:
        assert json.loads(line)["jsonrpc"] == "2.0", line
    assert "phantom-mcp: INFO mcp_bridge.server: serving store" in stderr
    assert "Tool 'phantom_replay' failed" in stderr


def test_help_names_the_command_and_a_client_config():
    shown = cli("mcp", "--help")
    assert shown.returncode == 0
    assert "stdio" in shown.stdout and '"args": ["mcp"]' in shown.stdout
