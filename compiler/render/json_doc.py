"""Canonical JSON: sorted keys, two-space indent, integers for counts and
seconds, minutes with one decimal, local ISO times. Same document, same bytes."""

from __future__ import annotations

from typing import Any

import orjson

from ..records import BlindSpotNote, Document, Frame, InferredItem, InputVolume, Interruption
from ..timefmt import TimeFormat, minutes, ranges, utc_iso


def document_dict(document: Document, times: TimeFormat, label: str, note: str = "") -> dict[str, Any]:
    provenance = document.provenance
    coverage = document.coverage
    result: dict[str, Any] = {
        "schema": provenance.document_schema,
        "window": {"label": label, "since": utc_iso(provenance.since_ms),
                   "until": utc_iso(provenance.until_ms), "zone": provenance.zone},
        "coverage": {
            "first_activity": times.iso(coverage.first_activity_ms) if coverage.first_activity_ms is not None else None,
            "last_activity": times.iso(coverage.last_activity_ms) if coverage.last_activity_ms is not None else None,
            "active_minutes": minutes(coverage.active_ms),
            "span_minutes": minutes(coverage.span_ms),
            "idle_minutes": minutes(coverage.idle_ms),
            "away_minutes": minutes(coverage.away_ms),
            "no_input": [{"start": times.iso(g.start_ms), "end": times.iso(g.end_ms),
                          "minutes": minutes(g.end_ms - g.start_ms), "reason": g.reason}
                         for g in coverage.quiet],
            "monitors": list(coverage.monitors),
            "gaps": [{"start": times.iso(g.start_ms), "end": times.iso(g.end_ms),
                      "minutes": minutes(g.end_ms - g.start_ms), "reason": g.reason}
                     for g in coverage.gaps],
        },
        "frames": [_frame(frame, times) for frame in document.frames],
        "blind_spots": [_blind(note, times) for note in document.blind_spots],
        "provenance": {
            "compiler_version": provenance.compiler_version,
            "source": provenance.source,
            "store_schema": provenance.store_schema,
            "input_digest": f"sha256:{provenance.input_digest}",
            "rows": {table: count for table, count in provenance.rows},
        },
    }
    if note:
        result["window"]["note"] = note
    if document.inferred is not None:
        result["inferred"] = {
            "note": "interpretation, not measurement: each item says how it was inferred, how "
                    "confident it is, and which frames and rows it rests on",
            "items": [_inferred(item) for item in document.inferred],
        }
    return result


def render_json(document: Document, times: TimeFormat, label: str, note: str = "") -> bytes:
    return orjson.dumps(document_dict(document, times, label, note),
                        option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2) + b"\n"


def _frame(frame: Frame, times: TimeFormat) -> dict[str, Any]:
    offset = frame.utc_offset_min
    volume = frame.input
    return {
        "id": frame.id,
        "monitor": frame.monitor,
        "app": frame.app,
        "site": frame.site,
        "start": times.iso(frame.start_ms, offset),
        "end": times.iso(frame.end_ms, offset),
        "active_seconds": (frame.active_ms + 500) // 1000,
        "active_minutes": minutes(frame.active_ms),
        "idle_seconds": (frame.idle_ms + 500) // 1000,
        "away_seconds": (frame.away_ms + 500) // 1000,
        "wall_minutes": minutes(frame.end_ms - frame.start_ms),
        "titles": list(frame.titles),
        "pages": [{"kind": p.kind, "entity": p.entity, "visits": p.count, "title": p.title}
                  for p in frame.pages],
        "input": _volume(volume),
        "click_targets": [{"role": t.role, "label": t.label, "count": t.count} for t in frame.targets],
        "click_targets_more": frame.targets_more,
        "interruptions": [_interruption(i, times, offset) for i in frame.interruptions],
        "idle_snapshots": frame.idle_snapshots,
        "evidence": {"snapshots": ranges(frame.snapshot_ids),
                     "input_events": ranges(frame.input_ids)},
    }


def _volume(volume: InputVolume) -> dict[str, Any]:
    return {
        "keys": volume.keys, "clicks": volume.clicks, "scrolls": volume.scrolls,
        "copies": volume.copies, "text_bursts": volume.text_bursts,
        "click_resolution": {"exact": volume.clicks_exact, "tolerance": volume.clicks_tolerance,
                             "zone": volume.clicks_zone, "none": volume.clicks_none},
    }


def _interruption(interruption: Interruption, times: TimeFormat, offset: int) -> dict[str, Any]:
    """A detour; its own input (never the host frame's) when it had any."""
    item: dict[str, Any] = {"app": interruption.app, "site": interruption.site,
            "start": times.iso(interruption.start_ms, offset),
            "seconds": (interruption.end_ms - interruption.start_ms + 500) // 1000,
            "evidence": {"snapshots": ranges(interruption.snapshots)}}
    if interruption.input is not None:
        item["input"] = _volume(interruption.input)
        item["evidence"]["input_events"] = ranges(interruption.input_ids)
    return item


def _blind(note: BlindSpotNote, times: TimeFormat) -> dict[str, Any]:
    return {"kind": note.kind, "source": note.source, "detail": note.detail, "count": note.count,
            "start": times.iso(note.start_ms) if note.start_ms is not None else None,
            "end": times.iso(note.end_ms) if note.end_ms is not None else None}


def _inferred(item: InferredItem) -> dict[str, Any]:
    return {"kind": item.kind, "label": item.label, "confidence": item.confidence,
            "basis": item.basis, "frames": list(item.frames), "evidence": list(item.evidence),
            "details": dict(item.details)}
