"""The policy ladder decides from what its rungs found, never from how a
rung worded it: a label match the matcher turned down is refused only when
the matcher says two candidates were too close to tell apart (`Match.ambiguous`),
and the policies keep the values telemetry, results and the store use."""

from __future__ import annotations

import numpy as np
import pytest

from compiler.programs.records import Condition, ProgramStep, Target
from replay import live, policy
from replay.embedding import Match
from replay.policy import Policy


class Matcher:
    """The label matcher's answer, fixed: only the policy's reading of it is under test."""

    def __init__(self, match: Match) -> None:
        self.match = match

    def best(self, query: str, candidates: list[str]) -> Match:
        return self.match

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.full((len(texts), 2), np.sqrt(0.5), dtype=np.float32)


def send_step() -> ProgramStep:
    target = Target("mail", "", "push button", "Send", "", None)
    return ProgramStep(0, "click", target, precondition=Condition("aria_path_resolves"))


@pytest.mark.parametrize(("match", "expected"), [
    (Match(None, 0.90, 0.88, "two labels score within the margin", ambiguous=True), Policy.REFUSED),
    (Match(None, 0.60, 0.10, "ambiguous: worded like a tie, but only weak"), Policy.ESCALATE),
])
def test_a_turned_down_label_match_is_refused_only_when_the_matcher_found_it_ambiguous(
        monkeypatch, match, expected):
    pool = [live.LiveElement(object(), "push button", "Send now", ""),
            live.LiveElement(object(), "push button", "Send later", "")]
    monkeypatch.setattr(live, "candidates", lambda view, role: pool)
    decision = policy.decide(send_step(), None, Matcher(match))
    assert decision.policy is expected and not decision.may_act and decision.element is None
    assert decision.unresolved == (expected is Policy.ESCALATE)


def test_the_policies_keep_the_values_telemetry_and_the_store_use():
    assert [p.value for p in Policy] == ["direct", "embed_match_then_act", "visual_reaim", "refused",
                                         "escalate_to_agent"]
    assert [p for p in Policy if p.acts] == [Policy.DIRECT, Policy.EMBED, Policy.VISUAL]
    assert f"{Policy.EMBED}" == "embed_match_then_act" and Policy.REFUSED == "refused"
