"""Tests for compiler.routines.gate: the §6.4 heuristic + §6.3 Gittins gate."""

from __future__ import annotations

import dataclasses
import json
import math

import numpy as np
import pytest

from compiler.routines.gate import (
    CostModel,
    GateDecision,
    GateInputs,
    break_even_threshold,
    decide,
    gittins_index,
)

PRIOR_INDEX = gittins_index(1, 1, 0.95, 200)  # 0.7614


def stable(steps: int = 6, successes: int = 10, trials: int = 10, **overrides) -> GateInputs:
    """A routine that passes every structural criterion unless overridden."""
    fields = dict(steps=steps, traces=3, h_ui_normalized=0.1, timing_cv=0.2,
                  successes=successes, trials=trials)
    fields.update(overrides)
    return GateInputs(**fields)


# --------------------------------------------------------------------------- λ*


def test_break_even_threshold_formula():
    costs = CostModel(agent_tokens_per_step=1000.0, replay_tokens_per_step=100.0,
                      compile_tokens=50000.0, expected_runs=50)
    # (C_c/N + c_r·L)/(c_v·L) = (1000 + 400)/4000
    assert break_even_threshold(4, costs) == pytest.approx(0.35)


@pytest.mark.parametrize(("steps", "expected"), [(3, 0.824933), (6, 0.808267), (12, 0.799933)])
def test_default_thresholds(steps, expected):
    assert break_even_threshold(steps, CostModel()) == pytest.approx(expected, abs=1e-6)


def test_default_thresholds_stay_above_the_prior_index_at_every_length():
    # Second line of defence: even without the explicit k = 0 rule the defaults would
    # refuse a routine with no observed outcomes.
    costs = CostModel()
    assert all(break_even_threshold(n, costs) > PRIOR_INDEX for n in range(1, 5001))
    assert costs.replay_tokens_per_step / costs.agent_tokens_per_step > PRIOR_INDEX


def test_threshold_falls_with_length_and_runs():
    costs = CostModel()
    lams = [break_even_threshold(n, costs) for n in (3, 6, 12, 60)]
    assert all(later < earlier for earlier, later in zip(lams, lams[1:]))
    more_runs = dataclasses.replace(costs, expected_runs=1000)
    assert break_even_threshold(3, more_runs) < break_even_threshold(3, costs)


def test_break_even_threshold_rejects_bad_arguments():
    with pytest.raises(ValueError):
        break_even_threshold(0, CostModel())
    with pytest.raises(ValueError):
        break_even_threshold(2.0, CostModel())
    with pytest.raises(ValueError):
        break_even_threshold(3, {"agent_tokens_per_step": 1})


# --------------------------------------------------------------------------- verdicts


@pytest.mark.parametrize("steps", [3, 6, 12])
def test_ten_of_ten_crystallizes_and_three_of_ten_does_not(steps):
    good = decide(stable(steps, successes=10, trials=10))
    assert good.heuristic_pass and good.evidence and good.gittins_pass and good.crystallize
    assert good.gittins_index > good.lambda_star
    assert (good.posterior_alpha, good.posterior_beta) == (11, 1)
    assert good.reason.startswith("crystallize")

    poor = decide(stable(steps, successes=3, trials=10))
    assert poor.heuristic_pass and not poor.gittins_pass and not poor.crystallize
    assert poor.gittins_index <= poor.lambda_star
    assert (poor.posterior_alpha, poor.posterior_beta) == (4, 8)
    assert "3/10" in poor.reason and poor.reason.startswith("keep agent")


def test_ablation_heuristic_only_vs_heuristic_plus_gittins_differ():
    d = decide(stable(successes=3, trials=10))
    assert d.heuristic_only is True
    assert d.crystallize is False
    assert d.ablation_differs is True
    # ...and they agree when the evidence is good.
    assert decide(stable(successes=10, trials=10)).ablation_differs is False


