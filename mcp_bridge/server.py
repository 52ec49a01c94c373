"""Phantom's MCP server: activity memory, routines, recording and replay as
`phantom_*` tools over stdio, for agents.

Each tool is a thin typed shell over a module that does one job
(`memory`, `programs`, `recording`); the shells carry the names,
descriptions and hints a model reads when it chooses a tool. Tools are
plain functions, so the SDK runs each call in a worker thread: a slow
compile or a replay on the desktop never blocks the protocol loop."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from . import memory, programs, recording
from .errors import argument_error, translated, unknown_arguments
from .logs import configure_logging
from .paging import page_list, page_text

if TYPE_CHECKING:
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.types import CallToolResult, InputRequiredResult

log = logging.getLogger(__name__)

VERSION = "0.1.0"
INSTRUCTIONS = (
    "Phantom is the user's local desktop memory. phantom_context gives a compact, deterministic "
    "account of what the user did in a time window (apps, sites, documents, input counts, gaps); "
    "phantom_frames gives the same as measured data. phantom_search finds when words were on "
    "screen (titles, URLs, labels). phantom_routines lists repeated routines and "
    "whether they are worth automating. To automate a task: phantom_record, let the user do it, "
    "phantom_stop_record, twice or more, then phantom_compile_program (a new program is a "
    "candidate: the user's own successful replay, or their promotion, makes it active). "
    "phantom_programs lists the active programs and the parameters each takes; "
    "phantom_find_program finds the one that does a task described in words and can run on the "
    "screen as it is, or says why none can; phantom_replay runs one (by name or intent) on the "
    "live desktop and, where the screen no longer matches, stops with the step, the reason and "
    "the candidates so you can take over from there. Parameters are never guessed: pass every "
    "one. Times are ISO 8601; without an offset they are in the zone the capture recorded; "
    "words such as today, yesterday, now and -2h work too. The resource phantom://guide says "
    "which tool to call first, and how pages and errors work.")

FORMS = ("now, today, yesterday, a date (2026-03-02), a time today (14:00), an offset back from "
         "now (-2h, 90m ago) or ISO 8601 (2026-03-02T09:00, or with an offset; without one, in the "
         "zone the capture recorded)")
GUIDE = f"""# Phantom for agents

Start with **phantom_context** (no arguments: today) for what the user did; it is
the same deterministic block `phantom compile` prints. Then, as the question needs:

- **phantom_frames**: the same window as measured data (frames, coverage, blind spots).
- **phantom_search**: when words were on screen (titles, URLs, labels), newest first.
- **phantom_routines**: what the user repeats, and whether it is worth automating.
- **phantom_programs**: the active programs you may run, with their parameters.
- **phantom_find_program**: which program does a task described in words, on the
  screen as it is now — or why none does. Then **phantom_replay** with that program's
  id and every parameter. A replay that cannot go on stops with the step and the
  reason: take over from there; never retry it blindly.
- To automate something new: **phantom_record**, the user does it, **phantom_stop_record**,
  twice or more, then **phantom_compile_program** (or compile a mined routine by its
  `routine` id). A new program is a candidate until the user's own verified run or
  promotion makes it active.

## Time windows
`since` and `until` take {FORMS}. `until` is exclusive; omit both for today
(the whole history for routines and search).

## Pages
An answer over 20,000 tokens comes in pages: it carries `page.next_cursor` (or, for
text, a last line naming the cursor); call the same tool with the same arguments and
`cursor` set to it. No cursor: the first page.

## Errors
A failed call is a tool error whose text starts with its code (`usage:`,
`unknown_program:`, `no_compatible_program:` …) on one line; nothing was sent to the
desktop unless the result says it was.
"""


Since = Annotated[str | None, Field(description=f"window start: {FORMS}. Omit both since and "
                                    "until for today")]
Until = Annotated[str | None, Field(description="window end (exclusive), in the same forms; "
                                    "default now")]
Cursor = Annotated[str | None, Field(max_length=12, description="an answer over 20,000 tokens "
                                     "comes in pages: pass the next_cursor a page gave (same "
                                     "other arguments) for the next one; omit for the first")]


def _server_class(db: Path) -> type[MCPServer[Any]]:
    """The SDK's server for the store `db`, with arguments that fail a
    tool's schema reported as one readable line (`errors.argument_error`)
    instead of pydantic's dump, whose first words the SDK passes on as they
    are, and every other failure translated once (`errors.translated`):
    Phantom's errors by their kind, the rest clipped to one line."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import ValidationError

    class PhantomServer(MCPServer):
        async def call_tool(self, name: str, arguments: dict[str, Any],
                            context: Context[Any, Any] | None = None,
                            ) -> CallToolResult | InputRequiredResult:
            tool = self._tool_manager.get_tool(name)
            if tool is not None:
                refused = unknown_arguments(name, arguments, tool.parameters)
                if refused is not None:
                    raise refused
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as exc:
                if isinstance(exc.__cause__, ValidationError):
                    raise argument_error(name, exc.__cause__) from None
                raise translated(exc, db) from exc.__cause__

    return PhantomServer


