"""msprof PROF_* folders of every CANN version: layout, headers, pid packing, internal consistency."""

from __future__ import annotations

import collections
import re

import pytest
from _profdata_util import load_trace, one, process_names, read_csv, ts_ns

from workbench.simtoolkit.profdata import resnet50_workload, transformer_workload, write_msprof_prof

STAMP = r"\d{14}"


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """CANN version -> PROF folder (two devices, offline ResNet-50, two iterations)."""
    out = {}
    for version, soc in {
        "8.0.RC1": "Ascend910B2",
        "8.2.RC1": "Ascend910B2",
        "7.0.0": "Ascend910B2",
        "6.0.1": "Ascend910",
        "5.1.RC2": "Ascend310",
    }.items():
        out[version] = write_msprof_prof(
            tmp_path_factory.mktemp(version),
            resnet50_workload(),
            cann_version=version,
            soc=soc,
            devices=[0, 1],
            iterations=2,
            aic_metrics="PipeUtilization",
        )
    return out


def _files(root):
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("version", ["8.0.RC1", "7.0.0"])
def test_modern_layout_file_names(reports, version):
    root = reports[version]
    assert re.fullmatch(r"PROF_\d{6}_\d{17}_[A-Z]{16}", root.name)
    names = {p.name for p in (root / "mindstudio_profiler_output").iterdir()}
    for base, ext in [
        ("msprof", "json"),
        ("step_trace", "json"),
        ("op_summary", "csv"),
        ("op_statistic", "csv"),
        ("task_time", "csv"),
        ("api_statistic", "csv"),
        ("npu_mem", "csv"),
        ("step_trace", "csv"),
    ]:
        assert any(re.fullmatch(f"{base}_{STAMP}\\.{ext}", n) for n in names), (base, ext, names)
    assert "README.txt" in names
    for d in ("host/data", "device_0/data", "device_1/data", "mindstudio_profiler_log"):
        assert (root / d).is_dir(), d
    assert not (root / "device_0" / "summary").exists()


@pytest.mark.parametrize("version", ["6.0.1", "5.1.RC2"])
def test_legacy_layout_file_names(reports, version):
    root = reports[version]
    files = _files(root)
    for dev in (0, 1):
        for name in ("op_summary", "op_statistic", "task_time", "acl", "acl_statistic", "runtime_api", "step_trace"):
            assert f"device_{dev}/summary/{name}_{dev}_1_1.csv" in files
        for name in ("msprof", "task_time"):
            assert f"device_{dev}/timeline/{name}_{dev}_1_1.json" in files
    assert not (root / "mindstudio_profiler_output").exists()


def test_single_op_legacy_uses_two_index_names(tmp_path):
    root = write_msprof_prof(
        tmp_path, transformer_workload(layers=1), cann_version="6.0.1", soc="Ascend910", iterations=1
    )
    assert (root / "device_0" / "summary" / "op_summary_0_1.csv").is_file()


def _op_summary(root, version):
    if version[0] in "56":
        header, rows = read_csv(root / "device_0" / "summary" / "op_summary_0_1_1.csv")
        return header, rows
    return read_csv(one(root / "mindstudio_profiler_output", "op_summary_*.csv"))


def test_op_summary_headers_per_version(reports):
    h8, _ = _op_summary(reports["8.0.RC1"], "8.0.RC1")
    assert h8[:6] == ["Device_id", "Model ID", "Task ID", "Stream ID", "Op Name", "OP Type"]
    assert {"OP State", "HF32 Eligible", "Task Start Time(us)", "Block Dim", "Mix Block Dim", "Context ID"} <= set(h8)
    h82, _ = _op_summary(reports["8.2.RC1"], "8.2.RC1")
    assert "Block Num" in h82 and "Mix Block Num" in h82 and "Block Dim" not in h82
    h7, _ = _op_summary(reports["7.0.0"], "7.0.0")
    assert "OP State" not in h7 and "HF32 Eligible" not in h7 and h7[0] == "Device_id"
    h6, _ = _op_summary(reports["6.0.1"], "6.0.1")
    assert h6[:13] == [
        "Model Name",
        "Model ID",
        "Task ID",
        "Stream ID",
        "Infer ID",
        "Op Name",
        "OP Type",
        "Task Type",
        "Task Start Time",
        "Task Duration(us)",
        "Task Wait Time(us)",
        "Block Dim",
        "Mix Block Dim",
    ]
    rt, _ = read_csv(reports["6.0.1"] / "device_0" / "summary" / "runtime_api_0_1_1.csv")
    assert rt == [
        "Name",
        "Stream ID",
        "Time(%)",
        "Time(ns)",
        "Calls",
        "Avg(ns)",
        "Min(ns)",
        "Max(ns)",
        "Process ID",
        "Thread ID",
    ]
    tt, _ = read_csv(reports["5.1.RC2"] / "device_0" / "summary" / "task_time_0_1_1.csv")
    assert tt[:3] == ["Time(%)", "Time(us)", "Count"]


