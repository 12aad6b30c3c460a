"""ScaledProgress: a sub-task's 0..1 fractions land in [lo, hi] of the whole job."""

from __future__ import annotations

import pytest

from workbench.core.tasks import RecordingProgress, ScaledProgress


def test_fractions_map_into_the_range_and_the_rest_passes_through():
    outer = RecordingProgress()
    scaled = ScaledProgress(outer, 0.2, 0.6)
    scaled.status("copying")
    scaled.fraction(0.0)
    scaled.fraction(0.5)
    scaled.partial(("log", "line"))
    scaled.fraction(None)
    scaled.fraction(1.0)
    assert [k for k, _ in outer.events] == ["status", "fraction", "fraction", "partial", "fraction", "fraction"]
    assert outer.events[0] == ("status", "copying")
    assert outer.events[3] == ("partial", ("log", "line"))
    values = [v for k, v in outer.events if k == "fraction"]
    assert values[0] == pytest.approx(0.2)
    assert values[1] == pytest.approx(0.4)
    assert values[2] is None
    assert values[3] == pytest.approx(0.6)


def test_nested_ranges_compose():
    outer = RecordingProgress()
    inner = ScaledProgress(ScaledProgress(outer, 0.5, 1.0), 0.0, 0.5)
    inner.fraction(1.0)
    assert outer.events == [("fraction", pytest.approx(0.75))]
