"""Routine ids: the same cycle of steps has the same id in every window.

A routine mined from a loop can start at any step of it: ABCD repeated is
also BCDA, CDAB and DABC, and which of them a window's miner reports
depends on where the window cuts the loop. The id is therefore a digest of
the cycle's canonical rotation — the rotation whose keys, each written as
canonical JSON, sort first — so every rotation, in every window and on
every machine, is named the same (`cycles` reports one of them).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Sequence

__all__ = ["canonical_rotation", "routine_id"]

_CANONICAL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=repr)


def _text(key: Hashable) -> str:
    return _CANONICAL.encode(list(key) if isinstance(key, tuple) else key)


def canonical_rotation(keys: Sequence[Hashable]) -> tuple[Hashable, ...]:
    """The rotation of `keys` whose canonical texts compare smallest."""
    keys = tuple(keys)
    if not keys:
        return keys
    texts = [_text(k) for k in keys]
    best = min(range(len(keys)), key=lambda i: texts[i:] + texts[:i])
    return keys[best:] + keys[:best]


def routine_id(keys: Sequence[Hashable]) -> str:
    """First 12 hex digits of sha256 over the canonical JSON of the keys'
    canonical rotation."""
    text = "[" + ",".join(_text(k) for k in canonical_rotation(keys)) + "]"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
