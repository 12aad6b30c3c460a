"""The command builder against command lines written by hand, the file lists, the job's text fields."""

from __future__ import annotations

import shlex

import pytest

from workbench.core.atc.aipp import read_aipp
from workbench.core.atc.flags import AtcCheck
from workbench.core.atc.job import (
    ConversionJob,
    InputSpec,
    apply_flag,
    command,
    command_line,
    files_produced,
    files_to_upload,
    parse_dims,
    parse_image_sizes,
)


def test_minimal_onnx_command():
    job = ConversionJob(
        model="/home/me/models/resnet18.onnx",
        soc_version="Ascend310",
        inputs=[InputSpec("input", [1, 3, 224, 224])],
        input_format="NCHW",
        log="debug",
    )
    assert command(job) == [
        "atc",
        "--model=resnet18.onnx",
        "--framework=5",
        "--output=resnet18",
        "--soc_version=Ascend310",
        "--input_format=NCHW",
        "--input_shape=input:1,3,224,224",
        "--log=debug",
    ]
    assert command_line(job) == (
        "atc --model=resnet18.onnx --framework=5 --output=resnet18 --soc_version=Ascend310 "
        "--input_format=NCHW --input_shape=input:1,3,224,224 --log=debug"
    )


def test_caffe_dynamic_batch_with_aipp_like_the_samples_readme():
    # Ascend/samples: atc --input_shape="data:-1,3,224,224" --weight=./googlenet.caffemodel --input_format=NCHW
    #   --output=./googlenet_dynamic_batch --soc_version=Ascend310 --insert_op_conf=./insert_op.cfg --framework=0
    #   --model=./googlenet.prototxt --dynamic_batch_size="1,2,4,8"
    job = ConversionJob(
        model="/data/googlenet.prototxt",
        weight="/data/googlenet.caffemodel",
        output_name="googlenet_dynamic_batch",
        soc_version="Ascend310",
        input_format="NCHW",
        inputs=[InputSpec("data", [-1, 3, 224, 224])],
        dynamic_batch_sizes=[1, 2, 4, 8],
        aipp=True,
        aipp_file="/data/insert_op.cfg",
    )
    expected = (
        "atc --model=googlenet.prototxt --weight=googlenet.caffemodel --framework=0 "
        "--output=googlenet_dynamic_batch --soc_version=Ascend310 --input_format=NCHW "
        "--input_shape=data:-1,3,224,224 --dynamic_batch_size=1,2,4,8 --insert_op_conf=insert_op.cfg"
    )
    assert command_line(job) == expected
    assert shlex.split(command_line(job)) == command(job)


def test_everything_else_in_order_and_quoted_for_the_shell():
    job = ConversionJob(
        model="/srv/m/det.onnx",
        model_on_host=True,
        output_name="det_fp16",
        soc_version="Ascend310P3",
        inputs=[InputSpec("img", [1, 3, -1, -1]), InputSpec("im_info", None)],
        dynamic_image_sizes=[(320, 320), (640, 640)],
        input_fp16_nodes=["img"],
        out_nodes=["Conv_99:0", "Sigmoid_100:0"],
        output_types={"Conv_99:0": "FP16", "Sigmoid_100:0": "FP32"},
        precision_mode="allow_mix_precision",
        op_select_implmode="high_precision",
        enable_small_channel=True,
        log="error",
        extra={"buffer_optimize": "off_optimize"},
    )
    assert command(job) == [
        "atc",
        "--model=/srv/m/det.onnx",
        "--framework=5",
        "--output=det_fp16",
        "--soc_version=Ascend310P3",
        "--input_shape=img:1,3,-1,-1",
        "--dynamic_image_size=320,320;640,640",
        "--input_fp16_nodes=img",
        "--out_nodes=Conv_99:0;Sigmoid_100:0",
        "--output_type=Conv_99:0:FP16;Sigmoid_100:0:FP32",
        "--precision_mode=allow_mix_precision",
        "--op_select_implmode=high_precision",
        "--enable_small_channel=1",
        "--log=error",
        "--buffer_optimize=off_optimize",
    ]
    line = command_line(job)
    assert '--dynamic_image_size="320,320;640,640"' in line and '--out_nodes="Conv_99:0;Sigmoid_100:0"' in line
    assert shlex.split(line) == command(job)


