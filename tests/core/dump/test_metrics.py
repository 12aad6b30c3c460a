"""Metric values agree with independent formulas (plain Python on float32 inputs), edge cases included."""

from __future__ import annotations

import math

import numpy as np
import pytest

from workbench.core.dump.metrics import ALGORITHMS, DEFAULT_ALGORITHMS, compare_arrays, parse_algorithms

EPS = np.finfo(float).eps


def reference(x, y):
    """Textbook formulas of docs/cann-formats.md §7.3, written in float64 plain Python."""
    x, y = [float(v) for v in x], [float(v) for v in y]
    n = len(x)
    nx, ny = math.sqrt(sum(v * v for v in x)), math.sqrt(sum(v * v for v in y))
    rel = [abs(a / b - 1) if abs(b) > EPS else 0.0 for a, b in zip(x, y)]

    def norm(v):
        lo, hi = min(v), max(v)
        v = [(e - lo) / (hi - lo) for e in v] if hi != lo else v
        v = [max(e, float(np.finfo(np.float32).eps)) for e in v]
        s = sum(v)
        return [e / s for e in v]

    p, q = norm(x), norm(y)
    mx, my = sum(x) / n, sum(y) / n
    return {
        "CosineSimilarity": min(sum(a * b for a, b in zip(x, y)) / (nx * ny), 1.0),
        "MaxAbsoluteError": max(abs(a - b) for a, b in zip(x, y)),
        "AccumulatedRelativeError": sum(rel),
        "RelativeEuclideanDistance": math.sqrt(sum((a - b) ** 2 for a, b in zip(x, y))) / ny,
        "KullbackLeiblerDivergence": sum(a * math.log(a / b) for a, b in zip(p, q)),
        "StandardDeviation": (
            mx,
            math.sqrt(sum((v - mx) ** 2 for v in x) / n),
            my,
            math.sqrt(sum((v - my) ** 2 for v in y) / n),
        ),
        "MeanAbsoluteError": sum(abs(a - b) for a, b in zip(x, y)) / n,
        "RootMeanSquareError": math.sqrt(sum((a - b) ** 2 for a, b in zip(x, y)) / n),
        "MaxRelativeError": max(rel),
        "MeanRelativeError": sum(rel) / n,
    }


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_values_match_textbook_formulas(seed):
    rng = np.random.default_rng(seed)
    y = rng.standard_normal(300).astype(np.float32)
    x = (y + 0.05 * rng.standard_normal(300)).astype(np.float16)  # an NPU float16 output
    y[::17] = 0.0  # exercises |golden| <= eps in the relative errors
    values, reasons = compare_arrays(x, y, ALGORITHMS)
    assert reasons == []
    ref = reference(x.astype(np.float32), y)
    for name, value in zip(ALGORITHMS, values):
        if name == "StandardDeviation":
            assert value == "(%.3f;%.3f),(%.3f;%.3f)" % tuple(0.0 if abs(v) < 0.001 else v for v in ref[name])
            continue
        assert len(value.split(".")[1]) == 6, value  # 6-decimal strings
        assert float(value) == pytest.approx(ref[name], rel=2e-5, abs=2e-6), name


def test_defaults_are_mindstudios():
    assert "KullbackLeiblerDivergence" not in DEFAULT_ALGORITHMS and "StandardDeviation" not in DEFAULT_ALGORITHMS
    assert len(DEFAULT_ALGORITHMS) == 8
    assert parse_algorithms(None) == list(DEFAULT_ALGORITHMS)
    assert parse_algorithms("all") == list(ALGORITHMS)
    assert parse_algorithms("0,MaxAbsoluteError,0") == ["CosineSimilarity", "MaxAbsoluteError"]
    with pytest.raises(ValueError, match="unknown algorithm 'Cos'"):
        parse_algorithms("Cos")


def test_scalar_tensor_cosine_is_one_with_message():
    values, reasons = compare_arrays(np.array([[3.0]]), np.array([[5.0]]), ["CosineSimilarity", "MaxAbsoluteError"])
    assert values == ["1.000000", "2.000000"] and reasons == ["This tensor is scalar."]


def test_all_zero_sides():
    z, v = np.zeros(8, np.float32), np.arange(8, dtype=np.float32)
    assert compare_arrays(z, z, ["CosineSimilarity"]) == (["1.0"], [])
    values, reasons = compare_arrays(
        z, v, ["CosineSimilarity", "RelativeEuclideanDistance"], npu_file="npu.bin", golden_file="g.npy"
    )
    assert values[0] == "NaN" and reasons == ["Cannot compare by Cosine Similarity. All the data is zero in npu.bin."]
    assert values[1] == "1.000000"  # sqrt(sum(v^2)/sum(v^2))
    values, reasons = compare_arrays(
        v,
        z,
        ["CosineSimilarity", "RelativeEuclideanDistance", "MaxRelativeError", "AccumulatedRelativeError"],
        golden_file="g.npy",
    )
    assert values == ["NaN", "0.000000", "0.000000", "0.000000"]  # all |golden| <= eps: relative errors are 0
    assert reasons == ["Cannot compare by Cosine Similarity. All the data is zero in g.npy."]


def test_relative_errors_ignore_tiny_golden_but_mean_counts_every_element():
    x = np.array([2.0, 5.0, 1.0, 3.0], np.float32)
    y = np.array([1.0, 1e-30, 1.0, 4.0], np.float32)
    values, _ = compare_arrays(x, y, ["AccumulatedRelativeError", "MaxRelativeError", "MeanRelativeError"])
    assert values == ["1.250000", "1.000000", "0.312500"]  # (1 + 0 + 0 + 0.25), max, sum / 4


def test_kl_min_max_normalisation_and_constant_side():
    x = np.array([1.0, 2.0, 3.0], np.float32)
    y = np.array([10.0, 30.0, 20.0], np.float32)
    e = float(np.finfo(np.float32).eps)
    p = np.array([e, 0.5, 1.0]) / (1.5 + e)
    q = np.array([e, 1.0, 0.5]) / (1.5 + e)
    expected = float((p * np.log(p / q)).sum())
    assert float(compare_arrays(x, y, ["KullbackLeiblerDivergence"])[0][0]) == pytest.approx(expected, abs=2e-6)
    # a constant side is left unnormalised (max == min): both identical constants give 0
    assert compare_arrays(np.full(4, 2.0), np.full(4, 2.0), ["KullbackLeiblerDivergence"])[0] == ["0.000000"]


def test_booleans_support_only_cosine_and_red():
    a, b = np.array([True, False, True]), np.array([True, True, True])
    values, reasons = compare_arrays(a, b, ["CosineSimilarity", "MaxAbsoluteError"])
    assert values[0] == "%.6f" % (2 / math.sqrt(2 * 3)) and values[1] == "NaN"
    assert reasons == ["Algorithm MaxAbsoluteError does not support Boolean types."]


def test_nan_inputs_give_nan_strings_not_errors():
    values, _ = compare_arrays(
        np.array([1, np.nan], np.float32), np.array([1, 2], np.float32), ["CosineSimilarity", "MaxAbsoluteError"]
    )
    assert values == ["nan", "nan"]  # '{:.6f}'.format(nan), what msaccucmp prints
