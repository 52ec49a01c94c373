"""Token budgets for the compact block, without loading a tokenizer.

Loading the cl100k_base vocabulary costs about a second and encoding a day's
block tens of milliseconds — more than the whole compilation. The budget
check instead uses cl100k's own pre-tokenizer (the regex that splits text
into pieces before byte-pair merging) and charges each piece a conservative
number of tokens: one per piece, plus one per four characters beyond the
first four of a word piece. Every piece becomes at least one real token, and
the surcharge covers long or rare words, so the estimate stays at or above
the true count for this kind of text (tests check it against the real
tokenizer on the golden blocks). Deterministic: the same text, the same number.
"""

from __future__ import annotations

from functools import lru_cache

# cl100k_base's pre-tokenization pattern.
_PATTERN = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
            r"""|\s*[\r\n]+|\s+(?!\S)|\s+""")


@lru_cache(maxsize=1)
def _splitter():
    import regex  # the PyPI 'regex' module: \p{L} classes

    return regex.compile(_PATTERN)


def estimate_tokens(text: str) -> int:
    total = 0
    for piece in _splitter().findall(text):
        length = len(piece.strip())
        total += 1 + max(0, (length - 4 + 3) // 4) if length > 4 else 1
        if any(ord(c) > 127 for c in piece):
            total += sum(1 for c in piece if ord(c) > 127)  # non-ASCII: about a token each
    return total
