"""What a first compile of one day may load.

`phantom compile --no-cache --day D` is what an agent hook runs as a new
process per question; every module it imports is paid for on every start
(docs/BENCHMARKS.md, "A first compile, import by import"). The modules it
may load are listed here: Phantom's own by full name (a renderer, the cache
or the store's writer creeping into a one-day compile shows by name), the
standard library's and third-party ones by top-level package. A module
outside the lists fails the test with the place in Phantom's code that
first imported it. Whatever the interpreter loaded before the command
started (site, the editable install's finder) is not counted.

The test counts modules, never seconds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHANTOM = ("cli", "compiler", "core")

# Phantom's modules on the path of a one-day compact compile (either layout).
# compiler.cache and compiler.revisions are here because the window is
# opened through the cache's probe even with --no-cache (an inert one then);
# cli.output is what --out writes through.
OURS = frozenset("""
cli cli.commands cli.commands.compile cli.commands.windows cli.errors cli.main cli.parsers
cli.output cli.progress
compiler compiler.api compiler.cache compiler.revisions compiler.budget compiler.collector
compiler.records compiler.resolve
compiler.rolled compiler.timefmt compiler.when compiler.window
compiler.frames compiler.frames.attribute compiler.frames.blind compiler.frames.build
compiler.frames.coverage compiler.frames.flicker compiler.frames.inferred compiler.frames.pipeline
compiler.frames.provenance compiler.frames.quiet compiler.frames.segment
compiler.pages compiler.pages.fallback compiler.pages.ref compiler.pages.resolve
compiler.pages.generic compiler.pages.generic.auth compiler.pages.generic.docs
compiler.pages.generic.files compiler.pages.generic.hosts compiler.pages.generic.schemes
compiler.pages.generic.search compiler.pages.generic.sections
compiler.pages.sites compiler.pages.sites.ai compiler.pages.sites.code compiler.pages.sites.comms
compiler.pages.sites.engines compiler.pages.sites.forums compiler.pages.sites.google
compiler.pages.sites.media compiler.pages.sites.packages compiler.pages.sites.reference
compiler.pages.sites.shopping compiler.pages.sites.social compiler.pages.sites.work
compiler.render compiler.render.compact compiler.render.days compiler.render.text compiler.render.totals
compiler.routines compiler.routines.actions compiler.routines.cycles compiler.routines.ids
compiler.routines.encoded compiler.routines.mining compiler.routines.mining_lists
compiler.routines.occurrences
compiler.sources compiler.sources.nocta compiler.sources.phantom_store
core core.clock core.errors core.inputs core.labels core.private
core.store core.store.connection core.store.errors core.store.migration_3 core.store.migration_4
core.store.migration_5 core.store.migration_6
core.store.paths core.store.schema
core.urls core.urls.parts core.urls.reads core.urls.sanitize core.urls.sitekey
""".split())

# Everything else, by top-level name. numpy is not among them: the frames
# passes (from LONG_WINDOW rows) and the routine miner (from LONG_STREAM
# actions) load it for long windows only, and a day is far below both (the
# last test shows the check catching it); the standard library's entries are
# what argparse, dataclasses, zoneinfo and hashlib bring.
OTHERS = frozenset("""
apsw orjson
_ast _bisect _blake2 _bz2 _compat_pickle _compression _contextvars _ctypes _datetime _hashlib
_json _locale _lzma _opcode _pickle _random _sha512 _struct _typing _uuid _weakrefset _zoneinfo
argparse ast bisect bz2 fcntl collections contextvars copy ctypes dataclasses datetime dis gc gettext
hashlib inspect json linecache locale lzma math numbers opcode pickle platform random shutil
struct sysconfig tempfile textwrap token tokenize typing uuid weakref zlib zoneinfo
""".split())
SYSCONFIG_DATA = "_sysconfigdata_"   # sysconfig's platform module, named per build

# Run in the child: note who first imported each module (the innermost
# frame in Phantom's code), run the command, print what it loaded.
CHILD = """
import json, sys, traceback
root = sys.argv[1]
prelude = sys.argv.pop(2)
started = set(sys.modules)
origin = {}

class Witness:
    def find_spec(self, name, path=None, target=None):
        if name not in origin:
            frames = [f for f in traceback.extract_stack()[:-1]
                      if f.filename.startswith(root) and '/tests/' not in f.filename]
            origin[name] = f"{frames[-1].filename[len(root) + 1:]}:{frames[-1].lineno}" if frames else "?"
        return None

