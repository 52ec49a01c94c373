"""HTML for the web view: escaped text, one page layout with landmarks
(so a screen reader, and AT-SPI, find the navigation and the content), and
tables with headers. Only this server's own stylesheet; no script."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

__all__ = ["NAV", "e", "form_button", "page", "table"]

NAV = (("/", "Day"), ("/search", "Search"), ("/routines", "Routines"), ("/programs", "Programs"),
       ("/runs", "Replay runs"), ("/privacy", "Privacy"))


def e(value: object) -> str:
    """Text as HTML (quotes included)."""
    return escape("" if value is None else str(value), quote=True)


def page(title: str, body: str, *, current: str = "/", notice: str = "") -> str:
    here = ' aria-current="page"'
    links = "".join(f'<li><a href="{href}"{here if href == current else ""}>{e(text)}</a></li>'
                    for href, text in NAV)
    note = f'<p class="notice" role="status">{e(notice)}</p>' if notice else ""
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{e(title)} · Phantom</title>"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="stylesheet" href="/static/phantom.css"></head><body>'
            '<a class="skip" href="#main">Skip to content</a>'
            f'<header><nav aria-label="Phantom"><ul>{links}</ul></nav></header>'
            f'<main id="main"><h1>{e(title)}</h1>{note}{body}</main></body></html>\n')


def table(caption: str, headers: Sequence[str], rows: Iterable[Sequence[str]], *, raw: bool = False) -> str:
    """A table with a caption and column headers; cells are escaped unless
    `raw` (the caller built them from escaped parts)."""
    head = "".join(f'<th scope="col">{e(h)}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell if raw else e(cell)}</td>" for cell in row) + "</tr>"
                   for row in rows)
    if not body:
        body = f'<tr><td colspan="{len(headers)}">nothing here</td></tr>'
    return f"<table><caption>{e(caption)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def form_button(action: str, label: str, fields: dict[str, str] | None = None, *,
                confirm_field: str = "") -> str:
    """A POST form with hidden fields and one button; `confirm_field` adds a
    required checkbox the person must tick first (for what cannot be undone)."""
    hidden = "".join(f'<input type="hidden" name="{e(k)}" value="{e(v)}">' for k, v in (fields or {}).items())
    check = (f'<label><input type="checkbox" name="{e(confirm_field)}" value="yes" required> '
             "I understand this cannot be undone</label> " if confirm_field else "")
    return f'<form method="post" action="{e(action)}">{hidden}{check}<button type="submit">{e(label)}</button></form>'
