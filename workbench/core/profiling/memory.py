"""What the Memory view shows (Qt-free): :func:`memory_view` of a report and :func:`downsample`.

Read from the report's tables (docs/cann-formats.md §2.2, §4), by header whatever the tool:

- ``memory_record`` (torch_npu: ``Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total
  Active(MB),Stream Ptr,Device Type``; msprof: ``Total Allocated(KB),Total Reserved(KB)``, no Active,
  ``Device``): one curve per component (``APP``, ``PTA``, ``GE``, ``PTA+GE``, ``WORKSPACE`` … as the
  file names them, in the order they first appear) and kind (allocated, reserved, active), in MB
  (KB / 1024 as torch_npu converts), absolute epoch ns; an empty cell stays NaN;
- ``operator_memory``: one row per allocation (name, size, allocation / release times, durations,
  the totals at allocation and release, stream, device);
- ``npu_module_mem``: the reserved memory of each CANN module over time.

A column the view needs that a file lacks leaves its values empty and is said in
:attr:`MemoryView.warnings` (naming the table and the headers looked for); a unit converted is said
in :attr:`MemoryView.notes`. Where a report records memory on several devices (or merges several
reports), each component is named after where it was recorded: ``"PTA (NPU:1)"``, ``"PTA (rank1_ascend_pt)"``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from workbench.core.profiling.report import Report

KINDS = ("allocated", "reserved", "active")
# memory_record headers (without their unit) of each kind
KIND_HEADERS = {"allocated": "Total Allocated", "reserved": "Total Reserved", "active": "Total Active"}
# size units -> factor to MB (torch_npu converts KB to MB by 1024)
TO_MB = {"MB": 1.0, "KB": 1 / 1024.0, "GB": 1024.0, "B": 1 / 1024.0**2, "BYTE": 1 / 1024.0**2, "BYTES": 1 / 1024.0**2}
TO_KB = {unit: factor * 1024.0 for unit, factor in TO_MB.items()}
# time units -> factor to ns (for a time column that is not epoch µs, read as a plain number)
TO_NS = {"NS": 1.0, "US": 1e3, "MS": 1e6, "S": 1e9}
TO_US = {unit: factor / 1e3 for unit, factor in TO_NS.items()}
DOWNSAMPLE_THRESHOLD = 3_000_000  # MindStudio Insight draws up to this many points, then LTTB (issue #19)

OPERATOR_COLUMNS = (
    "name",
    "size_kb",
    "alloc_ns",
    "release_ns",
    "active_release_ns",
    "duration_us",
    "active_duration_us",
    "alloc_total_allocated_mb",
    "alloc_total_reserved_mb",
    "alloc_total_active_mb",
    "release_total_allocated_mb",
    "release_total_reserved_mb",
    "release_total_active_mb",
    "stream",
    "device",
    "device_type",
)


@dataclass(frozen=True)
class Peak:
    """The highest value of one curve and when it was first reached."""

    component: str
    kind: str
    ts_ns: int
    value_mb: float


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", str(text)).lower()


_UNIT = re.compile(r"^(?P<base>.*?)\s*\((?P<unit>[^()]*)\)\s*$")


def _unit_column(frame: pd.DataFrame, base: str, units: dict[str, float]) -> tuple[str, float] | None:
    """(header, factor) of the column ``base(<unit>)`` (case and spaces ignored), the first unit of
    ``units`` found; a bare ``base`` counts as the first unit."""
    want = _norm(base)
    found: dict[str, str] = {}
    for column in frame.columns:
        m = _UNIT.match(str(column))
        name, unit = (m.group("base"), m.group("unit").strip().upper()) if m else (str(column), "")
        if _norm(name) == want:
            found.setdefault(unit, str(column))
    for unit, factor in units.items():
        if unit in found:
            return found[unit], factor
    if "" in found:
        return found[""], next(iter(units.values()))
    return None


def _column(frame: pd.DataFrame, *names: str) -> str | None:
    wanted = [_norm(n) for n in names]
    for want in wanted:
        for column in frame.columns:
            if _norm(column) == want:
                return str(column)
    return None


def _floats(frame: pd.DataFrame, column: str | None, factor: float = 1.0) -> np.ndarray:
    if column is None:
        return np.full(len(frame), np.nan)
    series = frame[column]
    if series.dtype == np.float64:
        values = series.to_numpy()
    else:
        values = pd.to_numeric(series.astype(object), errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    return values * factor if factor != 1.0 else values


def _ints(frame: pd.DataFrame, column: str) -> tuple[np.ndarray, np.ndarray]:
    """An integer column exactly as int64 and where it is set (Int64 / int as they are; float where
    integral; anything else missing)."""
    series = frame[column]
    if isinstance(series.dtype, pd.Int64Dtype):
        valid = series.notna().to_numpy()
        return series.to_numpy(dtype=np.int64, na_value=0), valid
    if series.dtype.kind in "iu":
        return series.to_numpy().astype(np.int64), np.ones(len(series), dtype=bool)
    values = _floats(frame, column)
    valid = np.isfinite(values) & (np.abs(values) < 2.0**63) & (values == np.floor(np.nan_to_num(values)))
    return np.where(valid, values, 0).astype(np.int64), valid


class _Columns:
    """Resolves the view's columns in one table, collecting what is missing and what was converted."""

    def __init__(self, table: str, frame: pd.DataFrame) -> None:
        self.table, self.frame = table, frame
        self.missing: list[str] = []
        self.notes: list[str] = []

    def size(self, base: str, units: dict[str, float], unit_name: str) -> np.ndarray:
        got = _unit_column(self.frame, base, units)
        if got is None:
            self.missing.append(f"{base}({unit_name})")
            return np.full(len(self.frame), np.nan)
        header, factor = got
        if factor != 1.0:
            self.notes.append(f"{self.table}: {header} converted to {unit_name}")
        return _floats(self.frame, header, factor)

    def epoch_ns(self, base: str) -> tuple[np.ndarray, np.ndarray] | None:
        """Absolute ns of a time column: ``base(ns)`` (the readers' exact epoch ns), else a number in
        its unit (us, ms, s) rounded to ns. None (and said) when the table has none."""
        got = _unit_column(self.frame, base, {"NS": 1.0})
        if got is not None and _UNIT.match(got[0]):
            return _ints(self.frame, got[0])
        got = _unit_column(self.frame, base, TO_NS)
        if got is None:
            self.missing.append(f"{base}(us)")
            return None
        values = _floats(self.frame, got[0], got[1])
        valid = np.isfinite(values) & (np.abs(values) < 2.0**63)
        return np.where(valid, np.rint(np.nan_to_num(values)), 0).astype(np.int64), valid

    def warning(self, consequence: str) -> list[str]:
        if not self.missing:
            return []
        names = ", ".join(repr(m) for m in self.missing)
        return [f"{self.table}: no column {names} ({consequence})"]


