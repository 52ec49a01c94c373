"""The nocta-layout reader turns the layout's ISO text instants into UTC
milliseconds by a faster path for the usual shape; for every text it must
give what the plain parser `_ms` gives."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.sources.nocta import _Instants, _ms

AWKWARD = [
    "2026-03-02T07:18:26.034000+00:00", "2026-03-02T07:18:26.034000", "2026-03-02T23:59:59.999999Z",
    "2026-03-02T07:18:26.000001+00:00", "2026-03-02T07:18:26", "2026-03-02 07:18:26.034000",
    "2026-03-02T07:18:26.5+00:00", "2026-02-31T07:18:26.000000", "2026-03-02T24:00:00.000000",
    "2026-03-02T23:59:60.000000", "2026-03-02T23:60:00.000000", "0000-01-01T00:00:00.000000",
    "0001-01-01T00:00:00.000000", "9999-12-31T23:59:59.999999", "2024-02-29T12:00:00.000000",
    "2023-02-29T12:00:00.000000", "2026-13-02T07:18:26.034000", "2026-03-02T07:18:26.03400x",
    "", "garbage", "2026-03-02T07:18:26.0340", "1969-12-31T23:59:59.999999",
]


def check(texts: list[str]) -> None:
    instant = _Instants()
    for text in texts + texts:  # the second time round, from the minutes already seen
        assert instant(text) == _ms(text), text


def test_awkward_instants_agree_with_the_python_parser():
    check(AWKWARD + ["２０２６-03-02T07:18:26.034000", "2026-03-02T07:18:26.03400٣", None, 17])
    assert _Instants()("2026-03-02T07:18:26.034000+00:00") == 1_772_435_906_034


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=-30_610_224_000_000_000, max_value=253_402_300_799_999_999),
                min_size=1, max_size=50))
def test_any_microsecond_instant_agrees(microseconds):
    """Years 1000-9999: strftime writes shorter years without padding."""
    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    texts = [(epoch + timedelta(microseconds=us)).strftime("%Y-%m-%dT%H:%M:%S.%f") + "+00:00"
             for us in microseconds]
    check(texts)
    assert None not in map(_Instants(), texts)
