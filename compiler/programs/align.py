"""Aligning k ≥ 2 demonstrations into one sequence of program steps.

Method: steps are compared by `compiler.routines.actions.step_key` (kind,
app, and what a person calls the target — a button that moved in the tree is
still the same step). One trace is the reference: the medoid, the trace with the
smallest total edit distance to all others (ties go to the first), i.e. the
most typical demonstration. Every other trace is aligned to it pairwise,
and a reference position becomes a program step only when it is matched in
*every* other trace. Whatever is left over — a stray click one
demonstration had and another did not — is noise and is dropped.

Why insert/delete (LCS) alignment and not Levenshtein's: Levenshtein may
spend a substitution where an insertion plus a deletion costs the same, and
an optimal Levenshtein script can then match fewer steps than the longest
common subsequence — `[A, B]` vs `[B, C, C, C]` aligns with no match at all
(substitute A→B, B→C, insert C, C) although B is shared. Here a match is all
that counts, so the alignment maximizes matches: rapidfuzz's `Indel`
opcodes (insertions and deletions only) give exactly a longest common
subsequence. The medoid uses the same distance, so "typical" and "aligned"
agree.

Step keys are encoded as small integers by first appearance before
alignment: rapidfuzz would otherwise hash the tuples with Python's string
hash, which changes with PYTHONHASHSEED.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import Indel

from compiler.routines.actions import step_key

from ..records import Step
from .traces import Trace, TraceAction


@dataclass(frozen=True, slots=True)
class Alignment:
    """Which positions line up. `positions[s][t]` is the index, in trace t,
    of the action that becomes program step s."""

    reference: int
    positions: tuple[tuple[int, ...], ...]
    dropped_steps: int    # recorded actions left out, summed over all traces


@dataclass(frozen=True, slots=True)
class AlignedTraces:
    """Per program step, the aligned action from each trace (in trace order)."""

    reference: int
    steps: tuple[tuple[TraceAction, ...], ...]
    dropped_steps: int


def encode(sequences: Sequence[Sequence[Hashable]]) -> tuple[tuple[int, ...], ...]:
    """Keys to integers numbered by first appearance (deterministic)."""
    codes: dict[Hashable, int] = {}
    return tuple(tuple(codes.setdefault(key, len(codes)) for key in sequence) for sequence in sequences)


def medoid(codes: Sequence[Sequence[int]]) -> int:
    """The sequence with the smallest total insert/delete distance to the
    others; the first one on ties."""
    totals = [0] * len(codes)
    for i in range(len(codes)):
        for j in range(i + 1, len(codes)):
            distance = Indel.distance(codes[i], codes[j])
            totals[i] += distance
            totals[j] += distance
    return min(range(len(codes)), key=lambda i: (totals[i], i))


def matches(reference: Sequence[int], other: Sequence[int]) -> list[int]:
    """For each reference position, the matched position in `other`, or -1."""
    matched = [-1] * len(reference)
    for op in Indel.opcodes(reference, other):
        if op.tag == "equal":
            for offset in range(op.src_end - op.src_start):
                matched[op.src_start + offset] = op.dest_start + offset
    return matched


def align_sequences(sequences: Sequence[Sequence[Hashable]],
                    match: Callable[[Sequence[int], Sequence[int]], list[int]] = matches,
                    pick: Callable[[Sequence[Sequence[int]]], int] = medoid) -> Alignment:
    """Align sequences of hashable keys (see the module docstring).

    `match` and `pick` are the two primitives; they are parameters only so
    a benchmark can run a naive implementation through the same code."""
    codes = encode(sequences)
    reference = pick(codes)
    per_trace = [list(range(len(codes[reference]))) if t == reference else match(codes[reference], code)
                 for t, code in enumerate(codes)]
    kept = [p for p in range(len(codes[reference])) if all(m[p] >= 0 for m in per_trace)]
    positions = tuple(tuple(m[p] for m in per_trace) for p in kept)
    dropped = sum(len(code) for code in codes) - len(kept) * len(codes)
    return Alignment(reference, positions, dropped)


def align_traces(traces: Sequence[Trace], key: Callable[[Step], Hashable] = step_key,
                 **primitives: Any) -> AlignedTraces:
    """Align traces by their step keys; per program step, each trace's action."""
    alignment = align_sequences([[key(a.step) for a in trace.actions] for trace in traces], **primitives)
    steps = tuple(tuple(trace.actions[position] for trace, position in zip(traces, row))
                  for row in alignment.positions)
    return AlignedTraces(alignment.reference, steps, alignment.dropped_steps)
