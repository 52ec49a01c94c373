"""A readable summary of a capture store, for the demo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.store import open_readonly
from core.store.summary import store_size_bytes


def summarize(db: Path) -> list[str]:
    connection = open_readonly(db)
    try:
        def rows(sql: str) -> list[Any]:   # apsw's rows carry no column types
            return list(connection.execute(sql))

        per_app = rows("SELECT app, count(*) FROM snapshots GROUP BY app ORDER BY count(*) DESC, app")
        keys = rows("SELECT coalesce(sum(count),0) FROM input_events WHERE kind IN ('key','text','copy')")[0][0]
        clicks = rows("SELECT resolution, count(*) FROM input_events WHERE kind='click' "
                      "GROUP BY resolution ORDER BY count(*) DESC")
        texts = rows("SELECT count(*) FROM input_events WHERE text IS NOT NULL")[0][0]
        top = rows("SELECT e.role, coalesce(nullif(e.name,''), e.labelled_by), count(*) FROM input_events i "
                   "JOIN elements e ON e.id = i.element_id WHERE i.kind='click' "
                   "GROUP BY 1, 2 ORDER BY 3 DESC, 2 LIMIT 3")
        trees, elements = rows("SELECT count(*), coalesce(sum(node_count),0) FROM a11y_trees")[0]
        blobs = dict(rows("SELECT kind, count(*) FROM blobs GROUP BY kind"))
        spots = rows("SELECT kind, count(*) FROM blind_spots GROUP BY kind ORDER BY kind")
        span = rows("SELECT min(ts_ms), max(ts_ms) FROM snapshots")[0]
    finally:
        connection.close()
    total_clicks = sum(n for _, n in clicks)
    seconds = (span[1] - span[0]) / 1000 if span[0] is not None else 0
    return [
        f"store      : {db} ({store_size_bytes(db) / 1024:.0f} KiB), {seconds:.0f} s of activity",
        "snapshots  : " + ", ".join(f"{app} {n}" for app, n in per_app),
        f"input      : {keys} keys, {total_clicks} clicks "
        f"({', '.join(f'{n} {r}' for r, n in clicks)}); typed text stored: {texts} rows",
        "top clicks : " + ", ".join(f"{role} '{label}' ×{n}" for role, label, n in top),
        f"a11y       : {trees} tree walks, {elements} elements",
        f"images     : {blobs.get('thumbnail', 0)} thumbnails, {blobs.get('click_crop', 0)} click crops",
        "blind spots: " + (", ".join(f"{kind} ×{n}" for kind, n in spots) or "none"),
    ]
