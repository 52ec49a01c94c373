"""One day's windows and what is in them: the browser's tabs, the mail
folder, the editor's documents, the sheet, the chat channel. Methods change
that state through the `Desk`, so every change the daemon would notice (a
navigation, a new title, a re-walked tree) is recorded."""

from __future__ import annotations

import random
from dataclasses import replace

from .desk import Desk, Window
from .sites import SITE_BY_KEY, random_site
from .trees import Spec, spec
from .views import (
    Tab,
    Target,
    View,
    calc_pdf_dialog,
    calc_view,
    firefox_view,
    gedit_view,
    nautilus_view,
    slack_view,
    terminal_view,
    thunderbird_compose,
    thunderbird_main,
)
from .world import CALC, FIREFOX, GEDIT, KEEPASS, NAUTILUS, SLACK, TERMINAL, THUNDERBIRD, App, Page, Site

# A common specific step, as the guard compares them: ("click", app, role,
# label), ("type", app, role, label) or ("switch", "firefox", "firefox/<site>").
StepKey = tuple[str, ...]

EXPENSES_SITE = "northwind-intranet.com"
EXPENSES_LIST = Page("https://expenses.northwind-intranet.com/claims", "My claims - Northwind Expenses",
                     (), "My claims")
EXPENSES_FORM = Page("https://expenses.northwind-intranet.com/claims/new", "New claim - Northwind Expenses",
                     (), "New claim")
JIRA = "northwind.atlassian.net"
JIRA_BOARD = Page("https://northwind.atlassian.net/jira/software/projects/NW/boards/3",
                  "NW board - Agile Board - Jira", (), "NW board", distinct=False)
JIRA_REPORTS = Page("https://northwind.atlassian.net/jira/software/projects/NW/reports",
                    "Reports - NW - Jira", (), "Reports")
JIRA_SPRINT = Page("https://northwind.atlassian.net/jira/software/projects/NW/reports/sprint-retrospective",
                   "Sprint report - NW - Jira", (), "Sprint report")
CALENDAR = "calendar.google.com"
MEET = "meet.google.com"
JIRA_SIDEBAR = ("Backlog", "Board", "Reports", "Releases", "Components", "Issues", "Project settings")
JIRA_REPORT_BUTTONS = ("Sprint report", "Burndown chart", "Velocity report", "Cumulative flow diagram",
                       "Version report")
MEET_BUTTONS = ("Turn off microphone", "Turn off camera", "Present now", "Chat with everyone", "Leave call")
EDITOR_DOCS = ("report.py", "routines.md", "notes.txt", "config.toml", "analysis.py", "README.md", "todo.md",
               "plot_results.py", "Makefile", "schema.sql")
TERMINAL_COMMANDS = ("git status", "git diff", "make test", "python report.py", "ls -la", "htop", "git log --oneline",
                     "pytest -x -q", "docker ps", "ssh build01", "tail -f app.log", "vim notes.txt", "du -sh *",
                     "make lint", "git pull --rebase", "python -m http.server 8000")
SHEET_DOCS = ("budget-2026.ods", "weekly-report.ods", "travel-costs.ods", "metrics.ods")
FOLDERS = ("Documents", "Downloads", "analysis", "invoices", "talks", "Pictures")


def meet_code(rng: random.Random) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return "-".join("".join(rng.choice(letters) for _ in range(n)) for n in (3, 4, 3))


def browser_view(tabs: tuple[Tab, ...], active: int, rng: random.Random, expense_drift: bool = False,
                 scale: float = 1.0) -> View:
    """The Firefox window for a tab list, with the extra page parts the
    planted routines use (Jira's sidebar and reports, the calendar event,
    the meeting controls, the expenses forms)."""
    tab = tabs[active]
    site: Site | None = SITE_BY_KEY.get(tab.site)
    extra: tuple[Spec, ...] = ()
    extra_common: tuple[Target, ...] = ()
    url = tab.page.url
    if tab.site == JIRA:
        extra = (spec("section", "Project sidebar", *(spec("link", n) for n in JIRA_SIDEBAR), size=260),)
        extra_common = tuple(("link", n) for n in JIRA_SIDEBAR if n != "Reports")
        if tab.page.url == JIRA_REPORTS.url:
            extra += (spec("section", "Reports", *(spec("push button", n) for n in JIRA_REPORT_BUTTONS), size=200),)
            extra_common += tuple(("push button", n) for n in JIRA_REPORT_BUTTONS if n != "Sprint report")
    elif tab.site == CALENDAR and "/eventedit/" in url:
        extra = (spec("section", "Event details", spec("heading", "Daily standup"),
                      spec("push button", "Join with Google Meet"), spec("push button", "Save"),
                      spec("push button", "More actions"), size=220),)
        extra_common = (("push button", "More actions"),)
    elif tab.site == MEET:
        extra = (spec("section", "Call controls", *(spec("push button", n) for n in MEET_BUTTONS), layout="h",
                      size=80),)
        extra_common = tuple(("push button", n) for n in MEET_BUTTONS if n != "Leave call")
    elif tab.site == EXPENSES_SITE:
        return _expenses_view(tabs, active, rng, expense_drift)
    view = firefox_view(tabs, active, site, rng, extra, extra_common, scale)
    if not url:
        return replace(view, url=None)
    return view


