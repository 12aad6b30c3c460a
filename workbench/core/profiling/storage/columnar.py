"""Store DataFrames and numpy arrays as ``.npy`` members, in a folder (cache) or a zip (saved report).

A frame is described by JSON metadata (column names, kinds, categories) plus one ``.npy`` per
array: numbers as they are, nullable integers as values + mask, string columns as int32 codes
(their categories go in the metadata). The cache writes compact (``compact=True``): integers and
codes in the narrowest type, 3-digit decimals as scaled integers, no mask where all are valid; a
:class:`~workbench.core.profiling.tables.decimals.DecimalArray` column is its scaled integers either way.
Reading rebuilds exactly the same frame, so a saved report round-trips with identical tables; from
a folder the arrays are memory-mapped, and :func:`frame_reader` checks a frame's members at once but
decodes it (categories, scaled decimals, masks) only when asked: a cached re-open decodes a table on
its first use.
"""

from __future__ import annotations

import io
import warnings
import zipfile
import zlib
from collections.abc import Callable, Collection
from functools import partial
from pathlib import Path
from tokenize import TokenError
from typing import Any, Protocol

import numpy as np
import pandas as pd

from workbench.core.profiling.errors import ProfilingDataError
from workbench.core.profiling.tables.decimals import DecimalArray, DecimalDtype, widen


class ArrayStore(Protocol):
    def put(self, name: str, array: np.ndarray) -> None: ...
    def get(self, name: str) -> np.ndarray: ...


class DirStore:
    """``.npy`` files in a folder; ``get`` memory-maps them read-only."""

    def __init__(self, root: Path, mmap: bool = True) -> None:
        self.root = root
        self.mmap = mmap

    def put(self, name: str, array: np.ndarray) -> None:
        path = self.root / f"{name}.npy"
        path.parent.mkdir(parents=True, exist_ok=True)
        if hasattr(array, "write_to"):  # a big blob written piecewise (see timeline.store.BlobView)
            with open(path, "wb") as fh:
                _write_blob(fh, array)
            return
        np.save(path, np.ascontiguousarray(array), allow_pickle=False)

    def get(self, name: str) -> np.ndarray:
        path = self.root / f"{name}.npy"
        try:
            with warnings.catch_warnings():  # a damaged header's escapes warn while it is parsed
                warnings.simplefilter("ignore", DeprecationWarning)
                return np.load(path, mmap_mode="r" if self.mmap else None, allow_pickle=False)
        except (OSError, ValueError, EOFError, SyntaxError, TokenError) as exc:  # a damaged .npy header
            raise ProfilingDataError(f"{path}: unreadable array ({exc})") from exc


# A saved report inflates to a few times its size (timelines and tables compress 3-10x; masks of
# all-valid columns far more, but they are small). Beyond this ratio, and above MIN_BOMB_BYTES, an
# archive is refused before anything is inflated: a crafted 3 MB file must not take 6 GB.
MAX_RATIO = 200
MIN_BOMB_BYTES = 256 << 20


