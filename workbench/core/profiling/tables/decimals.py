"""Exact decimal columns held as scaled integers: a pandas extension array for the PMU metrics.

op_summary / kernel_details write their PMU metrics (``aic_mac_ratio`` 0.824, ``aicore_time(us)``
185.504, ``cube_utilization(%)`` 79.295) with at most three decimals; a million rows of 23 such
columns are 184 MB as float64. :class:`DecimalArray` keeps each as int16 / int32 thousandths
(2-4 bytes a value, a sentinel for missing) and behaves as the float64 column it stands for:
every value it hands out is ``ints / 1000`` in float64, which IEEE division rounds correctly, so it
is bit-identical to ``float(text)`` of the cell (``0.824`` is the same double either way). Numpy
(``np.asarray``, ufuncs), arithmetic and comparisons, reductions and groupby see float64;
selecting rows (take, masks, slices, concat) stays compact. A column is held so only when every
value fits (:func:`compact`); anything else stays float64.

May use: numpy, pandas. Nothing else of the engine.
"""

from __future__ import annotations

import numbers
import operator
import re
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.extensions import ExtensionArray, ExtensionDtype, register_extension_dtype, take
from pandas.api.indexers import check_array_indexer

SCALE = 1000  # three decimals: what msprof and torch_npu write
_NA = {np.dtype(np.int16): np.iinfo(np.int16).min, np.dtype(np.int32): np.iinfo(np.int32).min}
_ACCUMULATE: dict[str, tuple[Any, float]] = {
    "cumsum": (np.cumsum, 0.0),
    "cumprod": (np.cumprod, 1.0),
    "cummax": (np.maximum.accumulate, -np.inf),
    "cummin": (np.minimum.accumulate, np.inf),
}
_NAME = re.compile(r"decimal\[(\d+)\]")


@register_extension_dtype
class DecimalDtype(ExtensionDtype):
    """Float64 values held as integers ``* scale`` (``decimal[1000]``)."""

    type = float
    kind = "f"
    na_value = np.nan
    _metadata = ("scale",)

    def __init__(self, scale: int = SCALE) -> None:
        self.scale = int(scale)

    @property
    def name(self) -> str:
        return f"decimal[{self.scale}]"

    @property
    def _is_numeric(self) -> bool:
        return True

    @classmethod
    def construct_array_type(cls) -> type[DecimalArray]:  # type: ignore[valid-type]
        return DecimalArray

    @classmethod
    def construct_from_string(cls, string: str) -> DecimalDtype:
        if not isinstance(string, str):
            raise TypeError(f"'construct_from_string' expects a string, got {type(string)}")
        match = _NAME.fullmatch(string)
        if match is None:
            raise TypeError(f"Cannot construct a 'DecimalDtype' from '{string}'")
        return cls(int(match.group(1)))

    def _get_common_dtype(self, dtypes: list[Any]) -> Any:
        if all(d == self for d in dtypes):
            return self
        if all(isinstance(d, DecimalDtype) or (isinstance(d, np.dtype) and d.kind in "iufb") for d in dtypes):
            return np.dtype(np.float64)
        return None


def encode(values: np.ndarray, scale: int = SCALE) -> np.ndarray | None:
    """float64 ``values`` as int16 / int32 ``values * scale`` (NaN as the type's minimum) when that
    gives back every value bit for bit; None when any does not (more decimals, out of range, -0.0)."""
    return encode_block(np.asarray(values, dtype=np.float64).reshape(1, -1), scale)[0]


