"""Renderers: the same document as canonical JSON, Markdown for people, and
the compact block for system prompts. Each is a pure function of the
document and a TimeFormat; none reads anything else."""

from .compact import render_compact
from .json_doc import document_dict, render_json
from .markdown import render_markdown

__all__ = ["document_dict", "render_compact", "render_json", "render_markdown"]
