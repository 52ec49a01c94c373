"""Directories Phantom creates are 0700 and its private files 0600 whatever
the umask: the store's directory and the XDG base directory above it, the
config's, the replay lock's, and the demo's outputs.

Each case runs in a process of its own started under the umask being tried
(a umask is the whole process's; setting it inside pytest would reach every
thread). Modes are read with stat, which holds as root too; what a mode
keeps other users from is tests/core/test_store_modes.py's subject."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from testbed.executables import executable

CHECKOUT = Path(__file__).resolve().parents[2]
UMASKS = ["000", "022", "277"]   # open to all, the usual, and one that takes the owner's own bits


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def under_umask(umask: str, home: Path, code: str, *args: str) -> None:
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"),
           "XDG_RUNTIME_DIR": str(home / "run"), "PYTHONPATH": str(CHECKOUT)}
    env.pop("PHANTOM_DB", None)
    argv = [executable("sh"), "-c", f'umask {umask} && exec "$@"', "sh", sys.executable, "-c", code, *args]
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


@pytest.fixture
def home(tmp_path) -> Path:
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    os.chmod(home, 0o755)
    return home


@pytest.mark.parametrize("umask", UMASKS)
def test_a_new_store_and_the_data_directory_above_it_are_private(umask, home):
    under_umask(umask, home, "from core.store import default_db_path, open_store; "
                "open_store(default_db_path()).close()")
    assert (mode(home / "data"), mode(home / "data" / "phantom")) == (0o700, 0o700)
    assert mode(home / "data" / "phantom" / "phantom.sqlite3") == 0o600
    assert mode(home) == 0o755   # a directory that was there keeps its mode


@pytest.mark.parametrize("umask", UMASKS)
def test_the_first_config_file_and_its_directories_are_private(umask, home):
    under_umask(umask, home, "from cli.commands.capture import _ensure_config_file; _ensure_config_file(None)")
    config = home / "config" / "phantom" / "config.toml"
    assert (mode(home / "config"), mode(config.parent), mode(config)) == (0o700, 0o700, 0o600)


@pytest.mark.parametrize("umask", UMASKS)
def test_the_compiled_cache_and_the_cache_home_above_it_are_private(umask, home):
    under_umask(umask, home, "from compiler.cache import _usable_dir; assert _usable_dir(True) is not None")
    assert [mode(p) for p in (home / "cache", home / "cache" / "phantom", home / "cache" / "phantom" / "compiled")] \
        == [0o700, 0o700, 0o700]


@pytest.mark.parametrize("umask", UMASKS)
def test_the_replay_lock_directory_is_private(umask, home):
    under_umask(umask, home, "from replay.desktop_lock import lock_directory; lock_directory()")
    assert (mode(home / "run"), mode(home / "run" / "phantom")) == (0o700, 0o700)


@pytest.mark.parametrize("umask", UMASKS)
def test_the_demo_writes_its_outputs_0600_in_a_0700_directory(umask, home):
    """What `phantom demo` does with its output directory and files
    (testbed/demo/story.py), without the minutes of a whole demo."""
    code = ("import sys; from pathlib import Path; "
            "from core.private import make_private_dirs, open_private, write_private; "
            "out = Path(sys.argv[1]); make_private_dirs(out); "
            "write_private(out / 'context.txt', b'a day'); "
            "log = open_private(out / 'capture.log'); log.write(b'x'); log.close()")
    existing = home / "out" / "existing.txt"
    under_umask(umask, home, code, str(home / "out" / "demo-output"))
    out = home / "out" / "demo-output"
    assert (mode(home / "out"), mode(out)) == (0o700, 0o700)
    assert (mode(out / "context.txt"), mode(out / "capture.log")) == (0o600, 0o600)
    existing.write_text("old")
    os.chmod(existing, 0o644)
    under_umask(umask, home, "import sys; from pathlib import Path; from core.private import write_private; "
                "write_private(Path(sys.argv[1]), b'new')", str(existing))
    assert mode(existing) == 0o600 and existing.read_text() == "new"   # found wider: narrowed


def test_the_demo_story_uses_the_private_writers():
    """The demo's own module writes through them (a plain `write_text`
    there would be 0644 under the usual umask)."""
    story = (CHECKOUT / "testbed" / "demo" / "story.py").read_text()
    assert "write_text(" not in story and 'open(self.out' not in story
    assert "make_private_dirs(self.out)" in story
