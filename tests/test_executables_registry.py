"""The programs the tests start are the ones a fresh machine gets.

`testbed/executables.py` names each program's Debian package. This test holds
that table to three things: the Makefile installs each package (in one of
its lists, or as something one of them pulls in), `dpkg -S` agrees about
where each installed program comes from, and nothing in `tests/`, `bench/`
or `testbed/` starts a program by a bare name instead of through the
table. A green run on a machine somebody set up by hand then still says
something about a fresh one.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from cli.main import COMMANDS
from testbed.executables import EXECUTABLES, Executable, MissingExecutable, executable

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("tests", "bench", "testbed")
# Calls that start a process, by the name they are called as.
STARTERS = {"run", "Popen", "check_output", "check_call", "call", "launch", "spawn", "execvp", "execv",
            "create_subprocess_exec"}


def makefile_lists() -> dict[str, list[str]]:
    """The Makefile's package lists, by variable name."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    return {name: value.split() for name, value in re.findall(r"^(APT_\w+)\s*:=\s*(.*)$", text, re.M)}


@cache
def on_every_debian() -> frozenset[str]:
    """Packages every Debian system has: Essential ones and those of
    priority `required` (debootstrap installs both, even for `minbase`)."""
    out = subprocess.run([executable("dpkg-query"), "-W", "-f=${Package} ${Essential} ${Priority}\n"],
                         capture_output=True, text=True, check=True).stdout
    return frozenset(name for name, essential, priority in (line.split() for line in out.splitlines()
                                                             if len(line.split()) == 3)
                     if essential == "yes" or priority == "required")


@cache
def pulled_in() -> frozenset[str]:
    """Every installed package the Makefile's lists name or depend on, and
    what every Debian system has."""
    named = [p for packages in makefile_lists().values() for p in packages]
    out = subprocess.run([executable("apt-cache"), "depends", "--recurse", "--installed", "--no-recommends",
                          "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances",
                          *named], capture_output=True, text=True, check=True).stdout
    found = {line.strip() for line in out.splitlines() if line and not line.startswith(" ")}
    found |= {line.split(":", 1)[1].strip().strip("<>") for line in out.splitlines()
              if line.strip().startswith(("Depends:", "PreDepends:"))}
    return frozenset(found | set(named) | on_every_debian())


def owner(path: str) -> str | None:
    """The package `dpkg -S` says `path` belongs to (trying the /usr-merged
    twin too: dpkg knows /bin/mount, the shell finds /usr/bin/mount)."""
    candidates = [path, os.path.realpath(path)]
    for candidate in list(candidates):
        if candidate.startswith("/usr/"):
            candidates.append(candidate[len("/usr"):])
    for candidate in candidates:
        out = subprocess.run([executable("dpkg"), "-S", candidate], capture_output=True, text=True)
        for line in out.stdout.splitlines():
            if line.startswith("diversion "):
                continue
            package, _, listed = line.partition(": ")
            if listed.strip() == candidate:
                return package.split(":")[0]
    return None


def test_the_makefile_has_a_base_and_a_test_list():
    lists = makefile_lists()
    assert set(lists) == {"APT_BASE", "APT_TEST"}, lists
    assert not set(lists["APT_BASE"]) & set(lists["APT_TEST"])


@pytest.mark.parametrize("entry", EXECUTABLES.values(), ids=lambda e: e.name)
def test_each_program_comes_from_a_package_the_makefile_installs(entry: Executable):
    lists = makefile_lists()
    if entry.needed_by == "base":
        assert entry.package in pulled_in() and entry.package not in lists["APT_TEST"], \
            f"{entry.package} ({entry.name}) is needed by the demo: put it in APT_BASE"
    else:
        assert entry.package in pulled_in(), f"{entry.package} ({entry.name}) is in no list of the Makefile"


@pytest.mark.parametrize("entry", EXECUTABLES.values(), ids=lambda e: e.name)
def test_dpkg_agrees_where_each_program_comes_from(entry: Executable):
    path = executable(entry.name)      # installed by `make test`: a missing one fails here, with its package
    assert owner(path) == entry.package, f"{path} belongs to {owner(path)}, the registry says {entry.package}"


def test_a_missing_program_is_named_with_its_package(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(MissingExecutable, match="gtk4-widget-factory is not installed: it comes with the "
                                             "Debian package gtk-4-examples"):
        executable("gtk4-widget-factory")
    with pytest.raises(KeyError, match="not in testbed.executables.EXECUTABLES"):
        executable("no-such-program")


def _names_a_program(node: ast.expr) -> str | None:
    """The program a string literal names: a registered name, one on PATH,
    or an absolute path to an executable file."""
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or not node.value:
        return None
    text = node.value
    if text in EXECUTABLES or (text.startswith("/") and os.access(text, os.X_OK) and Path(text).is_file()):
        return text
    # A word that names one of phantom's own commands is an argument to it
    # (`main(["install", "--executable", …])`), not /usr/bin/install.
    on_path = "/" not in text and " " not in text and text not in COMMANDS and shutil.which(text)
    return text if on_path else None


def bare_starts(tree: ast.AST) -> list[tuple[int, str]]:
    """Command lines that start a program by a literal name: a list or
    tuple given to a process-starting call, or one whose second word is an
    option (an argv built for later)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in STARTERS and node.args and isinstance(node.args[0], ast.List | ast.Tuple):
                words = node.args[0].elts
                if words and (named := _names_a_program(words[0])):
                    found.append((node.lineno, named))
        if isinstance(node, ast.List | ast.Tuple) and len(node.elts) >= 2:
            first, second = node.elts[0], node.elts[1]
            if (isinstance(second, ast.Constant) and isinstance(second.value, str)
                    and second.value.startswith("-") and (named := _names_a_program(first))):
                found.append((node.lineno, named))
    return sorted(set(found))


def test_nothing_starts_a_program_but_through_the_registry():
    offenders = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.name == "executables.py" and path.parent.name == "testbed":
                continue
            for line, name in bare_starts(ast.parse(path.read_text(), str(path))):
                offenders.append(f"{path.relative_to(ROOT)}:{line} starts {name!r}")
    assert not offenders, "start these through testbed.executables.executable():\n" + "\n".join(offenders)


def test_the_scan_finds_a_bare_start():
    """The guard itself can fail: each way of starting a program by name is seen."""
    source = ("subprocess.run(['xdotool', 'search'])\n"
              "desktop.launch(['mousepad', path])\n"
              "argv = ['bwrap', '--unshare-net']\n"
              "subprocess.run([executable('xdotool'), 'search'])\n"
              "pytest.mark.parametrize('kind', ['unshare', 'bwrap'])\n")
    assert [name for _, name in bare_starts(ast.parse(source))] == ["xdotool", "mousepad", "bwrap"]
