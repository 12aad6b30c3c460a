"""Accuracy comparison end to end: simulated dumps of a real om JSON model vs ground truth, CSV, CLI."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import numpy as np
import pytest
from dumpwire import dump_bytes

from workbench.core.dump.aclconfig import DumpSettings
from workbench.core.dump.compare import NEXT_STEPS, compare_dirs, read_result_csv, write_result_csv
from workbench.core.dump.metrics import DEFAULT_ALGORITHMS
from workbench.core.dump.omjson import read_om_json
from workbench.simtoolkit.dumpwriter import write_golden, write_model_dump

DRIFT_OP = "BatchNormalization_180_BNInferenceD"


@pytest.fixture(scope="module")
def model_run(tmp_path_factory, samples):
    root = tmp_path_factory.mktemp("acc")
    model = read_om_json(samples / "atc-om2json-large/test.om.json")
    files = write_model_dump(
        model, DumpSettings(option="all", model_name=model.name, dump_path=str(root)), root / "npu", start_us=1_000_000
    )
    write_golden(files, root / "golden", drift={DRIFT_OP: 3.0})
    return root, model, files


def test_first_op_below_threshold_in_model_order(model_run):
    root, model, files = model_run
    assert len(files) == sum(op.dumped for op in model.ops)
    report = compare_dirs(root / "npu", root / "golden", fusion_rule=model)
    outputs = [r for r in report.rows if r.kind == "output"]
    assert [r.index for r in report.rows] == sorted(r.index for r in report.rows)
    order = {op.name: op.index for op in model.ops}
    assert [order[r.npu_op] for r in outputs] == sorted(order[r.npu_op] for r in outputs)
    first = report.first_below_threshold
    assert first is not None and first.npu_op == DRIFT_OP and first.cosine < 0.99
    ok = [r for r in outputs if not r.reason]
    assert len(ok) > 40 and all(r.cosine is None or r.cosine > 0.999 for r in ok if r.npu_op != DRIFT_OP)
    # shape mismatches (real om JSON: a TransData carrying another op's origin) are rows, not crashes
    mismatch = [r for r in outputs if "Due to the different shapes" in r.reason]
    assert mismatch and all(v == "NaN" for r in mismatch for v in r.values.values())
    assert report.to_json()["next_steps"] == list(NEXT_STEPS)


def test_result_csv_layout(model_run, tmp_path):
    root, model, _ = model_run
    report = compare_dirs(root / "npu", root / "golden", fusion_rule=model, algorithms="all")
    path = write_result_csv(report, tmp_path / "result.csv")
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == [
        "Index",
        "OpType",
        "NPUDump",
        "DataType",
        "Address",
        "GroundTruth",
        "DataType",
        "TensorIndex",
        "Shape",
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
        "CompareFailReason",
    ]
    assert len(rows) == len(report.rows) + 1
    row = next(r for r in rows[1:] if r[2] == DRIFT_OP)
    assert row[7] == f"{DRIFT_OP}:output:0" and row[3] == "float16" and row[6] == "float32"
    for value in row[9:13] + row[15:19]:
        assert value.split(".")[1].isdigit() and len(value.split(".")[1]) == 6
    back = read_result_csv(path)
    assert [r.values for r in back.rows] == [r.values for r in report.rows]
    assert back.first_below_threshold.npu_op == DRIFT_OP


def test_values_agree_with_numpy_on_the_converted_tensor(model_run):
    root, model, files = model_run
    report = compare_dirs(root / "npu", root / "golden", fusion_rule=model)
    row = next(r for r in report.rows if r.npu_op == DRIFT_OP)
    from workbench.core.dump.dumpfile import read_dump

    t = read_dump(row.npu_file).outputs[0]
    golden = np.load(row.golden_file).astype(np.float64)
    npu = t.array().astype(np.float64)
    assert npu.shape == golden.shape
    cos = (npu * golden).sum() / np.sqrt((npu**2).sum() * (golden**2).sum())
    assert float(row.values["CosineSimilarity"]) == pytest.approx(cos, abs=2e-6)
    assert float(row.values["MaxAbsoluteError"]) == pytest.approx(np.abs(npu - golden).max(), rel=1e-5)


def test_missing_golden_and_mismatched_shape_rows(tmp_path):
    npu, golden = tmp_path / "npu", tmp_path / "golden"
    npu.mkdir(), golden.mkdir()
    raw = np.arange(6, dtype=np.float32)
    (npu / "Add.a.1.0.10").write_bytes(
        dump_bytes("a", [], [{"raw": raw.tobytes(), "data_type": 1, "fmt": 2, "shape": (2, 3)}])
    )
    (npu / "Add.b.2.0.11").write_bytes(
        dump_bytes("b", [], [{"raw": raw.tobytes(), "data_type": 1, "fmt": 2, "shape": (6,)}])
    )
    (npu / "Add.c.3.0.12").write_bytes(b"\x01")  # damaged: a warning, the others still compare
    np.save(golden / "a.0.5.npy", np.arange(4, dtype=np.float32))
    report = compare_dirs(npu, golden)
    a, b = report.rows
    assert a.npu_op == "a" and "left dump data(2, 3) can not be compared to the right dump data(4)." in a.reason
    assert b.reason == '[b] There is no right dump file for the op "b".' and b.ground_truth == "*"
    assert len(report.warnings) == 1 and "Add.c.3.0.12" in report.warnings[0]
    assert list(a.values) == list(DEFAULT_ALGORITHMS)


def _cli(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_cli_accuracy_compare_json(model_run, tmp_path, samples):
    root, _, _ = model_run
    r = _cli(
        "accuracy",
        "compare",
        "--npu",
        str(root / "npu"),
        "--golden",
        str(root / "golden"),
        "--fusion-rule",
        str(samples / "atc-om2json-large/test.om.json"),
        "--out",
        str(tmp_path / "r.csv"),
        "--json",
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["first_below_threshold"]["op"] == DRIFT_OP
    row = out["rows"][0]
    assert {"op", "tensor_index", "cosine", "max_abs_error", "accumulated_relative_error"} <= set(row)
    assert (tmp_path / "r.csv").exists()
    r = _cli(
        "accuracy", "compare", "--npu", str(tmp_path / "nope"), "--golden", str(root), "--out", "x.csv", cwd=tmp_path
    )
    assert r.returncode == 2 and "nope: not a folder" in r.stderr


@pytest.mark.parametrize("workers", [2, 3])
def test_threaded_comparison_equals_one_thread(model_run, monkeypatch, workers):
    """Tensors compared on several threads give the very rows (order, values, reasons) and the
    same progress sequence as one thread."""
    from workbench.core.dump import compare as compare_mod
    from workbench.core.tasks import RecordingProgress

    root, model, _ = model_run
    runs = []
    for n in (1, workers):
        monkeypatch.setattr(compare_mod, "WORKERS", n)
        progress = RecordingProgress()
        report = compare_dirs(root / "npu", root / "golden", fusion_rule=model, algorithms="all", progress=progress)
        runs.append((report, progress.events))
    (one, ev_one), (many, ev_many) = runs
    assert len(one.rows) > 20
    assert [r.to_json() for r in many.rows] == [r.to_json() for r in one.rows]
    assert any(r.reason for r in one.rows) and any(r.values["CosineSimilarity"] != "NaN" for r in one.rows)
    assert ev_many == ev_one
    partials = [v for k, v in ev_one if k == "partial"]
    # one per dumped op (ops without tensors too), in report order, each after its rows
    assert len(partials) == len(set(partials))
    with_rows = list(dict.fromkeys(r.npu_op for r in one.rows))
    assert [p for p in partials if p in set(with_rows)] == with_rows
