"""Vector comparison metrics, exactly as msaccucmp computes them (docs/cann-formats.md §7.3).

Both sides are flattened and cast to float32 first (msaccucmp's algorithm manager does the same,
so results agree to the last printed digit); every value is a ``'{:.6f}'`` string, failures are
``"NaN"`` plus a reason. x = NPU ("my output"), y = ground truth, eps = ``np.finfo(float).eps``.

- CosineSimilarity = Σ(x/‖x‖ · y/‖y‖), at most 1.0; a scalar tensor (every dim 1) -> 1.000000 "This
  tensor is scalar."; ‖x‖ ≤ eps and ‖y‖ < eps -> "1.0"; one side all-zero -> NaN "Cannot compare by
  Cosine Similarity. All the data is zero in <file>."
- MaxAbsoluteError = max|x−y|; MeanAbsoluteError = mean|x−y|; RootMeanSquareError = sqrt(mean((x−y)²)).
- relative error r = |x/y − 1| where |y| > eps, else 0: AccumulatedRelativeError = Σr,
  MaxRelativeError = max r, MeanRelativeError = mean r (over all elements).
- RelativeEuclideanDistance = sqrt(Σ(x−y)² / Σy²), 0 when sqrt(Σy²) ≤ eps.
- KullbackLeiblerDivergence: each side min-max normalised (unchanged when max == min), floored at
  float32 eps, divided by its sum; KL = Σ P·ln(P/Q), |KL| < eps -> 0. Because of the floor a side is
  never all zero, so the real tool's "All the data is zero" branch cannot trigger (kept for parity).
- StandardDeviation = "(mean_x;std_x),(mean_y;std_y)" with 3 decimals, |v| < 0.001 shown as 0.000.
Two boolean tensors support only CosineSimilarity and RelativeEuclideanDistance.
Intermediate arrays shared by several metrics are computed once (the same numpy operations, so the
same bits) to keep the comparison fast.
"""

from __future__ import annotations

import numpy as np

ALGORITHMS = (
    "CosineSimilarity",
    "MaxAbsoluteError",
    "AccumulatedRelativeError",
    "RelativeEuclideanDistance",
    "KullbackLeiblerDivergence",
    "StandardDeviation",
    "MeanAbsoluteError",
    "RootMeanSquareError",
    "MaxRelativeError",
    "MeanRelativeError",
)
# MindStudio's Model Accuracy Analyzer defaults: all but KL divergence and standard deviation.
DEFAULT_ALGORITHMS = tuple(a for a in ALGORITHMS if a not in ("KullbackLeiblerDivergence", "StandardDeviation"))
BOOL_ALGORITHMS = ("CosineSimilarity", "RelativeEuclideanDistance")
FILE_COMPARE_ALGORITHMS = tuple(a for a in ALGORITHMS if a not in ("KullbackLeiblerDivergence", "StandardDeviation"))
NAN = "NaN"
FLOAT_EPSILON = np.finfo(float).eps
KL_EPSILON = np.finfo(np.float32).eps
MINIMUM_VALUE = 0.001


def fmt(value) -> str:
    return "{:.6f}".format(value)


def parse_algorithms(spec: str | None) -> list[str]:
    """``None``/"" -> the defaults; "all" -> every algorithm; else comma-separated names or indexes."""
    if not spec:
        return list(DEFAULT_ALGORITHMS)
    if spec.strip().lower() == "all":
        return list(ALGORITHMS)
    chosen: list[str] = []
    for item in (s.strip() for s in spec.split(",")):
        if not item:
            continue
        name = ALGORITHMS[int(item)] if item.isdigit() and int(item) < len(ALGORITHMS) else item
        if name not in ALGORITHMS:
            raise ValueError(
                f"unknown algorithm {item!r}: expected 'all', indexes 0-{len(ALGORITHMS) - 1} "
                f"or names from {', '.join(ALGORITHMS)}"
            )
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise ValueError("no algorithm selected")
    return chosen


def is_scalar_shape(shape) -> bool:
    """msaccucmp's rule: a shape whose dims are all 1 (or no dims) is a scalar."""
    return sum(shape) == len(shape)


class _Shared:
    """Lazily computed intermediates used by several metrics."""

    def __init__(self, x: np.ndarray, y: np.ndarray) -> None:
        self.x, self.y = x, y
        self._abs = self._sq = self._rel = None

    def _diffs(self) -> None:
        diff = self.x - self.y
        self._abs = np.abs(diff)
        self._sq = np.square(diff, out=diff)

    @property
    def abs_diff(self) -> np.ndarray:
        if self._abs is None:
            self._diffs()
        return self._abs

    @property
    def sq_diff(self) -> np.ndarray:
        if self._sq is None:
            self._diffs()
        return self._sq

    @property
    def rel(self) -> np.ndarray:
        if self._rel is None:
            r = self.x / self.y
            r -= 1
            np.abs(r, out=r)
            np.copyto(r, 0, where=~(np.abs(self.y) > FLOAT_EPSILON))
            self._rel = r
        return self._rel