def _texts(frame: pd.DataFrame, column: str | None) -> np.ndarray:
    if column is None:
        return np.full(len(frame), None, dtype=object)
    values = frame[column].astype(object).to_numpy()
    return np.array([None if v is None or v is pd.NA or (isinstance(v, float) and v != v) else str(v) for v in values])


_DEVICE = re.compile(r"^(?:NPU|DEVICE)?\s*:?\s*(\d+)$", re.IGNORECASE)


def _device_ids(texts: np.ndarray) -> pd.arrays.IntegerArray:
    """``NPU:0`` / ``0`` -> 0; anything else (``CPU``, empty) missing."""
    lut: dict[str | None, int | None] = {}
    for t in set(texts.tolist()):
        m = _DEVICE.match(t.strip()) if isinstance(t, str) else None
        lut[t] = int(m.group(1)) if m and int(m.group(1)) < 2**63 else None
    ids = [lut[t] for t in texts.tolist()]
    return pd.arrays.IntegerArray(
        np.array([0 if i is None else i for i in ids], dtype=np.int64), np.array([i is None for i in ids], dtype=bool)
    )


@dataclass
class MemoryView:
    """The memory of a report: curves per component and kind, peaks, allocations per operator and
    the reserved memory per CANN module (see the module docstring)."""

    components: list[str]
    peaks: list[Peak]
    operators: pd.DataFrame
    modules: list[str]
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    _curves: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)
    _modules: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)

    def curve(self, component: str, kind: str) -> tuple[np.ndarray, np.ndarray]:
        """(int64 absolute epoch ns, float64 MB) of one component's ``kind`` (allocated, reserved,
        active), in time order; NaN where the file's cell is empty. Empty arrays for an unknown pair."""
        if kind not in KINDS:
            raise ValueError(f"kind {kind!r}: expected one of {', '.join(KINDS)}")
        got = self._curves.get((component, kind))
        if got is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        return got

    def peak(self, component: str, kind: str) -> Peak | None:
        return next((p for p in self.peaks if p.component == component and p.kind == kind), None)

    def alive_at(self, ts_ns: int) -> pd.DataFrame:
        """The operators allocated at or before ``ts_ns`` and not released before it (never released
        in the profile counts as alive), largest first."""
        ops = self.operators
        if not len(ops):
            return ops
        alloc = ops["alloc_ns"]
        release = ops["release_ns"]
        alive = (alloc.notna() & (alloc <= ts_ns)).to_numpy(dtype=bool, na_value=False)
        alive &= (release.isna() | (release >= ts_ns)).to_numpy(dtype=bool, na_value=True)
        out = ops[alive]
        return out.sort_values("size_kb", ascending=False, kind="stable", na_position="last")

    def module_curve(self, module: str) -> tuple[np.ndarray, np.ndarray]:
        """(int64 absolute epoch ns, float64 reserved MB) of one npu_module_mem module, in time order."""
        got = self._modules.get(module)
        if got is None:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
        return got