def test_gittins_alone_cannot_override_the_heuristic():
    d = decide(stable(steps=2, successes=10, trials=10))
    assert d.gittins_pass and not d.heuristic_pass and not d.crystallize
    assert "length 2 not >= 3" in d.reason


def test_zero_observations_is_insufficient_evidence():
    d = decide(stable(successes=0, trials=0))
    assert d.heuristic_pass and not d.evidence and not d.crystallize
    assert (d.posterior_alpha, d.posterior_beta) == (1, 1)
    assert d.gittins_index == pytest.approx(0.7614, abs=1e-4)
    assert "insufficient evidence" in d.reason


def test_zero_observations_refused_even_when_replay_is_nearly_free():
    # With optimistic costs λ* is tiny and the prior index alone would pass; the
    # explicit rule is what refuses.
    cheap = CostModel(replay_tokens_per_step=0.0, compile_tokens=0.0)
    assert break_even_threshold(6, cheap) == 0.0
    d = decide(stable(successes=0, trials=0), cheap)
    assert d.gittins_index > d.lambda_star
    assert not d.gittins_pass and not d.crystallize
    assert "insufficient evidence" in d.reason
    # One observed success is evidence, and then the cheap model crystallizes.
    assert decide(stable(successes=1, trials=1), cheap).crystallize


def test_lambda_star_at_or_above_one_means_never():
    pricey = CostModel(replay_tokens_per_step=2600.0)
    d = decide(stable(successes=100, trials=100), pricey)
    assert d.lambda_star >= 1.0
    assert not d.gittins_pass and not d.crystallize
    assert "never crystallize" in d.reason


def test_verdict_is_monotone_in_successes():
    verdicts = [decide(stable(successes=s, trials=10)).crystallize for s in range(11)]
    assert verdicts == sorted(verdicts)  # False ... False True ... True
    assert verdicts[0] is False and verdicts[-1] is True


# --------------------------------------------------------------------------- criteria


@pytest.mark.parametrize(
    ("overrides", "name", "passes"),
    [
        ({"steps": 3}, "length", True),
        ({"steps": 2}, "length", False),
        ({"traces": 2}, "recurrence", True),
        ({"traces": 1}, "recurrence", False),
        ({"h_ui_normalized": 0.3}, "ui_stability", True),  # 1 - 0.3 = 0.7, inclusive
        ({"h_ui_normalized": 0.31}, "ui_stability", False),
        ({"h_ui_normalized": 0.0}, "ui_stability", True),
        ({"timing_cv": 0.4}, "timing_stability", True),  # inclusive
        ({"timing_cv": 0.41}, "timing_stability", False),
    ],
)
def test_each_structural_criterion_and_its_boundary(overrides, name, passes):
    fields = dict(steps=6, traces=3, h_ui_normalized=0.1, timing_cv=0.2, successes=10, trials=10)
    fields.update(overrides)
    d = decide(GateInputs(**fields))
    by_name = {c.name: c for c in d.criteria}
    assert [c.name for c in d.criteria] == ["length", "recurrence", "ui_stability",
                                            "timing_stability"]
    assert by_name[name].passed is passes
    assert d.heuristic_pass is passes
    assert d.crystallize is passes
    if not passes:
        assert name in d.reason


def test_criterion_values_reported():
    d = decide(stable(steps=7, h_ui_normalized=0.25, timing_cv=0.125))
    values = {c.name: (c.value, c.threshold, c.comparison) for c in d.criteria}
    assert values == {
        "length": (7.0, 3.0, ">="),
        "recurrence": (3.0, 2.0, ">="),
        "ui_stability": (0.75, 0.7, ">="),
        "timing_stability": (0.125, 0.4, "<="),
    }