EXPENSES = Site(EXPENSES_SITE, "Expenses", 0, ("My claims", "Approvals", "Policies", "Help"), (), None, ())


def _expenses_view(tabs: tuple[Tab, ...], active: int, rng: random.Random, drift: bool) -> View:
    tab = tabs[active]
    if tab.page.url == EXPENSES_FORM.url:
        submit = spec("push button", "Submit claim")
        form_children = [spec("entry", label="Amount", size=40), spec("entry", label="Description", size=40),
                         spec("combo box", label="Category", size=40), spec("entry", label="Date", size=40),
                         spec("push button", "Attach receipt", size=40)]
        if drift:  # the redesigned form: buttons moved into an actions panel
            form_children.append(spec("panel", "Form actions", submit, spec("push button", "Cancel"), layout="h",
                                      size=50))
        else:
            form_children += [submit, spec("push button", "Cancel")]
        extra = (spec("form", "New expense claim", *form_children, size=400),)
        view = firefox_view(tabs, active, EXPENSES, rng, extra, ())
        return View(view.app, view.kind, view.title, view.url, view.root)
    view = firefox_view(tabs, active, EXPENSES, rng,
                        (spec("section", "Claims", spec("link", "New claim"), size=60),), ())
    return View(view.app, view.kind, view.title, view.url, view.root, (), view.content, (), view.zones)


