"""A run an unexpected error broke off reads like any other run's result:
the D-Bus service reports it through `result_dict`, with every field a
finished run has, so a client parses one shape whatever happened."""

from __future__ import annotations

from replay.outcomes import broken_off
from replay.results import result_dict


def test_a_broken_off_run_is_a_failed_result_handed_to_the_agent():
    assert result_dict(broken_off("p-0123456789ab", "sign up", "X connection lost", "sign Grace up")) == {
        "run_id": None, "program_id": "p-0123456789ab", "program": "sign up", "status": "failed",
        "steps": [], "sent_input": False, "vlm_calls": 0, "elapsed_ms": 0, "verification": None,
        "code": None, "state": None, "lifecycle": [], "intent": "sign Grace up", "compatibility": None,
        "intent_gate": None,
        "escalation": {"step": 0, "policy": "escalate_to_agent", "reason": "X connection lost",
                       "candidates": []}}
    assert result_dict(broken_off("p-0123456789ab", "sign up", "boom"))["intent"] is None
