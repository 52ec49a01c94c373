"""Renderers: the same document as canonical JSON, Markdown for people, and
the compact block for system prompts. Each is a pure function of the
document and a TimeFormat; none reads anything else.

Each renderer loads on first use: a compact block needs neither of the
others (`phantom compile` runs as a whole process, and imports count)."""

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .compact import render_compact
    from .json_doc import document_dict, render_json
    from .markdown import render_markdown

_MODULE_OF = {"render_compact": "compact", "document_dict": "json_doc", "render_json": "json_doc",
              "render_markdown": "markdown"}


def __getattr__(name: str) -> object:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)


__all__ = ["document_dict", "render_compact", "render_json", "render_markdown"]
