"""The planted routines: the ground truth routine-mining tests rely on.

Each routine is a fixed sequence of steps (as `compiler.actions` derives
them), planted a known number of times per day by a pure function of the
day index, so `planted_routines(seed, days)` knows the exact totals without
generating anything. How the occurrences are made sure to count exactly:

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
  same holds after it; so no longer n-gram has the routine's support and the
  routine itself is the maximal n-gram a miner reports.

Two negative controls must not be reported: one planted only twice, one
repeated daily whose steps name a single specific target (ctrl+a, ctrl+c,
a click), isolated by > 90 s gaps so no neighbour can extend it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from compiler.records import Step

from . import noise
from .browsing import tab_click
from .guard import note_site, unique_click
from .pacing import break_session, gap, read
from .desk import Desk
from .trees import expand
from .views import (Tab, View, calc_pdf_dialog, calc_view, gedit_view, slack_view, thunderbird_compose,
                    thunderbird_main)
from .workspace import (CALENDAR, EXPENSES_FORM, EXPENSES_LIST, EXPENSES_SITE, JIRA, JIRA_BOARD, JIRA_REPORTS,
                        JIRA_SPRINT, MEET, Workspace, browser_view, meet_code)
from .sites import SITE_BY_KEY, SITE_KEYS
from .world import MONITORS, Page, issue_title, subject

STANDUP_TITLE = "Daily standup - Google Calendar"


@dataclass(frozen=True, slots=True)
class PlantedRoutine:
    """One planted routine and how often the corpus contains it."""

    name: str
    steps: tuple[Step, ...]
    occurrences: int
    expect_found: bool
    note: str


@dataclass(frozen=True, slots=True)
class Context:
    """What the day planner tells a routine run."""

    index: int               # occurrence number over the whole corpus (0-based)
    lead_in: str             # "gap" | "content"
    lead_out: str            # "gap" | "content"


@dataclass(frozen=True, slots=True)
class RoutineDef:
    name: str
    note: str
    per_day: Callable[[int, int, int], int]      # (seed, day index, days) -> occurrences that day
    run: Callable[[Workspace, random.Random, Context], str]   # returns the variant label
    steps: Callable[[], tuple[Step, ...]]
    hours: tuple[float, float] = (9.0, 17.5)     # local time window for scheduling
    fixed_lead_in: str | None = None
    fixed_lead_out: str | None = None
    control: bool = False                         # a negative control


# -- expected steps ----------------------------------------------------------------------------------
def _path(view: View, role: str, label: str) -> str:
    assert view.root is not None
    tree = expand(view.root, view.app.app, MONITORS[0].window_rect())
    return tree.nodes[tree.require(role, label)].path


def _el(kind: str, view: View, role: str, label: str) -> Step:
    return Step(kind, view.app.app, _path(view, role, label), role, label, True)


def _key(app: str, key: str) -> Step:
    return Step("key", app, key)


def _switch(app: str, site: str = "") -> Step:
    return Step("switch", app, f"{app}/{site}" if site else app, specific=bool(site))


def _web(page: Page, site: str, drift: bool = False) -> View:
    return browser_view((Tab(site, page),), 0, random.Random(0), drift)


def _mail_view() -> View:
    return thunderbird_main("Inbox", 0, random.Random(0))


# -- helpers for runs -----------------------------------------------------------------------------------
def step_gap(desk: Desk, rng: random.Random, variable: bool = False) -> None:
    if variable:
        desk.wait(int(1000 * rng.choice((rng.uniform(1, 6), rng.uniform(5, 25), rng.uniform(20, 60)))))
    elif rng.random() < 0.85:
        desk.wait(rng.randint(1200, 8000))
    else:
        desk.wait(rng.randint(8000, 25000))


def lead(ws: Workspace, rng: random.Random, kind: str) -> None:
    """Make the action before the next one either absent for > 90 s or a
    click on content."""
    desk = ws.desk
    if kind == "gap" or not unique_click(ws, rng):
        read(desk, rng, rng.randint(96000, 118000))
    else:
        step_gap(desk, rng)


def trail(ws: Workspace, rng: random.Random, kind: str) -> None:
    desk = ws.desk
    step_gap(desk, rng)
    if kind == "gap" or not unique_click(ws, rng):
        read(desk, rng, rng.randint(96000, 118000))
    ws.last_c = None


def elsewhere(ws: Workspace, rng: random.Random, avoid: set[str]) -> None:
    """Be in an application outside `avoid` that shows clickable content."""
    focus = ws.desk.focus
    bad = {"gnome-terminal-server", *avoid}
    if focus is None or focus.app.app in bad or focus not in ws.apps or not focus.view.content:
        noise.visit(ws, rng, avoid=frozenset(bad), actions=rng.randint(1, 3))
    for _ in range(3):
        focus = ws.desk.focus
        if focus is not None and focus.view.content and not (focus.app.app == "firefox" and not ws.site):
            return
        noise.visit(ws, rng, avoid=frozenset(bad | {"firefox"}), actions=rng.randint(1, 2))


def focus_firefox(ws: Workspace, rng: random.Random) -> None:
    """Be in Firefox on an ordinary site."""
    if ws.desk.focus is not ws.firefox:
        noise.visit(ws, rng, window=ws.firefox, actions=rng.randint(0, 2))
    if ws.site not in SITE_BY_KEY:
        go_elsewhere(ws, rng, avoid=())


def go_elsewhere(ws: Workspace, rng: random.Random, avoid: tuple[str, ...]) -> None:
    """Follow a link from this page to a page of another ordinary site."""
    before = ws.site
    if not unique_click(ws, rng):
        break_session(ws.desk, rng)
    site = rng.choice([k for k in SITE_KEYS if k not in avoid and k != before])
    ws.go(ws.new_page(site), site)
    note_site(ws, before)
    gap(ws.desk, rng)


# -- the routines -------------------------------------------------------------------------------------------
def run_compose(ws: Workspace, rng: random.Random, ctx: Context) -> str:
    desk = ws.desk
    elsewhere(ws, rng, {"thunderbird"})
    lead(ws, rng, ctx.lead_in)
    start = desk.t
    desk.focus_window(ws.mail)
    step_gap(desk, rng)
    desk.click("push button", "Write", resolution="exact" if rng.random() < 0.9 else "tolerance")
    desk.wait(rng.randint(400, 1500))
    compose = ws.compose_window()
    desk.focus_window(compose)
    step_gap(desk, rng)
    desk.type("entry", "To", rng.randint(8, 34))
    desk.key("Tab")
    step_gap(desk, rng)
    desk.type("entry", "Subject", rng.randint(6, 45))
    desk.set_view(compose, thunderbird_compose(subject(rng)))
    desk.key("Tab")
    step_gap(desk, rng)
    desk.type("document web", "Message body", rng.randint(40, 700))
    step_gap(desk, rng)
    desk.click("push button", "Send")
    desk.wait(rng.randint(500, 2000))
    desk.focus_window(ws.mail)
    desk.mark("compose_and_send", start)
    trail(ws, rng, ctx.lead_out)
    return ""


def steps_compose() -> tuple[Step, ...]:
    main, compose = _mail_view(), thunderbird_compose("")
    return (_switch("thunderbird"), _el("click", main, "push button", "Write"), _el("type", compose, "entry", "To"),
            _el("type", compose, "entry", "Subject"), _el("type", compose, "document web", "Message body"),
            _el("click", compose, "push button", "Send"))


def run_expense(ws: Workspace, rng: random.Random, ctx: Context) -> str:
    desk = ws.desk
    focus_firefox(ws, rng)
    lead(ws, rng, ctx.lead_in)
    drift = ctx.index % 5 in (1, 3)
    start = desk.t
    desk.click("push button", "Expenses")
    ws.go(EXPENSES_LIST, EXPENSES_SITE)
    step_gap(desk, rng)
    desk.click("link", "New claim")
    ws.expense_drift = drift
    ws.go(EXPENSES_FORM, EXPENSES_SITE)
    step_gap(desk, rng)
    desk.type("entry", "Amount", rng.randint(2, 7))
    desk.key("Tab")
    step_gap(desk, rng)
    desk.type("entry", "Description", rng.randint(8, 60))
    step_gap(desk, rng)
    desk.click("push button", "Submit claim")
    number = rng.randint(1000, 9999)
    claims = tuple(f"Claim 2026-{rng.randint(100, 999)} · {rng.randint(8, 480)}.{rng.randint(0, 99):02d} EUR"
                   for _ in range(rng.randint(6, 14)))
    ws.expense_drift = False
    ws.go(Page(f"https://expenses.northwind-intranet.com/claims/{number}",
               f"Claim {number} submitted - Northwind Expenses", claims, "Claim submitted"), EXPENSES_SITE)
    desk.mark("file_expense", start, "path_drift" if drift else "")
    trail(ws, rng, ctx.lead_out)
    return "path_drift" if drift else ""


def steps_expense() -> tuple[Step, ...]:
    listing, form = _web(EXPENSES_LIST, EXPENSES_SITE), _web(EXPENSES_FORM, EXPENSES_SITE)
    return (_el("click", listing, "push button", "Expenses"), _switch("firefox", EXPENSES_SITE),
            _el("click", listing, "link", "New claim"), _el("type", form, "entry", "Amount"),
            _el("type", form, "entry", "Description"), _el("click", form, "push button", "Submit claim"))


def run_reopen(ws: Workspace, rng: random.Random, ctx: Context) -> str:
    desk = ws.desk
    focus_firefox(ws, rng)
    # Two GitHub pages opened from links into background tabs (middle clicks).
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
    # The tab click (its title varies) is what precedes the routine.
    ws.select_tab(target)
    start = desk.snapshots[-1].ts_ms
    step_gap(desk, rng)
    ws.close_tab()
    step_gap(desk, rng)
    ws.reopen_tab()
    step_gap(desk, rng)
    desk.click("push button", "Reload")
    desk.wait(rng.randint(300, 1500))
    desk.refresh(ws.firefox)
    desk.mark("reopen_closed_tab", start)
    trail(ws, rng, ctx.lead_out)
    return ""


def steps_reopen() -> tuple[Step, ...]:
    view = _web(Page("https://github.com/x/y", "x/y", ()), "github.com")
    return (_switch("firefox", "github.com"), _key("firefox", "ctrl+w"), _key("firefox", "ctrl+shift+t"),
            _el("click", view, "push button", "Reload"))


def run_save_run(ws: Workspace, rng: random.Random, ctx: Context) -> str:
    desk = ws.desk
    elsewhere(ws, rng, {"gedit"})
    lead(ws, rng, ctx.lead_in)
    start = desk.t
    desk.focus_window(ws.editor)
    step_gap(desk, rng, variable=True)
    desk.type("text", "", rng.randint(10, 300))
    ws.editor_show(modified=True)
    step_gap(desk, rng, variable=True)
    desk.click("push button", "Save")
    ws.editor_show(modified=False)
    step_gap(desk, rng, variable=True)
    desk.focus_window(ws.term)
    step_gap(desk, rng, variable=True)
    if rng.random() < 0.7:
        desk.key("Up", rng.randint(1, 3))
        desk.wait(rng.randint(300, 1500))
    desk.key("Return")
    ws.term_title(f"python {ws.docs[ws.doc]}" if ws.docs[ws.doc].endswith(".py") else "make test")
    desk.mark("save_and_run", start)
    trail(ws, rng, "gap")
    return ""


def steps_save_run() -> tuple[Step, ...]:
    view = gedit_view(("report.py",), 0, "~/src", False)
    return (_switch("gedit"), _el("type", view, "text", ""), _el("click", view, "push button", "Save"),
            _switch("gnome-terminal-server"), _key("gnome-terminal-server", "Return"))


def run_calc_slack(ws: Workspace, rng: random.Random, ctx: Context) -> str:
    desk = ws.desk
    elsewhere(ws, rng, {"libreoffice-calc", "slack"})
    lead(ws, rng, ctx.lead_in)
    start = desk.t
    desk.focus_window(ws.sheet)
    step_gap(desk, rng)
    ws.sheet_select("Summary")
    step_gap(desk, rng)
    desk.click("table cell", "D14")
    step_gap(desk, rng)
    desk.key("ctrl+c")
    step_gap(desk, rng)
    desk.focus_window(ws.chat)
    step_gap(desk, rng)
    ws.chat_open("finance")
    step_gap(desk, rng)
    desk.key("ctrl+v")
    step_gap(desk, rng)
    desk.key("Return")
    desk.mark("copy_calc_value_to_slack", start)
    trail(ws, rng, ctx.lead_out)
    return ""


def steps_calc_slack() -> tuple[Step, ...]:
    sheet, chat = calc_view("budget.ods", "Summary"), slack_view("general", random.Random(0))
    return (_switch("libreoffice-calc"), _el("click", sheet, "page tab", "Summary"),
            _el("click", sheet, "table cell", "D14"), _key("libreoffice-calc", "ctrl+c"), _switch("slack"),
            _el("click", chat, "list item", "finance"), _key("slack", "ctrl+v"), _key("slack", "Return"))


def _prepare_firefox(ws: Workspace, rng: random.Random, site: str, page: Page, via_link: str | None) -> None:
    """Leave Firefox showing `page` (a stable-titled page) before the routine."""
    desk = ws.desk
    focus_firefox(ws, rng)
    if ws.site != site and not tab_click(ws, rng, site=site):
        before = ws.site
        if not unique_click(ws, rng):
            break_session(desk, rng)
        ws.go(ws.new_page(site), site)
        note_site(ws, before)
    gap(desk, rng)
    if not unique_click(ws, rng):
        break_session(desk, rng)
    step_gap(desk, rng)
    if via_link:
        desk.click("link", via_link)
        ws.go(page, site)
        step_gap(desk, rng)
        if not unique_click(ws, rng):
            break_session(desk, rng)
    else:
        ws.go(page, site)
    ws.last_c = None
    for _ in range(rng.randint(0, 2)):
        desk.wait(rng.randint(2000, 15000))
        desk.scroll(rng.randint(1, 6))


def jira_board(rng: random.Random) -> Page:
    cards = tuple(f"NW-{rng.randint(100, 2999)} {issue_title(rng)}" for _ in range(rng.randint(12, 30)))
    return Page(JIRA_BOARD.url, JIRA_BOARD.title, cards, JIRA_BOARD.heading, distinct=False)


def run_weekly(ws: Workspace, rng: random.Random, ctx: Context) -> str:
    desk = ws.desk
    _prepare_firefox(ws, rng, JIRA, jira_board(rng), "Board")
    gap(desk, rng)
    noise.visit(ws, rng, avoid=frozenset({"firefox", "gnome-terminal-server"}), actions=rng.randint(1, 3))
    elsewhere(ws, rng, {"firefox"})
    lead(ws, rng, ctx.lead_in)
    start = desk.t
    desk.focus_window(ws.firefox)
    step_gap(desk, rng)
    desk.click("link", "Reports")
    ws.go(JIRA_REPORTS, JIRA)
    step_gap(desk, rng)
    desk.click("push button", "Sprint report")
    ws.go(JIRA_SPRINT, JIRA)
    step_gap(desk, rng)
    desk.key("ctrl+c")
    step_gap(desk, rng)
    desk.focus_window(ws.sheet)
    step_gap(desk, rng)
    ws.sheet_select("Weekly")
    step_gap(desk, rng)
    desk.click("table cell", "A1")
    step_gap(desk, rng)
    desk.key("ctrl+v")
    step_gap(desk, rng)
    desk.focus_window(ws.chat)
    step_gap(desk, rng)
    ws.chat_open("team-updates")
    step_gap(desk, rng)
    desk.type("entry", "Message #team-updates", rng.randint(40, 240))
    step_gap(desk, rng)
    desk.key("Return")
    desk.mark("weekly_report", start)
    trail(ws, rng, ctx.lead_out)
    return ""


def steps_weekly() -> tuple[Step, ...]:
    board, reports = _web(JIRA_BOARD, JIRA), _web(JIRA_REPORTS, JIRA)
    sheet, chat = calc_view("weekly-report.ods", "Weekly"), slack_view("team-updates", random.Random(0))
    return (_switch("firefox", JIRA), _el("click", board, "link", "Reports"),
            _el("click", reports, "push button", "Sprint report"), _key("firefox", "ctrl+c"),
            _switch("libreoffice-calc"), _el("click", sheet, "page tab", "Weekly"),
            _el("click", sheet, "table cell", "A1"), _key("libreoffice-calc", "ctrl+v"), _switch("slack"),
            _el("click", chat, "list item", "team-updates"), _el("type", chat, "entry", "Message #team-updates"),
            _key("slack", "Return"))


def standup_page(rng: random.Random) -> Page:
    return Page(f"https://calendar.google.com/calendar/u/0/r/eventedit/{rng.randint(10**15, 10**16 - 1)}",
                STANDUP_TITLE, (), "Daily standup")


def run_standup(ws: Workspace, rng: random.Random, ctx: Context) -> str:
    desk = ws.desk
    _prepare_firefox(ws, rng, CALENDAR, standup_page(rng), None)
    gap(desk, rng)
    noise.visit(ws, rng, avoid=frozenset({"firefox", "gnome-terminal-server"}), actions=rng.randint(1, 2))
    elsewhere(ws, rng, {"firefox"})
    lead(ws, rng, ctx.lead_in)
    start = desk.t
    desk.focus_window(ws.firefox)
    step_gap(desk, rng)
    desk.click("push button", "Join with Google Meet")
    code = meet_code(rng)
    ws.go(Page(f"https://meet.google.com/{code}", f"Meet - {code}", (), ""), MEET, load_ms=rng.randint(1500, 4000))
    desk.mark("join_standup", start)
    # The meeting: mostly silent (the session idles), a few clicks on the controls.
    end = desk.t + rng.randint(9 * 60_000, 18 * 60_000)
    while desk.t < end - 240_000:
        desk.wait(rng.randint(95_000, 300_000))
        if rng.random() < 0.5:
            desk.click("push button", rng.choice(("Turn off microphone", "Turn off camera", "Chat with everyone")))
    desk.advance(end)
    before = ws.site
    ws.close_tab()          # leaving the call by closing its tab
    note_site(ws, before)
    gap(desk, rng)
    return ""


def steps_standup() -> tuple[Step, ...]:
    event = _web(Page("https://calendar.google.com/calendar/u/0/r/eventedit/1", STANDUP_TITLE, (), "Daily standup"),
                 CALENDAR)
    return (_switch("firefox", CALENDAR), _el("click", event, "push button", "Join with Google Meet"),
            _switch("firefox", MEET))


def run_export_pdf(ws: Workspace, rng: random.Random, ctx: Context) -> str:
    desk = ws.desk
    elsewhere(ws, rng, {"libreoffice-calc"})
    lead(ws, rng, ctx.lead_in)
    start = desk.t
    desk.focus_window(ws.sheet)
    step_gap(desk, rng)
    desk.click("menu", "File")
    step_gap(desk, rng)
    desk.click("menu item", "Export as PDF…")
    desk.wait(rng.randint(500, 1500))
    dialog = ws.pdf_dialog()
    desk.focus_window(dialog)
    step_gap(desk, rng)
    desk.click("push button", "Export")
    desk.wait(rng.randint(300, 1200))
    desk.focus_window(ws.sheet)
    desk.mark("export_sheet_as_pdf", start)
    trail(ws, rng, ctx.lead_out)
    return ""


def steps_export_pdf() -> tuple[Step, ...]:
    sheet, dialog = calc_view("budget.ods", "Sheet1"), calc_pdf_dialog()
    return (_switch("libreoffice-calc"), _el("click", sheet, "menu", "File"),
            _el("click", sheet, "menu item", "Export as PDF…"), _el("click", dialog, "push button", "Export"))


def run_select_copy_close(ws: Workspace, rng: random.Random, ctx: Context) -> str:
    desk = ws.desk
    if desk.focus is not ws.editor:
        noise.visit(ws, rng, window=ws.editor, actions=rng.randint(0, 2))
    read(desk, rng, rng.randint(96000, 118000))
    start = desk.t
    desk.key("ctrl+a")
    step_gap(desk, rng)
    desk.key("ctrl+c")
    step_gap(desk, rng)
    desk.click("push button", "Close document")
    ws.docs.pop(0)
    if not ws.docs:
        ws.docs.append("Untitled Document 1")
    ws.doc = 0
    ws.editor_show(modified=False)
    desk.mark("select_copy_close", start)
    read(desk, rng, rng.randint(96000, 118000))
    ws.last_c = None
    return ""


def steps_select_copy_close() -> tuple[Step, ...]:
    view = gedit_view(("notes.txt", "todo.md"), 0, "~/notes", False)
    return (_key("gedit", "ctrl+a"), _key("gedit", "ctrl+c"), _el("click", view, "push button", "Close document"))


# -- schedule ---------------------------------------------------------------------------------------------
def _export_days(days: int) -> tuple[int, int]:
    return (0, 0) if days == 1 else (0, days // 2)


def _export_per_day(seed: int, index: int, days: int) -> int:
    return sum(1 for d in _export_days(days) if d == index)


ROUTINES: tuple[RoutineDef, ...] = (
    RoutineDef("compose_and_send", "Thunderbird: Write, To, Subject, body, Send (6 steps, 2–4 a day)",
               lambda seed, i, days: 2 + i % 3, run_compose, steps_compose),
    RoutineDef("file_expense", "Firefox expenses form via the Expenses bookmark (6 steps, Tue/Thu-like days); "
               "in occurrences 1 and 3 of every 5 the Submit button sits in a redesigned panel (path drift, "
               "same role and label): found, but with high UI entropy",
               lambda seed, i, days: 1 if i % 5 in (1, 3) else 0, run_expense, steps_expense),
    RoutineDef("reopen_closed_tab", "Firefox: switch to a GitHub tab, ctrl+w, ctrl+shift+t, Reload (4 steps, 2 a day)",
               lambda seed, i, days: 2, run_reopen, steps_reopen, fixed_lead_in="tab"),
    RoutineDef("save_and_run", "gedit edit + Save button, then Return in the terminal (5 steps, 2 a day); "
               "highly variable timing: gaps 1–60 s", lambda seed, i, days: 2, run_save_run, steps_save_run,
               fixed_lead_out="gap"),
    RoutineDef("copy_calc_value_to_slack", "Calc Summary!D14 copied and pasted into Slack #finance (8 steps, daily)",
               lambda seed, i, days: 1, run_calc_slack, steps_calc_slack),
    RoutineDef("weekly_report", "Jira sprint report → Calc Weekly!A1 → Slack #team-updates (12 steps, weekly)",
               lambda seed, i, days: 1 if i % 5 == seed % 5 else 0, run_weekly, steps_weekly, hours=(15.0, 17.0)),
    RoutineDef("join_standup", "Calendar event → Join with Google Meet → meet (3 steps, daily at 09:30)",
               lambda seed, i, days: 1, run_standup, steps_standup, hours=(9.45, 9.5), fixed_lead_out="meeting"),
    RoutineDef("export_sheet_as_pdf", "negative control: Calc File → Export as PDF… → Export, planted only twice",
               _export_per_day, run_export_pdf, steps_export_pdf, control=True),
    RoutineDef("select_copy_close", "negative control: ctrl+a, ctrl+c, Close document in gedit, daily; "
               "a single specific target, isolated by > 90 s gaps", lambda seed, i, days: 1,
               run_select_copy_close, steps_select_copy_close, fixed_lead_in="gap", fixed_lead_out="gap",
               control=True),
)
ROUTINE_BY_NAME = {r.name: r for r in ROUTINES}


def occurrences_before(routine: RoutineDef, seed: int, index: int, days: int) -> int:
    return sum(routine.per_day(seed, i, days) for i in range(index))


def total(routine: RoutineDef, seed: int, days: int) -> int:
    return occurrences_before(routine, seed, days, days)


def planted(seed: int, days: int) -> tuple[PlantedRoutine, ...]:
    result = []
    for routine in ROUTINES:
        steps = routine.steps()
        count = total(routine, seed, days)
        distinct_specific = len({(s.kind, s.app, s.role, s.label, s.target if s.kind == "switch" else "")
                                 for s in steps if s.specific})
        result.append(PlantedRoutine(routine.name, steps, count,
                                     count >= 3 and distinct_specific >= 2 and not routine.control, routine.note))
    return tuple(result)
