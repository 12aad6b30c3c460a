"""Where dump files are below a folder (``artefacts.dump_leaves``) and what a dump path is
(``browse.describe``): the full layout dump_path/<time>/<device>/<model>/<model_id>/<iteration>/,
several models and iterations, bounded reading of huge folders, symlinks, non-dump folders, odd
names; and a .npy read for viewing (``npyfile``). Both only look at names (and a .npy's header)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from workbench.core import artefacts
from workbench.core.artefacts import dump_leaves
from workbench.core.dump.browse import DumpPlace, describe, load_tensor, scan_dump_folder
from workbench.core.dump.npyfile import NpyFileError, load_npy, read_npy_header
from workbench.core.project import create_project

STAMP = "20240101120000"


def _leaf(dump_path: Path, model: str = "resnet50", *, stamp: str = STAMP, device="0", model_id="1", it="0") -> Path:
    """A folder of the full layout holding two dump files (their bytes do not matter here)."""
    leaf = dump_path / stamp / device / model / model_id / it
    leaf.mkdir(parents=True)
    (leaf / "Conv2D.conv1.3.0.1700000000000000").write_bytes(b"x")
    (leaf / "Relu.relu1.4.0.1700000000000100").write_bytes(b"x")
    return leaf


def test_the_full_layout_is_found_from_every_level(tmp_path):
    dump = tmp_path / "dump"
    leaf = _leaf(dump)
    for level in [dump, *reversed(leaf.relative_to(dump).parents[:-1]), leaf]:
        start = dump / level if not level.is_absolute() else level
        assert dump_leaves(start) == [leaf], start
        assert describe(start) == DumpPlace(start.name, "resnet50", "0", 1)
        assert artefacts.classify(start) is artefacts.Artefact.DUMP_DIR
    file = leaf / "Conv2D.conv1.3.0.1700000000000000"
    assert describe(file) == DumpPlace("conv1", "resnet50", "0", 0)
    assert artefacts.classify(file) is artefacts.Artefact.DUMP_FILE


def test_several_models_and_iterations(tmp_path):
    dump = tmp_path / "dump"
    leaves = [_leaf(dump, m, it=it) for m in ("resnet50", "bert") for it in ("0", "1", "10")]
    _leaf(dump, "bert", stamp="20240101130000", device="1", model_id="2", it="3")
    second = dump / "20240101130000" / "1" / "bert" / "2" / "3"
    assert dump_leaves(dump) == sorted([*leaves, second])  # name order, across timestamps and devices
    assert dump_leaves(dump, limit=2) == sorted(leaves)[:2]
    assert describe(dump) == DumpPlace("dump", "", "", 7)  # two models: neither named
    assert describe(dump / STAMP / "0" / "bert") == DumpPlace("bert", "bert", "", 3)  # one model, 3 iterations
    assert describe(dump / STAMP / "0" / "bert" / "1" / "10") == DumpPlace("10", "bert", "10", 1)
    assert describe(dump / "20240101130000") == DumpPlace("20240101130000", "bert", "3", 1)


def test_a_huge_folder_is_read_in_bounded_time_and_entries(tmp_path, monkeypatch):
    """Thousands of numbered folders (and files) below a dump_path: a bounded number of folders is
    listed and a bounded number of entries read from each, whatever the folder holds."""
    dump = tmp_path / "dump"
    stamp = dump / STAMP
    for n in range(3000):
        (stamp / str(n)).mkdir(parents=True)
    for n in range(2000):
        (dump / f"junk_{n}.txt").write_bytes(b"")
    listed: list[str] = []
    real_scandir = os.scandir

    def counting_scandir(path):
        listed.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr(artefacts.os, "scandir", counting_scandir)
    started = time.monotonic()
    assert dump_leaves(dump) == []
    assert not artefacts.classify(dump)
    assert time.monotonic() - started < 5
    assert len(listed) <= 16 * 96 + 96, "folders listed"
    # and a dump that is there is still found, among the empty numbered folders
    listed.clear()
    leaf = _leaf(tmp_path / "other")
    assert dump_leaves(leaf.parents[4]) == [leaf] and len(listed) == 6


def test_a_symlink_loop_neither_hangs_nor_is_followed(tmp_path):
    dump = tmp_path / "dump"
    leaf = _leaf(dump)
    (leaf.parent / "7").symlink_to(leaf.parent, target_is_directory=True)  # model_id/1/7 -> model_id/1
    (dump / "9").symlink_to(dump, target_is_directory=True)  # dump/9 -> dump
    started = time.monotonic()
    assert dump_leaves(dump) == [leaf]
    assert describe(dump) == DumpPlace("dump", "resnet50", "0", 1)
    assert time.monotonic() - started < 5


def test_a_symlink_out_of_the_folder_is_not_followed(tmp_path):
    """A numbered link to a dump elsewhere: the view's scan (rglob) does not follow it, nor does this."""
    elsewhere = _leaf(tmp_path / "elsewhere")
    dump = tmp_path / "dump"
    (dump / STAMP / "0" / "resnet50" / "1").mkdir(parents=True)
    (dump / STAMP / "0" / "resnet50" / "1" / "0").symlink_to(elsewhere, target_is_directory=True)
    (dump / "20240102000000").symlink_to(elsewhere.parents[4] / STAMP, target_is_directory=True)
    assert dump_leaves(dump) == []
    assert describe(dump) == DumpPlace("dump", "", "", 0)
    assert scan_dump_folder(dump).entries == []  # what the view shows: the two agree