def test_pmu_columns_follow_the_chip(reports):
    h910b, _ = _op_summary(reports["8.0.RC1"], "8.0.RC1")
    assert "aic_total_cycles" in h910b and "aiv_vec_ratio" in h910b and "total_cycles" not in h910b
    assert "aic_vec_ratio" not in h910b and "aiv_mac_ratio" not in h910b
    for version in ("6.0.1", "5.1.RC2"):  # Ascend910 / Ascend310: unprefixed
        h, rows = _op_summary(reports[version], version)
        assert "total_cycles" in h and "vec_ratio" in h and not any(c.startswith(("aic_", "aiv_")) for c in h)
        for r in rows:  # memory_bound = mte2_ratio / max(mac_ratio, vec_ratio)
            m = max(float(r["mac_ratio"]), float(r["vec_ratio"]))
            if m:
                assert float(r["memory_bound"]) == pytest.approx(float(r["mte2_ratio"]) / m, abs=0.0011)


def test_unavailable_metric_group_is_refused(tmp_path):
    with pytest.raises(ValueError, match="L2Cache.*Ascend910"):
        write_msprof_prof(tmp_path, resnet50_workload(), soc="Ascend910", aic_metrics="L2Cache")
    with pytest.raises(ValueError, match="cann_version"):
        write_msprof_prof(tmp_path, resnet50_workload(), cann_version="banana")
    with pytest.raises(ValueError, match="soc"):
        write_msprof_prof(tmp_path, resnet50_workload(), soc="Ascend999")


def test_pid_packing_decodes_to_devices(reports):
    root = reports["8.0.RC1"]
    events = load_trace(one(root / "mindstudio_profiler_output", "msprof_*.json"))
    sort = {e["pid"]: e["args"]["sort_index"] for e in events if e["ph"] == "M" and e["name"] == "process_sort_index"}
    names = process_names(events)
    hw_devices = set()
    for pid, name in names.items():
        assert (pid >> 5) & 31 == sort[pid]
        host_pid = pid >> 10
        assert host_pid == next(iter({p >> 10 for p in names}))
        if name == "CANN":
            assert pid & 31 == 31
        if name == "Ascend Hardware":
            hw_devices.add(pid & 31)
    assert hw_devices == {0, 1}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    for e in events:
        if e["ph"] == "X" and names[e["pid"]] == "Ascend Hardware":
            assert threads[(e["pid"], e["tid"])] == f"Stream {e['tid']}" == f"Stream {e['args']['Stream Id']}"
    counters = {names[e["pid"]] for e in events if e["ph"] == "C"}
    assert {"AI Core Freq", "NPU MEM"} <= counters


def test_timeline_device_tasks_equal_op_summary(reports):
    root = reports["8.0.RC1"]
    out = root / "mindstudio_profiler_output"
    events = load_trace(one(out, "msprof_*.json"))
    names = process_names(events)
    timeline = sorted(
        (e["pid"] & 31, e["ts"], e["dur"], e["name"], e["args"]["Task Id"])
        for e in events
        if e["ph"] == "X" and names[e["pid"]] == "Ascend Hardware"
    )
    _, rows = read_csv(one(out, "op_summary_*.csv"))
    table = sorted(
        (int(r["Device_id"]), r["Task Start Time(us)"], float(r["Task Duration(us)"]), r["Op Name"], int(r["Task ID"]))
        for r in rows
    )
    assert timeline == table
    _, tt = read_csv(one(out, "task_time_*.csv"))
    for r in tt:
        assert ts_ns(r["task_stop(us)"]) - ts_ns(r["task_start(us)"]) == round(float(r["task_time(us)"]) * 1000)


def test_every_device_task_has_a_host_to_device_flow_from_node_launch(reports):
    events = load_trace(one(reports["8.0.RC1"] / "mindstudio_profiler_output", "msprof_*.json"))
    names = process_names(events)
    launches = {(e["pid"], e["tid"], e["ts"]): e for e in events if e["ph"] == "X" and e["name"] == "Node@launch"}
    device = {
        (e["pid"], e["tid"], e["ts"]): e for e in events if e["ph"] == "X" and names[e["pid"]] == "Ascend Hardware"
    }
    flows = collections.defaultdict(dict)
    for e in events:
        if e["ph"] in "sf":
            assert e["cat"] == "HostToDevice" and isinstance(e["id"], str)
            flows[e["id"]][e["ph"]] = e
    assert len(flows) == len(device)
    for fid, p in flows.items():
        s, f = p["s"], p["f"]
        launch, task = launches[(s["pid"], s["tid"], s["ts"])], device[(f["pid"], f["tid"], f["ts"])]
        assert launch["args"]["connection_id"] == task["args"]["connection_id"]
        assert int(fid) >> 32 == task["args"]["connection_id"]
        assert f["bp"] == "e" and f["name"] == s["name"] == f"HostToDevice{fid}"


