from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from workbench.core.profiling import timeline_ops as ops


def tl():
    return SimpleNamespace(
        names=["MatMul", "Conv2D", "aclrtMemcpy", "aclmdlExecute"],
        lane=np.array([0, 0, 0, 1, 1, 2], dtype=np.int32),
        start_ns=np.array([0, 100, 300, 50, 400, 10], dtype=np.int64),
        dur_ns=np.array([80, 150, 30, 20, 500, 5], dtype=np.int64),
        name_id=np.array([0, 1, 0, 2, 3, 2], dtype=np.int32),
    )


def test_selection_aggregates_by_name():
    t = tl()
    idx = ops.selected_slices(t, [0, 1], 60, 320)
    assert sorted(idx.tolist()) == [0, 1, 2, 3]
    rows = {r["name"]: r for r in ops.aggregate(t, idx)}
    assert rows["MatMul"] == {"name": "MatMul", "count": 2, "total_ns": 110, "avg_ns": 55.0, "min_ns": 30, "max_ns": 80}
    assert rows["Conv2D"]["count"] == 1 and rows["aclrtMemcpy"]["total_ns"] == 20
    assert [r["name"] for r in ops.aggregate(t, idx)][0] == "Conv2D"  # biggest total first


def test_search_substring_and_regex():
    t = tl()
    assert ops.search(t, "acl").tolist() == [5, 3, 4]  # by start time
    assert ops.search(t, "^Mat", regex=True).tolist() == [0, 2]
    assert ops.search(t, "nothing").tolist() == []
    with pytest.raises(ops.SearchError, match="invalid regular expression"):
        ops.search(t, "([", regex=True)


def test_format_units_follow_span():
    assert ops.format_ns(1500) == "1.5 µs"
    assert ops.format_ns(2_500_000_000) == "2.5 s"
    assert ops.format_ns(999) == "999 ns"
    assert ops.format_ns(1_234_567, span_ns=10_000_000) == "1.235 ms"


def test_color_rule_thresholds_two_decimals():
    rule = ops.ColorRule()
    assert rule.level(4.99) == "green"
    assert rule.level(4.999) == "yellow"  # 5.00 after rounding to two decimals
    assert rule.level(5.0) == "yellow" and rule.level(9.99) == "yellow"
    assert rule.level(10.0) == "red"
    with pytest.raises(ValueError):
        ops.ColorRule(10, 5)
    t = tl()
    shares = ops.api_shares(t, [1, 2])
    assert shares[3] == pytest.approx(500 / 525 * 100)
    assert shares[2] == pytest.approx(25 / 525 * 100)
