"""The planted routines: the ground truth routine-mining tests rely on.

Each routine is declared once (script.py gives the form): its steps — as
`compiler.routines.actions` derives them — are both what the synthetic user performs
and what `planted_routines(seed, days)` reports, and it is planted a known
number of times per day by a pure function of the day index, so the exact
totals are known without generating anything. How the occurrences are
made sure to count exactly:

- every target a routine names (its buttons, fields, cells, channels, the
  expenses site) is left out of the noise catalogs, and every 3-step window
  of a routine contains such a reserved step, so background activity can
  neither reproduce a routine nor add occurrences of any part of it that
  names two specific targets;
- each occurrence lies inside one session: steps 1–25 s apart (1–60 s for
  the variable-timing routine), every switch inside a routine is a focus
  change without input (the pointer entering the window), so no alt+Tab or
  stray click joins the sequence;
- the action right before an occurrence is either nothing for > 90 s (a
  session start) or a click on content drawn from a large pool (a mail
  subject, a link, a tab title), alternating by occurrence number, and the
  same holds after it (staging.py); so no longer n-gram has the routine's
  support and the routine itself is the maximal n-gram a miner reports.

Two negative controls must not be reported: one planted only twice, one
repeated daily whose steps name a single specific target (ctrl+a, ctrl+c,
a click), isolated by > 90 s gaps so no neighbour can extend it.
"""

from __future__ import annotations

import random
from functools import partial
from operator import attrgetter

from . import noise
from .guard import note_site, unique_click
from .pacing import Press, Wait, gap, read
from .script import Arrive, Click, Focus, Go, Key, PlantedRoutine, Routine, Switch, Type, ground_truth
from .staging import Context, FromElsewhere, PageLeftOpen, focus_firefox, go_elsewhere, in_firefox, step_gap
from .views import Tab, View, calc_pdf_dialog, calc_view, gedit_view, slack_view, thunderbird_compose, thunderbird_main
from .workspace import (
    CALENDAR,
    EXPENSES_FORM,
    EXPENSES_LIST,
    EXPENSES_SITE,
    JIRA,
    JIRA_BOARD,
    JIRA_REPORTS,
    JIRA_SPRINT,
    MEET,
    Workspace,
    browser_view,
    meet_code,
)
from .world import Page, issue_title, subject

STANDUP_TITLE = "Daily standup - Google Calendar"
TAB = Press("Tab")


# -- representative views: where each element a routine names sits --------------------------------------
def _web(page: Page, site: str) -> View:
    return browser_view((Tab(site, page),), 0, random.Random(0))


def _mail() -> View:
    return thunderbird_main("Inbox", 0, random.Random(0))


def _chat(channel: str) -> View:
    return slack_view(channel, random.Random(0))


def _sheet_tab(document: str, sheet: str) -> Click:
    """Click a sheet's tab in Calc (the sheet opens at its top)."""
    return Click(partial(calc_view, document, sheet), "page tab", sheet,
                 by=partial(Workspace.sheet_select, name=sheet))


def _channel(channel: str) -> Click:
    """Click a channel in Slack's sidebar (the channel opens)."""
    return Click(partial(_chat, channel), "list item", channel, by=partial(Workspace.chat_open, channel=channel))


