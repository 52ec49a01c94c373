"""Intent keys and the first stage of retrieval (EchoPath §B.2): which
active programs a request in words may be about, before any gate looks at
the screen. The numbers are calibrated for all-MiniLM-L6-v2 on a
hand-written paraphrase set; docs/PROGRAM_MEMORY.md §2 says how, and
`bench/calibrate_intent.py` recomputes them.

A program's intent keys are its window's title words, its name, the
description the person gave it (`phantom programs describe`) and the
labels of the fields and controls its steps use, embedded together as one
text ("Expense Claim: expense claim. claim back money I spent on a work
trip. Amount, Purpose, Send claim"). One vector per program keeps the
index one matrix; on the calibration requests it put the true program
first about as often as the best of the keys taken one by one (37 against
38 of 50 by plain cosine, with 250 or 650 programs), and far more often
than the name alone (25–26). The vector is kept beside the program (table
`program_intents`, with the description it was made from) and made again
when the description changes.

Ranking corrects for hubs: with sentence embeddings some programs sit close
to every request ("print marketing copy" to anything about printing or
paper), so a program's similarity is discounted by how close it sits to its
nearest neighbours among the stored programs (cross-domain similarity local
scaling: 2·cos(q, p) − mean of p's 10 nearest neighbours' cosines).

The intent score a gate weighs is calibrated from the plain cosine:
0 at the cosine that 95 % of a request's unrelated programs stay below,
1 at the median cosine of a request and its own program — and it is capped
by how far the program falls behind the request's best match in memory, so
a program that a request fits clearly worse than another one never gets the
credit of a match just because its window happens to be open.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from compiler.programs.records import Program
from core.errors import PhantomError, quoted
from core.labels import once
from core.store import StoreError
from programs import api as memory

from .embedding import LabelMatcher

if TYPE_CHECKING:
    import numpy as np

    from programs.api import IntentRow

# The active programs a matrix of vectors holds, in its rows' order: (id, description) each.
Keys = tuple[tuple[str, str], ...]

MODEL = "all-MiniLM-L6-v2"
DIMENSIONS = 384
MAX_INTENT_CHARS = 300

# Calibrated on the calibration intents of fixtures/program_memory/tasks.toml
# (docs/PROGRAM_MEMORY.md §2); all on the plain cosine scale.
FIRST_STAGE = 0.18      # λ: the 5th percentile of request ↔ own program cosines
COS_UNRELATED = 0.22    # intent 0: the 95th percentile of request ↔ other task cosines
COS_MATCH = 0.35        # intent 1: the median request ↔ own program cosine
# A program behind the request's best match in memory (hub-corrected) loses
# its intent credit over this span: in effect only the best match, or one
# within a hair of it, can pass θ (a wrong program that happens to have the
# only open window must not run because the right one is closed).
BEHIND_SPAN = 0.01
HUB_NEIGHBOURS = 10
SHORTLIST = 5           # hits above λ that the gates look at, best first


class InvalidIntent(PhantomError, ValueError):
    """An intent that cannot be looked up (empty, too long, control characters)."""

    code = "invalid_intent"


@dataclass(frozen=True, slots=True)
class Hit:
    """One stored program as the first stage sees a request."""

    program_id: str
    name: str
    description: str
    cosine: float          # the plain cosine of the request and the program's keys
    similarity: float      # hub-corrected, what ranks
    intent: float          # the calibrated intent score in [0, 1]


@dataclass(frozen=True, slots=True)
class Ranking:
    intent: str
    hits: tuple[Hit, ...]        # above λ, best first, at most SHORTLIST
    searched: int                # active programs looked at
    best_below: Hit | None       # the best one under λ, to say how close it came


def check_intent(text: object) -> str:
    """The request as it will be embedded (whitespace folded), or InvalidIntent."""
    if not isinstance(text, str):
        raise InvalidIntent(f"an intent is text, not {type(text).__name__}; nothing was sent")
    folded = " ".join(text.split())
    if not folded:
        raise InvalidIntent("the intent is empty: say what the program should do, e.g. "
                            "'sign Grace up on the form'; nothing was sent")
    if len(folded) > MAX_INTENT_CHARS:
        raise InvalidIntent(f"the intent is {len(folded)} characters; at most {MAX_INTENT_CHARS} "
                            "(one sentence saying what to do); nothing was sent")
    if any(ord(c) < 32 or ord(c) == 127 for c in text if c not in "\t\n\r"):
        raise InvalidIntent(f"the intent {quoted(text)} contains control characters; nothing was sent")
    return folded


def intent_keys(program: Program, description: str) -> dict[str, str]:
    """The program's intent keys, each on its own: title words, name,
    description (may be empty), and the labels its steps use (each once,
    in order)."""
    labels: list[str] = []
    for step in program.steps:
        # a label AT-SPI repeated ("4 4") keyed once; the body and its id keep it
        label = once(step.target.display if step.target is not None else "").rstrip(": ").strip()
        if label and label not in labels:
            labels.append(label)
    return {"title": " ".join(program.guard.title_tokens), "name": program.name,
            "description": description, "labels": ", ".join(labels)}


def key_text(program: Program, description: str) -> str:
    """The intent keys as the one text that is embedded."""
    keys = intent_keys(program, description)
    parts = [f"{keys['title']}: {keys['name']}" if keys["title"] else keys["name"]]
    parts += [keys[k] for k in ("description", "labels") if keys[k]]
    return ". ".join(parts)


def intent_score(cosine: float, behind: float) -> float:
    """The calibrated intent score of a plain cosine, capped by how far
    (in hub-corrected similarity) the program is behind the best match."""
    absolute = (cosine - COS_UNRELATED) / (COS_MATCH - COS_UNRELATED)
    relative = 1.0 - behind / BEHIND_SPAN
    return max(0.0, min(1.0, absolute, relative))


class IntentIndex:
    """The active programs' intent vectors for one store, with the hub
    discounts; vectors missing from the store (new or re-described
    programs) are made here and written back when the store is writable."""

    def __init__(self, db: str | os.PathLike[str], matcher: LabelMatcher) -> None:
        self.db = db
        self.matcher = matcher

    def rank(self, intent: str) -> Ranking:
        import numpy as np

        intent = check_intent(intent)
        rows, vectors = self._vectors()
        if not rows:
            return Ranking(intent, (), 0, None)
        query = self.matcher.embed([intent])[0].astype(np.float32)
        cosines = vectors @ query
        keys = tuple((r.program_id, r.description) for r in rows)
        similarity = 2.0 * cosines - hub_discount(vectors, keys)
        order = sorted(range(len(rows)), key=lambda i: (-float(similarity[i]), rows[i].program_id))
        best = float(similarity[order[0]])

        def hit(i: int) -> Hit:
            return Hit(rows[i].program_id, rows[i].name, rows[i].description, float(cosines[i]),
                       float(similarity[i]), intent_score(float(cosines[i]), best - float(similarity[i])))

        above = [hit(i) for i in order if cosines[i] >= FIRST_STAGE]
        below = [i for i in order if cosines[i] < FIRST_STAGE]
        return Ranking(intent, tuple(above[:SHORTLIST]), len(rows), hit(below[0]) if below else None)

    def _vectors(self) -> tuple[list[IntentRow], np.ndarray]:
        """The active programs and their vectors as one matrix: from this
        process's cache, else from the store, else made now (and kept)."""
        import numpy as np

        rows = memory.active_intents(self.db)
        keys = tuple((r.program_id, r.description) for r in rows)
        with _cache_lock:
            matrix = _matrices.get(keys)
            missing = [r for r in rows if (r.program_id, r.description) not in _vectors]
        if matrix is not None:
            return rows, matrix
        if missing:
            stored = memory.intent_vectors(self.db, (r.program_id for r in missing))
            made: dict[str, tuple[str, bytes]] = {}
            fresh = []
            for row in missing:
                description, model, blob = stored.get(row.program_id, (None, None, b""))
                if description == row.description and model == MODEL and len(blob) == DIMENSIONS * 4:
                    _remember(row, np.frombuffer(blob, dtype=np.float32))
                else:
                    fresh.append(row)
            if fresh:
                texts = [key_text(memory.load(self.db, r.program_id), r.description) for r in fresh]
                for row, vector in zip(fresh, self.matcher.embed(texts)):
                    vector = np.asarray(vector, dtype=np.float32)
                    _remember(row, vector)
                    made[row.program_id] = (row.description, vector.tobytes())
                try:
                    memory.cache_intents(self.db, made, MODEL)
                except StoreError:
                    pass  # a read-only store: the vectors serve this process only
        with _cache_lock:
            matrix = np.stack([_vectors[key] for key in keys]) if keys else np.zeros((0, DIMENSIONS),
                                                                                     np.float32)
            if len(_matrices) > 4:
                _matrices.clear()
            _matrices[keys] = matrix
        return rows, matrix