class ZipStore:
    """``.npy`` members of an open zip file (written compressed). Reading is bounded: the sizes the
    archive declares must be sane for its size, and each member's ``.npy`` header must describe
    exactly the bytes the member declares (zipfile never inflates past a declared size)."""

    def __init__(self, archive: zipfile.ZipFile, label: str) -> None:
        self.archive = archive
        self.label = label
        self._checked = False

    def check_sizes(self) -> None:
        """Refuse an archive that declares far more data than any real report of its size."""
        if self._checked:
            return
        infos = self.archive.infolist()
        declared = sum(i.file_size for i in infos)
        packed = max(1, sum(i.compress_size for i in infos))
        if declared > MIN_BOMB_BYTES and declared > MAX_RATIO * packed:
            raise ProfilingDataError(
                f"{self.label}: declares {declared / 1e9:,.1f} GB of data in {packed / 1e6:,.1f} MB "
                f"(more than {MAX_RATIO}x): not a report this workbench wrote; not opened"
            )
        self._checked = True

    def put(self, name: str, array: np.ndarray) -> None:
        if hasattr(array, "write_to"):  # streamed into the member, never joined in memory
            with self.archive.open(f"{name}.npy", "w", force_zip64=True) as fh:
                _write_blob(fh, array)
            return
        buf = io.BytesIO()
        np.save(buf, np.ascontiguousarray(array), allow_pickle=False)
        self.archive.writestr(f"{name}.npy", buf.getvalue())

    def get(self, name: str) -> np.ndarray:
        self.check_sizes()
        member = f"{name}.npy"
        try:
            info = self.archive.getinfo(member)
            with self.archive.open(info) as fh:  # streamed: never the whole member twice in memory
                version = np.lib.format.read_magic(fh)
                if version == (1, 0):
                    shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
                elif version == (2, 0):
                    shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
                else:
                    raise ValueError(f".npy format version {version} is not one this workbench writes")
                if dtype.hasobject:
                    raise ValueError("object arrays are not part of a report")
                header = fh.tell()
                expected = header + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                if expected != info.file_size:
                    raise ValueError(f"its header describes {expected} bytes, the archive {info.file_size}")
                raw = bytearray(info.file_size - header)
                if fh.readinto(raw) != len(raw):  # type: ignore[attr-defined]  # a ZipExtFile reads into buffers
                    raise ValueError("the member ends early")
            return np.frombuffer(raw, dtype=dtype).reshape(shape, order="F" if fortran else "C")
        except (
            KeyError,
            OSError,
            ValueError,
            EOFError,
            SyntaxError,
            TokenError,
            NotImplementedError,  # a compression method zipfile does not know (a flipped header bit)
            zipfile.BadZipFile,
            zlib.error,
        ) as exc:
            raise ProfilingDataError(f"{self.label}: member {member} missing or damaged ({exc})") from exc


def _write_blob(fh, blob) -> None:
    """A 1-D uint8 ``.npy`` whose data ``blob.write_to(fh)`` writes (same bytes as np.save)."""
    np.lib.format.write_array_header_1_0(
        fh, {"descr": np.lib.format.dtype_to_descr(np.dtype(np.uint8)), "fortran_order": False, "shape": (len(blob),)}
    )
    written = blob.write_to(fh)
    if written != len(blob):
        raise OSError(f"wrote {written} bytes of a {len(blob)}-byte array")


# Compact encodings (the cache only, ``put_frame(compact=True)``): what a summary table holds is
# mostly small integers and decimals with at most 3 digits (ratios 0.824, times 185.504). Each is
# checked to decode to exactly the same values before it is used, and decoding is one vectorised
# cast (the arrays stay memory-mapped until then).
DECIMAL_SCALES = (1, 10, 100, 1000)
_NARROW = (np.int8, np.int16, np.int32)


def narrow_int(values: np.ndarray) -> np.ndarray:
    """``values`` (integers) in the smallest signed integer type that holds them all."""
    if not len(values):
        return values
    lo, hi = int(values.min()), int(values.max())
    for kind in _NARROW:
        info = np.iinfo(kind)
        if info.min <= lo and hi <= info.max:
            return values.astype(kind)
    return values


def scaled_decimal(values: np.ndarray) -> tuple[np.ndarray, int] | None:
    """float64 ``values`` as (narrow integers, scale) with ``ints / scale`` bit-identical to
    ``values`` (NaN kept as a sentinel), or None when no such scale exists."""
    if values.dtype != np.float64 or not len(values):
        return None
    nan = np.isnan(values)
    finite = values[~nan]
    if len(finite) and (not np.isfinite(finite).all() or np.abs(finite).max() >= 2.0**31 / 1000):
        return None
    if (np.signbit(finite) & (finite == 0)).any():  # -0.0 has no integer
        return None
    for scale in DECIMAL_SCALES:
        ints = np.rint(finite * scale)
        if not np.array_equal(ints / scale, finite) or (np.signbit(finite) != np.signbit(ints)).any():
            continue
        out = np.full(len(values), np.iinfo(np.int32).min, dtype=np.int64)  # the NaN sentinel
        out[~nan] = ints.astype(np.int64)
        narrow = out.astype(np.int32) if nan.any() else narrow_int(out)
        return narrow, scale
    return None


def _decode_scaled(ints: np.ndarray, scale: int) -> np.ndarray:
    out = ints.astype(np.float64)
    if ints.dtype == np.int32:
        out[ints == np.iinfo(np.int32).min] = np.nan
    if scale != 1:
        np.divide(out, scale, out=out)  # in place: the same float64 quotient, one array less
    return out


