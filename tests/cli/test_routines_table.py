"""`phantom routines` as a table a person reads: each verdict with its
reason, descriptions wrapped below their row (or whole with --wide)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from cli.commands.routines import why
from cli.main import main

RECORDED = str(Path(__file__).resolve().parents[2] / "fixtures" / "recorded" / "desktop.sqlite3")


def criterion(name: str, passed: bool):
    return SimpleNamespace(name=name, passed=passed)


def test_the_reason_names_the_failed_criteria_else_the_gittins_verdict():
    failed = SimpleNamespace(criteria=(criterion("length", True), criterion("timing_stability", False)),
                             evidence=True, lambda_star=0.8, gittins_pass=True)
    assert why(failed) == "timing_stability"
    untried = SimpleNamespace(criteria=(criterion("length", True),), evidence=False,
                              lambda_star=0.8, gittins_pass=False)
    assert why(untried) == "no outcomes yet"
    paid = SimpleNamespace(criteria=(), evidence=True, lambda_star=0.8, gittins_pass=True)
    assert why(paid) == "index > λ*"


def test_descriptions_wrap_to_the_terminal_and_wide_keeps_them_whole(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["routines", "--db", RECORDED]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-1] == "why"
    rows = [line for line in lines if line.startswith("r-")]
    described = [line for line in lines if line.startswith("    ")]
    assert len(rows) == 2 and all(row.endswith("index > λ*") for row in rows)
    assert all(len(line) <= 80 for line in described)
    assert "click push button 'Submit' in" in " ".join(described)
    assert main(["routines", "--db", RECORDED, "--wide"]) == 0
    wide = [line for line in capsys.readouterr().out.splitlines() if line.startswith("r-")]
    assert len(wide) == 2 and wide[0].endswith("click push button 'Submit' in phantom-form")