def encode_block(values: np.ndarray, scale: int = SCALE) -> list[np.ndarray | None]:
    """:func:`encode` of each row of the 2-D float64 ``values`` (one pass over them all: the CSV
    reader encodes every PMU column of a piece together)."""
    ints = values * scale
    np.rint(ints, out=ints)
    ints += 0.0  # -0.0 becomes +0.0, so a -0.0 cell (no integer holds it) fails the check below
    back = np.divide(ints, scale)
    # exact: the quotient has the very bits of the value (NaN gives NaN back)
    ok = (back.view(np.int64) == values.view(np.int64)).all(axis=1)
    rows, width = values.shape
    lo = np.fmin.reduce(ints, axis=1) if width else np.zeros(rows)  # NaN left out
    hi = np.fmax.reduce(ints, axis=1) if width else np.zeros(rows)
    lo, hi = np.nan_to_num(lo, nan=0.0), np.nan_to_num(hi, nan=0.0)  # a column all missing
    ok &= (lo > -(2**31 - 1)) & (hi < 2**31 - 1)  # inf falls out here
    out: list[np.ndarray | None] = [None] * rows
    if not ok.any():
        return out
    nan = np.isnan(values)
    with np.errstate(invalid="ignore"):
        wide = ints.astype(np.int32)  # every row at once; the ones not ok are dropped below
    wide[nan] = _NA[np.dtype(np.int32)]
    small = ok & (lo >= -32767) & (hi <= 32767)
    for row in np.flatnonzero(ok & ~small):
        out[row] = wide[row]
    narrow = np.flatnonzero(small)
    if len(narrow):
        held = wide[narrow].astype(np.int16)
        held[nan[narrow]] = _NA[np.dtype(np.int16)]
        for n, row in enumerate(narrow):
            out[row] = held[n]
    return out


def missing_of(dtype: np.dtype) -> int:
    """The sentinel of a missing value in scaled integers of ``dtype`` (its minimum)."""
    return int(_NA[np.dtype(dtype)])


def widen(ints: np.ndarray) -> np.ndarray:
    """int16 scaled integers as int32 (the missing sentinel moved with them)."""
    out = ints.astype(np.int32)
    out[ints == _NA[ints.dtype]] = _NA[np.dtype(np.int32)]
    return out


def decode(ints: np.ndarray, scale: int = SCALE) -> np.ndarray:
    """Scaled integers as a new float64 array: ``ints / scale``, NaN where missing."""
    out = ints.astype(np.float64)
    np.divide(out, scale, out=out)  # in place: the same correctly rounded quotient
    out[ints == _NA[ints.dtype]] = np.nan
    return out


def compact(values: np.ndarray, scale: int = SCALE) -> DecimalArray | np.ndarray:
    """``values`` (float64) as a :class:`DecimalArray` when every value fits, else unchanged."""
    ints = encode(values, scale)
    return values if ints is None else DecimalArray(ints, scale)


def _as_floats(values: Any) -> np.ndarray:
    """Numbers (None / NaN / pd.NA for missing) as a float64 array with NaN."""
    return pd.array(values, dtype="Float64").to_numpy(dtype=np.float64, na_value=np.nan)


def compact_frame(frame: pd.DataFrame, keep: Any = ()) -> pd.DataFrame:
    """``frame`` with its float64 columns not named in ``keep`` held as :class:`DecimalArray` where
    every value fits (as the CSV reader holds the columns no schema knows)."""
    for name in frame.columns:
        if name not in keep and frame[name].dtype == np.float64:
            held = compact(frame[name].to_numpy())
            if isinstance(held, DecimalArray):
                frame[name] = held
    return frame


