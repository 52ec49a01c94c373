"""`phantom status` and `phantom doctor` speak of one store in one unit, and
`status --db` describes the store it names — never a daemon that writes to
another one."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.commands import capture
from cli.main import main
from core.store.summary import format_size

RECORDED = Path(__file__).resolve().parents[2] / "fixtures" / "recorded" / "desktop.sqlite3"


@pytest.mark.parametrize(("size", "text"), [(0, "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"),
                                            (5 * 1024 ** 2 + 700 * 1024, "5.7 MiB"),
                                            (3 * 1024 ** 3, "3.0 GiB")])
def test_sizes_are_binary_units(size, text):
    assert format_size(size) == text


def test_doctor_gives_the_store_size_in_mib(capsys, tmp_path, monkeypatch):
    from cli.commands.doctor import _store

    check = _store(RECORDED)
    assert check.ok and f", {format_size(RECORDED.stat().st_size)}," in check.detail
    assert " MB" not in check.detail


def _live_daemon(db: Path) -> dict:
    return {"db": str(db), "state": "capturing", "pid": 4242, "display": ":0", "since_ms": 0,
            "snapshots": 3, "input_events": 4, "accessibility": "on", "focused_app": "gedit"}


def test_status_of_another_store_leaves_the_running_daemon_out(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(capture, "daemon_status", lambda: _live_daemon(tmp_path / "live.sqlite3"))
    assert main(["status", "--db", str(RECORDED)]) == 0
    out = capsys.readouterr().out
    assert "pid 4242" not in out and "not running" in out and str(RECORDED) in out


def test_status_of_a_garbage_file_is_an_error_even_while_a_daemon_runs(capsys, tmp_path, monkeypatch):
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database" * 100)
    monkeypatch.setattr(capture, "daemon_status", lambda: _live_daemon(tmp_path / "live.sqlite3"))
    assert main(["status", "--db", str(garbage)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a readable SQLite database" in err[0] and "4242" not in err[0]
    monkeypatch.setattr(capture, "daemon_status", lambda: _live_daemon(garbage))
    assert main(["status", "--db", str(garbage)]) == 1
    assert "the capture daemon runs (pid 4242), but" in capsys.readouterr().err