def build_server(db_path: str | Path) -> MCPServer[Any]:
    """The server for one store. Logging is set up first: `MCPServer()`
    configures the root logger itself, and ours must win (stderr only)."""
    configure_logging()
    from mcp.types import ToolAnnotations

    db = Path(db_path)
    server = _server_class(db)("phantom", title="Phantom", version=VERSION, instructions=INSTRUCTIONS)
    read = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                           open_world_hint=False)

    def annotations(title: str, base: ToolAnnotations) -> ToolAnnotations:
        return base.model_copy(update={"title": title})

    @server.tool(name="phantom_context", title="Activity context block", structured_output=False,
                 annotations=annotations("Activity context block", read))
    def phantom_context(
        since: Since = None,
        until: Until = None,
        format: Annotated[Literal["compact", "json", "markdown"], Field(
            description="compact: a token-budgeted block for a prompt; json: the full canonical "
                        "document; markdown: for people")] = "compact",
        budget: Annotated[int, Field(ge=100, le=100_000, description="token budget of the compact "
                                     "block (cl100k_base, estimated)")] = 2000,
        cursor: Cursor = None,
    ) -> str:
        """What the user did in a window of time, compiled from the local capture: activity
        frames (app, site, document, active minutes, input counts, interruptions), coverage gaps
        and blind spots. Deterministic: the same window gives the same text as `phantom compile`."""
        return page_text(memory.context_text(db, since, until, format, budget), cursor, "phantom_context")

    @server.tool(name="phantom_frames", title="Measured activity frames",
                 annotations=annotations("Measured activity frames", read))
    def phantom_frames(since: Since = None, until: Until = None, cursor: Cursor = None) -> dict[str, Any]:
        """The measured activity frames of a window as data, with coverage (active minutes,
        gaps), blind spots (what the capture could not or would not see) and provenance (a digest
        of the input rows). No inferred interpretation."""
        return page_list(memory.measured_frames(db, since, until), "frames", cursor)

    @server.tool(name="phantom_routines", title="Recurring routines",
                 annotations=annotations("Recurring routines", read))
    def phantom_routines(
        since: Annotated[str | None, Field(description=f"window start: {FORMS}. Omit both since "
                                           "and until for the whole history")] = None,
        until: Annotated[str | None, Field(description="window end (exclusive), in the same "
                                           "forms; default now")] = None,
        limit: Annotated[int, Field(ge=0, le=1000, description="at most this many routines "
                                    "(0: all)")] = 20,
        cursor: Cursor = None,
    ) -> dict[str, Any]:
        """Action sequences the user repeats (3-60 steps, 3+ times), each with its measures
        (support, days seen, UI and task entropy, overhead ratios, timing variation) and the
        crystallization verdicts: the structural gates, then a Gittins index against the
        break-even threshold."""
        return page_list(memory.routine_candidates(db, since, until, limit), "routines", cursor)

    @server.tool(name="phantom_search", title="Search what was on screen",
                 annotations=annotations("Search what was on screen", read))
    def phantom_search(
        text: Annotated[str, Field(min_length=1, max_length=500, description="words to find in "
                                   "window titles, URLs and the labels of what was on screen or "
                                   "clicked; each word matches the start of a word, all must match")],
        since: Annotated[str | None, Field(description=f"window start: {FORMS}. Omit both since "
                                           "and until for the whole history")] = None,
        until: Annotated[str | None, Field(description="window end (exclusive), in the same "
                                           "forms; default now")] = None,
        limit: Annotated[int, Field(ge=1, le=200, description="at most this many stretches")] = 20,
        cursor: Cursor = None,
    ) -> dict[str, Any]:
        """When something was on screen: stretches of time (one monitor, one app, hits at most
        five minutes apart), newest first, each with its local start and end, what matched (title,
        url, label or clicked) and the rows it rests on. Reads only what the store already holds."""
        return page_list(memory.search_text(db, text, since, until, limit), "stretches", cursor)

    @server.tool(name="phantom_programs", title="Stored programs",
                 annotations=annotations("Stored programs", read))
    def phantom_programs(cursor: Cursor = None) -> dict[str, Any]:
        """The active programs in the store (the only ones you may run): id, name, description,
        app, what each step does, and the parameters to pass to phantom_replay (name, the field
        it fills, and the shape of the values recorded: kinds of characters and length range)."""
        return page_list(programs.list_stored(db), "programs", cursor)

    @server.tool(name="phantom_find_program", title="Find a program for a task",
                 annotations=annotations("Find a program for a task", read))
    def phantom_find_program(
        intent: Annotated[str, Field(min_length=1, max_length=300, description="the task in words, "
                                     "e.g. 'sign Grace up on the membership form'")],
    ) -> dict[str, Any]:
        """Find the active program that does this task and can run on the screen as it is now:
        programs are ranked by how well their name, description and step labels fit the words,
        then must pass every gate (its window is open, its whole plan fits the screen) with a
        compatibility score of at least 0.75 and no close second. Returns the program, each
        parameter's name, field and shape (never recorded values), the score and the other
        candidates; an error listing the candidates and the gate each failed when none fits.
        Sends no input."""
        return programs.find(db, intent)

    @server.tool(name="phantom_record", title="Start recording a demonstration",
                 annotations=ToolAnnotations(title="Start recording a demonstration",
                                             read_only_hint=False, destructive_hint=False,
                                             idempotent_hint=False, open_world_hint=False))
    def phantom_record(
        name: Annotated[str, Field(min_length=1, max_length=200, description="the task's name; "
                                   "every recording with this name is one demonstration of it")],
    ) -> dict[str, Any]:
        """Ask the running capture daemon to start an explicit demonstration. Until
        phantom_stop_record, typed text is kept (never in password fields) so that varying values
        can become parameters."""
        return recording.start(name)

    @server.tool(name="phantom_stop_record", title="Stop recording",
                 annotations=ToolAnnotations(title="Stop recording", read_only_hint=False,
                                             destructive_hint=False, idempotent_hint=False,
                                             open_world_hint=False))
    def phantom_stop_record() -> dict[str, Any]:
        """End the demonstration in progress; returns its id and name."""
        return recording.stop()

    @server.tool(name="phantom_compile_program", title="Compile recordings into a program",
                 annotations=ToolAnnotations(title="Compile recordings into a program",
                                             read_only_hint=False, destructive_hint=False,
                                             idempotent_hint=True, open_world_hint=False))
    def phantom_compile_program(
        name: Annotated[str, Field(min_length=1, max_length=200, description="the recording name "
                                   "(at least two finished recordings); also the program's name")],
        routine: Annotated[str | None, Field(max_length=40, description="instead of recordings: a "
                                             "mined routine's id (r-..., see phantom_routines), "
                                             "compiled from its occurrences and named `name`")] = None,
        since: Annotated[str | None, Field(description=f"with routine: where to find its "
                                           f"occurrences, from ({FORMS}); default the whole "
                                           "history")] = None,
        until: Annotated[str | None, Field(description="with routine: until (exclusive); default "
                                           "now")] = None,
    ) -> dict[str, Any]:
        """Align the finished recordings with this name (or the occurrences of a mined routine),
        keep the steps they share, turn typed fields that vary into parameters P0, P1, ... and
        store the program. Returns its id, steps, parameters, every typed field's distance
        (parameter when > delta) and warnings. A routine's typed text was never captured, so
        each of its typed fields becomes a parameter."""
        return programs.compile_recordings(db, name, routine=routine, since=since, until=until)

    @server.tool(name="phantom_replay", title="Replay a program on the desktop",
                 annotations=ToolAnnotations(title="Replay a program on the desktop",
                                             read_only_hint=False, destructive_hint=True,
                                             idempotent_hint=False, open_world_hint=True))
    def phantom_replay(
        parameters: Annotated[dict[str, str], Field(
            default_factory=dict, description="a value for every parameter the program declares, "
            "e.g. {\"P0\": \"Ada Lovelace\"}")],
        program: Annotated[str | None, Field(description="an active program's name (the newest "
                                             "active one with that name) or id (p-...), see "
                                             "phantom_programs; or give intent instead")] = None,
        dry_run: Annotated[bool, Field(description="check the guard and resolve every step on the "
                                       "current screen, sending no input")] = False,
        intent: Annotated[str | None, Field(max_length=300, description="instead of program: the "
                                            "task in words; the program phantom_find_program "
                                            "would find runs, or nothing does")] = None,
    ) -> dict[str, Any]:
        """Replay an active program on the live desktop, step by step, only where the screen
        still matches. The result has status success, escalated or refused (with the step,
        policy, reason and on-screen candidates in `escalation`: take over from that step) or
        failed. Sends real input to the user's applications."""
        return programs.replay(db, program, parameters, dry_run, intent)

    @server.resource("phantom://context/today", name="today", title="Today's activity",
                     description="Today's compact activity block (as `phantom compile --day "
                     "TODAY` prints it)", mime_type="text/plain")
    def today() -> str:
        return memory.today_text(db)

    @server.resource("phantom://guide", name="guide", title="How to use Phantom's tools",
                     description="Which tool to call first, how time windows are written, how "
                     "pages and errors work", mime_type="text/markdown")
    def guide() -> str:
        return GUIDE

    if db.exists():
        log.info("serving store %s", db)
    else:  # the capture daemon creates it; until then each tool says so
        log.warning("serving store %s, which does not exist yet", db)
    return server
