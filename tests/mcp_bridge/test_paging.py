"""Pages of a long tool answer (mcp_bridge/paging.py): every item once, in
order, each page within the budget, the last page without a cursor."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from compiler.budget import estimate_tokens
from mcp_bridge.paging import page_list, page_text


def test_a_short_answer_is_returned_as_it_is():
    answer = {"window": "today", "frames": [{"app": "gedit"}]}
    assert page_list(answer, "frames", None) is answer
    assert page_text("one line\n", None, "phantom_context") == "one line\n"


def test_list_pages_cover_every_item_once_within_the_budget():
    items = [{"app": f"app {i}", "title": "word " * (i % 7 + 1)} for i in range(300)]
    answer = {"window": "a week", "frames": items}
    seen, cursor, pages = [], None, 0
    while True:
        page = page_list(answer, "frames", cursor, max_tokens=500)
        pages += 1
        assert page["window"] == "a week" and page["page"]["total"] == 300
        assert page["page"]["start"] == len(seen)
        seen += page["frames"]
        cursor = page["page"]["next_cursor"]
        if cursor is None:
            break
    assert seen == items and pages > 5
    assert page_list(answer, "frames", "999", max_tokens=500)["frames"] == []


def test_text_pages_cut_at_line_ends_and_name_the_next_cursor():
    lines = [f"{i:04d} gedit notes.txt 3 min, 40 keys\n" for i in range(400)]
    text = "".join(lines)
    first = page_text(text, None, "phantom_context", max_tokens=600)
    assert estimate_tokens(first) <= 700 and first.startswith(lines[0])
    body, note = first.rsplit("[", 1)
    assert note.startswith("… ") and "phantom_context" in note
    cursor = note.split('cursor "')[1].split('"')[0]
    assert body == "".join(lines[:int(cursor)])
    rebuilt, cursor_text = body, cursor
    while True:
        page = page_text(text, cursor_text, "phantom_context", max_tokens=600)
        if "more lines: call" not in page:
            rebuilt += page
            break
        part, note = page.rsplit("[", 1)
        rebuilt += part
        cursor_text = note.split('cursor "')[1].split('"')[0]
    assert rebuilt == text


@pytest.mark.parametrize("cursor", ["-1", "x", "1.5", "９", "1234567890"])
def test_a_cursor_the_tool_never_gave_is_refused(cursor):
    with pytest.raises(ToolError, match="is not one this tool gave"):
        page_list({"frames": [1, 2]}, "frames", cursor)