def test_values_that_need_single_quotes():
    job = ConversionJob(model="/x/a b.onnx", soc_version="Ascend310", extra={"debug_dir": "/tmp/$HOME dir"})
    assert shlex.split(command_line(job)) == command(job)
    line = command_line(job)
    assert '--model="a b.onnx"' in line and "'--debug_dir=/tmp/$HOME dir'" in line  # no $ expansion


def test_files_to_upload_and_produced(tmp_path, samples):
    job = ConversionJob(
        model=str(tmp_path / "net.prototxt"),
        weight=str(tmp_path / "net.caffemodel"),
        output_name="net_b1",
        out_dir=str(tmp_path / "om"),
        remote_dir="/work/conv",
        aipp=True,
        aipp_config=read_aipp(samples / "atc-aipp-config" / "aipp.config"),
    )
    ups = files_to_upload(job)
    assert [(u.kind, u.remote, u.local) for u in ups] == [
        ("model", "/work/conv/net.prototxt", str(tmp_path / "net.prototxt")),
        ("weight", "/work/conv/net.caffemodel", str(tmp_path / "net.caffemodel")),
        ("aipp", "/work/conv/net_b1_insert_op.cfg", None),
    ]
    assert ups[2].text.startswith("aipp_op {") and "input_format : RGB888_U8" in ups[2].text
    assert "--insert_op_conf=net_b1_insert_op.cfg" in command(job)
    [out] = files_produced(job)
    assert (out.remote, out.local) == ("/work/conv/net_b1.om", str(tmp_path / "om" / "net_b1.om"))
    on_host = ConversionJob(model="/srv/x.onnx", model_on_host=True)
    assert files_to_upload(on_host) == []


def test_apply_flag_routes_to_fields_and_extras():
    job = ConversionJob(model="m.onnx")
    for name, value in [
        ("input_shape", "a:1,3,8~16,8;b:-1"),
        ("dynamic_dims", "1,2;3,4"),
        ("log", "info"),
        ("output", "custom"),
        ("output_type", "FP16"),
        ("out_nodes", "n:0;m:1"),
        ("enable_small_channel", "1"),
        ("fusion_switch_file", "fusion.cfg"),
    ]:
        apply_flag(job, name, value)
    assert [(i.name, i.shape) for i in job.inputs] == [("a", [1, 3, "8~16", 8]), ("b", [-1])]
    assert job.dynamic_dims == [[1, 2], [3, 4]] and job.log == "info" and job.output_name == "custom"
    assert job.output_type == "FP16" and job.out_nodes == ["n:0", "m:1"] and job.enable_small_channel is True
    assert job.extra == {"fusion_switch_file": "fusion.cfg"}
    assert "--input_shape=a:1,3,8~16,8;b:-1" in command(job)
    with pytest.raises(AtcCheck) as err:
        apply_flag(job, "input_shape", "a:1,0,3")
    assert err.value.code == "E10011"
    with pytest.raises(AtcCheck):
        parse_image_sizes("224;448,448")
    with pytest.raises(AtcCheck):
        parse_dims("1,x")


def test_job_round_trips_through_a_dict(samples):
    job = ConversionJob(
        host="demo",
        model="/m/a.onnx",
        soc_version="Ascend910B2",
        inputs=[InputSpec("x", [1, 2])],
        dynamic_image_sizes=[(8, 8)],
        aipp=True,
        aipp_config=read_aipp(samples / "atc-aipp-config" / "aipp.config"),
        devices=[1],
    )
    again = ConversionJob.from_dict(job.to_dict())
    assert again == job and command(again) == command(job)
