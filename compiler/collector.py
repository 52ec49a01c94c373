"""Pausing Python's cyclic garbage collector around a compilation.

A compile allocates tens of thousands of small, acyclic objects (row
tuples, records, strings) that all stay alive until the document is built.
Each allocation burst triggers the cyclic collector, which then walks every
live object — including the ones just made — only to find nothing to free:
on a one-day compile that was about 8 % of the time (interleaved A/B).
Reference counting still frees everything as usual; only the cycle search
waits until the compile is over. Nested pauses leave the collector as the
outermost found it.

Used as a `with` block around reading and rendering, and as a decorator on
the passes that allocate per action (deriving the action stream, splitting
it into sessions, mining), which also run outside a compile: on the 51-day
history the action stream took 1.35–1.5 s with the collector on and about
0.9 s with it paused (the deferred collection at the end included).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
