"""Config parsing: defaults, user rules, and errors that name the line."""

from __future__ import annotations

import pytest

from capturer.config import (
    DEFAULT_CONFIG_TEXT,
    Config,
    ConfigError,
    RetentionSettings,
    load_config,
    parse_config,
)
from capturer.privacy import DEFAULT_EXCLUSIONS


def test_commented_default_file_equals_the_built_in_defaults():
    parsed = parse_config(DEFAULT_CONFIG_TEXT)
    defaults = Config()
    assert parsed.capture == defaults.capture
    assert parsed.accessibility == defaults.accessibility
    assert parsed.retention == defaults.retention
    assert parsed.exclusions == DEFAULT_EXCLUSIONS


def test_a_new_install_keeps_a_month_of_raw_capture_in_at_most_2_gib():
    assert (Config().retention.raw_days, Config().retention.max_store_mb) == (30, 2048)
    assert parse_config("").retention == RetentionSettings(raw_days=30, max_store_mb=2048, image_days=0)
    # the commented file says so, with the values a person would uncomment
    assert "# raw_days = 30\n# max_store_mb = 2048\n" in DEFAULT_CONFIG_TEXT


def test_a_file_that_sets_retention_keeps_its_values_and_0_keeps_everything():
    assert parse_config("[retention]\nraw_days = 7\n").retention == RetentionSettings(7, 2048, 0)
    assert parse_config("[retention]\nraw_days = 0\nmax_store_mb = 0\n").retention == \
        RetentionSettings(0, 0, 0)
    assert parse_config("[retention]\nmax_store_mb = 500\nimage_days = 14\n").retention == \
        RetentionSettings(30, 500, 14)
    with pytest.raises(ConfigError, match=r"line 2: retention.raw_days must be 0 or more \(0 keeps everything\)"):
        parse_config("[retention]\nraw_days = -1\n")


def test_missing_default_file_means_defaults_but_a_named_one_must_exist(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert load_config().capture == Config().capture
    with pytest.raises(ConfigError, match="absent.toml: no such config file"):
        load_config(tmp_path / "absent.toml")


def test_user_rules_extend_or_replace_the_defaults():
    text = ('[privacy]\nuse_default_exclusions = false\n[[privacy.exclude]]\nname = "bank"\n'
            'title_regex = "(?i)online banking"\n[[privacy.exclude]]\napp = "signal"\n')
    config = parse_config(text)
    assert [r.name for r in config.exclusions] == ["bank", "exclusion #2"]
    assert len(parse_config('[[privacy.exclude]]\napp = "x"\n').exclusions) == len(DEFAULT_EXCLUSIONS) + 1


@pytest.mark.parametrize("text, expected", [
    ("[capture]\nheartbeat_second = 3\n", "line 2: unknown setting 'heartbeat_second' in [capture]"),
    ("[capture]\n\nheartbeat_seconds = 'soon'\n", "line 3: capture.heartbeat_seconds must be a positive number"),
    ("[capture]\nheartbeat_seconds = -1\n", "line 2: capture.heartbeat_seconds must be a positive number"),
    ("[capture]\nscreenshots = 1\n", "line 2: capture.screenshots must be true or false"),
    ("heartbeat = = 3\n", "line 1:"),
    ("[capture\n", "line 1:"),
    ("[privacy]\n[[privacy.exclude]]\nname = 'x'\ntitle_regex = '('\n",
     "line 4: privacy.exclude.title_regex is not a valid regex"),
    ("[[privacy.exclude]]\nname = 'only a name'\n", "needs at least one of app, wm_class_regex, title_regex"),
    ("[browsers]\napps = 'firefox'\n", "line 2: browsers.apps must be a list of strings"),
    ("[shortcuts]\n", "line 1: unknown setting 'shortcuts'"),
])
def test_bad_config_names_the_line(text, expected):
    with pytest.raises(ConfigError) as error:
        parse_config(text, "config.toml")
    assert expected in str(error.value)
    assert str(error.value).startswith("config.toml")
    assert "\n" not in str(error.value)
