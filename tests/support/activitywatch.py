"""ActivityWatch history written the way its servers write it, for tests.

- `export_python`: aw-server's `GET /api/0/export` body — `{"buckets": {id:
  bucket}}`, bucket fields as `BucketModel.json()` gives them, events with
  their ids scrubbed (aw_server/api.py `export_bucket`), timestamps as
  Python's `isoformat()` of a UTC datetime.
- `export_rust`: aw-server-rust's — the same map (aw-models `BucketsExport`),
  events keeping `id`, chrono's RFC 3339 with 'Z', plus `last_updated` and
  `metadata`.
- `peewee_database`: aw-core's peewee datastore file. The DDL is what peewee
  emits for aw_datastore/storages/peewee.py's `BucketModel` and `EventModel`
  (checked by running peewee 4.5.3 on those model definitions); values as
  peewee stores them: `str(datetime)` for times, the duration as a number,
  the event data as JSON text in `datastr`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import apsw

PEEWEE_DDL = """
CREATE TABLE "bucketmodel" ("key" INTEGER NOT NULL PRIMARY KEY, "id" VARCHAR(255) NOT NULL,
  "created" DATETIME NOT NULL, "name" VARCHAR(255), "type" VARCHAR(255) NOT NULL,
  "client" VARCHAR(255) NOT NULL, "hostname" VARCHAR(255) NOT NULL, "datastr" VARCHAR(255));
CREATE UNIQUE INDEX "bucketmodel_id" ON "bucketmodel" ("id");
CREATE TABLE "eventmodel" ("id" INTEGER NOT NULL PRIMARY KEY, "bucket_id" INTEGER NOT NULL,
  "timestamp" DATETIME NOT NULL, "duration" DECIMAL(10, 5) NOT NULL, "datastr" VARCHAR(255) NOT NULL,
  FOREIGN KEY ("bucket_id") REFERENCES "bucketmodel" ("key"));
CREATE INDEX "eventmodel_bucket_id" ON "eventmodel" ("bucket_id");
CREATE INDEX "eventmodel_timestamp" ON "eventmodel" ("timestamp");
"""

CLIENTS = {"currentwindow": "aw-watcher-window", "afkstatus": "aw-watcher-afk",
           "web.tab.current": "aw-client-web"}


@dataclass
class Bucket:
    id: str
    type: str
    hostname: str
    events: list[tuple[int, float, dict]] = field(default_factory=list)   # (start ms, seconds, data)

    def add(self, start_ms: int, seconds: float, **data) -> None:
        self.events.append((start_ms, seconds, data))


def _utc(ms: int) -> datetime:
    return datetime.fromtimestamp(ms // 1000, tz=timezone.utc).replace(microsecond=ms % 1000 * 1000)


def _created(bucket: Bucket) -> int:
    return min((start for start, _, _ in bucket.events), default=0)


def export_python(buckets: list[Bucket]) -> dict:
    return {"buckets": {b.id: {
        "id": b.id, "created": _utc(_created(b)).isoformat(), "name": None, "type": b.type,
        "client": CLIENTS.get(b.type, "aw-client"), "hostname": b.hostname, "data": {},
        "events": [{"timestamp": _utc(start).isoformat(), "duration": seconds, "data": data}
                   for start, seconds, data in sorted(b.events, key=lambda e: -e[0])],
    } for b in buckets}}


def _rfc3339_z(ms: int) -> str:
    return _utc(ms).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def export_rust(buckets: list[Bucket]) -> dict:
    result = {}
    for b in buckets:
        ends = [start + round(seconds * 1000) for start, seconds, _ in b.events]
        result[b.id] = {
            "id": b.id, "type": b.type, "client": CLIENTS.get(b.type, "aw-client"), "hostname": b.hostname,
            "created": _rfc3339_z(_created(b)), "data": {},
            "metadata": {"start": _rfc3339_z(_created(b)), "end": _rfc3339_z(max(ends, default=0))},
            "events": [{"id": n + 1, "timestamp": _rfc3339_z(start), "duration": float(seconds), "data": data}
                       for n, (start, seconds, data) in enumerate(b.events)],
            "last_updated": _rfc3339_z(max(ends, default=0)),
        }
    return {"buckets": result}


def write_json(path: Path, document: dict) -> Path:
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def peewee_database(path: Path, buckets: list[Bucket]) -> Path:
    connection = apsw.Connection(str(path))
    connection.execute(PEEWEE_DDL)
    with connection:
        for key, b in enumerate(buckets, start=1):
            connection.execute(
                'INSERT INTO "bucketmodel" ("key", "id", "created", "name", "type", "client", "hostname", '
                '"datastr") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
                (key, b.id, str(_utc(_created(b))), None, b.type, CLIENTS.get(b.type, "aw-client"), b.hostname,
                 "{}"))
            for start, seconds, data in b.events:
                connection.execute(
                    'INSERT INTO "eventmodel" ("bucket_id", "timestamp", "duration", "datastr") VALUES (?, ?, ?, ?)',
                    (key, str(_utc(start)), seconds, json.dumps(data)))
    connection.close()
    return path