sys.meta_path.insert(0, Witness())
exec(prelude)
from cli.main import main
status = main(sys.argv[2:])
print(json.dumps({"status": status, "origin": origin,
                  "loaded": sorted(set(sys.modules) - started)}))
"""


def loaded_by(tmp_path: Path, *argv: str, prelude: str = "") -> tuple[dict[str, str], list[str]]:
    """(first importer per module, modules loaded) of `phantom *argv`; the
    child runs `prelude` first (what it imports there counts as loaded)."""
    result = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), prelude, *argv], capture_output=True,
                            text=True, timeout=120, cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(ROOT),
                                 "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["status"] == 0, result.stderr
    return report["origin"], report["loaded"]


def allowed(name: str) -> bool:
    top = name.split(".")[0]
    if top in PHANTOM:
        return name in OURS
    return top in OTHERS or top.startswith(SYSCONFIG_DATA)


def crept_in(loaded: list[str]) -> list[str]:
    return [name for name in loaded if not allowed(name)]


@pytest.fixture(scope="module")
def nocta_day(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("nocta") / "nocta.sqlite3"
    subprocess.run([sys.executable, "-m", "cli.main", "synth", "--days", "1", "--seed", "7", "--db",
                    str(path), "--layout", "nocta"], check=True, capture_output=True, timeout=300,
                   cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return path


@pytest.mark.parametrize("layout", ["phantom", "nocta"])
def test_a_first_compile_of_a_day_loads_only_the_allowed_modules(tmp_path, layout, request):
    db = (ROOT / "fixtures" / "synthetic" / "day.sqlite3" if layout == "phantom"
          else request.getfixturevalue("nocta_day"))
    origin, loaded = loaded_by(tmp_path, "compile", "--db", str(db), "--day", "2026-03-02",
                               "--no-cache", "--out", str(tmp_path / "day.txt"))
    assert (tmp_path / "day.txt").read_text().strip()
    extra = crept_in(loaded)
    assert not extra, ("a --no-cache one-day compile loaded modules outside its allow-list "
                       "(tests/cli/test_compile_imports.py): "
                       + "; ".join(f"{name} (first imported at {origin.get(name, '?')})" for name in extra))
    assert "compiler.frames.pipeline" in loaded and "compiler.render.compact" in loaded
    assert "compiler.routines.mining_lists" in loaded and "numpy" not in loaded


def test_the_allow_list_names_a_module_that_creeps_in(tmp_path):
    """The same check on a JSON compile, which needs the JSON renderer: the
    check must name it (and where it came from), or it could not fail."""
    db = ROOT / "fixtures" / "synthetic" / "day.sqlite3"
    origin, loaded = loaded_by(tmp_path, "compile", "--db", str(db), "--day", "2026-03-02",
                               "--no-cache", "--format", "json", "--out", str(tmp_path / "day.json"))
    assert "compiler.render.json_doc" in crept_in(loaded)
    assert origin["compiler.render.json_doc"].startswith("compiler/api.py:")


def test_a_day_without_the_inferred_tier_loads_neither_the_miner_nor_numpy(tmp_path):
    """The frames passes run on lists for a day (numpy only from LONG_WINDOW
    rows on); numpy comes with the routine miner alone."""
    db = ROOT / "fixtures" / "synthetic" / "day.sqlite3"
    origin, loaded = loaded_by(tmp_path, "compile", "--db", str(db), "--day", "2026-03-02",
                               "--no-cache", "--no-inferred", "--out", str(tmp_path / "day.txt"))
    heavy = [name for name in loaded if name.split(".")[0] == "numpy" or name.startswith("compiler.routines")
             or name in ("compiler.frames.inferred", "compiler.frames.arrays")]
    assert not heavy, "; ".join(f"{name} (first imported at {origin.get(name, '?')})" for name in heavy)
    assert not crept_in(loaded)


def test_the_allow_list_catches_numpy_when_the_miner_takes_its_array_version(tmp_path):
    """With the miner's threshold at 0 the same day is mined on numpy arrays:
    numpy then creeps in, and the check names the miner as what loaded it
    (so a day mined past its plain path could not pass unseen)."""
    db = ROOT / "fixtures" / "synthetic" / "day.sqlite3"
    origin, loaded = loaded_by(tmp_path, "compile", "--db", str(db), "--day", "2026-03-02",
                               "--no-cache", "--out", str(tmp_path / "day.txt"),
                               prelude="import compiler.routines.mining as m; m.LONG_STREAM = 0")
    assert "numpy" in crept_in(loaded)
    assert origin["numpy"].startswith("compiler/routines/mining_arrays.py:")