# This process's copies: a program's vector is fixed by its id (a digest of
# the body) and its description, so a cached one never goes stale.
_vectors: dict[tuple[str, str], np.ndarray] = {}
_matrices: dict[Keys, np.ndarray] = {}
_cache_lock = threading.Lock()


def clear_caches() -> None:
    """Forget this process's vectors, matrices and hub discounts (what a new
    process starts with): for measurements."""
    with _cache_lock:
        _vectors.clear()
        _matrices.clear()
    with _hub_lock:
        _hub_cache.clear()


def _remember(row: IntentRow, vector: np.ndarray) -> None:
    with _cache_lock:
        _vectors[(row.program_id, row.description)] = vector


_hub_cache: dict[Keys, np.ndarray] = {}
_hub_lock = threading.Lock()


def hub_discount(vectors: np.ndarray, key: Keys | None = None) -> np.ndarray:
    """Each program's mean cosine to its nearest stored neighbours (0 when
    it has none); kept under `key` (the programs and their descriptions,
    which fix the vectors) when one is given."""
    import numpy as np

    with _hub_lock:
        cached = _hub_cache.get(key) if key is not None else None
    if cached is not None:
        return cached
    count = len(vectors)
    if count < 2:
        result = np.zeros(count, dtype=np.float32)
    else:
        k = min(HUB_NEIGHBOURS, count - 1)
        neighbours = vectors @ vectors.T
        np.fill_diagonal(neighbours, -np.inf)
        result = np.partition(neighbours, count - k, axis=1)[:, count - k:].mean(axis=1)
    if key is not None:
        with _hub_lock:
            if len(_hub_cache) > 8:
                _hub_cache.clear()
            _hub_cache[key] = result
    return result
