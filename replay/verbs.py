"""A fuzzy match may never change what a step does.

When the recorded label or a candidate's label carries a consequential verb
(send, delete, pay, submit, save, remove, …), the candidate must carry the
same verb: "Submit" → "Submit v2" may match; "Save" → "Delete", "Send" →
"Cancel" never do, however close their embeddings are."""

from __future__ import annotations

import re

CONSEQUENTIAL = {
    "send": "send", "sends": "send", "sent": "send",
    "delete": "delete", "remove": "remove", "erase": "delete", "discard": "discard",
    "trash": "delete", "destroy": "delete", "wipe": "delete", "clear": "clear",
    "pay": "pay", "purchase": "pay", "buy": "pay", "checkout": "pay", "order": "pay",
    "submit": "submit", "confirm": "confirm", "approve": "approve", "reject": "reject",
    "save": "save", "overwrite": "save", "publish": "publish", "post": "publish",
    "transfer": "transfer", "sign": "sign", "accept": "accept", "decline": "decline",
    "cancel": "cancel", "close": "close", "quit": "quit", "exit": "quit", "logout": "logout",
    "reset": "reset", "revert": "revert", "merge": "merge", "deploy": "deploy",
    "archive": "archive", "move": "move", "rename": "rename", "share": "share",
    "install": "install", "uninstall": "uninstall", "format": "format", "shutdown": "shutdown",
    "restart": "restart", "reboot": "restart", "unsubscribe": "unsubscribe", "block": "block",
    # Undoing what was done: "Void invoice" sits at cosine 0.855 from "Create invoice".
    "void": "void", "revoke": "revoke", "withdraw": "withdraw",
}
_WORD = re.compile(r"[a-z]+")


def verbs_of(label: str) -> frozenset[str]:
    return frozenset(CONSEQUENTIAL[w] for w in _WORD.findall(label.casefold()) if w in CONSEQUENTIAL)


def same_effect(recorded: str, candidate: str) -> bool:
    """True when the candidate does what the recorded control did, as far as
    consequential verbs tell: both carry none, or both carry the same ones."""
    return verbs_of(recorded) == verbs_of(candidate)
