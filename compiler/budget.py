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

import re

# cl100k_base's pre-tokenization pattern, written for Python's `re` (letters
# are [^\W\d_], digits \d): a little looser than the original around "_",
# which only makes the estimate slightly higher.
_SPLIT = re.compile(r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\w]?[^\W\d_]+|\d{1,3}"
                    r"| ?[^\s\w]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
_LONG_RUNS = re.compile(r"[^\W_]{5,}")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def estimate_tokens(text: str) -> int:
    """Pieces, plus one per four characters beyond four in each long run of
    letters or digits, plus one per non-ASCII character."""
    pieces = len(_SPLIT.findall(text))
    surcharge = sum((len(run) - 1) // 4 for run in _LONG_RUNS.findall(text))
    return pieces + surcharge + len(_NON_ASCII.findall(text))
