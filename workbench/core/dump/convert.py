"""Dump files -> .npy (what ``msaccucmp.py convert`` does), plus tensor stats/histogram/.txt export.

Output names (docs/cann-formats.md §7.2): ``{dumpfile}.{input|output}.{index}.npy`` for the tensor as
dumped, and ``{dumpfile}.{input|output}.{index}.{FORMAT}.npy`` beside it when the device layout
converts back to the original one (NC1HWC0 -> NCHW, FRACTAL_Z / FRACTAL_NZ -> NCHW / ND, see
:mod:`formats`); buffers go to ``{dumpfile}.{type}buffer.{index}.bin``. A name of 255 characters
or more is replaced by a uuid3 name and the pair is appended to ``mapping.csv`` (as the real tool).
A damaged file is reported (file, offset, reason) and the other files still convert.
"""

from __future__ import annotations

import csv
import io
import os
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from workbench.core.dump import formats
from workbench.core.dump.dtypes import DataTypeError
from workbench.core.dump.dumpfile import BUFFER_TYPES, DumpFileError, DumpTensor, parse_dump_name, read_dump
from workbench.core.fsutil import atomic_open
from workbench.core.tasks import CancelToken, NullProgress, Progress

NAME_MAX = 255
MAPPING_FILE = "mapping.csv"
_NOT_DUMPS = (".npy", ".csv", ".txt", ".json", ".bin", ".pb", ".om", ".log")


@dataclass
class ConvertReport:
    written: list[Path] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # one line each: file, offset/tensor, reason
    files_ok: int = 0
    files_failed: int = 0


def iter_dump_files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files named explicitly, and in folders (recursively) the files named like dump files."""
    found: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found += sorted(
                f for f in p.rglob("*") if f.is_file() and parse_dump_name(f.name) and not f.name.endswith(_NOT_DUMPS)
            )
        else:
            found.append(p)
    return found


def _out_name(out_dir: Path, name: str, suffix: str) -> Path:
    if len(name) < NAME_MAX:
        return out_dir / name
    short = uuid.uuid3(uuid.NAMESPACE_DNS, name).hex + suffix
    with open(out_dir / MAPPING_FILE, "a", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerow([short, name])
    return out_dir / short


def save_npy(path: Path, array: np.ndarray) -> None:
    with atomic_open(path, "wb", encoding=None) as fh:
        np.save(fh, array, allow_pickle=False)


def convert_tensor(t: DumpTensor, base: str, out_dir: Path, *, with_formats: bool = True) -> list[Path]:
    """Write one tensor's .npy (and its original-layout .npy when a conversion applies)."""
    arr = t.array()
    target = _out_name(out_dir, f"{base}.{t.kind}.{t.index}.npy", ".npy")
    save_npy(target, arr)
    written = [target]
    if with_formats:
        converted = formats.to_original(arr, t.format, t.original_shape)
        if converted is not None:
            target = _out_name(out_dir, f"{base}.{t.kind}.{t.index}.{converted[1]}.npy", ".npy")
            save_npy(target, np.ascontiguousarray(converted[0]))
            written.append(target)
    return written


def convert_dump_file(
    path: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    *,
    with_formats: bool = True,
    report: ConvertReport | None = None,
) -> ConvertReport:
    """Convert every input, output and buffer of one dump file; tensor errors are reported, not raised.

    Raises :class:`DumpFileError` when the file itself is damaged.
    """
    report = report if report is not None else ConvertReport()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    dump = read_dump(path)
    base = Path(path).name
    failed = False
    for t in dump.tensors():
        try:
            report.written += convert_tensor(t, base, out, with_formats=with_formats)
        except (DataTypeError, ValueError) as err:
            failed = True
            report.errors.append(f"{path}: at byte offset {t.offset}: {t.kind} {t.index}: {err}")
    for b in dump.buffers:
        target = _out_name(
            out, f"{base}.{BUFFER_TYPES.get(b.buffer_type, str(b.buffer_type))}buffer.{b.index}.bin", ".bin"
        )
        with atomic_open(target, "wb", encoding=None) as fh:
            fh.write(b.raw)
        report.written.append(target)
    report.files_failed += failed
    report.files_ok += not failed
    return report


def convert_paths(
    paths: Iterable[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    with_formats: bool = True,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ConvertReport:
    """Work function: convert dump files and folders of them; a damaged file does not stop the rest."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    files = iter_dump_files(paths)
    report = ConvertReport()
    for i, f in enumerate(files):
        cancel.raise_if_cancelled()
        progress.status(f"Converting {f.name}")
        try:
            convert_dump_file(f, out_dir, with_formats=with_formats, report=report)
        except DumpFileError as err:
            report.files_failed += 1
            report.errors.append(str(err))
            progress.partial(str(err))
        progress.fraction((i + 1) / len(files))
    return report


def tensor_stats(array: np.ndarray) -> dict[str, float | int | str]:
    """Summary a tensor view shows: dtype, shape, count, min/max/mean/std over finite values, NaN/Inf counts."""
    a = np.asarray(array)
    stats: dict[str, float | int | str] = {
        "dtype": str(a.dtype),
        "shape": "[" + ",".join(map(str, a.shape)) + "]",
        "count": int(a.size),
    }
    if a.dtype.kind in "fc":
        finite = np.isfinite(a)
        stats["nan"] = int(np.isnan(a).sum())
        stats["pos_inf"] = int(np.isposinf(a.real).sum()) if a.dtype.kind == "f" else 0
        stats["neg_inf"] = int(np.isneginf(a.real).sum()) if a.dtype.kind == "f" else 0
        values = a[finite].astype(np.float64 if a.dtype.kind == "f" else np.complex128)
    else:
        values = a.reshape(-1).astype(np.float64)
    if values.size and values.dtype.kind != "c":
        stats.update(
            min=float(values.min()),
            max=float(values.max()),
            mean=float(values.mean()),
            std=float(values.std()),
            zeros=int((values == 0).sum()),
        )
    return stats


def histogram(array: np.ndarray, bins: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """(counts, bin edges) over the finite values (empty arrays when there are none)."""
    a = np.asarray(array).reshape(-1)
    if a.dtype.kind == "c":
        a = np.abs(a)
    a = a.astype(np.float64)
    a = a[np.isfinite(a)]
    if a.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    return np.histogram(a, bins=bins)


def export_txt(array: np.ndarray, path: str | os.PathLike[str]) -> None:
    """A tensor as text: a ``# shape dtype`` line, then the flattened values one per line."""
    a = np.asarray(array)
    buf = io.StringIO()
    buf.write(f"# shape={list(a.shape)} dtype={a.dtype}\n")
    np.savetxt(buf, a.reshape(-1), fmt="%s" if a.dtype.kind in "bc" else "%.9g")
    with atomic_open(path, "w") as fh:
        fh.write(buf.getvalue())
