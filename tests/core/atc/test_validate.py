"""Validation before running: ATC's codes and texts, names against the model, dynamic axes, AIPP."""

from __future__ import annotations

import pytest

from workbench.core.atc.aipp import AippConfig, AippOp
from workbench.core.atc.flags import message_text
from workbench.core.atc.job import ConversionJob, InputSpec, command
from workbench.core.atc.modelinfo import ModelInputs, TensorInfo
from workbench.core.atc.validate import validate
from workbench.simtoolkit import atc as sim_atc


def codes(job, severity="error"):
    return [(i.code, i.field) for i in validate(job) if i.severity == severity]


def test_a_good_job_has_no_issues(cnn):
    job = ConversionJob(model=str(cnn), soc_version="Ascend310", inputs=[InputSpec("images", [1, 3, 32, 32])])
    assert validate(job) == []


def test_required_values(tmp_path):
    assert codes(ConversionJob()) == [("E10004", "model"), ("E10007", "framework"), ("E10004", "soc_version")]
    job = ConversionJob(model=str(tmp_path / "missing.onnx"), soc_version="Ascend310")
    [issue] = validate(job)
    assert (
        issue.message
        == "Value [%s] for parameter [--model] is invalid. Reason: The model file does not exist." % job.model
    )


def test_caffe_needs_weight(caffe):
    [issue] = validate(ConversionJob(model=str(caffe), soc_version="Ascend310"))
    assert (
        issue.code == "E10008"
        and issue.message == "[--weight] must not be empty when [--framework] is set to 0 (Caffe)."
    )
    assert "caffemodel" in issue.to_json()["fix"]


def test_wrong_input_out_node_and_fp16_names_are_e10016(cnn):
    job = ConversionJob(
        model=str(cnn),
        soc_version="Ascend310",
        inputs=[InputSpec("data", [1, 3, 32, 32])],
        out_nodes=["relu1:0", "nope:0", "relu2:1"],
        input_fp16_nodes=["images", "x"],
    )
    issues = validate(job)
    assert [(i.code, i.field) for i in issues] == [
        ("E10016", "input_shape"),
        ("E10016", "input_fp16_nodes"),
        ("E10016", "out_nodes"),
        ("E10016", "out_nodes"),
    ]
    assert issues[0].message == message_text("E10016", "data", "input_shape")
    assert issues[0].message.startswith("Opname [data] specified in [--input_shape] is not found in the model.")
    assert "input names" in issues[0].to_json()["explanation"]


def test_dynamic_options_exclusive_and_axes_agree(cnn):
    base = dict(model=str(cnn), soc_version="Ascend310")
    both = ConversionJob(
        **base, inputs=[InputSpec("images", [-1, 3, 32, 32])], dynamic_batch_sizes=[1, 2], dynamic_dims=[[1], [2]]
    )
    assert ("E10009", "dynamic_dims") in codes(both)
    no_minus = ConversionJob(**base, inputs=[InputSpec("images", [1, 3, 32, 32])], dynamic_batch_sizes=[1, 2])
    assert codes(no_minus) == [("E10001", "dynamic_batch_size")]
    wrong_axis = ConversionJob(**base, inputs=[InputSpec("images", [1, -1, 32, 32])], dynamic_batch_sizes=[1, 2])
    assert codes(wrong_axis) == [("E10001", "dynamic_batch_size")]
    image = ConversionJob(**base, inputs=[InputSpec("images", [1, 3, -1, -1])], dynamic_image_sizes=[(32, 32)])
    assert codes(image) == []
    image_bad = ConversionJob(**base, inputs=[InputSpec("images", [-1, 3, -1, 32])], dynamic_image_sizes=[(32, 32)])
    assert codes(image_bad) == [("E10001", "dynamic_image_size")]
    dims = ConversionJob(
        **base, inputs=[InputSpec("images", [-1, 3, -1, 32])], dynamic_dims=[[1, 32], [2]], input_format="ND"
    )
    assert codes(dims) == [("E10001", "dynamic_dims")]
    dims.dynamic_dims = [[1, 32], [2, 64]]
    assert codes(dims) == []
    dims.input_format = "NCHW"
    assert codes(dims) == [("E10001", "input_format")]


