"""Determinism: the same store and window give byte-identical outputs in
fresh processes with different hash seeds, time zones and locales — equal
to the checked-in goldens."""

from __future__ import annotations

import json
import os

import apsw
import orjson
import pytest

from support.goldens import CASES, FIXTURES, run_case

ENVIRONMENTS = (
    {"PYTHONHASHSEED": "0", "TZ": "UTC", "LC_ALL": "C"},
    {"PYTHONHASHSEED": "4242", "TZ": "Pacific/Chatham", "LC_ALL": "C.UTF-8"},
)


def environment(overrides: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PHANTOM_DB", "LANG", "LANGUAGE")}
    env.update(overrides)
    return env


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_output_is_byte_identical_across_processes_and_equals_the_golden(case):
    golden = (FIXTURES / case.golden).read_bytes()
    outputs = [run_case(case, environment(overrides)) for overrides in ENVIRONMENTS]
    assert outputs[0] == outputs[1], f"{case.name} differs between environments"
    assert outputs[0] == golden, f"{case.name} differs from {case.golden}; if intended, run " \
                                 "tests/support/goldens.py --write and review the diff"


def _json_cases():
    return [case for case in CASES if case.golden.endswith(".json") and "routines" not in case.golden
            and "--no-inferred" not in case.args]


@pytest.mark.parametrize("case", _json_cases(), ids=lambda case: case.name)
def test_removing_the_inferred_tier_leaves_the_measured_tier_identical(case):
    full = json.loads((FIXTURES / case.golden).read_bytes())
    assert "inferred" in full
    del full["inferred"]
    measured = (FIXTURES / case.golden.replace(".json", ".measured.json")).read_bytes()
    assert orjson.dumps(full, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n" == measured


def _expand(ranges: str) -> list[int]:
    ids = []
    for part in filter(None, ranges.split(",")):
        low, _, high = part.partition("-")
        ids.extend(range(int(low), int(high or low) + 1))
    return ids


@pytest.mark.parametrize("case", _json_cases(), ids=lambda case: case.name)
def test_every_evidence_pointer_names_a_row_in_the_store(case):
    document = json.loads((FIXTURES / case.golden).read_bytes())
    store = apsw.Connection(f"file:{FIXTURES / case.store}?mode=ro",
                            flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    checked = 0
    for frame in document["frames"]:
        for table, ranges in frame["evidence"].items():
            for row_id in _expand(ranges):
                assert store.execute(f"SELECT 1 FROM {table} WHERE id = ?", (row_id,)).fetchone(), \
                    f"{frame['id']} cites {table}:{row_id}, which does not exist"
                checked += 1
    for item in document["inferred"]["items"]:
        assert set(item["frames"]) <= {frame["id"] for frame in document["frames"]}
        for span in item["evidence"]:
            for pointer in span.split(".."):
                table, _, row_id = pointer.partition(":")
                assert store.execute(f"SELECT 1 FROM {table} WHERE id = ?", (int(row_id),)).fetchone()
    assert checked > 0
