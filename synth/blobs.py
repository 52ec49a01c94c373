"""Tiny deterministic PNG images for the few thumbnails and click crops a
synthetic day carries (the store's blob table must not be empty, but the
file must stay small)."""

from __future__ import annotations

import random
import struct
import zlib


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def tiny_png(rng: random.Random, width: int, height: int) -> bytes:
    """A blocky RGB image: a few flat colour bands, like a downscaled window."""
    bands = [bytes((rng.randint(30, 250), rng.randint(30, 250), rng.randint(30, 250)))
             for _ in range(rng.randint(3, 6))]
    band_height = max(1, height // len(bands))
    rows = []
    for y in range(height):
        colour = bands[min(len(bands) - 1, y // band_height)]
        rows.append(b"\x00" + colour * width)
    raw = b"".join(rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9))
            + _chunk(b"IEND", b""))
