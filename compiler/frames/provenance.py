"""Provenance: which compiler, schema and source made a document, over which
window, and a sha256 digest of the canonical input rows — the proof that two
documents were compiled from the same data. No generation time: the same
rows must give the same bytes."""

from __future__ import annotations

import hashlib

import orjson

from compiler.records import Capture, Provenance

DOCUMENT_SCHEMA = "phantom.activity-frames/1"
COMPILER_VERSION = "0.1.0"


def input_digest(capture: Capture) -> str:
    """sha256 over each table's rows serialized by orjson (dataclass fields
    in declared order, so the bytes are canonical)."""
    digest = hashlib.sha256()
    for table, rows in (("snapshots", capture.snapshots), ("input_events", capture.inputs),
                        ("blind_spots", capture.blind_spots), ("replay_runs", capture.replay_runs)):
        digest.update(table.encode())
        digest.update(orjson.dumps(list(rows), default=tuple))
    return digest.hexdigest()


def provenance(capture: Capture, zone: str) -> Provenance:
    digest = capture.digest or input_digest(capture)
    return Provenance(DOCUMENT_SCHEMA, COMPILER_VERSION, capture.source, capture.schema_version,
                      capture.since_ms, capture.until_ms, zone, digest,
                      (("snapshots", len(capture.snapshots)), ("input_events", len(capture.inputs)),
                       ("blind_spots", len(capture.blind_spots))))
