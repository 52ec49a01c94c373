"""AI assistants: ChatGPT, Claude and Gemini.

Conversations are keyed by the id in the URL (a UUID or hex id, lowercased);
the prompt text itself never appears in these URLs, only in the page.
"""

from __future__ import annotations

import re

from core.urls import Url

from ..ref import PageRef, site_ref

CHATGPT_CONVERSATION = "chatgpt_conversation"
CHATGPT_GPT = "chatgpt_gpt"
CHATGPT_SHARED_CHAT = "chatgpt_shared_chat"
CLAUDE_CONVERSATION = "claude_conversation"
CLAUDE_PROJECT = "claude_project"
GEMINI_CONVERSATION = "gemini_conversation"

KINDS = (
    CHATGPT_CONVERSATION, CHATGPT_GPT, CHATGPT_SHARED_CHAT,
    CLAUDE_CONVERSATION, CLAUDE_PROJECT, GEMINI_CONVERSATION,
)

_UUID = re.compile(r"[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}")
# Custom GPT slugs: "g-<id>-<name>"; the id ends at the first "-" after "g-".
_GPT_ID = re.compile(r"g-[A-Za-z0-9]{6,}")
_GEMINI_ID = re.compile(r"[0-9a-f]{8,32}")


def _after(segs: tuple[str, ...], word: str) -> str:
    """The path part following *word*, lowercased, or ""."""
    if word in segs[:-1]:
        return segs[segs.index(word) + 1].lower()
    return ""


def chatgpt(url: Url) -> PageRef | None:
    """/c/<uuid> (also inside /g/<gpt>/c/<uuid>), /g/<gpt>, /share/<uuid>."""
    segs = url.segments
    conversation = _after(segs, "c")
    if _UUID.fullmatch(conversation):
        return site_ref(url, CHATGPT_CONVERSATION, conversation)
    shared = _after(segs, "share")
    if _UUID.fullmatch(shared):
        return site_ref(url, CHATGPT_SHARED_CHAT, shared)
    if len(segs) >= 2 and segs[0] == "g":
        gpt = _GPT_ID.match(segs[1])
        if gpt:
            return site_ref(url, CHATGPT_GPT, gpt.group(0))
    return None


def claude(url: Url) -> PageRef | None:
    """claude.ai/chat/<uuid> and /project/<uuid>."""
    segs = url.segments
    conversation = _after(segs, "chat")
    if _UUID.fullmatch(conversation):
        return site_ref(url, CLAUDE_CONVERSATION, conversation)
    project = _after(segs, "project")
    if _UUID.fullmatch(project):
        return site_ref(url, CLAUDE_PROJECT, project)
    return None


def gemini(url: Url) -> PageRef | None:
    """gemini.google.com/app/<hex id>."""
    conversation = _after(url.segments, "app")
    if _GEMINI_ID.fullmatch(conversation):
        return site_ref(url, GEMINI_CONVERSATION, conversation)
    return None
