"""The dump data view's core: folder scan with level names, tensor stats/histogram, exports."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.core.dump import dtypes
from workbench.core.dump.browse import export_tensor, load_tensor, scan_dump_folder, summarise_tensor
from workbench.core.dump.dumpfile import DumpFileError, TensorSpec, write_dump


def _layout(tmp_path):
    leaf = tmp_path / "dump" / "20240101120000" / "0" / "resnet" / "1" / "0"
    leaf.mkdir(parents=True)
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 5
    b = np.array([[1, -2], [3, 4]], dtype=np.float16)
    write_dump(
        leaf / "Add.add_1.2.0.1700000000000001",
        "add_1",
        [TensorSpec(a.tobytes(), dtypes.DT["FLOAT"], shape=a.shape)],
        [TensorSpec(b.tobytes(), dtypes.DT["FLOAT16"], shape=b.shape)],
    )
    (leaf / "Conv2D.conv_0.1.0.1700000000000000").write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00ab")
    return tmp_path / "dump", leaf, a, b


def test_scan_levels_and_order(tmp_path):
    root, leaf, _a, _b = _layout(tmp_path)
    scan = scan_dump_folder(root)
    assert [e.op_name for e in scan.entries] == ["Conv2D.conv_0.1.0.1700000000000000", "add_1"]
    bad, good = scan.entries
    assert "at byte offset 0" in bad.error and scan.errors == [bad.error]
    assert good.folder == ("20240101120000", "0", "resnet", "1", "0") and good.op_type == "Add"
    assert [(t.kind, t.dtype, t.shape) for t in good.tensors] == [
        ("input", "DT_FLOAT", (2, 3, 4)),
        ("output", "DT_FLOAT16", (2, 2)),
    ]
    assert [scan.level_name(i) for i in range(6)] == ["Iteration", "Model ID", "Model", "Device", "Timestamp", ""]
    assert [e.op_name for e in scan_dump_folder(leaf / "Add.add_1.2.0.1700000000000001").entries] == ["add_1"]


def test_summary_and_exports(tmp_path):
    _root, leaf, a, b = _layout(tmp_path)
    f = leaf / "Add.add_1.2.0.1700000000000001"
    s = summarise_tensor(f, "input", 0, bins=4)
    assert (s.stats["min"], s.stats["max"], s.stats["count"]) == (-5.0, 18.0, 24)
    assert s.stats["mean"] == pytest.approx(float(a.mean())) and s.counts.sum() == 24
    np.testing.assert_array_equal(np.load(export_tensor(f, "output", 0, tmp_path / "o.npy")), b)
    lines = export_tensor(f, "output", 0, tmp_path / "o.txt").read_text().splitlines()
    assert [float(x) for x in lines[1:]] == [1.0, -2.0, 3.0, 4.0]
    with pytest.raises(DumpFileError, match="no output 3"):
        load_tensor(f, "output", 3)
