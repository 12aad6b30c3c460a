"""Remote accuracy comparison through the host's msaccucmp.py (the demo host's simulated toolkit)."""

from __future__ import annotations

import csv

import pytest

from workbench.core.dump.aclconfig import DumpSettings
from workbench.core.dump.compare import compare_dirs, write_result_csv
from workbench.core.dump.omjson import read_om_json
from workbench.core.dump.remote import msaccucmp_command, remote_compare
from workbench.core.services.demohost import demo_host
from workbench.core.services.ssh import transport_for
from workbench.core.services.transport import TransportError
from workbench.simtoolkit.dumpwriter import write_golden, write_model_dump

MODEL = "atc-om2json-310-cann5.1/model.json"


def test_command_line():
    argv = msaccucmp_command(
        "/t/msaccucmp.py", "/n", "/g", "/o", fusion_rule="/f.json", algorithms=["CosineSimilarity", "MaxAbsoluteError"]
    )
    assert argv == [
        "python3",
        "/t/msaccucmp.py",
        "compare",
        "-m",
        "/n",
        "-g",
        "/g",
        "-f",
        "/f.json",
        "-alg",
        "CosineSimilarity,MaxAbsoluteError",
        "-out",
        "/o",
    ]


def test_remote_compare_matches_local(samples, tmp_path):
    rule = samples / MODEL
    model = read_om_json(rule)
    npu = tmp_path / "npu"
    files = write_model_dump(model, DumpSettings(option="all", model_name=model.name, dump_mode="all"), npu)
    write_golden(files, tmp_path / "golden", drift={"Concat_1211": 3.0})
    algs = ["CosineSimilarity", "MaxAbsoluteError", "MeanRelativeError"]
    host = demo_host()
    remote = remote_compare(
        transport_for(host),
        str(npu),
        str(tmp_path / "golden"),
        fusion_rule=str(rule),
        algorithms=algs,
        toolkit=host.toolkit,
        remote_dir=str(tmp_path / "host"),
    )
    local = compare_dirs(npu, tmp_path / "golden", fusion_rule=rule, algorithms=algs)
    write_result_csv(local, tmp_path / "local.csv")
    with open(tmp_path / "local.csv", newline="", encoding="utf-8") as fh:
        expected = list(csv.reader(fh))[1:]
    got = [[c for i, c in enumerate(r) if i != 0] for r in remote.csv_rows()]
    # The Index column and file paths (NPU dump path is the host's copy) differ; every value must agree.
    assert [r[8:11] for r in got] == [r[9:12] for r in expected]
    assert [r.npu_op for r in remote.rows] == [r.npu_op for r in local.rows]
    assert remote.first_below_threshold.npu_op == local.first_below_threshold.npu_op
    # The uploaded copies are removed; the result CSV stays on the host.
    assert sorted(p.name for p in (tmp_path / "host").iterdir()) == ["result"]
    assert [p.name.startswith("result_") for p in (tmp_path / "host" / "result").iterdir()] == [True]


def test_remote_compare_without_msaccucmp(tmp_path):
    from workbench.core.services.toolkit import ToolkitInfo

    tk = ToolkitInfo(
        root="/nowhere",
        set_env="/nowhere/set_env.sh",
        version=None,
        arch=None,
        tools={"msaccucmp": None},
        simulated=False,
    )
    with pytest.raises(TransportError, match="msaccucmp.py"):
        remote_compare(transport_for(demo_host()), str(tmp_path), str(tmp_path), toolkit=tk)