def test_a_project_root_is_no_dump_folder(tmp_path):
    root = tmp_path / "proj"
    create_project(root)
    for name in ("src", "models", "out/0", "data/1/2"):
        (root / name).mkdir(parents=True)
    (root / "src" / "main.py").write_text("print(1)\n")
    (root / "data" / "1" / "2" / "image.0.1.1700000000000000.bin").write_bytes(b"x")  # dump-like, not a dump
    _leaf(root / "dump")  # the project's dump_path holds a dump: the root is still no dump folder
    assert dump_leaves(root) == []
    assert describe(root) == DumpPlace("proj", "", "", 0)
    assert artefacts.classify(root) is None and artefacts.classify(root / "src") is None
    assert artefacts.classify(root / "dump") is artefacts.Artefact.DUMP_DIR


@pytest.mark.parametrize(
    "model",
    ["my model (v2)", "ResNet-50 模型", "123", "a.b.c", "-", "név with ' and \"", "x" * 200],
    ids=["spaces", "unicode", "digits", "dots", "dash", "quotes", "long"],
)
def test_odd_model_names(tmp_path, model):
    dump = tmp_path / "dump"
    leaf = _leaf(dump, model)
    assert dump_leaves(dump) == [leaf]
    assert describe(dump) == DumpPlace("dump", model, "0", 1)
    assert describe(leaf / "Relu.relu1.4.0.1700000000000100") == DumpPlace("relu1", model, "0", 0)


def test_odd_op_and_file_names(tmp_path):
    leaf = tmp_path / "dump" / STAMP / "0" / "m" / "1" / "0"
    leaf.mkdir(parents=True)
    dotted = leaf / "MatMul.layer.1.attn-q k.12.0.1700000000000000"  # dots and a space in the op name
    dotted.write_bytes(b"x")
    assert describe(dotted) == DumpPlace("layer.1.attn-q k", "m", "0", 0)
    assert dump_leaves(tmp_path / "dump") == [leaf]
    other = tmp_path / "notdump" / STAMP / "0" / "m" / "1" / "0"
    other.mkdir(parents=True)
    for name in (
        "Add.x.1.0.1700000000000000\n",
        "Add.x.1.0.17000",
        "Add.x.1.0.1700000000000000.npy",
        ".x.1.0.1700000000000000",
    ):
        (other / name).write_bytes(b"x")  # a trailing newline, a short timestamp, a converted .npy, no type
    assert dump_leaves(tmp_path / "notdump") == []


def test_an_unreadable_folder_is_skipped(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads every folder")
    dump = tmp_path / "dump"
    leaf = _leaf(dump)
    locked = _leaf(dump, "locked")
    locked.chmod(0)
    try:
        assert dump_leaves(dump) == [leaf]
    finally:
        locked.chmod(0o755)


# ----- .npy read for viewing
def test_npy_header_and_array(tmp_path):
    a = np.arange(12, dtype=np.float16).reshape(3, 4)
    np.save(tmp_path / "a.npy", a)
    shape, dtype, fortran = read_npy_header(tmp_path / "a.npy")
    assert (shape, dtype, fortran) == ((3, 4), np.dtype(np.float16), False)
    np.testing.assert_array_equal(load_npy(tmp_path / "a.npy"), a)
    np.testing.assert_array_equal(load_tensor(tmp_path / "a.npy", "array", 0), a)
    with pytest.raises(NpyFileError, match=r"a\.npy: no output 0 \(a \.npy file holds one array\)"):
        load_tensor(tmp_path / "a.npy", "output", 0)
    (entry,) = scan_dump_folder(tmp_path / "a.npy").entries
    assert entry.npy and not entry.error and entry.op_name == "a.npy"
    assert [(t.kind, t.index, t.dtype, t.shape, t.size) for t in entry.tensors] == [("array", 0, "float16", (3, 4), 24)]
    np.save(tmp_path / "e.npy", np.zeros((0, 5), dtype=np.int32))
    assert read_npy_header(tmp_path / "e.npy")[0] == (0, 5) and load_npy(tmp_path / "e.npy").shape == (0, 5)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty file (0 bytes), expected a .npy array"),
        (b"PK\x03\x04", "not a .npy file (it does not start with the NumPy magic \\x93NUMPY)"),
        (b"\x93NUMPY\x01\x00\x20\x00{'descr': '<f4'", "damaged .npy header ("),
        (b"\x93NUMPY\x09\x00", "damaged .npy header ("),
    ],
    ids=["empty", "zip", "cut-header", "bad-version"],
)
def test_damaged_npy_is_one_error_naming_the_file(tmp_path, content, reason):
    path = tmp_path / "g.npy"
    path.write_bytes(content)
    with pytest.raises(NpyFileError) as info:
        load_npy(path)
    assert str(info.value).startswith(f"{path}: {reason}") and "\n" not in str(info.value)
    (entry,) = scan_dump_folder(path).entries
    assert entry.error == str(info.value) and entry.tensors == []


def test_pickled_and_truncated_npy(tmp_path):
    np.save(tmp_path / "o.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(NpyFileError, match="holds Python objects"):
        load_npy(tmp_path / "o.npy")
    np.save(tmp_path / "t.npy", np.ones(10, dtype=np.float64))
    (tmp_path / "t.npy").write_bytes((tmp_path / "t.npy").read_bytes()[:-8])
    with pytest.raises(
        NpyFileError, match=r"truncated: shape \[10\] of float64 needs 80 data bytes, the file holds 72"
    ):
        load_npy(tmp_path / "t.npy")
