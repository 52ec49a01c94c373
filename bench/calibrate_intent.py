"""Calibrate intent retrieval for all-MiniLM-L6-v2 (docs/PROGRAM_MEMORY.md §2).

    python bench/calibrate_intent.py [--distractors 200]

Uses only the `calibration` intents of fixtures/program_memory/tasks.toml
(the benchmark's intents are held out) against the fifty task programs'
intent keys, with distractor programs in memory for the hub correction:

- λ (first stage): the 5th percentile of request ↔ own-program cosines, so
  that 95 % of paraphrases reach the gates;
- COS_UNRELATED (intent 0): the 95th percentile of request ↔ other-task
  cosines; COS_MATCH (intent 1): the median request ↔ own-program cosine;
- BEHIND_SPAN: the span over which a program behind the request's best
  match loses its intent credit, chosen from a grid to maximise
  (true programs that would pass θ) − 10 × (other tasks that would pass θ
  if only their window were open): running the wrong program is ten times
  worse than asking.

Prints the figures and the constants; it changes nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import table  # noqa: E402

GRID = (0.01, 0.025, 0.05, 0.075, 0.10, 0.15, 0.20, 0.30, 1.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--distractors", type=int, default=200)
    args = parser.parse_args()

    import numpy as np

    from replay import intent as retrieval
    from replay.compatibility import THETA, WEIGHTS
    from replay.embedding import LabelMatcher
    from testbed.program_catalog import distractor_description, distractor_programs, load_tasks, task_program

    tasks = load_tasks()
    programs = [task_program(t) for t in tasks]
    others = distractor_programs(args.distractors)
    matcher = LabelMatcher()
    keys = [retrieval.key_text(p, t.description) for p, t in zip(programs, tasks)]
    keys += [retrieval.key_text(p, distractor_description(p, n)) for n, p in enumerate(others)]
    vectors = matcher.embed(keys).astype(np.float32)
    queries = matcher.embed([t.calibration for t in tasks]).astype(np.float32)
    cosines = queries @ vectors.T
    n = len(tasks)
    own = cosines[np.arange(n), np.arange(n)]
    other = cosines[:, :n][~np.eye(n, dtype=bool)]
    first_stage = float(np.percentile(own, 5))
    unrelated = float(np.percentile(other, 95))
    match = float(np.median(own))

    similarity = 2 * cosines - retrieval.hub_discount(vectors)
    best = similarity.max(axis=1)
    behind = best[:, None] - similarity
    needed = (THETA - (1 - WEIGHTS["intent"])) / WEIGHTS["intent"]   # intent score for θ, all else perfect
    rows = []
    choice = None
    for span in GRID:
        absolute = (cosines[:, :n] - unrelated) / (match - unrelated)
        relative = 1 - behind[:, :n] / span
        score = np.clip(np.minimum(absolute, relative), 0, 1)
        passes = score >= needed
        true = int(passes[np.arange(n), np.arange(n)].sum())
        false = int(passes[~np.eye(n, dtype=bool)].sum())
        merit = true - 10 * false
        rows.append((f"BEHIND_SPAN {span}", f"own program passes θ {true}/{n}, another task's "
                     f"would {false}/{n * (n - 1)}, merit {merit}"))
        if choice is None or merit > choice[1]:
            choice = (span, merit)
    top1 = int((similarity.argmax(axis=1) == np.arange(n)).sum())
    plain_top1 = int((cosines.argmax(axis=1) == np.arange(n)).sum())
    # The keys one by one, for comparison: the name alone, and the best of them.
    descriptions = [t.description for t in tasks] + [distractor_description(p, k)
                                                     for k, p in enumerate(others)]
    separate = [retrieval.intent_keys(p, d) for p, d in zip([*programs, *others], descriptions)]
    by_key = {kind: queries @ matcher.embed([k[kind] or k["name"] for k in separate]).astype(np.float32).T
              for kind in ("title", "name", "description", "labels")}
    name_top1 = int((by_key["name"].argmax(axis=1) == np.arange(n)).sum())
    best_key = np.maximum.reduce(list(by_key.values()))
    best_key_top1 = int((best_key.argmax(axis=1) == np.arange(n)).sum())
    rows = [
        ("calibration requests / programs in memory", f"{n} / {len(keys)}"),
        ("own-program cosine, percentiles 5/25/50/75",
         " / ".join(f"{v:.3f}" for v in np.percentile(own, (5, 25, 50, 75)))),
        ("other-task cosine, percentiles 50/95/99/max",
         " / ".join(f"{v:.3f}" for v in (*np.percentile(other, (50, 95, 99)), other.max()))),
        ("top-1 by hub-corrected similarity (by plain cosine)", f"{top1}/{n} ({plain_top1}/{n})"),
        ("top-1 by plain cosine: the name alone / the best of the keys one by one",
         f"{name_top1}/{n} / {best_key_top1}/{n}"),
        ("intent score needed to pass θ with every other term perfect", f"{needed:.3f}"),
        *rows,
        ("=> FIRST_STAGE (λ)", f"{first_stage:.2f}"),
        ("=> COS_UNRELATED / COS_MATCH", f"{unrelated:.2f} / {match:.2f}"),
        ("=> BEHIND_SPAN", f"{choice[0]}"),
    ]
    print(table(rows, "calibrate_intent: all-MiniLM-L6-v2 on the calibration paraphrases"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