def test_flag_values_log_and_extras(cnn):
    job = ConversionJob(
        model=str(cnn),
        soc_version="Ascend310",
        log="loud",
        precision_mode="fast",
        extra={"bogus": "1", "disable_reuse_memory": "2", "output": "x", "fusion_switch_file": ""},
    )
    got = codes(job)
    assert (
        ("E10010", "log") in got and ("E10001", "precision_mode") in got and ("E10006", "disable_reuse_memory") in got
    )
    assert ("WB-UNKNOWN-FLAG", "bogus") in got and ("WB-DUPLICATE-FLAG", "output") in got
    assert ("E10004", "fusion_switch_file") in got
    assert [i.message for i in validate(job) if i.code == "WB-UNKNOWN-FLAG"] == [
        "ERROR: unknown command line flag 'bogus'"
    ]
    caffe_nhwc = ConversionJob(
        model="x.prototxt", weight="x.caffemodel", model_on_host=True, soc_version="Ascend310", input_format="NHWC"
    )
    assert codes(caffe_nhwc) == [("E10001", "input_format")]


def test_aipp_checks(cnn, tmp_path, samples):
    base = dict(model=str(cnn), soc_version="Ascend310", aipp=True)
    assert codes(ConversionJob(**base)) == [("E10004", "insert_op_conf")]
    assert codes(ConversionJob(**base, aipp_file=str(samples / "atc-aipp-config" / "aipp.config"))) == []
    bad = tmp_path / "bad.cfg"
    bad.write_text("aipp_op { aipp_mode: static crop: maybe }")
    [issue] = validate(ConversionJob(**base, aipp_file=str(bad)))
    assert issue.code == "E10052" and "bad.cfg (line 1)" in issue.message
    with_dims = ConversionJob(
        **base,
        aipp_config=AippConfig([AippOp(input_format="RGB888_U8", related_input_rank=1)]),
        inputs=[InputSpec("images", [-1, 3, 32, 32])],
        dynamic_dims=[[1], [2]],
        input_format="ND",
    )
    got = codes(with_dims)
    assert ("E10047", "insert_op_conf") in got and ("E10052", "aipp_op.related_input_rank") in got


def test_warnings_do_not_block(cnn):
    job = ConversionJob(model=str(cnn), soc_version="Ascend999", framework=5)
    assert codes(job) == [] and codes(job, "warning") == [("WB-UNKNOWN-SOC", "soc_version")]
    assert codes(ConversionJob(model=str(cnn), soc_version="Ascend310", input_format="NHWC")) == [
        ("E10001", "input_format")
    ]  # ONNX takes NCHW, ND or NCDHW only
    tf = ConversionJob(model="/srv/frozen.pb", model_on_host=True, soc_version="Ascend310", input_format="NHWC")
    model = ModelInputs(
        "/srv/frozen.pb",
        3,
        [TensorInfo("x", "float32", [1, 8, 8, 3])],
        [],
        2,
        {"MaxPool": 1, "Conv2D": 1},
        {"pool": 1, "conv": 1},
    )
    issues = validate(tf, model)
    assert [(i.code, i.severity) for i in issues] == [("WB-MAXPOOL-AICPU", "warning")]
    assert "NCHW" in issues[0].to_json()["fix"]


@pytest.mark.parametrize(
    "job_kw",
    [
        dict(log="loud"),
        dict(input_format="NWHC"),
        dict(extra={"disable_reuse_memory": "2"}),
        dict(inputs=[InputSpec("images", [-1, 3, 32, 32])], dynamic_batch_sizes=[1, 2], dynamic_dims=[[1], [2]]),
        dict(inputs=[InputSpec("data", [1, 3, 32, 32])]),
        dict(out_nodes=["Nope:0"]),
        dict(framework=4),
    ],
)
def test_first_error_matches_the_simulated_atc(cnn, tmp_path, capsys, job_kw, monkeypatch):
    """The simulator applies ATC's checks; validation must report the same first code with the same text."""
    monkeypatch.delenv("ASCEND_SIM_CONFIG", raising=False)
    job = ConversionJob(model=str(cnn), soc_version="Ascend310", output_name=str(tmp_path / "o"), **job_kw)
    first = validate(job)[0]
    if first.field == "output":  # the absolute output path is only for this test
        first = validate(job)[1]
    argv = command(job)[1:]
    argv[0] = f"--model={cnn}"
    assert sim_atc.main(argv) == sim_atc.EXIT_FAILED
    line = capsys.readouterr().out.splitlines()[2]
    code, _, rest = line.partition(": ")
    assert code == first.code
    assert rest.split("] ", 1)[-1] in first.message or rest.endswith(first.message)
