"""Artefact recognition for the project explorer, including on the real samples."""

from __future__ import annotations

from workbench.core.artefacts import Artefact, classify


def test_names(tmp_path):
    cases = {
        "resnet50.onnx": Artefact.ONNX_MODEL,
        "frozen.pb": Artefact.TF_MODEL,
        "deploy.prototxt": Artefact.CAFFE_MODEL,
        "deploy.caffemodel": Artefact.CAFFE_WEIGHTS,
        "m.air": Artefact.AIR_MODEL,
        "resnet50.om": Artefact.OM_MODEL,
        "acl.json": Artefact.ACL_JSON,
        "trace_view.json": Artefact.TRACE_VIEW,
        "msprof_20240101120000.json": Artefact.MSPROF_TIMELINE,
        "msprof_0_1_20240101120000.json": Artefact.MSPROF_TIMELINE,
        "op_summary_0_1_1.csv": Artefact.OP_SUMMARY,
        "op_summary_20240101120000.csv": Artefact.OP_SUMMARY,
        "kernel_details.csv": Artefact.OP_SUMMARY,
        "x.npy": Artefact.NPY,
        "r.wbreport": Artefact.SAVED_REPORT,
        "Conv2D.conv1.3.2.1700000000000000": Artefact.DUMP_FILE,
        "notes.txt": None,
        "data.json": None,
    }
    for name, expected in cases.items():
        f = tmp_path / name
        f.write_bytes(b"")
        assert classify(f) is expected, name


def test_folders(tmp_path):
    for name, expected in {
        "PROF_000001_20240101120000000_ABCDEF": Artefact.PROF_DIR,
        "host_123_20240101_ascend_pt": Artefact.PROFILER_OUTPUT,
        "ASCEND_PROFILER_OUTPUT": Artefact.PROFILER_OUTPUT,
        "src": None,
    }.items():
        (tmp_path / name).mkdir()
        assert classify(tmp_path / name) is expected, name
    dump = tmp_path / "20240101120000" / "0" / "resnet" / "1" / "0"
    dump.mkdir(parents=True)
    (dump / "Conv2D.conv1.3.2.1700000000000000").write_bytes(b"\x00")
    assert classify(dump) is Artefact.DUMP_DIR


