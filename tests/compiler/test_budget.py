"""The compact block's token budget: the estimate never undercounts the real
cl100k_base tokenizer on the documents Phantom renders, and the block keeps
to the budget with the longest frames."""

from __future__ import annotations

import pytest

from compiler.api import compile_window, render
from compiler.budget import estimate_tokens
from compiler.tokens import count_tokens
from support.goldens import CASES, FIXTURES


@pytest.mark.parametrize("case", [c for c in CASES if c.args[0] == "compile"], ids=lambda c: c.name)
def test_the_estimate_is_at_least_the_real_token_count(case):
    text = (FIXTURES / case.golden).read_text(encoding="utf-8")
    assert estimate_tokens(text) >= count_tokens(text)


@pytest.mark.parametrize("budget", [300, 800, 2000, 6000])
def test_the_block_keeps_to_the_budget_and_keeps_the_longest_frames(budget):
    compiled = compile_window(FIXTURES / "synthetic" / "day.sqlite3", day="2026-03-02")
    block = render(compiled, "compact", budget=budget).decode()
    assert count_tokens(block) <= estimate_tokens(block) <= budget
    lines = [line for line in block.splitlines() if line.startswith("- ")]
    frames = sorted(compiled.document.frames, key=lambda f: -f.active_ms)
    assert lines, "a budget this size has room for some frames"
    if len(lines) < len(frames):
        assert "shorter frame(s) left out for the token budget" in block
        kept_minutes = min(f.active_ms for f in frames[:len(lines)])
        assert all(f.active_ms <= kept_minutes for f in frames[len(lines):])
    assert block.startswith("ACTIVITY 2026-03-02") and "provenance:" in block