class Workspace:
    def __init__(self, desk: Desk, rng: random.Random, *, drift: bool = False) -> None:
        self.desk = desk
        self.rng = rng
        self.scale = 1.0
        primary, secondary = (0, 1) if rng.random() < 0.85 else (1, 0)

        def place(app: App, preferred: int) -> int:
            return preferred if rng.random() < 0.8 else 1 - preferred

        def pid() -> int:
            return rng.randint(1200, 60000)

        tabs = [self._random_tab() for _ in range(rng.randint(4, 8))]
        self.tabs: list[Tab] = tabs
        self.active = 0
        self.closed: list[tuple[int, Tab]] = []
        self.expense_drift = drift
        self.firefox = Window(FIREFOX, place(FIREFOX, primary), pid(), self._placeholder(FIREFOX))
        self.firefox.view = self.web_view()
        self.folder = "Inbox"
        self.mail = Window(THUNDERBIRD, place(THUNDERBIRD, secondary), pid(),
                           thunderbird_main(self.folder, rng.randint(0, 30), rng))
        self.docs = list(rng.sample(EDITOR_DOCS, rng.randint(2, 5)))
        self.doc = 0
        self.editor_folder = rng.choice(("~/src/analysis", "~/src/phantom", "~/notes"))
        self.editor = Window(GEDIT, place(GEDIT, primary), pid(), self._gedit_view(False))
        self.cwd = self.editor_folder
        self.term = Window(TERMINAL, place(TERMINAL, secondary), pid(), terminal_view(self.cwd, None))
        self.sheet_doc = rng.choice(SHEET_DOCS)
        self.sheet_name = "Sheet1"
        self.sheet_row = rng.randint(41, 3000)
        self.sheet = Window(CALC, place(CALC, primary), pid(),
                            calc_view(self.sheet_doc, self.sheet_name, self.sheet_row))
        self.files = Window(NAUTILUS, place(NAUTILUS, secondary), pid(), nautilus_view(rng.choice(FOLDERS), rng))
        self.channel = rng.choice(("general", "engineering", "random", "berlin-office"))
        self.chat = Window(SLACK, place(SLACK, secondary), pid(), slack_view(self.channel, rng))
        self.last_c: StepKey | None = None   # see noise.py: the last common specific step
        self.clicked: set[tuple[str, str, str]] = set()   # content clicked today (noise.unique_click)
        self.scale = 1.0                   # page text volume, paced by the day planner
        self.keepass = Window(KEEPASS, place(KEEPASS, secondary), pid(),
                              View(KEEPASS, "vault", "Passwords.kdbx - KeePassXC", None, None))
        self.apps = (self.firefox, self.mail, self.editor, self.term, self.sheet, self.files, self.chat)

    def window_of(self, app: str) -> Window:
        """The main window of an application (by its WM_CLASS class)."""
        for window in self.apps:
            if window.app.app == app:
                return window
        raise KeyError(app)

    @staticmethod
    def _placeholder(app: App) -> View:
        return View(app, "placeholder", "", None, None)

    # -- browser ---------------------------------------------------------------------------------
    def _random_tab(self, site_key: str | None = None) -> Tab:
        rng = self.rng
        key = site_key or random_site(rng)
        site = SITE_BY_KEY[key]
        return Tab(key, rng.choice(site.pages)(rng))

    @property
    def site(self) -> str:
        return self.tabs[self.active].site

    def web_view(self) -> View:
        return browser_view(tuple(self.tabs), self.active, self.rng, self.expense_drift, self.scale)

    def show(self) -> None:
        self.desk.set_view(self.firefox, self.web_view())

    def go(self, page: Page, site_key: str, *, load_ms: int | None = None) -> None:
        """The active tab loads another page."""
        self.desk.wait(load_ms if load_ms is not None else self.rng.randint(300, 2200))
        self.tabs[self.active] = Tab(site_key, page)
        self.show()

    def new_page(self, site_key: str) -> Page:
        return self._random_tab(site_key).page

    def select_tab(self, index: int) -> None:
        """Click another tab (a content click: tab titles vary)."""
        self.desk.click("page tab", self.tabs[index].page.title, resolution="exact")
        self.active = index
        self.desk.wait(self.rng.randint(80, 400))
        self.show()

    def background_tab(self, page: Page, site_key: str) -> None:
        """A link opened in a new background tab (middle click): the tab
        list grows, nothing else changes."""
        self.tabs.append(Tab(site_key, page))
        self.firefox.view = self.web_view()
        self.desk.refresh(self.firefox)

    def next_tab(self, step: int) -> None:
        """ctrl+Page_Down / ctrl+Page_Up."""
        self.desk.key("ctrl+Page_Down" if step > 0 else "ctrl+Page_Up")
        self.active = (self.active + step) % len(self.tabs)
        self.desk.wait(self.rng.randint(80, 400))
        self.show()

    def close_tab(self) -> None:
        self.desk.key("ctrl+w")
        index = self.active
        self.closed.append((index, self.tabs.pop(index)))
        self.active = min(index, len(self.tabs) - 1)
        self.desk.wait(self.rng.randint(60, 300))
        self.show()

    def reopen_tab(self) -> None:
        self.desk.key("ctrl+shift+t")
        index, tab = self.closed.pop()
        index = min(index, len(self.tabs))
        self.tabs.insert(index, tab)
        self.active = index
        self.desk.wait(self.rng.randint(150, 700))
        self.show()

    # -- mail ----------------------------------------------------------------------------------
    def mail_refresh(self, folder: str | None = None) -> None:
        if folder:
            self.folder = folder
        self.desk.set_view(self.mail, thunderbird_main(self.folder, self.rng.randint(0, 30), self.rng))

    def compose_window(self) -> Window:
        return Window(THUNDERBIRD, self.mail.monitor, self.mail.pid, thunderbird_compose(""))

    # -- editor --------------------------------------------------------------------------------
    def _gedit_view(self, modified: bool) -> View:
        return gedit_view(tuple(self.docs), self.doc, self.editor_folder, modified)

    def editor_show(self, modified: bool = False) -> None:
        self.editor.state["modified"] = modified
        self.desk.set_view(self.editor, self._gedit_view(modified))

    # -- terminal --------------------------------------------------------------------------------
    def term_title(self, command: str | None) -> None:
        self.desk.set_view(self.term, terminal_view(self.cwd, command))

    # -- sheet -----------------------------------------------------------------------------------
    def sheet_select(self, name: str) -> None:
        """Click a sheet tab; the sheet opens at its top."""
        self.desk.click("page tab", name)
        self.sheet_name = name
        self.sheet_row = 1
        self.sheet.view = calc_view(self.sheet_doc, name, 1)
        self.desk.refresh(self.sheet)

    def sheet_scroll(self) -> None:
        """Scroll somewhere far down the sheet; the visible cells change."""
        self.desk.scroll(self.rng.randint(5, 40))
        self.sheet_row = self.rng.randint(41, 3000)
        self.sheet.view = calc_view(self.sheet_doc, self.sheet_name, self.sheet_row)
        self.desk.refresh(self.sheet)

    def pdf_dialog(self) -> Window:
        return Window(CALC, self.sheet.monitor, self.sheet.pid, calc_pdf_dialog())

    # -- files / chat ------------------------------------------------------------------------------
    def files_open(self, folder: str) -> None:
        self.desk.set_view(self.files, nautilus_view(folder, self.rng))

    def chat_open(self, channel: str) -> None:
        self.desk.click("list item", channel)
        self.channel = channel
        self.desk.wait(self.rng.randint(150, 600))
        self.desk.set_view(self.chat, slack_view(channel, self.rng))


