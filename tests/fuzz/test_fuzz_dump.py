"""Property-based fuzz of the dump readers: dump files (the runtime's binary layout), ground-truth
``.npy`` files and the fusion rule fed to the accuracy comparison. Each input is read, or the
error (or the comparison row's reason) names the file."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

import hypothesis.strategies as st
import numpy as np
from fuzzkit import feed, mutated, write
from hypothesis import example, given

from workbench.core.dump.browse import load_tensor, scan_dump_folder
from workbench.core.dump.compare import compare_dirs
from workbench.core.dump.dumpfile import DumpFileError, TensorSpec, encode_dump, read_dump
from workbench.core.dump.omjson import OmJsonError

_n = itertools.count()
DUMP_NAME = "Conv2D.conv1.3.1.1700000000000000"
VALUES = np.arange(12, dtype=np.float32).reshape(3, 4)
DUMP = encode_dump(
    "conv1",
    [TensorSpec(VALUES.astype(np.float16).tobytes(), 1, shape=(3, 4))],
    [TensorSpec(VALUES.tobytes(), 0, shape=(3, 4), original_op=("conv1", 0))],
)


def _scratch(tmp_path: Path) -> Path:
    d = tmp_path / f"x{next(_n)}"
    d.mkdir()
    return d


def read_dump_file(fmt: str, path: Path) -> None:
    def call() -> None:
        d = read_dump(path)
        for kind, tensors in (("input", d.inputs), ("output", d.outputs)):
            for t in tensors:
                t.dtype_name, t.format_name  # noqa: B018 - what the dump browser lists
                load_tensor(path, kind, t.index)

    feed(fmt, path, call, (DumpFileError,))


@given(data=mutated(DUMP))
@example(data=b"")
@example(data=encode_dump("x", [], [TensorSpec(b"\x00" * 3, 0, shape=(3, 4))]))  # fewer bytes than the shape
@example(data=encode_dump("x", [], [TensorSpec(b"\x00" * 4, 9999, shape=(1,))]))  # unknown data type
def test_dump_file(tmp_path: Path, data: bytes) -> None:
    read_dump_file("dump-file", write(_scratch(tmp_path) / DUMP_NAME, data))


@given(data=mutated(DUMP))
def test_dump_folder_scan(tmp_path: Path, data: bytes) -> None:
    """The dump browser lists a folder: a damaged file is an entry with its error, never a crash."""
    root = _scratch(tmp_path)
    write(root / "0" / DUMP_NAME, data)
    feed("dump-folder", root, lambda: scan_dump_folder(root), (DumpFileError,))


def _npy(array: np.ndarray, allow_pickle: bool = False) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=allow_pickle)
    return buf.getvalue()


def compare(fmt: str, npu: Path, golden: Path, bad: Path, fusion_rule: Path | None = None) -> None:
    """compare_dirs returns rows (a bad golden file is named in its row's reason) or raises
    OmJsonError naming the fusion rule."""

    def call() -> None:
        report = compare_dirs(npu, golden, fusion_rule=fusion_rule, algorithms="all")
        for row in report.rows:
            if row.golden_file == str(bad) and ".npy" in row.reason:  # a reading error: names the file
                assert str(bad) in row.reason, row.reason
            row.to_json()

    feed(fmt, bad, call, (OmJsonError,))


@given(data=mutated(_npy(VALUES)))
@example(data=b"")  # a 0-byte .npy (EOFError before)
@example(data=_npy(np.array([{"a": 1}], dtype=object), allow_pickle=True))  # a pickled object array
@example(data=_npy(np.zeros((3, 4), dtype=[("a", "<f4")])))
@example(data=_npy(np.array("text")))
def test_golden_npy(tmp_path: Path, data: bytes) -> None:
    root = _scratch(tmp_path)
    npu = write(root / "npu" / DUMP_NAME, DUMP).parent
    bad = write(root / "golden" / "conv1.0.1700000000000001.npy", data)
    compare("golden-npy", npu, bad.parent, bad)


OM = {"name": "m", "graph": [{"name": "g", "op": [{"name": "conv1", "type": "Conv2D", "input": ["x:0"]}]}]}


@given(
    data=st.one_of(
        mutated(json.dumps(OM).encode()),
        st.just(json.dumps({"name": "m", "graph": [{"op": [{"name": "conv1", "attr": [{"key": ["k"]}]}]}]}).encode()),
    )
)
@example(data=json.dumps({"name": "m", "graph": [{"op": [{"name": "conv1", "attr": [{"key": ["k"]}]}]}]}).encode())
def test_fusion_rule(tmp_path: Path, data: bytes) -> None:
    root = _scratch(tmp_path)
    npu = write(root / "npu" / DUMP_NAME, DUMP).parent
    golden = write(root / "golden" / "conv1.0.1700000000000001.npy", _npy(VALUES)).parent
    rule = write(root / "rule.json", data)
    compare("fusion-rule", npu, golden, rule, fusion_rule=rule)
