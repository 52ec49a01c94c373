"""`phantom install | uninstall`: the systemd user units and the D-Bus
activation file written for the current user, pointing at this
installation's `phantom` executable.

Whatever the umask, the files are 0644 and the directories made for them
0755 (what systemd and dbus expect to read; nothing in them is private), and
an executable path with spaces or quotes is quoted the way each file's
reader parses it (systemd's ExecStart=, dbus's Exec=)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import CliError
from ..parsers import Subcommands

SYSTEMD_DIR = Path(__file__).resolve().parents[2] / "systemd"
PLACEHOLDER = "/usr/bin/env phantom"


@dataclass(frozen=True, slots=True)
class InstalledFile:
    """One file `phantom install` writes: its template and its destination."""

    template: str
    destination: Path


def add_parsers(sub: Subcommands, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("install", help="install the systemd user units and D-Bus activation file",
                       description="Write the systemd user units (phantom-capture, phantom-replay, "
                       "phantom-retention with its daily timer) "
                       "to ~/.config/systemd/user and the D-Bus activation file for "
                       "org.phantom.Replay1 to ~/.local/share/dbus-1/services (XDG dirs honoured), "
                       "pointing at this phantom executable. Then: systemctl --user daemon-reload "
                       "&& systemctl --user enable --now phantom-capture phantom-retention.timer")
    p.add_argument("--executable", type=Path, help="phantom executable to run (default: this one)")
    p.add_argument("--db", type=Path, metavar="PATH",
                   help="the store the units, the replay service and the CLI use from now on "
                   "(recorded in $XDG_CONFIG_HOME/phantom/store; PHANTOM_DB and --db still win). "
                   "Without it, an earlier choice stays")
    p.set_defaults(handler=run_install)
    p = sub.add_parser("uninstall", help="remove the installed units and D-Bus activation file",
                       description="Remove the files `phantom install` wrote (the systemd user "
                       "units and the D-Bus activation file). The store and the config stay; stop "
                       "the units first: systemctl --user disable --now phantom-capture")
    p.set_defaults(handler=run_uninstall)


def installed_files() -> list[InstalledFile]:
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    data = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    units = config / "systemd" / "user"
    return [InstalledFile("phantom-capture.service", units / "phantom-capture.service"),
            InstalledFile("phantom-replay.service", units / "phantom-replay.service"),
            InstalledFile("phantom-retention.service", units / "phantom-retention.service"),
            InstalledFile("phantom-retention.timer", units / "phantom-retention.timer"),
            InstalledFile("org.phantom.Replay1.service",
                          data / "dbus-1" / "services" / "org.phantom.Replay1.service")]


def phantom_executable() -> Path:
    candidate = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if candidate and candidate.name == "phantom" and candidate.exists():
        return candidate
    found = shutil.which("phantom")
    if found:
        return Path(found).resolve()
    venv_bin = Path(sys.executable).parent / "phantom"
    if venv_bin.exists():
        return venv_bin
    raise CliError("cannot find the phantom executable; pass --executable")


def render(template: str, executable: Path, store_dir: Path | None = None) -> str:
    """A unit or activation file pointing at `executable`; a store outside
    the default directory is added to the units' writable paths (the
    sandbox is read-only elsewhere)."""
    text = (SYSTEMD_DIR / template).read_text(encoding="utf-8")
    quote = dbus_exec_word if template.startswith("org.") else systemd_exec_word
    text = text.replace(PLACEHOLDER, quote(str(executable)))
    if store_dir is not None:
        extra = " " + systemd_exec_word(f"-{store_dir}")
        text = "\n".join(line + extra if line.startswith("ReadWritePaths=") else line
                         for line in text.split("\n"))
    return text


def systemd_exec_word(path: str) -> str:
    """One word of an ExecStart= line: specifiers (%) doubled, and quoted
    with backslash escapes when it holds anything but plain path characters."""
    path = path.replace("%", "%%")
    if all(c.isalnum() or c in "/._-+@:%" for c in path):
        return path
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dbus_exec_word(path: str) -> str:
    """One word of a D-Bus activation Exec= line (split as a shell would)."""
    if all(c.isalnum() or c in "/._-+@:%" for c in path):
        return path
    return "'" + path.replace("'", "'\\''") + "'"


def write_public(path: Path, text: str) -> None:
    """Write `path` 0644, making missing parents 0755, whatever the umask."""
    missing = []
    parent = path.parent
    while not parent.exists():
        missing.append(parent)
        parent = parent.parent
    for directory in reversed(missing):
        directory.mkdir()
        os.chmod(directory, 0o755)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.fchmod(fd, 0o644)
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def run_install(args: argparse.Namespace) -> int:
    from core.store.paths import chosen_store, default_db_path, record_chosen_store

    executable = (args.executable or phantom_executable()).resolve()
    if not executable.exists():
        raise CliError(f"{executable} does not exist")
    if args.db is not None:
        store = args.db.expanduser().absolute()
        if store.is_dir():
            raise CliError(f"--db {store} is a directory; name the store file inside it "
                           "(for example phantom.sqlite3)")
        try:
            recorded = record_chosen_store(store)
        except OSError as exc:
            raise CliError(f"cannot record the store in {exc.filename or 'the config'}: "
                           f"{exc.strerror or exc}") from None
        print(f"store: {store} (recorded in {recorded})")
    chosen = chosen_store()
    store_dir = chosen.parent if chosen is not None else None
    for item in installed_files():
        try:
            write_public(item.destination, render(item.template, executable, store_dir))
        except OSError as exc:
            raise CliError(f"cannot write {item.destination}: {exc.strerror or exc}") from None
        print(f"wrote {item.destination}")
    if args.db is None:
        print(f"store: {default_db_path()}")
    print("next: systemctl --user daemon-reload && systemctl --user enable --now phantom-capture "
          "phantom-retention.timer")
    return 0


def run_uninstall(args: argparse.Namespace) -> int:
    removed = 0
    for item in installed_files():
        if item.destination.exists():
            item.destination.unlink()
            print(f"removed {item.destination}")
            removed += 1
    if not removed:
        print("nothing to remove")
    return 0
