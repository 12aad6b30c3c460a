"""dump-config / dump convert verbs, the simulated runtime dump and simulated msaccucmp convert/compare."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import numpy as np
from dumpwire import dump_bytes

from workbench.core.dump.dumpfile import read_dump
from workbench.simtoolkit import msaccucmp
from workbench.simtoolkit.dumpwriter import dump_after_app
from workbench.simtoolkit.omfile import write_om

LARGE = "atc-om2json-large/test.om.json"


def _cli(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def test_dump_config_edits_in_place_and_keeps_keys(samples, tmp_path):
    acl = tmp_path / "acl.json"
    acl.write_text(json.dumps({"profiler": {"switch": "on"}, "dump": {"dump_path": "/old", "dump_step": "1"}}))
    r = _cli(
        "dump-config",
        "--model-json",
        str(samples / LARGE),
        "--ops",
        "MatMul_368,Pad_49",
        "--mode",
        "all",
        "--out",
        str(acl),
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "dump and profiling are both on" in r.stderr
    data = json.loads(acl.read_text())
    assert data["profiler"] == {"switch": "on"} and data["dump"]["dump_step"] == "1"
    assert data["dump"]["dump_list"] == [{"model_name": "tdnn", "layer": ["MatMul_368", "Pad_49"]}]
    assert (data["dump"]["dump_path"], data["dump"]["dump_mode"]) == ("/old", "all")
    r = _cli(
        "dump-config",
        "--model-json",
        str(samples / LARGE),
        "--all",
        "--data",
        "stats",
        "--out",
        str(acl),
        "--json",
        cwd=tmp_path,
    )
    out = json.loads(r.stdout)
    assert out["acl"]["dump"]["dump_list"] == [{"model_name": "tdnn"}]
    assert out["acl"]["dump"]["dump_stats"] == ["Max", "Min", "Avg", "L2norm", "Nan", "Negative Inf", "Positive Inf"]


def test_dump_config_bad_input(samples, tmp_path):
    acl = tmp_path / "acl.json"
    acl.write_text('{"dump": {\n  "dump_path": "/x"\n  "dump_mode": "all"}}')
    before = acl.read_text()
    r = _cli("dump-config", "--model-json", str(samples / LARGE), "--all", "--out", str(acl), cwd=tmp_path)
    assert r.returncode == 2 and "line 3, column 3" in r.stderr and acl.read_text() == before
    r = _cli(
        "dump-config",
        "--model-json",
        str(samples / LARGE),
        "--ops",
        "nope",
        "--path",
        "/d",
        "--out",
        str(tmp_path / "new.json"),
        cwd=tmp_path,
    )
    assert r.returncode == 2 and "not ops of model 'tdnn': nope" in r.stderr
    assert not (tmp_path / "new.json").exists()


def test_dump_convert_verb(tmp_path):
    src = tmp_path / "d"
    src.mkdir()
    (src / "Add.ok.1.0.7").write_bytes(
        dump_bytes("ok", [], [{"raw": np.float32([1, 2]).tobytes(), "data_type": 1, "fmt": 2, "shape": (2,)}])
    )
    (src / "Add.bad.1.0.8").write_bytes(b"\x00" * 4)
    r = _cli("dump", "convert", str(src), "--out", str(tmp_path / "o"), "--json", cwd=tmp_path)
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["files_ok"] == 1 and len(out["errors"]) == 1 and "Add.bad.1.0.8: at byte offset 0" in out["errors"][0]
    assert np.array_equal(np.load(tmp_path / "o" / "Add.ok.1.0.7.output.0.npy"), [1, 2])


def test_simulated_runtime_dumps_when_acl_json_enables_it(samples, tmp_path):
    doc = json.loads((samples / LARGE).read_text())
    om = tmp_path / "tdnn.om"
    write_om(om, doc, [])
    (tmp_path / "dump").mkdir()
    (tmp_path / "acl.json").write_text(
        json.dumps(
            {
                "dump": {
                    "dump_list": [{"model_name": "tdnn", "layer": ["MatMul_368", "Pad_49"]}],
                    "dump_path": "dump",
                    "dump_mode": "all",
                }
            }
        )
    )
    files = dump_after_app(["./main", str(om)], tmp_path)
    assert [f.name.split(".")[1] for f in files] == ["Pad_49", "MatMul_368"]  # model order
    parts = files[0].relative_to(tmp_path / "dump").parts
    assert len(parts) == 6 and parts[1:5] == ("0", "tdnn", "1", "0") and len(parts[0]) == 14
    d = read_dump(files[1])
    assert d.op_name == "MatMul_368" and d.inputs and d.outputs
    (tmp_path / "acl.json").write_text(
        json.dumps({"dump": {"dump_list": [{"model_name": "other"}], "dump_path": "dump"}})
    )
    assert dump_after_app(["./main", str(om)], tmp_path) == []


def test_simulated_msaccucmp_convert_and_compare(samples, tmp_path, monkeypatch, capsys):
    src = tmp_path / "npu"
    src.mkdir()
    dev = np.arange(2 * 1 * 2 * 2 * 16, dtype=np.float16).reshape(2, 1, 2, 2, 16)
    f = src / "Conv2D.conv1.1.0.100"
    f.write_bytes(
        dump_bytes(
            "conv1",
            [],
            [{"raw": dev.tobytes(), "data_type": 2, "fmt": 3, "shape": dev.shape, "original_shape": (2, 3, 2, 2)}],
        )
    )
    out = tmp_path / "out"
    out.mkdir()
    assert msaccucmp.main(["convert", "-d", str(f), "-out", str(out)]) == 0
    assert np.array_equal(np.load(out / f"{f.name}.output.0.npy"), dev)
    assert msaccucmp.main(["convert", "-d", str(f), "-out", str(out), "-f", "NCHW", "-o", "0"]) == 0
    nchw = np.load(out / f"{f.name}.output.0.NCHW.npy")
    assert nchw.shape == (2, 3, 2, 2) and nchw[1, 2, 1, 0] == dev[1, 0, 1, 0, 2]
    golden = tmp_path / "golden"
    golden.mkdir()
    np.save(golden / "conv1.0.100.npy", nchw.astype(np.float32) * 1.001)
    monkeypatch.chdir(tmp_path)
    assert msaccucmp.main(["compare", "-m", str(src), "-g", str(golden), "-out", str(out)]) == 0
    result = next(out.glob("result_*.csv"))
    with open(result, newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 1 and rows[0]["TensorIndex"] == "conv1:output:0" and rows[0]["CosineSimilarity"] == "1.000000"
    assert rows[0]["MaxRelativeError"] == "0.000999"  # |1 / 1.001 - 1|
    err = capsys.readouterr().err
    assert "The command was completed and took" in err
    assert msaccucmp.main(["overflow", "-d", str(src), "-out", str(out)]) == 30


def test_dump_config_stats_without_stats_data_is_refused(samples, tmp_path):
    acl = tmp_path / "acl.json"
    original = '{"dump": {"dump_list": [], "dump_path": "dump"}}'
    acl.write_text(original)

    def config(*args):
        base = ["dump-config", "--model-json", str(samples / LARGE), "--all", "--out", str(acl)]
        return _cli(*base, *args, cwd=tmp_path)

    r = config("--stats", "Max,Min")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "--stats needs --data stats: dump_stats is only used by a statistics dump"
    ], r.stderr
    assert acl.read_text() == original
    r = config("--data", "tensor", "--stats", "Max")
    assert r.returncode == 2 and "--stats needs --data stats" in r.stderr and acl.read_text() == original
    # With --data stats the statistics are written; a file that already dumps statistics takes --stats alone.
    r = config("--data", "stats", "--stats", "Max,Min")
    assert r.returncode == 0, r.stderr
    assert json.loads(acl.read_text())["dump"]["dump_stats"] == ["Max", "Min"]
    r = config("--stats", "Avg")
    assert r.returncode == 0, r.stderr
    data = json.loads(acl.read_text())["dump"]
    assert (data["dump_data"], data["dump_stats"]) == ("stats", ["Avg"])


def test_dump_config_refuses_a_read_only_acl_json_without_force(samples, tmp_path):
    acl = tmp_path / "acl.json"
    before = json.dumps({"dump": {"dump_path": "/old"}})
    acl.write_text(before)
    acl.chmod(0o444)
    args = ("dump-config", "--model-json", str(samples / LARGE), "--all", "--out", str(acl))
    r = _cli(*args, cwd=tmp_path)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        f"{acl}: the file is read-only; make it writable to change it (or pass --force to replace it)"
    ]
    assert acl.read_text() == before
    r = _cli(*args, "--force", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(acl.read_text())["dump"]["dump_list"] == [{"model_name": "tdnn"}]
    assert acl.stat().st_mode & 0o777 == 0o444
