"""Tool answers that fit an agent's context: an answer over `MAX_TOKENS`
(the compiler's conservative cl100k estimate, `compiler.budget`) is cut into
pages, each with a cursor that the same tool takes back to continue.

Paging is stateless: the answer is computed again from the store on every
call and sliced at the cursor's offset — the compiler is deterministic, so
the pages of one window line up as long as its rows do not change (a cursor
past the end answers an empty page, never an error about lost state). A
cursor is `"<offset>"` as text: items for a list, lines for a text."""

from __future__ import annotations

from typing import Any

import orjson
from mcp.server.mcpserver.exceptions import ToolError

__all__ = ["MAX_TOKENS", "page_list", "page_text"]

MAX_TOKENS = 20_000


def _tokens(text: str) -> int:
    from compiler.budget import estimate_tokens

    return estimate_tokens(text)


def _offset(cursor: str | None) -> int:
    if cursor is None or cursor == "":
        return 0
    if not (cursor.isascii() and cursor.isdigit()) or len(cursor) > 9:
        raise ToolError(f"usage: cursor {cursor[:40]!r} is not one this tool gave; pass the "
                        "next_cursor of the previous page, or none for the first")
    return int(cursor)


def page_list(answer: dict[str, Any], key: str, cursor: str | None,
              max_tokens: int = MAX_TOKENS) -> dict[str, Any]:
    """`answer` with its list `key` cut to the items from the cursor on
    that fit `max_tokens` together with the rest of the answer (at least one
    item per page); `page` says where it starts, how many there are and the
    cursor of the next page (None on the last)."""
    items = answer.get(key) or []
    start = _offset(cursor)
    rest = {k: v for k, v in answer.items() if k != key}
    spent = _tokens(orjson.dumps(rest, option=orjson.OPT_SORT_KEYS).decode()) + 40
    end = start
    while end < len(items):
        cost = _tokens(orjson.dumps(items[end], option=orjson.OPT_SORT_KEYS).decode()) + 1
        if end > start and spent + cost > max_tokens:
            break
        spent += cost
        end += 1
    if start == 0 and end >= len(items):
        return answer   # it fits: no paging, the answer as it always was
    page = {"start": start, "items": max(0, end - start), "total": len(items),
            "next_cursor": str(end) if end < len(items) else None}
    return {**rest, key: items[start:end], "page": page}


def page_text(text: str, cursor: str | None, tool: str, max_tokens: int = MAX_TOKENS) -> str:
    """`text` from the cursor's line on, as many whole lines as fit; a page
    that is not the last ends with one line naming the cursor to continue."""
    start = _offset(cursor)
    if start == 0 and _tokens(text) <= max_tokens:
        return text
    lines = text.splitlines(keepends=True)
    spent, end = 60, start
    while end < len(lines):
        cost = _tokens(lines[end])
        if end > start and spent + cost > max_tokens:
            break
        spent += cost
        end += 1
    page = "".join(lines[start:end])
    if end < len(lines):
        page += (f"[… {len(lines) - end} more lines: call {tool} again with the same arguments "
                 f"and cursor \"{end}\"]\n")
    return page