# -- compose_and_send -----------------------------------------------------------------------------------
def _subject_typed(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    window = ws.desk.focus
    assert window is not None, "the compose window has focus: its Subject was just typed"
    ws.desk.set_view(window, thunderbird_compose(subject(rng)))


COMPOSE = partial(thunderbird_compose, "")
COMPOSE_AND_SEND = Routine(
    "compose_and_send", "Thunderbird: Write, To, Subject, body, Send (6 steps, 2–4 a day)",
    per_day=lambda seed, i, days: 2 + i % 3, setup=FromElsewhere(frozenset({"thunderbird"})), steps=(
        Switch("thunderbird"),
        Click(_mail, "push button", "Write", sloppy=True, then=(Wait(400, 1500), Focus(Workspace.compose_window))),
        Type(COMPOSE, "entry", "To", (8, 34), then=(TAB,)),
        Type(COMPOSE, "entry", "Subject", (6, 45), then=(_subject_typed, TAB)),
        Type(COMPOSE, "document web", "Message body", (40, 700)),
        Click(COMPOSE, "push button", "Send", then=(Wait(500, 2000), Focus(attrgetter("mail")))),
    ))


# -- file_expense -------------------------------------------------------------------------------------
def _drifts(ctx: Context) -> bool:
    """Occurrences 1 and 3 of every 5 meet the redesigned form."""
    return ctx.index % 5 in (1, 3)


def _form_opens(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    ws.expense_drift = _drifts(ctx)
    ws.go(EXPENSES_FORM, EXPENSES_SITE)


def _claim_submitted(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    number = rng.randint(1000, 9999)
    claims = tuple(f"Claim 2026-{rng.randint(100, 999)} · {rng.randint(8, 480)}.{rng.randint(0, 99):02d} EUR"
                   for _ in range(rng.randint(6, 14)))
    ws.expense_drift = False
    ws.go(Page(f"https://expenses.northwind-intranet.com/claims/{number}",
               f"Claim {number} submitted - Northwind Expenses", claims, "Claim submitted"), EXPENSES_SITE)


CLAIMS, CLAIM_FORM = partial(_web, EXPENSES_LIST, EXPENSES_SITE), partial(_web, EXPENSES_FORM, EXPENSES_SITE)
FILE_EXPENSE = Routine(
    "file_expense", "Firefox expenses form via the Expenses bookmark (6 steps, Tue/Thu-like days); "
    "in occurrences 1 and 3 of every 5 the Submit button sits in a redesigned panel (path drift, "
    "same role and label): found, but with high UI entropy",
    per_day=lambda seed, i, days: 1 if i % 5 in (1, 3) else 0, setup=in_firefox, steps=(
        Click(CLAIMS, "push button", "Expenses", then=(Go(EXPENSES_LIST, EXPENSES_SITE),)),
        Arrive(EXPENSES_SITE),
        Click(CLAIMS, "link", "New claim", then=(_form_opens,)),
        Type(CLAIM_FORM, "entry", "Amount", (2, 7), then=(TAB,)),
        Type(CLAIM_FORM, "entry", "Description", (8, 60)),
        Click(CLAIM_FORM, "push button", "Submit claim", then=(_claim_submitted,)),
    ), variant=lambda ctx: "path_drift" if _drifts(ctx) else "")


# -- reopen_closed_tab --------------------------------------------------------------------------------
def _github_tab_waiting(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    """Open two GitHub pages from links into background tabs (middle
    clicks), browse elsewhere, then click the second one's tab: that click
    (its title varies) precedes the routine, the switch it makes begins it."""
    desk = ws.desk
    focus_firefox(ws, rng)
    for _ in range(2):
        desk.wait(rng.randint(1500, 9000))
        if not unique_click(ws, rng, button=2):
            desk.click(resolution="none", button=2)
        ws.background_tab(ws.new_page("github.com"), "github.com")
    target = len(ws.tabs) - 1
    gap(desk, rng)
    if ws.site == "github.com":
        go_elsewhere(ws, rng, avoid=("github.com",))
    for _ in range(rng.randint(0, 2)):
        step_gap(desk, rng)
        unique_click(ws, rng)
    if ctx.lead_in == "gap":
        read(desk, rng, rng.randint(30000, 80000))
    else:
        step_gap(desk, rng)
    ws.select_tab(target)


def _reloaded(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    ws.desk.refresh(ws.firefox)


REOPEN_CLOSED_TAB = Routine(
    "reopen_closed_tab", "Firefox: switch to a GitHub tab, ctrl+w, ctrl+shift+t, Reload (4 steps, 2 a day)",
    per_day=lambda seed, i, days: 2, setup=_github_tab_waiting, steps=(
        Arrive("github.com"),
        Key("firefox", "ctrl+w", by=Workspace.close_tab),
        Key("firefox", "ctrl+shift+t", by=Workspace.reopen_tab),
        Click(partial(_web, Page("https://github.com/x/y", "x/y", ()), "github.com"), "push button", "Reload",
              then=(Wait(300, 1500), _reloaded)),
    ), fixed_lead_in="tab")


# -- save_and_run ---------------------------------------------------------------------------------------
def _modified(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    ws.editor_show(modified=True)


def _saved(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    ws.editor_show(modified=False)


def _maybe_recall(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    """Mostly the command comes back from history first (Up is navigation, not a step)."""
    if rng.random() < 0.7:
        ws.desk.key("Up", rng.randint(1, 3))
        ws.desk.wait(rng.randint(300, 1500))


def _ran(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    document = ws.docs[ws.doc]
    ws.term_title(f"python {document}" if document.endswith(".py") else "make test")


EDITOR = partial(gedit_view, ("report.py",), 0, "~/src", False)
SAVE_AND_RUN = Routine(
    "save_and_run", "gedit edit + Save button, then Return in the terminal (5 steps, 2 a day); "
    "highly variable timing: gaps 1–60 s",
    per_day=lambda seed, i, days: 2, setup=FromElsewhere(frozenset({"gedit"})), steps=(
        Switch("gedit"),
        Type(EDITOR, "text", "", (10, 300), then=(_modified,)),
        Click(EDITOR, "push button", "Save", then=(_saved,)),
        Switch("gnome-terminal-server"),
        Key("gnome-terminal-server", "Return", before=(_maybe_recall,), then=(_ran,)),
    ), fixed_lead_out="gap", variable_gaps=True)


# -- copy_calc_value_to_slack -----------------------------------------------------------------------------
COPY_CALC_VALUE_TO_SLACK = Routine(
    "copy_calc_value_to_slack", "Calc Summary!D14 copied and pasted into Slack #finance (8 steps, daily)",
    per_day=lambda seed, i, days: 1, setup=FromElsewhere(frozenset({"libreoffice-calc", "slack"})), steps=(
        Switch("libreoffice-calc"),
        _sheet_tab("budget.ods", "Summary"),
        Click(partial(calc_view, "budget.ods", "Summary"), "table cell", "D14"),
        Key("libreoffice-calc", "ctrl+c"),
        Switch("slack"),
        _channel("finance"),
        Key("slack", "ctrl+v"),
        Key("slack", "Return"),
    ))


# -- weekly_report ----------------------------------------------------------------------------------------
def jira_board(rng: random.Random) -> Page:
    cards = tuple(f"NW-{rng.randint(100, 2999)} {issue_title(rng)}" for _ in range(rng.randint(12, 30)))
    return Page(JIRA_BOARD.url, JIRA_BOARD.title, cards, JIRA_BOARD.heading, distinct=False)


WEEKLY_REPORT = Routine(
    "weekly_report", "Jira sprint report → Calc Weekly!A1 → Slack #team-updates (12 steps, weekly)",
    per_day=lambda seed, i, days: 1 if i % 5 == seed % 5 else 0, setup=PageLeftOpen(JIRA, jira_board, "Board", 3),
    steps=(
        Switch("firefox", JIRA),
        Click(partial(_web, JIRA_BOARD, JIRA), "link", "Reports", then=(Go(JIRA_REPORTS, JIRA),)),
        Click(partial(_web, JIRA_REPORTS, JIRA), "push button", "Sprint report", then=(Go(JIRA_SPRINT, JIRA),)),
        Key("firefox", "ctrl+c"),
        Switch("libreoffice-calc"),
        _sheet_tab("weekly-report.ods", "Weekly"),
        Click(partial(calc_view, "weekly-report.ods", "Weekly"), "table cell", "A1"),
        Key("libreoffice-calc", "ctrl+v"),
        Switch("slack"),
        _channel("team-updates"),
        Type(partial(_chat, "team-updates"), "entry", "Message #team-updates", (40, 240)),
        Key("slack", "Return"),
    ), hours=(15.0, 17.0))


# -- join_standup ------------------------------------------------------------------------------------------
def standup_page(rng: random.Random) -> Page:
    return Page(f"https://calendar.google.com/calendar/u/0/r/eventedit/{rng.randint(10**15, 10**16 - 1)}",
                STANDUP_TITLE, (), "Daily standup")


def _meeting_opens(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    code = meet_code(rng)
    ws.go(Page(f"https://meet.google.com/{code}", f"Meet - {code}", (), ""), MEET, load_ms=rng.randint(1500, 4000))


def _meeting(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    """Mostly silent (the session idles), a few clicks on the controls; the
    call ends by closing its tab."""
    desk = ws.desk
    end = desk.t + rng.randint(9 * 60_000, 18 * 60_000)
    while desk.t < end - 240_000:
        desk.wait(rng.randint(95_000, 300_000))
        if rng.random() < 0.5:
            desk.click("push button", rng.choice(("Turn off microphone", "Turn off camera", "Chat with everyone")))
    desk.advance(end)
    before = ws.site
    ws.close_tab()
    note_site(ws, before)
    gap(desk, rng)


STANDUP_EVENT = Page("https://calendar.google.com/calendar/u/0/r/eventedit/1", STANDUP_TITLE, (), "Daily standup")
JOIN_STANDUP = Routine(
    "join_standup", "Calendar event → Join with Google Meet → meet (3 steps, daily at 09:30)",
    per_day=lambda seed, i, days: 1, setup=PageLeftOpen(CALENDAR, standup_page, None, 2), steps=(
        Switch("firefox", CALENDAR),
        Click(partial(_web, STANDUP_EVENT, CALENDAR), "push button", "Join with Google Meet",
              then=(_meeting_opens,)),
        Arrive(MEET),
    ), finish=_meeting, hours=(9.45, 9.5), fixed_lead_out="meeting")


# -- export_sheet_as_pdf (negative control) ------------------------------------------------------------------
def _export_per_day(seed: int, index: int, days: int) -> int:
    """Twice in the corpus: both on the first day of a one-day corpus."""
    return sum(1 for d in ((0, 0) if days == 1 else (0, days // 2)) if d == index)


SHEET = partial(calc_view, "budget.ods", "Sheet1")
EXPORT_SHEET_AS_PDF = Routine(
    "export_sheet_as_pdf", "negative control: Calc File → Export as PDF… → Export, planted only twice",
    per_day=_export_per_day, setup=FromElsewhere(frozenset({"libreoffice-calc"})), steps=(
        Switch("libreoffice-calc"),
        Click(SHEET, "menu", "File"),
        Click(SHEET, "menu item", "Export as PDF…", then=(Wait(500, 1500), Focus(Workspace.pdf_dialog))),
        Click(calc_pdf_dialog, "push button", "Export", then=(Wait(300, 1200), Focus(attrgetter("sheet")))),
    ), control=True)


# -- select_copy_close (negative control) ---------------------------------------------------------------------
def _in_editor_after_reading(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    if ws.desk.focus is not ws.editor:
        noise.visit(ws, rng, window=ws.editor, actions=rng.randint(0, 2))
    read(ws.desk, rng, rng.randint(96000, 118000))


def _document_closed(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    ws.docs.pop(0)
    if not ws.docs:
        ws.docs.append("Untitled Document 1")
    ws.doc = 0
    ws.editor_show(modified=False)


def _read_on(ws: Workspace, rng: random.Random, ctx: Context) -> None:
    read(ws.desk, rng, rng.randint(96000, 118000))
    ws.last_c = None


SELECT_COPY_CLOSE = Routine(
    "select_copy_close", "negative control: ctrl+a, ctrl+c, Close document in gedit, daily; "
    "a single specific target, isolated by > 90 s gaps",
    per_day=lambda seed, i, days: 1, setup=_in_editor_after_reading, steps=(
        Key("gedit", "ctrl+a"),
        Key("gedit", "ctrl+c"),
        Click(partial(gedit_view, ("notes.txt", "todo.md"), 0, "~/notes", False), "push button", "Close document",
              then=(_document_closed,)),
    ), finish=_read_on, fixed_lead_in="gap", fixed_lead_out="gap", control=True)


ROUTINES: tuple[Routine, ...] = (COMPOSE_AND_SEND, FILE_EXPENSE, REOPEN_CLOSED_TAB, SAVE_AND_RUN,
                                 COPY_CALC_VALUE_TO_SLACK, WEEKLY_REPORT, JOIN_STANDUP, EXPORT_SHEET_AS_PDF,
                                 SELECT_COPY_CLOSE)
ROUTINE_BY_NAME = {r.name: r for r in ROUTINES}


def planted(seed: int, days: int) -> tuple[PlantedRoutine, ...]:
    return tuple(ground_truth(routine, seed, days) for routine in ROUTINES)