class DecimalArray(ExtensionArray):
    """A float64 column stored as scaled int16 / int32 (see the module docstring)."""

    __array_priority__ = 1000

    def __init__(self, ints: np.ndarray, scale: int = SCALE) -> None:
        ints = np.asarray(ints)
        if ints.dtype not in _NA:
            raise TypeError(f"DecimalArray holds int16 or int32, not {ints.dtype}")
        self._ints = ints
        self._dtype = DecimalDtype(scale)

    # ---- what it holds ------------------------------------------------------------------------

    @property
    def ints(self) -> np.ndarray:
        """The scaled integers (the type's minimum where missing)."""
        return self._ints

    @property
    def scale(self) -> int:
        return self._dtype.scale

    @property
    def dtype(self) -> DecimalDtype:
        return self._dtype

    @property
    def nbytes(self) -> int:
        return int(self._ints.nbytes)

    def __len__(self) -> int:
        return len(self._ints)

    def isna(self) -> np.ndarray:
        return self._ints == _NA[self._ints.dtype]

    def floats(self) -> np.ndarray:
        """The values as a new float64 array (NaN where missing)."""
        return decode(self._ints, self.scale)

    # ---- construction -------------------------------------------------------------------------

    @classmethod
    def _from_sequence(cls, scalars: Any, *, dtype: Any = None, copy: bool = False) -> DecimalArray:
        scale = dtype.scale if isinstance(dtype, DecimalDtype) else SCALE
        if isinstance(scalars, DecimalArray) and scalars.scale == scale:
            return scalars.copy() if copy else scalars
        ints = encode(_as_floats(scalars), scale)
        if ints is None:
            raise ValueError(f"values are not exact at scale {scale}")
        return cls(ints, scale)

    @classmethod
    def _from_factorized(cls, values: np.ndarray, original: DecimalArray) -> DecimalArray:
        return cls(values.astype(original._ints.dtype), original.scale)

    @classmethod
    def _concat_same_type(cls, to_concat: Any) -> DecimalArray:
        arrays = list(to_concat)
        wide = any(a._ints.dtype == np.int32 for a in arrays)
        parts = [a._ints if not wide or a._ints.dtype == np.int32 else a._wide() for a in arrays]
        return cls(np.concatenate(parts) if parts else np.zeros(0, np.int16), arrays[0].scale if arrays else SCALE)

    def _wide(self) -> np.ndarray:
        return widen(self._ints)

    def copy(self) -> DecimalArray:
        return DecimalArray(self._ints.copy(), self.scale)

    # ---- selecting ----------------------------------------------------------------------------

    def __getitem__(self, item: Any) -> Any:
        if isinstance(item, numbers.Integral):
            value = self._ints[item]
            return np.nan if value == _NA[self._ints.dtype] else float(int(value) / self.scale)
        if isinstance(item, tuple) and len(item) == 1:
            item = item[0]
        if not isinstance(item, slice):
            item = check_array_indexer(self, item)
        return DecimalArray(self._ints[item], self.scale)

    def take(self, indices: Any, *, allow_fill: bool = False, fill_value: Any = None) -> DecimalArray:
        na = _NA[self._ints.dtype]
        if allow_fill and fill_value is not None and not (isinstance(fill_value, float) and np.isnan(fill_value)):
            encoded = self._encode_like(np.asarray([fill_value], dtype=np.float64))
            if encoded.dtype != self._ints.dtype:
                return DecimalArray(self._wide(), self.scale).take(indices, allow_fill=True, fill_value=fill_value)
            na = encoded[0]
        return DecimalArray(take(self._ints, indices, allow_fill=allow_fill, fill_value=na), self.scale)

    def _encode_like(self, values: np.ndarray) -> np.ndarray:
        ints = encode(values, self.scale)
        if ints is None:
            raise TypeError(f"{values.tolist()[:3]} cannot be held as {self.dtype.name}")
        return ints

    def __setitem__(self, key: Any, value: Any) -> None:
        key = check_array_indexer(self, key)
        ints = self._encode_like(_as_floats(np.atleast_1d(value)))
        if ints.dtype.itemsize > self._ints.dtype.itemsize:
            self._ints = self._wide()
        if ints.dtype != self._ints.dtype:  # int16 into int32: the missing sentinel moves
            na = ints == _NA[ints.dtype]
            ints = ints.astype(self._ints.dtype)
            ints[na] = _NA[self._ints.dtype]
        self._ints[key] = ints if np.ndim(value) else ints[0]

    # ---- as float64 ---------------------------------------------------------------------------

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = self.floats()
        return out if dtype is None else out.astype(dtype, copy=False)

    def to_numpy(self, dtype: Any = None, copy: bool = False, na_value: Any = pd.api.extensions.no_default) -> Any:
        out = self.floats()
        if na_value is not pd.api.extensions.no_default and not (isinstance(na_value, float) and np.isnan(na_value)):
            if dtype is None or np.dtype(dtype).kind == "O":
                out = out.astype(object)
            out[self.isna()] = na_value
        return out if dtype is None else out.astype(dtype, copy=False)

    def __arrow_array__(self, type: Any = None) -> Any:  # noqa: A002 - pyarrow's protocol
        import pyarrow as pa

        return pa.array(self.floats(), type=type, from_pandas=True)

    def astype(self, dtype: Any, copy: bool = True) -> Any:
        dtype = pd.api.types.pandas_dtype(dtype)
        if dtype == self._dtype:
            return self.copy() if copy else self
        if isinstance(dtype, DecimalDtype):
            return DecimalArray._from_sequence(self.floats(), dtype=dtype)
        if isinstance(dtype, np.dtype):
            return self.floats().astype(dtype, copy=False)
        return pd.array(self.floats(), dtype=dtype)

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if any(isinstance(x, (pd.Series, pd.Index, pd.DataFrame)) for x in inputs):
            return NotImplemented
        if any(isinstance(x, DecimalArray) for x in kwargs.get("out", ())):
            return NotImplemented
        inputs = tuple(x.floats() if isinstance(x, DecimalArray) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def _values_for_argsort(self) -> np.ndarray:
        return self._ints  # same order as the values (one scale)

    def _values_for_factorize(self) -> tuple[np.ndarray, Any]:
        return self._ints, _NA[self._ints.dtype]

    def _reduce(self, name: str, *, skipna: bool = True, keepdims: bool = False, **kwargs: Any) -> Any:
        floats = pd.arrays.NumpyExtensionArray(self.floats())
        return floats._reduce(name, skipna=skipna, keepdims=keepdims, **kwargs)

    def _groupby_op(
        self, *, how: str, has_dropped_na: bool, min_count: int, ngroups: int, ids: Any, **kwargs: Any
    ) -> Any:
        # as a float64 column is grouped: pandas' own kernels over the values
        from pandas.core.groupby.ops import WrappedCythonOp

        op = WrappedCythonOp(how=how, has_dropped_na=has_dropped_na)
        return op.cython_operation(
            values=self.floats(), axis=0, min_count=min_count, ngroups=ngroups, comp_ids=ids, **kwargs
        )

    def _accumulate(self, name: str, *, skipna: bool = True, **kwargs: Any) -> Any:
        if name not in _ACCUMULATE:
            raise NotImplementedError(f"cannot perform {name} with type {self.dtype}")
        func, neutral = _ACCUMULATE[name]
        values = self.floats()
        if not skipna:
            return func(values)
        missing = np.isnan(values)
        out = func(np.where(missing, neutral, values))
        out[missing] = np.nan  # as float64 columns do: a missing value stays missing, the rest go on
        return out

    def _quantile(self, qs: np.ndarray, interpolation: str) -> Any:
        return pd.arrays.NumpyExtensionArray(self.floats())._quantile(qs, interpolation)

    def round(self, decimals: int = 0, *args: Any, **kwargs: Any) -> Any:
        rounded = np.round(self.floats(), decimals)
        return compact(rounded, self.scale)

    def _formatter(self, boxed: bool = False) -> Any:
        return repr

    # ---- operators: on the float64 values -----------------------------------------------------

    def _operate(self, other: Any, op: Any) -> Any:
        if isinstance(other, (pd.Series, pd.Index, pd.DataFrame)):
            return NotImplemented
        if isinstance(other, DecimalArray):
            other = other.floats()
        elif isinstance(other, ExtensionArray):
            other = np.asarray(other.to_numpy(dtype=np.float64, na_value=np.nan))
        return op(self.floats(), other)


def _binary(op: Any) -> Any:
    def method(self: DecimalArray, other: Any) -> Any:
        return self._operate(other, op)

    return method


def _reflected(op: Any) -> Any:
    def method(self: DecimalArray, other: Any) -> Any:
        return self._operate(other, lambda a, b: op(b, a))

    return method


for _name, _op in {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
    "pow": operator.pow,
}.items():
    setattr(DecimalArray, f"__{_name}__", _binary(_op))
    if _name not in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(DecimalArray, f"__r{_name}__", _reflected(_op))
DecimalArray.__neg__ = lambda self: -self.floats()  # type: ignore[method-assign,assignment]
DecimalArray.__pos__ = lambda self: self.floats()  # type: ignore[method-assign,assignment]
DecimalArray.__abs__ = lambda self: np.abs(self.floats())  # type: ignore[method-assign,assignment]
DecimalArray.__hash__ = None  # type: ignore[assignment]
