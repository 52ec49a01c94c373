"""Phantom's caches: `$XDG_CACHE_HOME/phantom/` (`~/.cache/phantom`).

Everything there is derived from the store and rebuilt on demand, so a
forget drops all of it rather than guess which entries saw the window: a
compiled day, an index or anything else cached from the rows forgotten
never outlives them.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    value = os.environ.get("XDG_CACHE_HOME")
    return (Path(value) if value else Path.home() / ".cache") / "phantom"


def drop_caches(directory: Path | None = None) -> int:
    """Remove every file under the cache directory (the directory stays);
    the number removed. A file that cannot be removed is left and not counted."""
    root = directory or cache_dir()
    if not root.is_dir():
        return 0
    removed = 0
    for path in sorted(root.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        try:
            if path.is_dir() and not path.is_symlink():
                path.rmdir()
            else:
                path.unlink()
                removed += 1
        except OSError:
            continue
    return removed