def put_frame(
    store: ArrayStore, prefix: str, frame: pd.DataFrame, compact: bool = False, mapped: Collection[str] = ()
) -> dict[str, Any]:
    """Write ``frame``'s columns under ``prefix``; return the JSON metadata to read it back.
    ``compact``: narrow integers, decimals as scaled integers, no all-valid masks (the cache); the
    float columns named in ``mapped`` stay float64 (memory-mapped as they are on load)."""
    columns: list[dict[str, Any]] = []
    for i, name in enumerate(frame.columns):
        col = frame[name]
        key = f"{prefix}/{i}"
        dtype = col.dtype
        if isinstance(dtype, pd.CategoricalDtype):
            cats = col.cat.categories
            codes = np.asarray(col.cat.codes, dtype=np.int32)
            store.put(key, narrow_int(codes) if compact else codes)
            columns.append(
                {
                    "name": str(name),
                    "kind": "category",
                    "categories": [str(c) for c in cats],
                    "cat_dtype": str(cats.dtype),
                    "values": cats.tolist() if pd.api.types.is_numeric_dtype(cats.dtype) else None,
                }
            )
        elif isinstance(dtype, pd.api.extensions.ExtensionDtype) and dtype.kind in "iub":
            arr = col.array
            values, mask = np.asarray(arr._data), np.asarray(arr._mask)
            entry: dict[str, Any] = {"name": str(name), "kind": "nullable", "dtype": str(dtype)}
            if compact and dtype.kind in "iu":
                values = narrow_int(np.where(mask, 0, values)) if values.dtype.kind == "i" else values
            store.put(f"{key}.values", values)
            if compact and not mask.any():
                entry["all_valid"] = True
            else:
                store.put(f"{key}.mask", mask)
            columns.append(entry)
        elif isinstance(dtype, DecimalDtype):
            # its scaled integers as they are; a saved report widens int16 with missing values to
            # int32, whose sentinel an older reader of "scale" columns knows (it reads float64 then)
            ints = col.array.ints
            if not compact and ints.dtype != np.int32 and col.array.isna().any():
                ints = widen(ints)
            store.put(key, ints)
            columns.append({"name": str(name), "kind": "plain", "scale": dtype.scale, "decimal": True})
        elif compact and name not in mapped and (scaled := scaled_decimal(np.asarray(col.to_numpy()))) is not None:
            store.put(key, scaled[0])
            columns.append({"name": str(name), "kind": "plain", "scale": scaled[1]})
        elif pd.api.types.is_object_dtype(dtype) or isinstance(dtype, pd.StringDtype):
            codes, uniques = pd.factorize(col, use_na_sentinel=True)
            store.put(key, codes.astype(np.int32))
            columns.append(
                {"name": str(name), "kind": "object", "dtype": str(dtype), "categories": [str(u) for u in uniques]}
            )
        else:
            store.put(key, col.to_numpy())
            columns.append({"name": str(name), "kind": "plain"})
    return {"rows": len(frame), "columns": columns}


class FrameDecoder(Protocol):
    def __call__(self, only: Collection[str] | None = None) -> pd.DataFrame: ...


def get_frame(store: ArrayStore, prefix: str, meta: dict[str, Any]) -> pd.DataFrame:
    """Rebuild the frame written by :func:`put_frame`."""
    return frame_reader(store, prefix, meta)()


def frame_rows(meta: dict[str, Any]) -> int:
    """The row count a frame description declares (a non-negative int, else ValueError)."""
    rows = meta["rows"]
    if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0:
        raise ValueError(f"rows {rows!r}: expected a row count")
    return rows


def _column(store: ArrayStore, key: str, rows: int, name: Any, kinds: str) -> np.ndarray:
    """The member ``key`` (memory-mapped from a folder: nothing read but its header), checked to be
    one value per row of a type in ``kinds``."""
    array = np.asarray(store.get(key))
    if array.ndim != 1 or len(array) != rows:
        raise ValueError(f"column {name!r}: {array.shape} values for {rows} rows")
    if array.dtype.kind not in kinds:
        raise ValueError(f"column {name!r}: values of type {array.dtype} where {kinds!r} is expected")
    return array


