"""The capture daemon's configuration: `$XDG_CONFIG_HOME/phantom/config.toml`.

The file is optional; every setting has a default. A malformed file is an
error that names the line, never a silent fallback: a user who wrote an
exclusion rule must be able to trust that it is in force.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from core.capture_timing import HEARTBEAT_MS, IDLE_AFTER_MS
from core.errors import PhantomError
from core.inputs import not_a_file

from .privacy import DEFAULT_EXCLUSIONS, ExclusionRule


class ConfigError(PhantomError, ValueError):
    """A configuration file that cannot be used; the message names file and line."""

    code = "invalid_config"


@dataclass(frozen=True, slots=True)
class CaptureSettings:
    """Timing of the capture loop."""

    heartbeat_seconds: float = HEARTBEAT_MS / 1000
    idle_after_seconds: float = IDLE_AFTER_MS / 1000
    focus_poll_ms: int = 1000
    screenshots: bool = True
    screenshot_interval_seconds: float = 60.0
    thumbnail_width: int = 320
    click_crops: bool = True
    # Accepted and ignored, so that a config file that sets it stays valid:
    # the crops' sizes are fixed (64, 128 and 256 px: core.visual_evidence.VARIANTS).
    click_crop_size: int = 64


@dataclass(frozen=True, slots=True)
class AccessibilitySettings:
    """Bounds on every accessibility-tree walk: it costs about 1 ms per node
    over D-Bus, so walks are capped in nodes, depth and time."""

    enabled: bool = True
    max_nodes: int = 400
    max_depth: int = 14
    walk_budget_ms: int = 300
    call_timeout_ms: int = 800
    refresh_debounce_ms: int = 500


@dataclass(frozen=True, slots=True)
class RetentionSettings:
    """What `phantom retention run` (a daily user timer) keeps; 0 keeps
    everything. Read here with the rest of the file; the capture daemon
    itself never acts on it. By default a month of raw capture and a 2 GiB
    store: capture grows the store 12-35 MB an active hour (2-3 GB a month,
    docs/BENCHMARKS.md), which nobody should find out about when the disk
    is full. A file that sets a value keeps it (0 too)."""

    raw_days: int = 30       # days of raw rows kept; older days are rolled up, then removed
    max_store_mb: int = 2048  # a budget for the store: more old days go until it fits
    image_days: int = 0      # days of thumbnails and click crops kept


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the capture daemon reads from the config file."""

    capture: CaptureSettings = field(default_factory=CaptureSettings)
    accessibility: AccessibilitySettings = field(default_factory=AccessibilitySettings)
    retention: RetentionSettings = field(default_factory=RetentionSettings)
    exclusions: tuple[ExclusionRule, ...] = DEFAULT_EXCLUSIONS
    no_pictures: tuple[str, ...] = ()   # apps never in a picture (blacked out like exclusions)
    browsers: tuple[str, ...] = ("firefox", "firefox-esr", "chromium", "chromium-browser",
                                 "google-chrome", "brave-browser", "microsoft-edge", "epiphany",
                                 "org.gnome.epiphany", "vivaldi-stable", "librewolf")
    source: str = "(defaults)"


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "phantom" / "config.toml"