def test_real_samples(samples):
    assert classify(samples / "atc-aipp-config" / "aipp.config") is Artefact.AIPP_CONFIG
    assert classify(samples / "acl-json-dump-samples" / "acl.json") is Artefact.ACL_JSON
    assert classify(samples / "torch_npu-trace_view" / "trace_view.json") is Artefact.TRACE_VIEW
    assert classify(samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv") is Artefact.OP_SUMMARY
    assert classify(samples / "atc-om2json-large" / "test.om.json") is Artefact.OM_JSON


def test_a_trace_is_recognised_by_content_whatever_its_name(tmp_path, samples):
    import shutil

    from workbench.core.artefacts import classify, looks_like_trace

    renamed = tmp_path / "resnet50 run 3.json"
    shutil.copyfile(samples / "torch_npu-trace_view" / "trace_view.json", renamed)
    assert classify(renamed) is None and looks_like_trace(renamed)
    obj = tmp_path / "b.json"
    obj.write_text('\ufeff {"displayTimeUnit": "ns", "traceEvents": [{"ph": "X"}]}', encoding="utf-8")
    assert looks_like_trace(obj)
    for name, text in (
        ("numbers.json", "[1, 2, 3]"),
        ("config.json", '{"dump": {"dump_path": "x"}}'),
        ("objs.json", '[{"name": "not a trace"}]'),
        ("empty.json", ""),
    ):
        (tmp_path / name).write_text(text)
        assert not looks_like_trace(tmp_path / name), name
    (tmp_path / "bin.json").write_bytes(b"\x00\x01\x02[")
    assert not looks_like_trace(tmp_path / "bin.json")
    assert not looks_like_trace(tmp_path / "missing.json")


# --- the registry (one Kind per Artefact; classify, open and context actions come from it) -----


def _old_classify(path):
    """``classify`` as it was before the registry (kept verbatim as the reference)."""
    import re

    from workbench.core.artefacts import _is_aipp, _looks_like_dump_dir

    suffixes = {
        ".onnx": Artefact.ONNX_MODEL,
        ".pb": Artefact.TF_MODEL,
        ".prototxt": Artefact.CAFFE_MODEL,
        ".caffemodel": Artefact.CAFFE_WEIGHTS,
        ".air": Artefact.AIR_MODEL,
        ".om": Artefact.OM_MODEL,
        ".npy": Artefact.NPY,
        ".wbreport": Artefact.SAVED_REPORT,
    }
    dump_name = re.compile(r"^[A-Za-z0-9_]+\.[^/]+\.\d+\.\d+\.\d{10,}$")
    name = path.name
    lower = name.lower()
    if path.is_dir():
        if name.startswith("PROF_"):
            return Artefact.PROF_DIR
        if name == "ASCEND_PROFILER_OUTPUT" or lower.endswith(("_ascend_pt", "_ascend_ms")):
            return Artefact.PROFILER_OUTPUT
        if _looks_like_dump_dir(path):
            return Artefact.DUMP_DIR
        return None
    suffix = path.suffix.lower()
    if suffix in suffixes:
        return suffixes[suffix]
    if lower == "acl.json":
        return Artefact.ACL_JSON
    if lower == "trace_view.json":
        return Artefact.TRACE_VIEW
    if re.match(r"^msprof(_\d+)*(_\d{14})?\.json$", lower):
        return Artefact.MSPROF_TIMELINE
    if re.match(r"^(op_summary(_\d+)*(_\d{14})?|kernel_details)\.csv$", lower):
        return Artefact.OP_SUMMARY
    if lower.endswith((".om.json",)) or (suffix == ".json" and lower.startswith("model")):
        return Artefact.OM_JSON if lower.endswith(".om.json") else None
    if (
        suffix in (".cfg", ".config", ".conf", ".txt")
        and "aipp" in lower
        or (suffix in (".cfg", ".config") and _is_aipp(path))
    ):
        return Artefact.AIPP_CONFIG
    if dump_name.match(name):
        return Artefact.DUMP_FILE
    return None


def test_every_artefact_has_exactly_one_entry():
    from workbench.core import artefacts

    kinds = [k.artefact for k in artefacts.KINDS]
    assert sorted(kinds, key=lambda a: a.value) == sorted(Artefact, key=lambda a: a.value)
    assert len(kinds) == len(set(kinds)) == len(artefacts.BY_ARTEFACT)
    assert {k.artefact: k.label for k in artefacts.KINDS} == artefacts.LABELS and all(artefacts.LABELS.values())
    opens = {
        artefacts.OPEN_REPORT,
        artefacts.OPEN_TEXT,
        artefacts.SHOW_MODEL_STRUCTURE,
        artefacts.EDIT_DUMP_CONFIG,
        artefacts.OPEN_DUMP_DATA,
        artefacts.OPEN_CLUSTER,
        artefacts.OPEN_MIGRATION,
        artefacts.OPEN_MODEL_GRAPH,
    }
    for kind in artefacts.KINDS:
        assert kind.open in opens, kind
        assert all(a in artefacts.ACTION_LABELS for a in kind.actions), kind
        assert len(set(kind.actions)) == len(kind.actions), kind


def test_classify_agrees_with_the_old_rules_on_the_real_and_shipped_samples(samples, tmp_path):
    from workbench.core.artefacts import BY_ARTEFACT
    from workbench.core.demo import samples_dir

    checked = 0
    for root in (samples, samples_dir()):
        for path in [root, *sorted(root.rglob("*"))]:
            kind = classify(path)
            assert kind is _old_classify(path), path
            if kind is not None:
                assert BY_ARTEFACT[kind].identify(path), path
            checked += 1
    assert checked > 50
    names = [
        "resnet50.onnx",
        "frozen.pb",
        "deploy.prototxt",
        "deploy.caffemodel",
        "m.air",
        "resnet50.om",
        "x.npy",
        "r.wbreport",
        "acl.json",
        "ACL.JSON",
        "trace_view.json",
        "msprof_0_1_20240101120000.json",
        "op_summary_0_1_1.csv",
        "kernel_details.csv",
        "a.om.json",
        "model.json",
        "my_aipp.txt",
        "insert.cfg",
        "Conv2D.conv1.3.2.1700000000000000",
        ".om",
        ".onnx",
        "data.json",
        "notes.txt",
        "x.tar.npy",
    ]
    for name in names:
        (tmp_path / name).write_text("aipp_op {\n}\n" if name == "insert.cfg" else "")
        assert classify(tmp_path / name) is _old_classify(tmp_path / name), name
    for name in ("PROF_1_ascend_pt", "w_ascend_ms", "ASCEND_PROFILER_OUTPUT", "src"):
        (tmp_path / name).mkdir()
        assert classify(tmp_path / name) is _old_classify(tmp_path / name), name


def test_opening_decides_by_the_registry(samples, tmp_path):
    import shutil

    from workbench.core import artefacts as a
    from workbench.core.project import create_project

    renamed = tmp_path / "resnet50 run 3.json"
    shutil.copyfile(samples / "torch_npu-trace_view" / "trace_view.json", renamed)
    om_json = samples / "atc-om2json-310-cann5.1" / "model.json"
    other = samples / "torch_npu-910B-rank0-comm-mem" / "communication.json"
    assert classify(om_json) is None and classify(renamed) is None, "the explorer stays name-based for these"
    expected = {
        renamed: a.OPEN_REPORT,
        om_json: a.OPEN_MODEL_GRAPH,
        other: a.OPEN_TEXT,
        samples / "acl-json-dump-samples" / "acl.json": a.EDIT_DUMP_CONFIG,
        samples / "torch_npu-kernel_details-pipe" / "kernel_details.csv": a.OPEN_REPORT,
        samples / "atc-om2json-large" / "test.om.json": a.OPEN_MODEL_GRAPH,
        samples / "atc-aipp-config" / "aipp.config": a.OPEN_TEXT,
        samples / "npu-smi": None,  # a plain folder expands
    }
    for path, action in expected.items():
        assert a.open_action(path) == action, path
    assert a.context_actions(om_json) == (a.SHOW_MODEL_STRUCTURE, a.DUMP_CONFIGURATION)
    assert a.context_actions(other) == ()
    project = create_project(tmp_path / "proj")
    assert a.open_action(project.root) == a.OPEN_PROJECT
    assert a.open_action(project.root, as_report=True) == a.OPEN_PROJECT, "a project still opens as a project"
    assert a.open_action(other, as_report=True) == a.OPEN_REPORT, "Open Report…: whatever it is called"
