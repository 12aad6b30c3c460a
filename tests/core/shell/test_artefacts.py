"""Artefact recognition for the project explorer, including on the real samples."""
from __future__ import annotations

from workbench.core.artefacts import Artefact, classify


def test_names(tmp_path):
    cases = {
        "resnet50.onnx": Artefact.ONNX_MODEL, "frozen.pb": Artefact.TF_MODEL, "deploy.prototxt": Artefact.CAFFE_MODEL,
        "deploy.caffemodel": Artefact.CAFFE_WEIGHTS, "m.air": Artefact.AIR_MODEL, "resnet50.om": Artefact.OM_MODEL,
        "acl.json": Artefact.ACL_JSON, "trace_view.json": Artefact.TRACE_VIEW,
        "msprof_20240101120000.json": Artefact.MSPROF_TIMELINE, "msprof_0_1_20240101120000.json": Artefact.MSPROF_TIMELINE,
        "op_summary_0_1_1.csv": Artefact.OP_SUMMARY, "op_summary_20240101120000.csv": Artefact.OP_SUMMARY,
        "kernel_details.csv": Artefact.OP_SUMMARY, "x.npy": Artefact.NPY, "r.wbreport": Artefact.SAVED_REPORT,
        "Conv2D.conv1.3.2.1700000000000000": Artefact.DUMP_FILE, "notes.txt": None, "data.json": None,
    }
    for name, expected in cases.items():
        f = tmp_path / name
        f.write_bytes(b"")
        assert classify(f) is expected, name


def test_folders(tmp_path):
    for name, expected in {"PROF_000001_20240101120000000_ABCDEF": Artefact.PROF_DIR,
                           "host_123_20240101_ascend_pt": Artefact.PROFILER_OUTPUT,
                           "ASCEND_PROFILER_OUTPUT": Artefact.PROFILER_OUTPUT, "src": None}.items():
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
    for name, text in (("numbers.json", "[1, 2, 3]"), ("config.json", '{"dump": {"dump_path": "x"}}'),
                       ("objs.json", '[{"name": "not a trace"}]'), ("empty.json", "")):
        (tmp_path / name).write_text(text)
        assert not looks_like_trace(tmp_path / name), name
    (tmp_path / "bin.json").write_bytes(b"\x00\x01\x02[")
    assert not looks_like_trace(tmp_path / "bin.json")
    assert not looks_like_trace(tmp_path / "missing.json")