DEFAULT_CONFIG_TEXT = """\
# Phantom capture settings. Every setting is optional; the values shown are the
# defaults. Phantom stores counts, not content: typed text is never kept outside
# an explicit `phantom record` session, and never for password fields.

[capture]
# A snapshot is written on every focus, title or URL change, and at least this
# often for each monitor while something is on screen.
heartbeat_seconds = 30
# No keyboard or mouse input for this long marks snapshots idle.
idle_after_seconds = 120
# Focus changes are seen as X events; this is how often focus is checked
# anyway, as a safety net (milliseconds).
focus_poll_ms = 1000
# Small downscaled screenshots, deduplicated; at most one per interval per monitor.
# What they show is the screen, with excluded windows (and [privacy] no_pictures
# apps) painted black and the inside of every known text and password field
# painted grey: typed text never appears in a picture outside a recording, and a
# password field never. Labels, titles and page text an app displays do appear.
screenshots = true
screenshot_interval_seconds = 60
thumbnail_width = 320
# Small crops of the screen around every click (64, 128 and 256 px, used to
# re-aim replays), with the same blacking out and field masks.
click_crops = true

[accessibility]
# Walks of the focused window's accessibility tree are bounded and cached.
enabled = true
max_nodes = 400
max_depth = 14
walk_budget_ms = 300
# A hung application cannot stall capture for longer than this per call.
call_timeout_ms = 800

[privacy]
# Built-in exclusions cover password managers, private browser windows and
# passphrase prompts. Set to false only if you replace them with your own.
use_default_exclusions = true
# Apps that are captured (titles, counts) but never in a picture: no
# thumbnail while they have focus, no click crop, blacked out of the others.
# no_pictures = ["evolution", "thunderbird"]

# Add your own exclusions. A rule matches when all of its fields match;
# `app` is compared with the app name, WM_CLASS and executable name.
# [[privacy.exclude]]
# name = "banking"
# title_regex = "(?i)online banking"
#
# [[privacy.exclude]]
# name = "messenger"
# app = "signal"

[browsers]
# Apps whose address bar or document URL is read (the URL only, never page text).
# apps = ["firefox", "chromium", "google-chrome"]

[retention]
# `phantom retention run` (daily, from the phantom-retention.timer user unit) keeps
# the raw capture of the last raw_days days. An older day is compiled first and its
# compiled document kept for good (small), so `phantom compile` of that day still
# answers and routines still count it; then its raw rows go. With max_store_mb, more
# of the oldest days go until the store fits; image_days keeps screenshots and click
# crops that many days. Left out, raw_days is 30 and max_store_mb 2048 (2 GiB);
# set one to 0 to keep everything of that kind. `phantom status` shows how fast
# the store grows and when it reaches max_store_mb.
# raw_days = 30
# max_store_mb = 2048
# image_days = 14
"""


def load_config(path: Path | None = None) -> Config:
    """Read and validate the config file; defaults when the usual one does not
    exist (a file named explicitly must exist: a typo must not silently drop
    the person's exclusion rules)."""
    explicit = path is not None
    path = path or config_path()
    kind = not_a_file(path)
    if kind is not None:   # a FIFO would be waited on forever, a device read without end
        raise ConfigError(f"{path}: is {kind}, not a config file")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if explicit:
            raise ConfigError(f"{path}: no such config file") from None
        return Config()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read ({exc})") from None
    return parse_config(text, str(path))


def parse_config(text: str, source: str = "config.toml") -> Config:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: {_toml_message(exc)}") from None
    locate = _KeyLocator(text, source)
    _check_keys(data, {"capture", "accessibility", "privacy", "browsers", "retention"}, "", locate)
    capture = _section(CaptureSettings, data.get("capture", {}), "capture", locate)
    accessibility = _section(AccessibilitySettings, data.get("accessibility", {}),
                             "accessibility", locate)
    retention = _section(RetentionSettings, data.get("retention", {}), "retention", locate)
    privacy = data.get("privacy", {})
    _expect(isinstance(privacy, dict), locate, "privacy", "", "[privacy] must be a table")
    _check_keys(privacy, {"use_default_exclusions", "exclude", "no_pictures"}, "privacy", locate)
    no_pictures = privacy.get("no_pictures", [])
    _expect(isinstance(no_pictures, list) and all(isinstance(a, str) for a in no_pictures),
            locate, "privacy", "no_pictures", "privacy.no_pictures must be a list of app names")
    use_defaults = privacy.get("use_default_exclusions", True)
    _expect(isinstance(use_defaults, bool), locate, "privacy", "use_default_exclusions",
            "use_default_exclusions must be true or false")
    rules = tuple(_rule(i, raw, locate) for i, raw in enumerate(privacy.get("exclude", [])))
    browsers_section = data.get("browsers", {})
    _check_keys(browsers_section, {"apps"}, "browsers", locate)
    browsers = browsers_section.get("apps", list(Config().browsers))
    _expect(isinstance(browsers, list) and all(isinstance(b, str) for b in browsers),
            locate, "browsers", "apps", "browsers.apps must be a list of strings")
    return Config(capture=capture, accessibility=accessibility, retention=retention,
                  exclusions=(DEFAULT_EXCLUSIONS if use_defaults else ()) + rules,
                  no_pictures=tuple(a.casefold() for a in no_pictures),
                  browsers=tuple(b.casefold() for b in browsers), source=source)