def test_entropy_float_noise_is_tolerated_and_clamped():
    d = decide(stable(h_ui_normalized=1.0 + 1e-12))
    assert {c.name: c.value for c in d.criteria}["ui_stability"] == 0.0


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs",
    [
        {"agent_tokens_per_step": 0.0},
        {"agent_tokens_per_step": -2500.0},
        {"agent_tokens_per_step": math.nan},
        {"agent_tokens_per_step": math.inf},
        {"replay_tokens_per_step": -1.0},
        {"replay_tokens_per_step": math.nan},
        {"compile_tokens": -1.0},
        {"compile_tokens": math.inf},
        {"compile_tokens": "25000"},
        {"expected_runs": 0},
        {"expected_runs": -10},
        {"expected_runs": 100.0},
        {"expected_runs": True},
        {"gamma": 1.0},
        {"gamma": 0.0},
        {"gamma": math.nan},
        {"horizon": 0},
        {"horizon": 100000},
        {"horizon": 200.5},
    ],
)
def test_absurd_cost_models_raise(kwargs):
    with pytest.raises(ValueError) as excinfo:
        CostModel(**kwargs)
    assert next(iter(kwargs)) in str(excinfo.value)


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({"successes": 11, "trials": 10}, "cannot exceed"),
        ({"successes": -1}, "successes"),
        ({"trials": -1, "successes": 0}, "trials"),
        ({"traces": -1}, "traces"),
        ({"steps": 0}, "steps"),
        ({"steps": -3}, "steps"),
        ({"steps": 6.0}, "steps"),
        ({"successes": True}, "successes"),
        ({"h_ui_normalized": 1.5}, "h_ui_normalized"),
        ({"h_ui_normalized": -0.1}, "h_ui_normalized"),
        ({"h_ui_normalized": math.nan}, "h_ui_normalized"),
        ({"timing_cv": -0.1}, "timing_cv"),
        ({"timing_cv": math.nan}, "timing_cv"),
        ({"timing_cv": math.inf}, "timing_cv"),
    ],
)
def test_bad_gate_inputs_raise(overrides, needle):
    fields = dict(steps=6, traces=3, h_ui_normalized=0.1, timing_cv=0.2, successes=5, trials=10)
    fields.update(overrides)
    with pytest.raises(ValueError) as excinfo:
        GateInputs(**fields)
    assert needle in str(excinfo.value)


def test_decide_rejects_wrong_types():
    with pytest.raises(ValueError):
        decide({"steps": 6})
    with pytest.raises(ValueError):
        decide(stable(), costs="default")


# --------------------------------------------------------------------------- output


def _builtins_only(value) -> bool:
    if isinstance(value, dict):
        return all(type(k) is str and _builtins_only(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_builtins_only(v) for v in value)
    return type(value) in (str, int, float, bool) or value is None


def _floats(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _floats(v)
    elif isinstance(value, list):
        for v in value:
            yield from _floats(v)
    elif type(value) is float:
        yield value


@pytest.mark.parametrize(
    "inputs",
    [stable(), stable(successes=3), stable(successes=0, trials=0), stable(steps=2),
     GateInputs(np.int64(5), np.int64(4), np.float64(0.2), np.float64(0.3),
                np.int64(7), np.int64(9))],
)
def test_to_dict_is_json_safe_rounded_and_deterministic(inputs):
    d = decide(inputs).to_dict()
    assert _builtins_only(d)
    assert all(x == round(x, 6) and math.isfinite(x) for x in _floats(d))
    text = json.dumps(d, sort_keys=True, allow_nan=False)
    assert text == json.dumps(decide(inputs).to_dict(), sort_keys=True, allow_nan=False)
    assert "-0.0" not in text
    assert set(d) >= {"criteria", "heuristic_pass", "lambda_star", "gittins_index",
                      "posterior_alpha", "posterior_beta", "crystallize", "reason"}


def test_dataclasses_are_frozen_and_slotted():
    d = decide(stable())
    for obj in (d, d.criteria[0], CostModel(), stable()):
        assert not hasattr(obj, "__dict__")
        field = dataclasses.fields(obj)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, field, getattr(obj, field))
    assert isinstance(d, GateDecision)
