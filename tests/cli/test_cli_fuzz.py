"""Property-based fuzz of the CLI (hypothesis): whatever a person types —
flags in any order, numbers far out of range, NaN, dates from year 1 to
9999, odd paths, long or non-ASCII text — every command answers with a
result or with one line on stderr and a non-zero exit, never a traceback
and never the internal-error line. Runs `cli.main.main` in-process with
no display and no session bus, on a copy of the recorded fixture store."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import EXIT_INTERNAL, Outcome, run
from core.errors import ERROR_KINDS
from replay.results import EXIT_CODES

FIXTURE_STORE = Path(__file__).resolve().parents[2] / "fixtures" / "recorded" / "desktop.sqlite3"

# Commands a fuzzer may run in-process: nothing here starts a desktop, a
# server or a long job (capture, replay and the services stop at once
# without a display or a bus; synth is given at most a day).
COMMANDS = {
    "compile": ["--day", "--since", "--until", "--format", "--tz", "--budget", "--no-inferred", "--out"],
    "routines": ["--day", "--since", "--until", "--tz", "--format", "--limit", "--agent-tokens-per-step",
                 "--replay-tokens-per-step", "--compile-tokens", "--expected-runs"],
    "runs": ["--last", "--limit", "--format"],
    "programs": ["--format"],
    "compile-program": ["--routine", "--param", "--fixed", "--relax-title", "--format"],
    "replay": ["--param", "--dry-run", "--window", "--format", "--intent"],
    "shortcut": ["--param"],
    "status": ["--format"],
    "record": [],
    "pause": [],
    "resume": [],
    "capture": ["--config", "--display", "--no-dbus"],
    "replay-service": ["--idle-timeout", "--notify-success"],
    "import": ["--host", "--tz", "--config"],
    "doctor": ["--repair"],
    "forget": ["--day", "--since", "--until", "--tz", "--recording", "--dry-run", "--yes", "--format"],
    "export": ["--day", "--since", "--until", "--tz", "--images", "--out"],
}
NUMBERS = st.one_of(
    st.integers(min_value=-(10 ** 30), max_value=10 ** 30).map(str),
    st.sampled_from(["nan", "inf", "-inf", "1e309", "0", "-0", "0x10", "1_000", "", " 5", "٣"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
WHEN = st.one_of(
    st.dates().map(lambda d: d.isoformat()),
    st.datetimes().map(lambda d: d.isoformat(timespec="minutes")),
    st.sampled_from(["2026-11-29", "2026-11-29T10:00", "0001-01-01", "9999-12-31", "2026-02-30",
                     "yesterday", "2026-11-29T25:00", "2026-11-29T10:00+99:00"]),
)
# Text that can stand in argv (no NUL, no lone surrogates).
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=60)
LONG = st.builds(lambda text, times: (text or "x") * times, TEXT, st.integers(1, 3000))


def values(tmp: Path):
    paths = st.sampled_from([str(tmp / "store.sqlite3"), str(tmp), "/proc/version", "/nonexistent/x",
                             str(tmp / "new.sqlite3"), "/dev/null", str(tmp / "out.txt"), "-"])
    return st.one_of(NUMBERS, WHEN, TEXT, LONG, paths,
                     st.sampled_from(["json", "table", "text", "compact", "markdown", "yaml", "Europe/Berlin",
                                      "Nope/Zone", "P0=x", "=", "P0", "r-1", "p-0", "start", "stop", "discard",
                                      "delete", "promote", "deprecate", "describe"]))


def argv_for(tmp: Path, command: str):
    @st.composite
    def build(draw) -> list[str]:
        flags = COMMANDS[command]
        argv = [command]
        for _ in range(draw(st.integers(0, 6))):
            if flags and draw(st.booleans()):
                argv.append(draw(st.sampled_from(flags)))
            argv.append(draw(values(tmp)))
        if command != "capture" and draw(st.integers(0, 3)) > 0:
            argv += ["--db", str(tmp / "store.sqlite3")]
        # argparse's own --help ends the process by design; everything else must answer.
        return [a for a in argv if a not in ("-h", "--help") and not a.startswith("--h")]
    return build()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("fuzz")
    shutil.copy(FIXTURE_STORE, tmp / "store.sqlite3")
    return tmp


@pytest.fixture(autouse=True)
def bare_environment(monkeypatch, workspace):
    """No display, no session bus (not even a socket under the runtime
    dir), a private home: what a command run from a bare shell sees."""
    for key in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY", "PHANTOM_DEBUG"):
        monkeypatch.delenv(key, raising=False)
    for key in ("XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.setenv(key, str(workspace / "home" / key.lower()))
    monkeypatch.setenv("PHANTOM_DB", str(workspace / "store.sqlite3"))


# A command ends with 0, a replay's result (escalated 3, refused 4) or an
# error whose kind's exit status the table in core/errors.py gives.
RESULT_STATUSES = set(EXIT_CODES.values())


def invoke(argv: list[str], capsys) -> tuple[Outcome, str]:
    capsys.readouterr()
    outcome = run(argv)
    return outcome, capsys.readouterr().err


def check_against_the_table(outcome: Outcome, argv, err: str) -> None:
    """The status is the one the error family's table gives the reported
    error's kind; with no error, a result's status. Never the internal one."""
    assert outcome.status != EXIT_INTERNAL, (argv, err)
    if outcome.error is None:
        assert outcome.status in RESULT_STATUSES or (outcome.status == 2 and not err), (argv, outcome, err)
    else:
        assert outcome.error.code in ERROR_KINDS, (argv, outcome.error.code)
        assert outcome.status == ERROR_KINDS[outcome.error.code].exit_status, (argv, outcome, err)
        assert outcome.status != 0, (argv, err)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_answers_in_one_line_whatever_it_is_given(command, workspace, capsys):
    seen: Counter = Counter()
    kinds: Counter = Counter()

    @settings(max_examples=20, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                     HealthCheck.data_too_large])
    @given(argv_for(workspace, command))
    def check(argv: list[str]) -> None:
        seen[tuple(argv)] += 1
        outcome, err = invoke(argv, capsys)
        check_against_the_table(outcome, argv, err)
        kinds[outcome.error.code if outcome.error else f"status {outcome.status}"] += 1
        assert "Traceback" not in err, (argv, err)
        if outcome.status != 0:
            lines = err.strip().splitlines()
            assert len(lines) <= 1, (argv, err)
            if lines:   # doctor reports on stdout; everything else says why here
                assert len(lines[0]) <= 400, (argv, lines[0][:200])

    check()
    assert len(seen) >= 10    # the examples ran, and differed
    assert any(k != "status 0" for k in kinds), kinds    # and some of them were refused


@pytest.mark.parametrize("argv, fragment", [
    (["compile", "--day", "2026-11-29", "--budget", "99999999999999999999"], "--budget must be between 100 and"),
    (["routines", "--limit", "99999999999999999999999"], "--limit must be between 0 and 10000"),
    (["routines", "--expected-runs", "0"], "--expected-runs must be between 1 and"),
    (["replay-service", "--idle-timeout", "nan"], "--idle-timeout must be between 0.1 and 86400 (got nan)"),
    (["replay-service"], "no session D-Bus"),
    (["record", "start", "a\tb"], "printable characters"),
    (["compile", "--day", "2026-11-29", "--tz", "Z" * 5000], "unknown time zone 'ZZZZ"),
    (["replay", "x" * 100_000, "--dry-run"], "no program named or with id 'xxxx"),
])
def test_bad_values_are_named_and_cut_short(argv, fragment, capsys):
    outcome, err = invoke(argv, capsys)
    check_against_the_table(outcome, argv, err)
    assert outcome.error is not None, (argv, err)
    [line] = err.strip().splitlines()
    assert fragment in line and len(line) < 300, line