def _cosine(s: _Shared, files: tuple[str, str], scalar: bool) -> tuple[str, str]:
    if scalar:
        return fmt(1), "This tensor is scalar."
    nx = np.linalg.norm(s.x, axis=-1, keepdims=True)
    ny = np.linalg.norm(s.y, axis=-1, keepdims=True)
    if nx <= FLOAT_EPSILON and ny < FLOAT_EPSILON:
        return "1.0", ""
    for norm, file in ((nx, files[0]), (ny, files[1])):
        if norm**0.5 <= FLOAT_EPSILON:
            return NAN, f"Cannot compare by Cosine Similarity. All the data is zero in {file}."
    result = ((s.x / nx) * (s.y / ny)).sum()
    return fmt(min(result, 1.0)), ""


def _red(s: _Shared) -> tuple[str, str]:
    gt_sq = (s.y**2).sum()
    result = 0.0 if gt_sq**0.5 <= FLOAT_EPSILON else s.sq_diff.sum() / gt_sq
    return fmt(result**0.5), ""


def _kl_normalised(v: np.ndarray) -> np.ndarray:
    lo, hi = v.min(), v.max()
    span = hi - lo
    v = (v - lo) / span if span != 0 else v
    return np.maximum(v, KL_EPSILON)


def _kl(s: _Shared, files: tuple[str, str]) -> tuple[str, str]:
    p, q = _kl_normalised(s.x), _kl_normalised(s.y)
    zero_p, zero_q = bool(np.all(p == 0)), bool(np.all(q == 0))
    if zero_p and zero_q:
        return NAN, f"Cannot compare by KL Divergence. All the data is zero in {files[0]!r} and {files[1]!r}."
    if zero_p or zero_q:
        return NAN, f"Cannot compare by KL Divergence. All the data is zero in {files[0] if zero_p else files[1]}."
    pp, qq = p / p.sum(), q / q.sum()
    result = (pp * np.log(pp / qq)).sum()
    if abs(result) < FLOAT_EPSILON:
        result = 0.0
    reason = f"Cannot compare by KL Divergence. The data contains 0 in {files[1]!r}." if str(result) == "inf" else ""
    return fmt(result), reason


def _std(s: _Shared) -> tuple[str, str]:
    vals = [
        np.mean(s.x, dtype=np.float64),
        np.std(s.x, dtype=np.float64),
        np.mean(s.y, dtype=np.float64),
        np.std(s.y, dtype=np.float64),
    ]
    vals = [0.0 if abs(v) < MINIMUM_VALUE else v for v in vals]
    return "(%.3f;%.3f),(%.3f;%.3f)" % tuple(vals), ""


def _one(name: str, s: _Shared, files: tuple[str, str], scalar: bool) -> tuple[str, str]:
    if name == "CosineSimilarity":
        return _cosine(s, files, scalar)
    if name == "RelativeEuclideanDistance":
        return _red(s)
    if name == "KullbackLeiblerDivergence":
        return _kl(s, files)
    if name == "StandardDeviation":
        return _std(s)
    value = {
        "MaxAbsoluteError": lambda: s.abs_diff.max(),
        "MeanAbsoluteError": lambda: s.abs_diff.mean(),
        "RootMeanSquareError": lambda: np.sqrt(np.average(s.sq_diff)),
        "AccumulatedRelativeError": lambda: s.rel.sum(),
        "MaxRelativeError": lambda: s.rel.max(),
        "MeanRelativeError": lambda: s.rel.mean(),
    }[name]()
    return fmt(value), ""


def compare_arrays(
    x: np.ndarray,
    y: np.ndarray,
    algorithms=DEFAULT_ALGORITHMS,
    *,
    npu_file: str = "",
    golden_file: str = "",
    shape=None,
) -> tuple[list[str], list[str]]:
    """(one value string per algorithm, failure reasons) for two tensors of the same element count.

    ``shape`` decides the scalar rule for cosine (defaults to ``x``'s shape).
    """
    x, y = np.asarray(x).reshape(-1), np.asarray(y).reshape(-1)
    if x.size != y.size:
        raise ValueError(f"element counts differ: {x.size} (NPU) vs {y.size} (ground truth)")
    if x.size == 0:
        return [NAN] * len(algorithms), [f"The dump data size is 0 in {npu_file or golden_file}."]
    is_bool = x.dtype == np.bool_ and y.dtype == np.bool_
    if not is_bool:
        x, y = x.astype(np.float32, copy=False), y.astype(np.float32, copy=False)
    scalar = is_scalar_shape(x.shape if shape is None else shape)
    shared = _Shared(x, y)
    values, reasons = [], []
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for name in algorithms:
            if is_bool and name not in BOOL_ALGORITHMS:
                values.append(NAN)
                reasons.append(f"Algorithm {name} does not support Boolean types.")
                continue
            try:
                value, reason = _one(name, shared, (npu_file, golden_file), scalar)
            except (TypeError, ValueError, FloatingPointError) as ex:  # as msaccucmp: the metric fails alone
                value, reason = NAN, f"Failed to execute 'compare' in '{name}'. {ex}"
            values.append(value)
            if reason:
                reasons.append(reason)
    return values, reasons
