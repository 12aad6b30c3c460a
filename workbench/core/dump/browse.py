"""What the dump data view shows: a dump folder as a tree of ops, one tensor's stats and histogram.

A model dump lives in ``{dump_path}/{timestamp}/{device_id}/{model_name}/{model_id}/{iteration}/``
(docs/cann-formats.md §7.1). :func:`scan_dump_folder` reads only the headers of the dump files below a
folder (any level of that layout, or one file) and names each folder level by its distance from
the files; damaged files are listed with their error and the others still show. A ``.npy`` file
(a golden tensor, what ``dump convert`` writes) is one entry holding one array (:data:`NPY_KIND`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from workbench.core.artefacts import DUMP_DEPTH, DUMP_MODEL_LEVEL, DUMP_NAME, dump_leaves
from workbench.core.dump.convert import export_txt, histogram, iter_dump_files, save_npy, tensor_stats
from workbench.core.dump.dtypes import DataTypeError
from workbench.core.dump.dumpfile import DumpFileError, read_dump
from workbench.core.dump.npyfile import NpyFileError, load_npy, read_npy_header
from workbench.core.tasks import CancelToken, NullProgress, Progress

# Folder levels counted up from the folder holding the dump files (the UI translates them).
LEVELS = ("Iteration", "Model ID", "Model", "Device", "Timestamp")
NPY_KIND = "array"  # the tensor kind of a .npy file's one array (index 0)


def is_npy(path: str | os.PathLike[str]) -> bool:
    """Is ``path`` read as a .npy array (by its name, as the artefact registry's "NumPy array")?"""
    return Path(path).suffix.lower() == ".npy"


@dataclass(frozen=True)
class TensorInfo:
    kind: str  # "input" | "output"
    index: int
    dtype: str
    format: str
    shape: tuple[int, ...]
    original_shape: tuple[int, ...]
    size: int  # bytes

    @property
    def label(self) -> str:
        return f"{self.kind} {self.index}"


@dataclass
class DumpEntry:
    """One dump file (one op execution) as the tree shows it."""

    path: Path
    folder: tuple[str, ...]  # folder parts relative to the scanned root
    op_name: str = ""
    op_type: str = ""
    timestamp: int = 0
    tensors: list[TensorInfo] = field(default_factory=list)
    error: str = ""
    npy: bool = False  # a .npy file (one array), not a dump file


@dataclass
class DumpScan:
    root: Path
    entries: list[DumpEntry]

    @property
    def errors(self) -> list[str]:
        return [e.error for e in self.entries if e.error]

    def level_name(self, depth_from_files: int) -> str:
        return LEVELS[depth_from_files] if 0 <= depth_from_files < len(LEVELS) else ""


@dataclass(frozen=True)
class DumpPlace:
    """What a dump path is, to name it (the view's tab): the op of a dump file or a folder's name,
    and the model and iteration where all the dumps at or below it are of one."""

    name: str  # the dump file's op name, else the file's or folder's name
    model: str = ""  # the model of every dump below, when they share one
    iteration: str = ""  # the iteration, when there is exactly one dump folder
    folders: int = 0  # folders of dump files at or below a folder (0 for a file)


def _model_iteration(leaf: Path) -> tuple[str, str]:
    """(model, iteration) of a folder holding dump files, when it sits in the full dump layout."""
    parts = leaf.parts[-DUMP_DEPTH:]
    if len(parts) < DUMP_DEPTH:
        return "", ""
    names = parts[::-1]  # from the iteration up to the timestamp
    if all(n.isdigit() for i, n in enumerate(names) if i != DUMP_MODEL_LEVEL):
        return names[DUMP_MODEL_LEVEL], names[0]
    return "", ""


def describe(path: str | os.PathLike[str]) -> DumpPlace:
    """What the dump data at ``path`` (a folder at any level of the dump layout, or one file) is."""
    p = Path(path)
    if not p.is_dir():
        name = ".".join(p.name.split(".")[1:-3]) if DUMP_NAME.match(p.name) else p.name
        model, iteration = _model_iteration(p.parent)
        return DumpPlace(name or p.name, model, iteration)
    leaves = dump_leaves(p, limit=256)  # enough to tell one model from several, quickly
    places = {_model_iteration(leaf) for leaf in leaves}
    models = {m for m, _i in places}
    model = models.pop() if len(models) == 1 else ""
    iteration = places.pop()[1] if len(leaves) == 1 and model else ""
    return DumpPlace(p.name, model, iteration, len(leaves))


def scan_dump_folder(
    path: str | os.PathLike[str], *, progress: Progress | None = None, cancel: CancelToken | None = None
) -> DumpScan:
    """Work function: the dump files below ``path`` (or ``path`` itself), headers only, in dump order."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    p = Path(path)
    root = p if p.is_dir() else p.parent
    files = iter_dump_files([p])
    entries: list[DumpEntry] = []
    progress.status(f"Reading {len(files)} dump file headers")
    for i, f in enumerate(files):
        cancel.raise_if_cancelled()
        entry = DumpEntry(path=f, folder=f.parent.relative_to(root).parts)
        if is_npy(f):
            entries.append(_npy_entry(entry))
            continue
        try:
            d = read_dump(f)
            entry.op_name = d.op_name or (d.name.op_name if d.name else f.name)
            entry.op_type = d.op_type
            entry.timestamp = d.name.timestamp if d.name else d.dump_time
            entry.tensors = [
                TensorInfo(t.kind, t.index, t.dtype_name, t.format_name, t.shape, t.original_shape, t.size)
                for t in d.tensors()
            ]
        except DumpFileError as err:
            entry.op_name, entry.error = f.name, str(err)
        entries.append(entry)
        if i % 64 == 0:
            progress.fraction((i + 1) / len(files))
    entries.sort(key=lambda e: (e.folder, e.timestamp, e.op_name))
    return DumpScan(root, entries)


def _npy_entry(entry: DumpEntry) -> DumpEntry:
    """A .npy file as an entry: its one array (header only), or the reason it cannot be read."""
    entry.npy, entry.op_name = True, entry.path.name
    try:
        shape, dtype, _fortran = read_npy_header(entry.path)
    except NpyFileError as err:
        entry.error = str(err)
        return entry
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    entry.tensors = [TensorInfo(NPY_KIND, 0, str(dtype), "", shape, shape, size)]
    return entry


def load_tensor(path: str | os.PathLike[str], kind: str, index: int) -> np.ndarray:
    """The decoded array of input/output ``index`` of a dump file (errors name file, offset, tensor),
    or of a .npy file's array (kind :data:`NPY_KIND`, index 0)."""
    if is_npy(path):
        if (kind, index) != (NPY_KIND, 0):
            raise NpyFileError(path, f"no {kind} {index} (a .npy file holds one array)")
        return load_npy(path)
    d = read_dump(path)
    tensors = d.inputs if kind == "input" else d.outputs
    if not 0 <= index < len(tensors):
        raise DumpFileError(path, d.header_length, f"no {kind} {index} (the file has {len(tensors)} {kind}s)")
    t = tensors[index]
    try:
        return np.array(t.array())  # a copy: the file's memory map may close
    except DataTypeError as exc:  # the declared type or shape does not fit the bytes
        raise DumpFileError(path, max(t.offset, 0), str(exc)) from None


@dataclass
class TensorSummary:
    stats: dict[str, float | int | str]
    counts: np.ndarray
    edges: np.ndarray


def summarise_tensor(
    path: str | os.PathLike[str],
    kind: str,
    index: int,
    bins: int = 64,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> TensorSummary:
    """Work function: stats and histogram of one tensor of a dump file."""
    arr = load_tensor(path, kind, index)
    (cancel or CancelToken()).raise_if_cancelled()
    counts, edges = histogram(arr, bins)
    return TensorSummary(tensor_stats(arr), counts, edges)


def export_tensor(
    path: str | os.PathLike[str],
    kind: str,
    index: int,
    target: str | os.PathLike[str],
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Work function: write one tensor to ``target`` as .npy, or as text for any other suffix."""
    arr = load_tensor(path, kind, index)
    (cancel or CancelToken()).raise_if_cancelled()
    out = Path(target)
    if out.suffix.lower() == ".npy":
        save_npy(out, np.ascontiguousarray(arr))
    else:
        export_txt(arr, out)
    return out
