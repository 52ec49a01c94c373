"""`phantom programs export-skill`: a stored program as an Agent Skill,
parsed back with a YAML parser the way an agent's skill loader reads it."""

from __future__ import annotations

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from programs.api import promote
from programs.store import save_program
from support.programs import EMAIL, form_program

PHANTOM = str(Path(sys.executable).with_name("phantom"))
SECTIONS = ["## When to use", "## Inputs", "## Steps", "## Success check", "## Run"]


def run(*args: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "PHANTOM_DB"}
    return subprocess.run([PHANTOM, *args], capture_output=True, text=True, env=env, timeout=60)


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


@pytest.fixture
def store(tmp_path):
    db = tmp_path / "store.sqlite3"
    save_program(db, form_program(), created_ms=1_795_990_000_000)
    return db


def parse(text: str) -> tuple[dict, str]:
    match = re.fullmatch(r"---\n(.*?)\n---\n(.*)", text, flags=re.S)
    assert match is not None, text[:200]
    return yaml.safe_load(match.group(1)), match.group(2)


def test_only_an_active_program_is_exported_unless_asked(store, tmp_path):
    refused = run("programs", "export-skill", "fill form", "--db", str(store), "--out", str(tmp_path))
    assert refused.returncode == 4
    assert "is candidate, not active" in one_line(refused) and not (tmp_path / "fill-form").exists()
    anyway = run("programs", "export-skill", "fill form", "--db", str(store), "--any-state")
    assert anyway.returncode == 0, anyway.stderr
    assert parse(anyway.stdout)[0]["metadata"]["lifecycle-state"] == "candidate"
    unknown = run("programs", "export-skill", "no such thing", "--db", str(store))
    assert unknown.returncode == 1 and "no stored program" in one_line(unknown)


def test_the_skill_has_every_field_and_never_a_recorded_parameter_value(store, tmp_path):
    program_id, _ = promote(store, "fill form")
    written = run("programs", "export-skill", "fill form", "--db", str(store), "--out", str(tmp_path))
    assert written.returncode == 0, written.stderr
    path = tmp_path / "fill-form" / "SKILL.md"
    assert f"wrote {path} ({program_id})" in written.stdout
    front, body = parse(path.read_text(encoding="utf-8"))
    assert set(front) == {"name", "description", "metadata"}
    assert front["name"] == "fill-form" and re.fullmatch(r"[a-z0-9-]{1,64}", front["name"])
    assert 0 < len(front["description"]) <= 1024 and "fill form" in front["description"]
    assert front["metadata"] == {"phantom-program-id": program_id, "app": "phantom-form",
                                 "lifecycle-state": "active"}
    assert [line for line in body.splitlines() if line.startswith("## ")] == SECTIONS
    inputs = body.split("## Inputs")[1].split("## Steps")[0]
    assert "`P0`: the 'Name:' field (step 2)" in inputs and "letters, spaces" in inputs
    for sample in ("Ada Lovelace", "Alan Turing"):   # what the person typed where P0 stands
        assert sample not in path.read_text(encoding="utf-8")
    steps = body.split("## Steps")[1].split("## Success check")[0].strip().splitlines()
    assert steps == ["1. click text 'Name:'", "2. type $P0 into text 'Name:'",
                     f"3. type {EMAIL!r} into text 'Email:'", "4. click push button 'Submit'"]
    run_section = body.split("## Run")[1]
    assert "phantom replay 'fill form' --param 'P0=<P0>'" in run_section
    assert "org.phantom.Replay1.ReplayChecked" in run_section and "\"'fill form'\"" in run_section


def test_constants_can_be_redacted_and_names_never_collide(store, tmp_path):
    promote(store, "fill form")
    redacted = run("programs", "export-skill", "fill form", "--db", str(store), "--redact-constants")
    assert redacted.returncode == 0, redacted.stderr
    assert EMAIL not in redacted.stdout and "type <a fixed value> into text 'Email:'" in redacted.stdout
    twin = dataclasses.replace(form_program(), name="Fill Form!", id="").with_id()
    save_program(store, twin, created_ms=1_795_990_000_005)
    promote(store, twin.id)
    first = parse(run("programs", "export-skill", "fill form", "--db", str(store)).stdout)[0]["name"]
    second = parse(run("programs", "export-skill", twin.id, "--db", str(store)).stdout)[0]["name"]
    assert first != second and first.startswith("fill-form-") and second.startswith("fill-form-")
    assert all(re.fullmatch(r"[a-z0-9-]{1,64}", name) for name in (first, second))


def test_a_label_at_spi_repeats_is_said_once_in_the_skill_and_kept_in_the_store(tmp_path):
    """AT-SPI names the button 'Submit Submit' (name and child text): the
    skill's step (the MCP outline's words too) says it once; the stored
    body, and so the program's id, keep it as captured."""
    from programs.store import load_program

    program = form_program()
    steps = list(program.steps)
    at = next(i for i, s in enumerate(steps) if s.target is not None and s.target.name == "Submit")
    steps[at] = dataclasses.replace(steps[at], target=dataclasses.replace(steps[at].target, name="Submit Submit"))
    doubled = dataclasses.replace(program, steps=tuple(steps), id="").with_id()
    db = tmp_path / "store.sqlite3"
    save_program(db, doubled, created_ms=1_795_990_000_000)
    written = run("programs", "export-skill", doubled.id, "--db", str(db), "--any-state")
    assert written.returncode == 0, written.stderr
    assert "4. click push button 'Submit'" in written.stdout and "Submit Submit" not in written.stdout
    stored = load_program(db, doubled.id)
    assert stored.id == doubled.id and stored.steps[at].target.name == "Submit Submit"