def _series(
    frame: pd.DataFrame, table: str, value_bases: dict[str, str], warnings: list[str], notes: list[str]
) -> tuple[list[str], dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]]:
    """Curves of a memory_record / npu_module_mem table: component order and (component, kind) -> arrays."""
    cols = _Columns(table, frame)
    comp_col = _column(frame, "Component")
    if comp_col is None:
        cols.missing.append("Component")
    times = cols.epoch_ns("Timestamp")
    values = {kind: cols.size(base, TO_MB, "MB") for kind, base in value_bases.items()}
    warnings += cols.warning("its values are left empty" if comp_col is not None and times else "no curves")
    notes += cols.notes
    if comp_col is None or times is None:
        return [], {}
    ts, ok = times
    if not ok.all():
        warnings.append(f"{table}: {int((~ok).sum())} rows have no timestamp; left out")
    names = _texts(frame, comp_col)
    # several devices (or merged reports): each component is named after where it was recorded
    tags = []
    for column in (_column(frame, "Device Type", "Device", "Device_id"), "source" if "source" in frame else None):
        tag = _texts(frame, column)
        if column == "source":
            tag = np.array([None if v is None else Path(v).name for v in tag.tolist()], dtype=object)
        if len({v for v in tag[ok].tolist() if v is not None}) > 1:
            tags.append(tag)
    if tags:
        labels = [", ".join(t for t in row if t is not None) for row in zip(*(t.tolist() for t in tags))]
        names = np.array(
            [n if n is None or not lab else f"{n} ({lab})" for n, lab in zip(names.tolist(), labels)], dtype=object
        )
    keep = ok & np.array([n is not None for n in names.tolist()], dtype=bool)
    order = list(dict.fromkeys(names[keep].tolist()))
    curves: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
    for name in order:
        rows = np.flatnonzero(keep & (names == name))
        rows = rows[np.argsort(ts[rows], kind="stable")]
        for kind, v in values.items():
            curves[(name, kind)] = (ts[rows], v[rows])
    return order, curves


def _operators(frame: pd.DataFrame, warnings: list[str], notes: list[str]) -> pd.DataFrame:
    cols = _Columns("operator_memory", frame)
    n = len(frame)

    def ns(base: str) -> pd.arrays.IntegerArray:
        got = cols.epoch_ns(base)
        if got is None:
            return pd.arrays.IntegerArray(np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool))
        return pd.arrays.IntegerArray(got[0], ~got[1])

    name_col = _column(frame, "Name", "Op Name", "Operator")
    if name_col is None:
        cols.missing.append("Name")
    out = pd.DataFrame(index=pd.RangeIndex(n))
    out["name"] = pd.Categorical(_texts(frame, name_col))
    out["size_kb"] = cols.size("Size", TO_KB, "KB")
    out["alloc_ns"] = ns("Allocation Time")
    missing_before = len(cols.missing)
    out["release_ns"] = ns("Release Time")
    out["active_release_ns"] = ns("Active Release Time")
    out["duration_us"] = cols.size("Duration", TO_US, "us")
    out["active_duration_us"] = cols.size("Active Duration", TO_US, "us")
    if "Release Time(us)" in cols.missing[missing_before:] and _unit_column(frame, "Duration", TO_US) is not None:
        # msprof's operator_memory has no release time: allocation + duration (a missing duration: not released)
        dur = out["duration_us"].to_numpy()
        alloc = out["alloc_ns"]
        ok = alloc.notna().to_numpy() & np.isfinite(dur)
        rel = alloc.to_numpy(dtype=np.int64, na_value=0) + np.rint(np.nan_to_num(dur) * 1000.0).astype(np.int64)
        out["release_ns"] = pd.arrays.IntegerArray(rel, ~ok)
        notes.append("operator_memory: no 'Release Time(us)'; release times are allocation time + Duration(us)")
        cols.missing.remove("Release Time(us)")
    for prefix, key in (("Allocation", "alloc"), ("Release", "release")):
        for kind in KINDS:
            out[f"{key}_total_{kind}_mb"] = cols.size(f"{prefix} Total {kind.title()}", TO_MB, "MB")
    stream_col = _column(frame, "Stream Ptr", "Stream", "Stream ID")
    if stream_col is None:
        cols.missing.append("Stream Ptr")
        out["stream"] = pd.arrays.IntegerArray(np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool))
    else:
        values, valid = _ints(frame, stream_col)
        out["stream"] = pd.arrays.IntegerArray(values, ~valid)
    device_col = _column(frame, "Device Type", "Device", "Device_id")
    if device_col is None:
        cols.missing.append("Device Type")
    texts = _texts(frame, device_col)
    out["device"] = _device_ids(texts)
    out["device_type"] = pd.Categorical(texts)
    warnings += cols.warning("its values are left empty")
    notes += cols.notes
    return out[list(OPERATOR_COLUMNS)]


