"""Team workspaces: Notion, Jira and Confluence (Atlassian Cloud), Figma, Trello.

These tools put a stable id in every URL next to a title slug that changes
whenever the page is renamed, so entities are the ids: a Notion page id, a
Jira issue key, a Confluence "SPACE/page-id", a Figma file key, a Trello
short id.  The window title supplies the human-readable name.
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import PageRef, site_ref

NOTION_PAGE = "notion_page"
NOTION_DATABASE = "notion_database"
JIRA_ISSUE = "jira_issue"
JIRA_PROJECT = "jira_project"
CONFLUENCE_PAGE = "confluence_page"
CONFLUENCE_SPACE = "confluence_space"
FIGMA_FILE = "figma_file"
FIGMA_BOARD = "figma_board"
FIGMA_PROTOTYPE = "figma_prototype"
TRELLO_BOARD = "trello_board"
TRELLO_CARD = "trello_card"

KINDS = (
    NOTION_PAGE, NOTION_DATABASE, JIRA_ISSUE, JIRA_PROJECT, CONFLUENCE_PAGE,
    CONFLUENCE_SPACE, FIGMA_FILE, FIGMA_BOARD, FIGMA_PROTOTYPE,
    TRELLO_BOARD, TRELLO_CARD,
)

# Notion ids are 32 hex digits, at the end of "Title-<id>" or as a dashed UUID.
_NOTION_ID = re.compile(r"([0-9a-f]{32})$")
_JIRA_ISSUE_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*-\d+")
_JIRA_PROJECT_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_FIGMA_KEY = re.compile(r"[A-Za-z0-9]{10,}")
_TRELLO_ID = re.compile(r"[A-Za-z0-9]{8,24}")
_FIGMA_KINDS = {
    "file": FIGMA_FILE,
    "design": FIGMA_FILE,
    "board": FIGMA_BOARD,
    "proto": FIGMA_PROTOTYPE,
}


def _notion_id(text: str) -> str | None:
    found = _NOTION_ID.search(text.lower().replace("-", ""))
    return found.group(1) if found else None


def notion(url: Url) -> PageRef | None:
    """Pages by id; a "?v=" view parameter means the page is a database.

    "?p=<id>" is a page peeked over another page and wins over the path.
    """
    page = _notion_id(url.query.get("p", ""))
    if page:
        return site_ref(url, NOTION_PAGE, page)
    page = _notion_id(url.segments[-1]) if url.segments else None
    if page is None:
        return None
    return site_ref(url, NOTION_DATABASE if "v" in url.query else NOTION_PAGE, page)


def atlassian(url: Url) -> PageRef | None:
    """<tenant>.atlassian.net: Jira under /browse and /jira, Confluence under /wiki."""
    segs = url.segments
    if not segs:
        return None
    if segs[0] == "wiki":
        return _confluence(url, segs[1:])
    if segs[0] == "browse" and len(segs) > 1 and _JIRA_ISSUE_KEY.fullmatch(segs[1]):
        return site_ref(url, JIRA_ISSUE, segs[1].upper())
    if segs[0] != "jira":
        return None
    selected = url.query.get("selectedissue", "")
    if _JIRA_ISSUE_KEY.fullmatch(selected):
        return site_ref(url, JIRA_ISSUE, selected.upper())
    if _JIRA_ISSUE_KEY.fullmatch(segs[-1]):  # ".../issues/KEY-12"
        return site_ref(url, JIRA_ISSUE, segs[-1].upper())
    if "projects" in segs[:-1]:
        key = segs[segs.index("projects") + 1]
        if _JIRA_PROJECT_KEY.fullmatch(key):
            return site_ref(url, JIRA_PROJECT, key.upper())
    return None


def _confluence(url: Url, segs: tuple[str, ...]) -> PageRef | None:
    if len(segs) < 2 or segs[0] != "spaces":
        return None
    space = segs[1]
    rest = segs[2:]
    if rest[:1] == ("pages",):
        # /pages/<id>/<title> or /pages/edit-v2/<id>
        page_id = next((p for p in rest[1:3] if p.isascii() and p.isdigit()), None)
        if page_id:
            return site_ref(url, CONFLUENCE_PAGE, f"{space}/{page_id}")
    return site_ref(url, CONFLUENCE_SPACE, space)


def figma(url: Url) -> PageRef | None:
    """/file|design/<key>, /board/<key> (FigJam) and /proto/<key>."""
    segs = url.segments
    if len(segs) >= 2 and segs[0] in _FIGMA_KINDS and _FIGMA_KEY.fullmatch(segs[1]):
        return site_ref(url, _FIGMA_KINDS[segs[0]], segs[1])
    return None


def trello(url: Url) -> PageRef | None:
    """/b/<id>/<name> is a board, /c/<id>/<name> a card."""
    segs = url.segments
    if len(segs) >= 2 and segs[0] in ("b", "c") and _TRELLO_ID.fullmatch(segs[1]):
        return site_ref(url, TRELLO_BOARD if segs[0] == "b" else TRELLO_CARD, segs[1])
    return None
