"""The report cache (issue #18): smaller than half its source, the AI Core metrics recomputed on
load instead of stored, compact columns decoding to bit-identical values, old caches rebuilt."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from workbench.core.profiling.build import open_report
from workbench.core.profiling.detect import detect
from workbench.core.profiling.storage import cache, columnar

BENCH = Path(__file__).resolve().parents[3] / "benchmarks"


def _tables_equal(a, b) -> None:
    assert list(a.tables) == list(b.tables)
    for name in a.tables:
        left, right = a.tables[name], b.tables[name]
        assert list(left.columns) == list(right.columns), name
        for col in left.columns:
            x, y = left[col], right[col]
            assert x.dtype == y.dtype, (name, col)
            if x.dtype == np.float64:  # bit-identical, NaN included
                assert np.asarray(x).tobytes() == np.asarray(y).tobytes(), (name, col)
            elif isinstance(x.dtype, np.dtype):  # memory-mapped on one side: compare the values
                np.testing.assert_array_equal(np.asarray(x), np.asarray(y), err_msg=f"{name}.{col}")
            else:
                pd.testing.assert_series_equal(x, y, check_exact=True, obj=f"{name}.{col}")


@pytest.fixture(scope="module")
def big_run(tmp_path_factory) -> Path:
    """A torch_npu folder with a 20 000-row kernel_details in the real 2025 layout (PMU columns)."""
    sys.path.insert(0, str(BENCH))
    import bench_csv

    root = tmp_path_factory.mktemp("run")
    return bench_csv.write_torch_npu_folder(root, 20_000)


def test_cache_is_well_under_its_source_and_reopens_identical(big_run):
    first = open_report(big_run, use_cache=True)
    place = big_run / ".wbcache"
    source = sum(p.stat().st_size for p in big_run.rglob("*.csv"))
    size = sum(p.stat().st_size for p in place.rglob("*") if p.is_file())
    # was 1.4x (0.44x without the AI Core metrics, which are stored compact: a re-open is faster)
    assert size <= 0.8 * source, f"cache {size} bytes for a {source}-byte source"  # 0.64x at 1 M rows
    meta = json.loads((place / "report.json").read_text(encoding="utf-8"))
    assert "ai_core_metrics" in meta["tables"] and not meta.get("recomputed")
    second = open_report(big_run, use_cache=True)
    assert second.info["cache"] == str(place)
    assert len(second.tables["ai_core_metrics"]) and second.pmu_group == first.pmu_group
    _tables_equal(first, second)


def test_a_cache_of_the_previous_format_is_rebuilt(big_run):
    open_report(big_run, use_cache=True)
    meta_path = big_run / ".wbcache" / "report.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["cache_version"] = 2  # what the workbench before issue #18 wrote (full AI Core table, plain columns)
    meta_path.write_text(json.dumps(meta), encoding="utf-8")
    layout = detect(big_run)
    assert cache.load(layout) is None and not cache.present(layout)
    rebuilt = open_report(big_run, use_cache=True)
    assert "cache" not in rebuilt.info
    assert json.loads(meta_path.read_text(encoding="utf-8"))["cache_version"] == cache.CACHE_VERSION


@pytest.mark.parametrize(
    "values, scale",
    [
        ([0.824, 0.0, 1.0, np.nan, 0.001], 1000),
        ([185.504, 501.17, -3.25, 2_000_000.5], 1000),
        ([1.0, 2.0, 3.0], 1),
        ([0.5, np.nan], 10),
    ],
)
def test_decimals_are_stored_as_scaled_integers_that_decode_bit_identical(tmp_path, values, scale):
    data = np.array(values, dtype=np.float64)
    packed = columnar.scaled_decimal(data)
    assert packed is not None and packed[1] == scale and packed[0].itemsize <= 4
    frame = pd.DataFrame({"aic_mac_ratio": data})
    store = columnar.DirStore(tmp_path)
    meta = columnar.put_frame(store, "t", frame, compact=True)
    back = columnar.get_frame(store, "t", meta)
    assert np.asarray(back["aic_mac_ratio"]).tobytes() == data.tobytes()


@pytest.mark.parametrize("values", [[0.1 + 0.2], [-0.0, 1.0], [1e300], [np.inf], [1.23456]])
def test_values_without_an_exact_scaled_integer_stay_float64(values):
    assert columnar.scaled_decimal(np.array(values, dtype=np.float64)) is None
