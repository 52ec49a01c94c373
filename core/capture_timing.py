"""The capture loop's timing defaults, shared by the daemon and by the
synthetic corpus that imitates it.

The capture daemon's configuration (`capturer.config.CaptureSettings`) and
its rules (`capturer.decide.Rules`) start from these values; the synthetic
generator (`synth/desk.py`) writes its records by the same clock, so a
synthetic store has the gaps, heartbeats and idle snapshots a real one with
the default configuration has. They live in `core` because the generator
may import only `core` and the compiler.
"""

from __future__ import annotations

# A snapshot of each monitor at least this often while something is on screen.
HEARTBEAT_MS = 30_000
# No keyboard or mouse input for this long marks snapshots idle.
IDLE_AFTER_MS = 120_000
# Idle, the per-monitor heartbeat runs this many times slower.
IDLE_HEARTBEAT_FACTOR = 5