Settings = TypeVar("Settings", CaptureSettings, AccessibilitySettings, RetentionSettings)


def _section(kind: type[Settings], raw: object, name: str, locate: "_KeyLocator") -> Settings:
    if not isinstance(raw, dict):
        _reject(locate, name, "", f"[{name}] must be a table")
    known = {f.name: f for f in fields(kind)}
    _check_keys(raw, set(known), name, locate)
    values: dict[str, Any] = {}     # each checked against its default's type below
    for key, value in raw.items():
        default = getattr(kind(), key)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, (int, float)):
            # retention's 0 is "keep everything"; elsewhere a 0 would stop capture working
            ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
                  and (value >= 0 if kind is RetentionSettings else value > 0))
        else:
            ok = isinstance(value, type(default))
        described = "0 or more (0 keeps everything)" if kind is RetentionSettings else _describe(default)
        _expect(ok, locate, name, key, f"{name}.{key} must be {described}, not {value!r}")
        values[key] = type(default)(value) if not isinstance(default, bool) else value
    return kind(**values)


def _rule(index: int, raw: object, locate: "_KeyLocator") -> ExclusionRule:
    where = "privacy.exclude"
    if not isinstance(raw, dict):
        _reject(locate, where, "", "each [[privacy.exclude]] must be a table")
    _check_keys(raw, {"name", "app", "wm_class_regex", "title_regex"}, where, locate)
    for key, value in raw.items():
        _expect(isinstance(value, str), locate, where, key, f"{where}.{key} must be a string")
    for key in ("wm_class_regex", "title_regex"):
        if raw.get(key):
            try:
                re.compile(raw[key])
            except re.error as exc:
                raise ConfigError(f"{locate.source} line {locate.line(key)}: "
                                  f"{where}.{key} is not a valid regex ({exc})") from None
    _expect(any(raw.get(k) for k in ("app", "wm_class_regex", "title_regex")), locate, where,
            "name", "an exclusion rule needs at least one of app, wm_class_regex, title_regex")
    return ExclusionRule(name=raw.get("name") or f"exclusion #{index + 1}", app=raw.get("app", ""),
                         wm_class_regex=raw.get("wm_class_regex", ""),
                         title_regex=raw.get("title_regex", ""))


def _check_keys(raw: Mapping[str, object], allowed: set[str], section: str, locate: "_KeyLocator") -> None:
    for key in sorted(set(raw) - allowed):
        where = f"[{section}]" if section else "the top level"
        raise ConfigError(f"{locate.source} line {locate.line(key)}: unknown setting "
                          f"{key!r} in {where} (known: {', '.join(sorted(allowed))})")


def _expect(condition: bool, locate: "_KeyLocator", section: str, key: str, message: str) -> None:
    if not condition:
        _reject(locate, section, key, message)


def _reject(locate: "_KeyLocator", section: str, key: str, message: str) -> NoReturn:
    line = locate.line(key or section)
    raise ConfigError(f"{locate.source} line {line}: {message}")


def _describe(default: object) -> str:
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, (int, float)):
        return "a positive number"
    return f"a {type(default).__name__}"


def _toml_message(exc: tomllib.TOMLDecodeError) -> str:
    """tomllib says '(at line N, column M)' at the end; lead with the line."""
    message = str(exc)
    found = re.search(r"\(at line (\d+), column (\d+)\)", message)
    if found:
        return f"line {found.group(1)}: {message[:found.start()].strip()} (column {found.group(2)})"
    return message


class _KeyLocator:
    """Finds the line where a key (or table header) is written, so semantic
    errors can name a line as TOML syntax errors do."""

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self._lines = text.splitlines()

    def line(self, key: str) -> int | str:
        pattern = re.compile(rf"^\s*(\[+\s*[\w.]*\b{re.escape(key)}\b[\w.]*\s*\]+|"
                             rf"\"?{re.escape(key)}\"?\s*=)")
        for number, line in enumerate(self._lines, start=1):
            if pattern.search(line):
                return number
        return "?"