def _check_statistic(op_rows, stat_rows, model_col=None):
    agg = collections.defaultdict(list)
    for r in op_rows:
        agg[(r.get("Device_id"), r["OP Type"], r["Task Type"])].append(float(r["Task Duration(us)"]))
    totals = collections.Counter()
    for (dev, _, _), d in agg.items():
        totals[dev] += sum(d)
    assert {(s.get("Device_id"), s["OP Type"], s["Core Type"]) for s in stat_rows} == set(agg)
    for s in stat_rows:
        d = agg[(s.get("Device_id"), s["OP Type"], s["Core Type"])]
        assert int(s["Count"]) == len(d)
        assert float(s["Total Time(us)"]) == pytest.approx(sum(d), abs=1e-6)
        assert float(s["Min Time(us)"]) == min(d) and float(s["Max Time(us)"]) == max(d)
        assert float(s["Avg Time(us)"]) == pytest.approx(sum(d) / len(d), abs=0.0006)
        assert float(s["Ratio(%)"]) == pytest.approx(100 * sum(d) / totals[s.get("Device_id")], abs=0.0006)


@pytest.mark.parametrize("version", ["8.0.RC1", "7.0.0", "6.0.1"])
def test_op_statistic_is_the_aggregation_of_op_summary(reports, version):
    root = reports[version]
    if version.startswith("6"):
        _, ops = read_csv(root / "device_1" / "summary" / "op_summary_1_1_1.csv")
        header, stats = read_csv(root / "device_1" / "summary" / "op_statistic_1_1_1.csv")
        assert header[0] == "Model Name"
    else:
        _, ops = read_csv(one(root / "mindstudio_profiler_output", "op_summary_*.csv"))
        header, stats = read_csv(one(root / "mindstudio_profiler_output", "op_statistic_*.csv"))
        assert header == [
            "Device_id",
            "OP Type",
            "Core Type",
            "Count",
            "Total Time(us)",
            "Min Time(us)",
            "Avg Time(us)",
            "Max Time(us)",
            "Ratio(%)",
        ]
    _check_statistic(ops, stats)


def test_api_statistic_is_the_aggregation_of_cann_events(reports):
    out = reports["8.0.RC1"] / "mindstudio_profiler_output"
    events = load_trace(one(out, "msprof_*.json"))
    names = process_names(events)
    agg = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "X" and names[e["pid"]] == "CANN":
            agg[(e["args"]["level"], e["name"].split("@", 1)[1])].append(e["dur"])
    header, rows = read_csv(one(out, "api_statistic_*.csv"))
    assert header == [
        "Device_id",
        "Level",
        "API Name",
        "Time(us)",
        "Count",
        "Avg(us)",
        "Min(us)",
        "Max(us)",
        "Variance",
    ]
    assert {(r["Level"], r["API Name"]) for r in rows} == set(agg)
    for r in rows:
        d = agg[(r["Level"], r["API Name"])]
        assert r["Device_id"] == "host" and int(r["Count"]) == len(d)
        assert float(r["Time(us)"]) == pytest.approx(sum(d), abs=1e-6)
        mean = sum(d) / len(d)
        assert float(r["Variance"]) == pytest.approx(sum((x - mean) ** 2 for x in d) / len(d), abs=0.002)


def test_legacy_runtime_api_is_in_nanoseconds(reports):
    root = reports["6.0.1"]
    _, rows = read_csv(root / "device_0" / "summary" / "runtime_api_0_1_1.csv")
    events = load_trace(root / "device_0" / "timeline" / "msprof_0_1_1.json")
    names = process_names(events)
    durs = [e["dur"] for e in events if e["ph"] == "X" and names[e["pid"]] == "Runtime"]
    (row,) = rows
    assert int(row["Calls"]) == len(durs)
    assert int(row["Time(ns)"]) == round(sum(durs) * 1000)


def test_existing_folder_is_never_overwritten(tmp_path):
    first = write_msprof_prof(tmp_path, resnet50_workload(), iterations=1)
    before = (one(first / "mindstudio_profiler_output", "op_summary_*.csv")).read_bytes()
    with pytest.raises(FileExistsError, match=first.name):
        write_msprof_prof(tmp_path, resnet50_workload(), iterations=1)
    assert one(first / "mindstudio_profiler_output", "op_summary_*.csv").read_bytes() == before
    assert not list(tmp_path.glob(".*part"))