def memory_view(report: Report) -> MemoryView | None:
    """The report's memory (memory_record, operator_memory, npu_module_mem), or None when it has
    none of these tables."""
    tables = {name: report.tables.get(name) for name in ("memory_record", "operator_memory", "npu_module_mem")}
    if all(frame is None for frame in tables.values()):
        return None
    warnings: list[str] = []
    notes: list[str] = []
    components: list[str] = []
    curves: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
    record = tables["memory_record"]
    if record is not None and len(record.columns):
        components, curves = _series(record, "memory_record", KIND_HEADERS, warnings, notes)
    peaks = []
    for (component, kind), (ts, mb) in curves.items():
        finite = np.isfinite(mb)
        if finite.any():
            i = int(np.flatnonzero(finite)[np.argmax(mb[finite])])
            peaks.append(Peak(component, kind, int(ts[i]), float(mb[i])))
    modules: list[str] = []
    module_curves: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    module_frame = tables["npu_module_mem"]
    if module_frame is not None and len(module_frame.columns):
        modules, by_kind = _series(module_frame, "npu_module_mem", {"reserved": "Total Reserved"}, warnings, notes)
        module_curves = {name: by_kind[(name, "reserved")] for name in modules}
    op_frame = tables["operator_memory"]
    if op_frame is not None and len(op_frame.columns):
        operators = _operators(op_frame, warnings, notes)
    else:
        operators = _operators(pd.DataFrame(index=pd.RangeIndex(0)), [], [])
    return MemoryView(components, peaks, operators, modules, warnings, notes, curves, module_curves)


def downsample(
    ts_ns: Sequence[int] | np.ndarray, values: Sequence[float] | np.ndarray, n_out: int, threshold: int | None = None
) -> np.ndarray:
    """The indices of the points of a curve to draw: all of them up to ``threshold`` points (default
    ``n_out``), else about ``n_out`` picked by MinMaxLTTB (the ``tsdownsample`` package; NaN-aware
    where the curve has gaps) plus the curve's highest and lowest points, sorted. ``ts_ns`` must be
    in time order (as :meth:`MemoryView.curve` gives it)."""
    ts = np.ascontiguousarray(ts_ns, dtype=np.int64)
    y = np.ascontiguousarray(values, dtype=np.float64)
    if len(ts) != len(y):
        raise ValueError(f"{len(ts)} times for {len(y)} values")
    n = len(y)
    limit = n_out if threshold is None else max(threshold, n_out)
    if n <= max(limit, 2) or n_out >= n:
        return np.arange(n, dtype=np.int64)
    finite = np.flatnonzero(np.isfinite(y))
    keep = [np.array([0, n - 1], dtype=np.int64)]
    if len(finite):
        keep.append(finite[[int(np.argmax(y[finite])), int(np.argmin(y[finite]))]].astype(np.int64))
    if n_out >= 3 and len(finite) >= 3:
        from tsdownsample import MinMaxLTTBDownsampler, NaNMinMaxLTTBDownsampler

        sampler = MinMaxLTTBDownsampler() if len(finite) == n else NaNMinMaxLTTBDownsampler()
        keep.append(np.asarray(sampler.downsample(ts, y, n_out=int(n_out)), dtype=np.int64))
    return np.unique(np.concatenate(keep))
