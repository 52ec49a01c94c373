"""`phantom status` says how fast the store grows and when it reaches its
[retention] cap: on a one-day synthetic store seen the day after, with the
cap and raw_days of the config file; the projection itself is pure."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

import core.clock
from cli.commands import capture
from cli.main import main
from core.store.growth import _outlook

PHANTOM = str(Path(sys.executable).with_name("phantom"))
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "one.sqlite3"
    subprocess.run([PHANTOM, "synth", "--days", "1", "--seed", "7", "--db", str(path)], check=True,
                   capture_output=True, timeout=600)
    return path


@pytest.fixture
def store(corpus, tmp_path, monkeypatch) -> Path:
    path = tmp_path / "phantom.sqlite3"
    shutil.copy(corpus, path)
    monkeypatch.setattr(capture, "daemon_status", lambda: None)
    monkeypatch.setenv("TZ", "Europe/Berlin")   # the zone synth lives in: its day is one local day
    time.tzset()
    # synth's first day is Monday 2026-03-02: look at it from Tuesday afternoon
    monkeypatch.setattr(core.clock, "now_ms", lambda: int(datetime(2026, 3, 3, 15).timestamp() * 1000))
    return path


@pytest.fixture(autouse=True)
def _zone_back():
    yield
    time.tzset()   # monkeypatch has put TZ back by now


def _config(tmp_path: Path, monkeypatch, text: str) -> None:
    (tmp_path / "config" / "phantom").mkdir(parents=True, exist_ok=True)
    (tmp_path / "config" / "phantom" / "config.toml").write_text(text)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def _status(store: Path, capsys) -> tuple[str, dict]:
    assert main(["status", "--db", str(store)]) == 0
    text = capsys.readouterr().out
    assert main(["status", "--db", str(store), "--format", "json"]) == 0
    return text, json.loads(capsys.readouterr().out)["store"]["growth"]


def test_the_day_captured_is_the_growth_and_the_cap_is_days_away(store, tmp_path, monkeypatch, capsys):
    _config(tmp_path, monkeypatch, "[retention]\nraw_days = 0\nmax_store_mb = 200\n")
    text, growth = _status(store, capsys)
    assert [d["day"] for d in growth["days"]] == ["2026-03-02"]     # since the first capture
    # one synthetic day is about 40 MiB of pages in use
    assert 20 * MIB < growth["per_day_bytes"] < 60 * MIB
    assert growth["per_day_bytes"] <= growth["live_bytes"]
    assert growth["cap_bytes"] == 200 * MIB and growth["level_bytes"] is None
    left = (200 * MIB - growth["live_bytes"]) / growth["per_day_bytes"]
    assert growth["days_to_cap"] == pytest.approx(left)
    assert "growth: ≈ " in text and " a day over the last 1 day(s) (03-02 " in text
    assert f"reaches its 200.0 MiB cap in ≈ {left:.0f} day(s)" in text


def test_a_store_over_its_cap_says_so(store, tmp_path, monkeypatch, capsys):
    _config(tmp_path, monkeypatch, "[retention]\nmax_store_mb = 5\n")
    text, growth = _status(store, capsys)
    assert growth["days_to_cap"] == 0
    assert "over its 5.0 MiB cap" in text


def test_the_defaults_level_the_store_off_under_the_cap(store, tmp_path, monkeypatch, capsys):
    _config(tmp_path, monkeypatch, "")
    text, growth = _status(store, capsys)
    assert growth["cap_bytes"] == 2048 * MIB and growth["raw_days"] == 30
    assert growth["level_bytes"] == 30 * growth["per_day_bytes"]
    assert "keeping 30 days of raw capture it levels off near " in text and "2.0 GiB cap" in text


def test_no_cap_no_projection(store, tmp_path, monkeypatch, capsys):
    _config(tmp_path, monkeypatch, "[retention]\nmax_store_mb = 0\n")
    text, growth = _status(store, capsys)
    assert growth["cap_bytes"] is None and growth["days_to_cap"] is None
    assert "grows without a cap" in text


@pytest.mark.parametrize(("live", "per_day", "cap", "raw_days", "expected"), [
    (100, 10, 200, 0, (10.0, None)),        # ten days to go
    (100, 10, None, 0, (None, None)),       # no cap
    (100, 0, 200, 30, (None, None)),        # no growth
    (250, 10, 200, 0, (0.0, None)),         # over it already
    (100, 10, 200, 15, (None, 150)),        # retention holds it at 150, below the cap
    (100, 10, 200, 30, (10.0, 300)),        # retention's level lies above the cap
])
def test_the_outlook(live, per_day, cap, raw_days, expected):
    assert _outlook(live, per_day, cap, raw_days) == expected