def frame_reader(store: ArrayStore, prefix: str, meta: dict[str, Any]) -> FrameDecoder:
    """Check ``meta`` against the members of ``store`` and return the function that decodes the frame
    (``decode(only)``: only the columns named in ``only``, when given).

    Everything that can be checked without reading values is checked now: each member is opened
    (from a folder: memory-mapped, only its header read) and has one value of the right type per row,
    scales and dtypes are ones this workbench writes. Decoding (categories, scaled decimals, masks)
    happens when the function is called: a cached report decodes a table on its first use. Raises
    KeyError / TypeError / ValueError for a damaged description or member (the caller names the file).
    """
    rows = frame_rows(meta)
    columns = meta["columns"]
    if not isinstance(columns, list):
        raise TypeError("field 'columns': expected a list")
    steps: list[tuple[Any, Callable[[], Any]]] = []
    for i, col in enumerate(columns):
        key = f"{prefix}/{i}"
        kind = col["kind"]
        name = col["name"]
        hash(name)  # a column name must be usable as one (TypeError otherwise)
        if kind == "category":
            codes = _column(store, key, rows, name, "i")
            cats = col["values"] if col.get("values") is not None else col["categories"]
            if not isinstance(cats, list):
                raise TypeError(f"column {name!r}: categories are not a list")
            cat_dtype = pd.api.types.pandas_dtype(col.get("cat_dtype", "object"))
            steps.append((name, partial(_categorical, codes, cats, cat_dtype)))
        elif kind == "nullable":
            dtype = col["dtype"]
            if not isinstance(dtype, str) or not (dtype == "boolean" or np.dtype(dtype.lower()).kind in "iu"):
                raise ValueError(f"column {name!r}: {dtype!r} is not a nullable type this workbench writes")
            values = _column(store, f"{key}.values", rows, name, "biu")
            mask = None if col.get("all_valid") else _column(store, f"{key}.mask", rows, name, "biu")
            steps.append((name, partial(_nullable, values, mask, dtype)))
        elif kind == "object":
            codes = _column(store, key, rows, name, "i")
            if not isinstance(col["categories"], list):
                raise TypeError(f"column {name!r}: categories are not a list")
            dtype = col.get("dtype", "object")
            if dtype != "object":
                pd.api.types.pandas_dtype(dtype)
            steps.append((name, partial(_objects, codes, col["categories"], dtype)))
        elif col.get("scale") is not None:
            scale = col["scale"]
            if not isinstance(scale, int) or scale not in DECIMAL_SCALES:
                raise ValueError(f"column {name!r}: scale {scale!r} is not one this workbench writes")
            ints = _column(store, key, rows, name, "i")
            if col.get("decimal") is True:
                if ints.dtype not in (np.int16, np.int32):
                    raise ValueError(f"column {name!r}: decimal values of type {ints.dtype} (int16 or int32 expected)")
                steps.append((name, partial(DecimalArray, ints, scale)))
            else:
                steps.append((name, partial(_decode_scaled, ints, scale)))
        else:
            steps.append((name, partial(_same, _column(store, key, rows, name, "biufcmMSU"))))

    def decode(only: Collection[str] | None = None) -> pd.DataFrame:
        data = {name: step() for name, step in steps if only is None or name in only}
        # copy=False keeps memory-mapped columns mapped (no consolidation copy).
        return pd.DataFrame(data, index=pd.RangeIndex(rows), copy=False)

    return decode


def _same(array: np.ndarray) -> np.ndarray:
    return array


def _categorical(codes: np.ndarray, cats: list[Any], dtype: Any) -> pd.Categorical:
    return pd.Categorical.from_codes(codes, categories=pd.Index(cats, dtype=dtype))


def _nullable(values: np.ndarray, mask: np.ndarray | None, dtype: str) -> Any:
    valid = np.zeros(len(values), dtype=bool) if mask is None else mask.astype(bool, copy=False)
    if dtype == "boolean":
        return pd.arrays.BooleanArray(values.astype(bool), valid)
    return pd.arrays.IntegerArray(values.astype(dtype.lower(), copy=False), valid)


def _objects(codes: np.ndarray, categories: list[Any], dtype: str) -> Any:
    values = np.array(categories + [None], dtype=object)[codes]
    return values if dtype == "object" else pd.array(values, dtype=dtype)


def put_arrays(store: ArrayStore, prefix: str, arrays: dict[str, np.ndarray]) -> list[str]:
    for name, array in arrays.items():
        store.put(f"{prefix}/{name}", array if hasattr(array, "write_to") else np.asarray(array))
    return list(arrays)


def get_arrays(store: ArrayStore, prefix: str, names: list[str]) -> dict[str, np.ndarray]:
    return {name: store.get(f"{prefix}/{name}") for name in names}
