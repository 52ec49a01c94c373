"""What each application window looks like to AT-SPI: a `View` is a tree
spec plus the window's title and URL and the targets a synthetic user may
click or type into. Targets that planted routines rely on are deliberately
left out of the noise lists (`common`, `content`, `fields`), so background
activity can never reproduce a routine."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from . import words as W
from .trees import Spec, spec
from .world import (
    ACCOUNT,
    CALC,
    FIREFOX,
    GEDIT,
    HOST,
    NAUTILUS,
    SLACK,
    TERMINAL,
    THUNDERBIRD,
    USER,
    App,
    Page,
    Site,
    file_name,
    person,
    subject,
)

Target = tuple[str, str]          # (role, label)


@dataclass(frozen=True, slots=True)
class View:
    app: App
    kind: str
    title: str
    url: str | None
    root: Spec | None             # None: the application exposes no accessibility
    common: tuple[Target, ...] = ()
    content: tuple[Target, ...] = ()
    fields: tuple[Target, ...] = ()
    zones: tuple[Target, ...] = ()


def _buttons(names: Iterable[str], role: str = "push button", size: int = 0) -> tuple[Spec, ...]:
    return tuple(spec(role, name, size=size) for name in names)


# -- firefox ------------------------------------------------------------------------------------
URLBAR = "Search with Google or enter address"
NAV_BUTTONS = ("Back", "Forward", "Reload", "Home")
BOOKMARKS = ("GitHub", "Jira", "Gmail", "Calendar", "Expenses", "Docs", "Hacker News", "Grafana", "Sentry")
FOOTER = ("About", "Privacy", "Terms", "Help", "Contact", "Careers", "Blog", "Status", "Accessibility",
          "Cookie settings", "Imprint", "Press")
RESERVED_FIREFOX = frozenset({("push button", "Reload"), ("push button", "Expenses")})


@dataclass(frozen=True, slots=True)
class Tab:
    """One browser tab: a page and the site it belongs to."""

    site: str                     # site key ('' for about: pages)
    page: Page


def _chrome(tabs: tuple[Tab, ...]) -> tuple[Spec, ...]:
    urlbar = spec("entry", label=URLBAR)
    nav = spec("tool bar", "Navigation", *_buttons(NAV_BUTTONS[:3]), urlbar,
               *_buttons(("Home", "Bookmark this page", "Downloads", "Open application menu")), layout="h", size=40)
    marks = spec("tool bar", "Bookmarks Toolbar", *_buttons(BOOKMARKS), layout="h", size=28)
    tab_list = spec("page tab list", "", *(spec("page tab", tab.page.title) for tab in tabs),
                    *_buttons(("Open a new tab", "List all tabs")), layout="h", size=36)
    return nav, marks, tab_list


def _content_items(names: tuple[str, ...], rng: random.Random) -> tuple[Spec, ...]:
    items = []
    for name in names:
        children = [spec("link", name), spec("paragraph", rng.choice(_META)(rng))]
        if rng.random() < 0.6:
            children.append(spec("section", "", spec("link", person(rng)), spec("push button", "More options")))
        items.append(spec("list item", "", *children, size=30))
    return tuple(items)


_META = (lambda r: f"{r.randint(1, 59)} min ago", lambda r: f"{r.randint(2, 900)} comments",
         lambda r: f"updated {r.randint(1, 28)} days ago", lambda r: f"{r.randint(1, 40)}k views",
         lambda r: f"{r.choice(W.TOPICS).capitalize()} · {r.randint(1, 12)} min read")


def sentence(rng: random.Random) -> str:
    return (f"{rng.choice(W.VERBS)} {rng.choice(W.OBJECTS)} {rng.choice(('before', 'after', 'during', 'for', 'with'))} "
            f"{rng.choice(W.TOPICS)}{rng.choice(('.', '.', ':', ' —', '?'))}")


def _article(rng: random.Random, scale: float) -> tuple[Spec, ...]:
    count = int(rng.randint(30, 150) * scale)
    return tuple(spec("paragraph", sentence(rng), size=22) for _ in range(count))


def _sidebar(rng: random.Random) -> tuple[Spec, ...]:
    return tuple(spec("link", f"{rng.choice(W.WIKI_TOPICS + W.VIDEO_TOPICS)} ({rng.randint(2, 999)})")
                 for _ in range(rng.randint(6, 24)))


def firefox_view(tabs: tuple[Tab, ...], active: int, site: Site | None, rng: random.Random,
                 extra: tuple[Spec, ...] = (), extra_common: tuple[Target, ...] = (), scale: float = 1.0) -> View:
    """A Firefox window showing `tabs[active]`, a page of `site`; `scale`
    stretches the page's article text (the day planner paces element
    volume with it)."""
    page = tabs[active].page
    body: list[Spec] = []
    common: list[Target] = [("push button", "Back"), ("push button", "Forward"), ("push button", "Home"),
                            ("push button", "Bookmark this page"), ("push button", "Downloads")]
    common += [("push button", mark) for mark in BOOKMARKS if ("push button", mark) not in RESERVED_FIREFOX]
    fields: list[Target] = [("entry", URLBAR)]
    if site is not None:
        nav_children = [spec("link", name) for name in site.nav]
        if site.search:
            nav_children.append(spec("entry", label=site.search))
            fields.append(("entry", site.search))
        nav_children += [spec("push button", name) for name in site.buttons]
        body.append(spec("section", "Site navigation", *nav_children, layout="h", size=48))
        common += [("link", name) for name in site.nav] + [("push button", name) for name in site.buttons]
    body += list(extra)
    main: list[Spec] = []
    if page.heading:
        main.append(spec("heading", page.heading, size=40))
    main.append(spec("list", "", *_content_items(page.content, rng)))
    body.append(spec("section", "Main content", *main))
    sidebar = _sidebar(rng)
    body.append(spec("section", "Related", *sidebar, size=300))
    body.append(spec("section", "Article", *_article(rng, scale), size=600))
    body.append(spec("section", "Footer", *(spec("link", n) for n in FOOTER), layout="h", size=40))
    document = spec("document web", page.title, *body)
    root = spec("frame", "", *_chrome(tabs), spec("panel", "", document))
    content = tuple(("link", name) for name in page.content) + tuple(("link", node.name) for node in sidebar)
    content += tuple(("page tab", tab.page.title) for i, tab in enumerate(tabs) if i != active)
    return View(FIREFOX, "browser", f"{page.title} — Mozilla Firefox", page.url, root, tuple(common) + extra_common,
                content, tuple(fields), (("section", "Main content"), ("tool bar", "Navigation")))


# -- thunderbird ----------------------------------------------------------------------------------
TB_FOLDERS = ("Inbox", "Drafts", "Sent", "Archives", "Junk", "Trash", "Projects", "Receipts", "Newsletters",
              "Team", "Customers", "Conferences")
TB_TOOLBAR = ("Get Messages", "Write", "Chat", "Address Book", "Tag", "Quick Filter")
TB_PANE_BUTTONS = ("Reply", "Forward", "Archive", "Junk", "Delete", "More")


def thunderbird_main(folder: str, unread: int, rng: random.Random) -> View:
    subjects = []
    for _ in range(rng.randint(60, 80)):
        s = subject(rng)
        if s not in subjects:
            subjects.append(s)
    rows = tuple(spec("table row", s, spec("table cell", person(rng)),
                      spec("table cell", f"{rng.randint(8, 18)}:{rng.randint(0, 59):02d}"),
                      spec("table cell", rng.choice(("", "Starred", "Attachment"))), size=24) for s in subjects)
    shown = subjects[0]
    pane = spec("document web", shown, spec("label", "From"), spec("label", person(rng)), spec("label", "To"),
                spec("label", ACCOUNT), spec("label", "Subject"), spec("label", shown),
                *_buttons(TB_PANE_BUTTONS),
                *(spec("paragraph", rng.choice(W.SLACK_PHRASES).capitalize()) for _ in range(rng.randint(3, 8))))
    root = spec("frame", "",
                spec("tool bar", "Mail Toolbar", *_buttons(TB_TOOLBAR), spec("entry", label="Search <Ctrl+K>"),
                     spec("push button", "AppMenu"), layout="h", size=40),
                spec("split pane", "",
                     spec("tree", "Folders", spec("tree item", ACCOUNT), *(spec("tree item", f) for f in TB_FOLDERS)),
                     spec("panel", "", spec("table", "Messages", *rows), spec("panel", "Message pane", pane)),
                     layout="h"),
                spec("status bar", "", spec("label", f"Unread: {unread}"),
                     spec("label", f"Total: {len(subjects) + rng.randint(100, 4000)}"), size=24))
    common = (("push button", "Get Messages"), ("push button", "Tag"), ("push button", "Quick Filter"),
              ("push button", "Archive"), ("push button", "Junk"), ("push button", "Delete"),
              ("push button", "Address Book")) + tuple(("tree item", f) for f in TB_FOLDERS)
    content = tuple(("table row", s) for s in subjects)
    return View(THUNDERBIRD, "mail", f"{folder} - {ACCOUNT} - Mozilla Thunderbird", None, root, common, content,
                (("entry", "Search <Ctrl+K>"),), (("table", "Messages"), ("panel", "Message pane")))


def thunderbird_compose(subject_text: str) -> View:
    root = spec("frame", "",
                spec("tool bar", "Composition Toolbar", *_buttons(("Send", "Spelling", "Attach", "Security", "Save")),
                     layout="h", size=40),
                spec("panel", "Message headers", spec("combo box", label="From"), spec("entry", label="To"),
                     spec("entry", label="Subject"), size=120),
                spec("document web", "Message body"),
                spec("status bar", "", spec("label", "Ready"), size=24))
    title = f"Write: {subject_text or '(no subject)'} - Thunderbird"
    return View(THUNDERBIRD, "compose", title, None, root)


# -- gedit ----------------------------------------------------------------------------------------
def gedit_view(docs: tuple[str, ...], active: int, folder: str, modified: bool) -> View:
    tabs = tuple(spec("page tab", d, spec("push button", "Close document")) for d in docs)
    root = spec("frame", "",
                spec("panel", "", *_buttons(("Open", "New tab")), spec("label", docs[active]),
                     spec("push button", "Save"),
                     spec("toggle button", "Main Menu"), layout="h", size=46),
                spec("page tab list", "", *tabs, layout="h", size=32),
                spec("split pane", "", spec("list", "Documents", *(spec("list item", d) for d in docs), size=200),
                     spec("scroll pane", "", spec("text")), layout="h"),
                spec("status bar", "", spec("combo box", "Python"), spec("combo box", "Tab Width: 4"),
                     spec("label", "Ln 1, Col 1"), spec("label", "INS"), layout="h", size=28))
    title = f"{'*' if modified else ''}{docs[active]} ({folder}) - gedit"
    common = (("push button", "Open"), ("push button", "New tab"), ("toggle button", "Main Menu"),
              ("combo box", "Tab Width: 4"))
    content = tuple(("page tab", d) for i, d in enumerate(docs) if i != active)
    return View(GEDIT, "editor", title, None, root, common, content, (("text", ""),), (("scroll pane", ""),))


# -- terminal -------------------------------------------------------------------------------------
def terminal_view(cwd: str, command: str | None) -> View:
    title = f"{USER}@{HOST}: {cwd}" if command is None else f"{command} — {USER}@{HOST}: {cwd}"
    return View(TERMINAL, "terminal", title, None, None)


# -- libreoffice calc -----------------------------------------------------------------------------
CALC_MENUS = ("File", "Edit", "View", "Insert", "Format", "Styles", "Sheet", "Data", "Tools", "Window", "Help")
CALC_FILE_ITEMS = ("New", "Open...", "Recent Documents", "Save", "Save As...", "Export as PDF…", "Print...", "Close")
CALC_EDIT_ITEMS = ("Undo", "Redo", "Cut", "Copy", "Paste", "Paste Special", "Select All", "Find & Replace...")
CALC_STANDARD = ("New", "Open", "Save", "Export Directly as PDF", "Print", "Print Preview", "Cut", "Copy", "Paste",
                 "Clone Formatting", "Undo", "Redo", "Find & Replace", "Spelling", "Sort", "Sort Ascending",
                 "Sort Descending", "AutoFilter", "Insert Image", "Insert Chart", "Insert or Edit Pivot Table",
                 "Special Character", "Freeze Rows and Columns")
CALC_FORMAT = ("Bold", "Italic", "Underline", "Align Left", "Align Center", "Align Right", "Wrap Text",
               "Merge and Center Cells", "Format as Currency", "Format as Percent", "Format as Number",
               "Add Decimal Place", "Delete Decimal Place", "Increase Indent", "Decrease Indent", "Borders",
               "Background Color", "Font Color")
CALC_COLS = "ABCDEFGHIJKLMN"
CALC_ROWS = 26
RESERVED_SHEET = "Weekly"
SHEETS = ("Sheet1", "Summary", "Data", "Weekly")


def calc_view(document: str, sheet: str, first_row: int = 1) -> View:
    menus = []
    for menu in CALC_MENUS:
        items = CALC_FILE_ITEMS if menu == "File" else CALC_EDIT_ITEMS if menu == "Edit" else ()
        menus.append(spec("menu", menu, *(spec("menu item", i) for i in items)))
    rows = range(first_row, first_row + CALC_ROWS)
    cells = tuple(spec("table cell", f"{c}{r}") for r in rows for c in CALC_COLS)
    root = spec("frame", "",
                spec("menu bar", "", *menus, layout="h", size=24),
                spec("tool bar", "Standard", *_buttons(CALC_STANDARD), layout="h", size=32),
                spec("tool bar", "Formatting", spec("combo box", "Font Name"), spec("combo box", "Font Size"),
                     *_buttons(CALC_FORMAT), layout="h", size=32),
                spec("tool bar", "Formula", spec("combo box", label="Name Box"), spec("push button", "Function Wizard"),
                     spec("push button", "Select Function"), spec("text", label="Input line"), layout="h", size=28),
                spec("panel", "", spec("table", f"Sheet {sheet}", *cells, layout="grid", cols=len(CALC_COLS))),
                spec("page tab list", "Sheet tabs", *(spec("page tab", s) for s in SHEETS), layout="h", size=26),
                spec("status bar", "", spec("label", f"Sheet {SHEETS.index(sheet) + 1} of {len(SHEETS)}"),
                     spec("label", "Default"), spec("label", "English (USA)"), layout="h", size=24))
    common = tuple(("menu", m) for m in CALC_MENUS) + tuple(("push button", b) for b in CALC_STANDARD + CALC_FORMAT)
    common += tuple(("page tab", s) for s in SHEETS if s not in (sheet, RESERVED_SHEET))
    common += (("push button", "Function Wizard"),)
    # Cells count as unique content only far from the top of the sheet, where
    # a name like "K2345" rarely repeats; the planted routines use the top.
    content = tuple(("table cell", f"{c}{r}") for r in rows for c in CALC_COLS) if first_row > 40 else ()
    fields = (("combo box", "Name Box"), ("text", "Input line"))
    return View(CALC, "sheet", f"{document} - LibreOffice Calc", None, root, common, content, fields,
                (("table", f"Sheet {sheet}"), ("tool bar", "Standard")))


PDF_TABS = ("General", "Initial View", "User Interface", "Links", "Security", "Digital Signatures")


def calc_pdf_dialog() -> View:
    root = spec("dialog", "PDF Options",
                spec("page tab list", "", *(spec("page tab", t) for t in PDF_TABS), layout="h", size=30),
                spec("panel", "", spec("radio button", "All"), spec("radio button", "Pages:"),
                     spec("check box", "Hybrid PDF"),
                     spec("check box", "Archive (PDF/A, ISO 19005)"), spec("check box", "Export outlines")),
                spec("panel", "", *_buttons(("Help", "Export", "Cancel")), layout="h", size=40))
    return View(CALC, "dialog", "PDF Options", None, root)


# -- nautilus -------------------------------------------------------------------------------------
PLACES = ("Recent", "Starred", "Home", "Documents", "Downloads", "Music", "Pictures", "Videos", "Trash",
          "Other Locations", "analysis", "invoices", "talks")


def nautilus_view(folder: str, rng: random.Random) -> View:
    names = []
    for _ in range(rng.randint(25, 45)):
        n = file_name(rng)
        if n not in names:
            names.append(n)
    rows = tuple(spec("table row", n, spec("table cell", n), spec("table cell", f"{rng.randint(1, 900)} kB"),
                      spec("table cell", f"{rng.randint(1, 28)} Mar"), size=28) for n in names)
    root = spec("frame", "",
                spec("panel", "", *_buttons(("Back", "Forward")), spec("push button", "Home"),
                     spec("push button", folder),
                     *_buttons(("Search", "View options", "Main menu")), layout="h", size=46),
                spec("split pane", "",
                     spec("list", "Places", *(spec("list item", p) for p in PLACES), size=220),
                     spec("scroll pane", "", spec("table", "Files", *rows)), layout="h"))
    common = (("push button", "Back"), ("push button", "Forward"), ("push button", "Search"),
              ("push button", "View options")) + tuple(("list item", p) for p in PLACES)
    content = tuple(("table row", n) for n in names)
    return View(NAUTILUS, "files", folder, None, root, common, content, (), (("table", "Files"),))


# -- slack ----------------------------------------------------------------------------------------
RESERVED_CHANNELS = ("finance", "team-updates")
DMS = ("Anna Becker", "Ben Okafor", "Chen Xu", "Dana Keller", "Farid Usman", "Lena Vogel", "Marco Costa",
       "Priya Nguyen")


def slack_view(channel: str, rng: random.Random) -> View:
    channels = tuple(sorted(W.CHANNELS + RESERVED_CHANNELS))
    messages = []
    for _ in range(rng.randint(40, 60)):
        m = f"{person(rng)}: {rng.choice(W.SLACK_PHRASES)} ({rng.randint(8, 18)}:{rng.randint(0, 59):02d})"
        if m not in messages:
            messages.append(m)
    items = tuple(spec("list item", m, spec("push button", "Add reaction"), spec("push button", "Reply in thread"),
                       size=44) for m in messages)
    root = spec("frame", "",
                spec("document web", "Slack",
                     spec("section", "Workspace", spec("push button", "Northwind"), spec("push button", "New message"),
                          spec("entry", label="Search Northwind"), layout="h", size=40),
                     spec("section", "Sidebar",
                          spec("list", "Channels", *(spec("list item", c) for c in channels)),
                          spec("list", "Direct messages", *(spec("list item", d) for d in DMS))),
                     spec("section", "Messages", spec("heading", f"#{channel}", size=40),
                          spec("list", "Message list", *items),
                          spec("entry", label=f"Message #{channel}", size=60))))
    common = tuple(("list item", c) for c in W.CHANNELS if c != channel) + tuple(("list item", d) for d in DMS)
    common += (("push button", "New message"),)
    content = tuple(("list item", m) for m in messages)
    fields: tuple[Target, ...] = (("entry", "Search Northwind"),)
    if channel not in RESERVED_CHANNELS:
        fields += (("entry", f"Message #{channel}"),)
    kind = "DM" if channel in DMS else "Channel"
    return View(SLACK, "chat", f"{channel} ({kind}) - Northwind - Slack", None, root, common, content, fields,
                (("list", "Message list"), ("section", "Sidebar")))
