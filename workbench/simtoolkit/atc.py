"""Simulated ATC (``bin/atc``): the real flags, console lines, error codes and exit status.

Supported: ``--mode=0`` (model -> ``<output>.om``; ONNX and Caffe prototxt are read to know the
real inputs and ops) and ``--mode=1`` (``--om=x.om --json=x.json`` or an original model -> JSON in
the real om→json structure). Other modes are refused with E10001 naming the simulator.

Console (cann-formats.md §6.2): ``ATC start working now, please wait for a moment.`` then either
``ATC run success, welcome to the next use.`` (exit 0) or ``ATC run failed, Please check the detail
log, Try 'atc --help' for more information`` and ``Exxxxx: message`` lines (exit 255: ATC's main
returns -1; UNVERIFIED, callers should test ``!= 0``). 8.x prefixes messages with
``[PID: n] YYYY-MM-DD-hh:mm:ss.mmm.uuu``; values are wrapped in ``[ ]``. Unknown flags are refused
by gflags before anything else: ``ERROR: unknown command line flag 'x'`` and exit 1.
"""
from __future__ import annotations

import datetime as _dt
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from workbench.simtoolkit import config as simconfig
from workbench.simtoolkit import platform
from workbench.simtoolkit.atc_model import ModelError, load_caffe, load_onnx
from workbench.simtoolkit.omfile import OmError, build_om_json, read_om, write_om

START = "ATC start working now, please wait for a moment."
SUCCESS = "ATC run success, welcome to the next use."
FAILED = "ATC run failed, Please check the detail log, Try 'atc --help' for more information"
EXIT_FAILED = 255

FLAGS = """model weight output framework mode om json soc_version input_shape input_shape_range input_hint_shape
input_format dynamic_batch_size dynamic_image_size dynamic_dims out_nodes insert_op_conf op_name_map input_fp16_nodes
is_input_adjust_hw_layout is_output_adjust_hw_layout output_type precision_mode precision_mode_v2 allow_hf32
modify_mixlist keep_dtype op_precision_mode customize_dtypes op_select_implmode optypelist_for_implmode log dump_mode
check_report singleop disable_reuse_memory core_type aicore_num virtual_type buffer_optimize fusion_switch_file
compression_optimize_conf enable_compress_weight compress_weight_conf enable_small_channel sparsity
enable_single_stream ac_parallel_enable tiling_schedule_optimize enable_attr_compression op_debug_level
op_debug_config debug_dir op_compiler_cache_dir op_compiler_cache_mode mdl_bank_path op_bank_path
save_original_model external_weight deterministic oo_level host_env_os host_env_cpu status_check
shape_generalized_build_mode quant_dumpable cal_conf enable_scope_fusion_passes target auto_tune_mode help h""".split()
ENUMS = {
    "input_format": ("NCHW", "NHWC", "ND", "NCDHW", "NDHWC"),
    "precision_mode": ("force_fp16", "force_fp32", "cube_fp16in_fp32out", "allow_mix_precision", "allow_fp32_to_fp16",
                       "must_keep_origin_dtype", "allow_mix_precision_fp16", "allow_mix_precision_bf16",
                       "allow_fp32_to_bf16"),
    "precision_mode_v2": ("fp16", "origin", "cube_fp16in_fp32out", "mixed_float16", "mixed_bfloat16", "cube_hif8",
                          "mixed_hif8"),
    "op_select_implmode": ("high_precision", "high_performance", "high_precision_for_all", "high_performance_for_all"),
    "buffer_optimize": ("l2_optimize", "off_optimize"),
    "core_type": ("AiCore", "VectorCore"),
    "op_debug_level": ("0", "1", "2", "3", "4"),
}
ZERO_ONE = ("disable_reuse_memory", "enable_small_channel", "sparsity", "ac_parallel_enable",
            "tiling_schedule_optimize", "virtual_type", "dump_mode", "deterministic")
TRUE_FALSE = ("allow_hf32", "enable_single_stream", "enable_compress_weight", "enable_attr_compression",
              "is_input_adjust_hw_layout", "is_output_adjust_hw_layout")
LOG_LEVELS = ("debug", "info", "warning", "error", "null")
FRAMEWORKS = {0: "Caffe", 1: "MindSpore", 3: "TensorFlow", 5: "Onnx"}
OUTPUT_TYPES = ("FP32", "FP16", "INT8", "INT16", "UINT16", "UINT8", "INT32", "INT64", "UINT32", "UINT64", "DOUBLE")
EXTRA_SOCS = ("Ascend310P1", "Ascend310P5", "Ascend310P7", "Ascend310B1", "Ascend910ProA", "Ascend910ProB",
              "Ascend910PremiumA")
MESSAGES = {
    "E10001": "Value [{0}] for parameter [--{1}] is invalid. Reason: {2}",
    "E10002": "Value [{0}] for parameter [--input_shape] is invalid. Reason: {1}. The value must be formatted as [{2}].",
    "E10004": "Value for [--{0}] is empty.",
    "E10005": "Value [{0}] for parameter [--{1}] is invalid. The value must be either true or false.",
    "E10006": "Value [{0}] for parameter [--{1}] is invalid. The value must be either 1 or 0.",
    "E10007": "[--{0}] is required. The value must be [{1}].",
    "E10008": "[--weight] must not be empty when [--framework] is set to 0 (Caffe).",
    "E10009": "[--dynamic_batch_size], [--dynamic_image_size], [--input_shape_range], and [--dynamic_dims] are "
              "mutually exclusive.",
    "E10010": "Value [{0}] for parameter [--log] is invalid.",
    "E10011": "Value [{0}] for parameter [--input_shape] is invalid. Shape values must be positive integers. "
              "The error value in the shape is [{1}].",
    "E10016": "Opname [{0}] specified in [--{1}] is not found in the model. Confirm whether this node name exists, "
              "or the node is not split with the specified delimiter ';'.",
    "E10022": "Path [{0}] for parameter [--{1}] does not include the file name.",
    "E10052": "AIPP configuration is invalid. Reason: {0}.",
    "E10054": "The {req} parameter [--{0}] for ATC is empty. Another possible reason is that the values of some "
              "parameters are not enclosed by quotation marks (\"\").",
    "E19005": "Failed to parse the protobuf file [{0}].",
    "E19010": "No parser is registered for Op [{0}, optype [{1}]].",
}
FRAMEWORK_CHOICES = "0(Caffe) or 1(MindSpore) or 3(TensorFlow) or 5(Onnx)"
HELP = """usage: ./atc <args>
generate offline model example:
./atc --model=./alexnet.prototxt --weight=./alexnet.caffemodel --framework=0 --output=./domi --soc_version=<soc_version>
convert model to json example:
./atc --mode=1 --om=./model.om --json=./model.json
===== Basic Functionality =====
[General]
  --h/help            Show this help message
  --mode              Run mode. 0(default): generate offline model; 1: convert model to JSON format
[Input]
  --model             Model file
  --weight            Weight file. Required when framework is Caffe
  --om                The model file to be converted to json
  --framework         Framework type. 0:Caffe; 1:MindSpore; 3:Tensorflow; 5:Onnx
  --input_format      Format of input data. E.g.: "NCHW"
  --input_shape       Shape of input data. Separate multiple nodes with semicolons (;). E.g.: "input_name1:n1,c1,h1,w1;input_name2:n2,c2,h2,w2"
  --dynamic_batch_size Set dynamic batch size. E.g.: "batchsize1,batchsize2,batchsize3"
  --dynamic_image_size Set dynamic image size. E.g.: "imagesize1_height,imagesize1_width;imagesize2_height,imagesize2_width"
  --dynamic_dims      Set dynamic dims. E.g.: "dims1_n1,dims1_n2;dims2_n1,dims2_n2"
[Output]
  --output            Output file path&name(needn't suffix, will add .om/.json automatically)
  --out_nodes         Output nodes designated by users. E.g.: "node_name1:0;node_name1:1;node_name2:0"
  --json              The output json file path&name which is converted from a model
[Target]
  --soc_version       The soc version.
===== Advanced Functionality =====
  --precision_mode    precision mode: force_fp16(default), force_fp32, allow_mix_precision, must_keep_origin_dtype ...
  --insert_op_conf    Config file to insert new op (AIPP)
  --log               Generate log with level. Support debug, info, warning, error, null(default)
(simulated CANN toolkit: every documented flag is accepted and validated)
"""


class AtcError(Exception):
    def __init__(self, code: str, *args: str) -> None:
        super().__init__(code, *args)
        self.code = code
        self.args_ = args


def parse_flags(argv: Sequence[str]) -> tuple[dict[str, str], str | None]:
    """gflags-style ``--name=value`` / ``--name value`` / ``-name=value``; (flags, unknown flag)."""
    flags: dict[str, str] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if not arg.startswith("-") or arg in ("-", "--"):
            i += 1  # gflags leaves positional arguments alone; ATC ignores them
            continue
        name, eq, value = arg.lstrip("-").partition("=")
        if name not in FLAGS:
            return flags, name
        if not eq and name not in ("help", "h"):
            if i + 1 < len(argv):
                value = argv[i + 1]
                i += 1
        flags[name] = value
        i += 1
    return flags, None


def message(code: str, args: Sequence[str], cann: platform.CannRelease) -> str:
    req = "required" if cann.pid_prefix else "requied"
    text = MESSAGES[code].format(*args, req=req)
    if cann.pid_prefix:
        now = _dt.datetime.now()
        stamp = now.strftime("%Y-%m-%d-%H:%M:%S") + f".{now.microsecond // 1000:03d}.{now.microsecond % 1000:03d}"
        return f"{code}: [PID: {os.getpid()}] {stamp} {text}"
    return f"{code}: {text}"


def parse_input_shape(value: str, names: set[str] | None = None) -> dict[str, list[int]]:
    """``"name1:n,c,h,w;name2:…"`` (dims may be -1 or ranges ``1~8``, taken as -1)."""
    out: dict[str, list[int]] = {}
    fmt = '"input_name1:n1,c1,h1,w1;input_name2:n2,c2,h2,w2"'
    for part in filter(None, value.split(";")):
        name, sep, dims_text = part.rpartition(":")
        if not sep or not name:
            raise AtcError("E10002", value, f"The shape of input [{part}] has no name", fmt)
        dims = []
        for d in dims_text.split(","):
            d = d.strip()
            if re.fullmatch(r"-?\d+", d):
                n = int(d)
                if n == 0 or n < -1:
                    raise AtcError("E10011", value, d)
                dims.append(n)
            elif re.fullmatch(r"\d+~\d+", d):
                dims.append(-1)
            else:
                raise AtcError("E10002", value, f"[{d}] is not a number", fmt)
        out[name] = dims
    if names is not None:
        for name in out:
            if name not in names:
                raise AtcError("E10016", name, "input_shape")
    return out


def _check_values(flags: dict[str, str]) -> None:
    for name, allowed in ENUMS.items():
        if name in flags and flags[name] not in allowed:
            raise AtcError("E10001", flags[name], name, f"The value must be one of [{', '.join(allowed)}].")
    for name in ZERO_ONE:
        if name in flags and flags[name] not in ("0", "1"):
            raise AtcError("E10006", flags[name], name)
    for name in TRUE_FALSE:
        if name in flags and any(v not in ("true", "false") for v in flags[name].split(",")):
            raise AtcError("E10005", flags[name], name)
    if "output_type" in flags:
        for item in flags["output_type"].split(";"):
            if item.rpartition(":")[2] not in OUTPUT_TYPES:
                raise AtcError("E10001", flags["output_type"], "output_type",
                               f"The value must be one of [{', '.join(OUTPUT_TYPES)}] or node:index:type.")
    dynamic = [f for f in ("dynamic_batch_size", "dynamic_image_size", "input_shape_range", "dynamic_dims") if flags.get(f)]
    if len(dynamic) > 1:
        raise AtcError("E10009")
    if dynamic and dynamic[0] != "input_shape_range":
        shapes = parse_input_shape(flags.get("input_shape", ""))
        if not any(-1 in dims for dims in shapes.values()):
            raise AtcError("E10001", flags[dynamic[0]], dynamic[0],
                           "--input_shape must contain -1 in the dimensions to be made dynamic.")
    if flags.get("dynamic_batch_size") and not re.fullmatch(r"\d+(,\d+)*", flags["dynamic_batch_size"]):
        raise AtcError("E10001", flags["dynamic_batch_size"], "dynamic_batch_size",
                       'The value must be formatted as "batchsize1,batchsize2,..." with positive integers.')


def _check_aipp(path: str) -> None:
    p = Path(path)
    if not p.is_file():
        raise AtcError("E10001", path, "insert_op_conf", "The file does not exist.")
    text = p.read_text(encoding="utf-8", errors="replace")
    if not re.search(r"\baipp_op\s*\{", text):
        raise AtcError("E10052", "the file has no aipp_op { } block")
    m = re.search(r"aipp_mode\s*:\s*(\w+)", text)
    if not m or m.group(1) not in ("static", "dynamic"):
        raise AtcError("E10052", "aipp_mode must be static or dynamic")


def _soc_ok(soc: str) -> bool:
    return soc in platform.SOCS or soc in platform.SOC_ALIASES or soc in EXTRA_SOCS


def _required(flags: dict[str, str], name: str) -> str:
    value = flags.get(name, "")
    if not value:
        raise AtcError("E10054", name)
    return value


def _load(flags: dict[str, str], framework: int):
    model = Path(flags["model"])
    if not model.is_file():
        raise AtcError("E10001", flags["model"], "model", "The model file does not exist.")
    if framework == 0:
        weight = flags.get("weight", "")
        if not weight:
            raise AtcError("E10008")
        if not Path(weight).is_file():
            raise AtcError("E10001", weight, "weight", "The weight file does not exist.")
    if framework in (1, 3):
        raise AtcError("E10001", str(framework), "framework",
                       f"{FRAMEWORKS[framework]} models are not supported by the simulated CANN toolkit.")
    shapes = parse_input_shape(flags.get("input_shape", ""))
    try:
        graph = (load_caffe if framework == 0 else load_onnx)(model, shapes)
    except ModelError as exc:
        raise AtcError(exc.code, *exc.args_) from None
    for name in shapes:
        if name not in graph.inputs:
            raise AtcError("E10016", name, "input_shape")
    return graph


def _out_nodes(flags: dict[str, str], graph) -> list[str] | None:
    value = flags.get("out_nodes")
    if not value:
        return None
    by_name = {n.name: n for n in graph.nodes}
    tensors = []
    for item in filter(None, value.split(";")):
        name, _, idx = item.rpartition(":")
        name = name or item
        node = by_name.get(name)
        index = int(idx) if idx.isdigit() else 0
        if node is None or index >= len(node.outputs):
            raise AtcError("E10016", item, "out_nodes")
        tensors.append(node.outputs[index])
    return tensors


def _convert(flags: dict[str, str], argv: Sequence[str], cfg: simconfig.SimConfig) -> None:
    _required(flags, "model")
    output = _required(flags, "output")
    soc = _required(flags, "soc_version")
    fw_text = flags.get("framework", "")
    if not fw_text.lstrip("-").isdigit() or int(fw_text) not in FRAMEWORKS:
        raise AtcError("E10007", "framework", FRAMEWORK_CHOICES)
    framework = int(fw_text)
    if not _soc_ok(soc):
        raise AtcError("E10001", soc, "soc_version", "The soc_version is not supported.")
    if output.endswith("/") or Path(output).is_dir():
        raise AtcError("E10022", output, "output")
    _check_values(flags)
    if flags.get("insert_op_conf"):
        _check_aipp(flags["insert_op_conf"])
    graph = _load(flags, framework)
    out_nodes = _out_nodes(flags, graph)
    name = Path(output).name
    chip = platform.SOCS.get(platform.SOC_ALIASES.get(soc, soc))
    cmdline = f"{Path(cfg.toolkit_root or '.').resolve()}/{cfg.arch}-linux/bin/atc.bin " + " ".join(argv)
    doc, workload = build_om_json(graph, name=name, soc_version=soc, target_type=chip.target_type if chip else "MINI",
                                  atc_cmdline=cmdline, component=cfg.release.component,
                                  precision_mode=flags.get("precision_mode", "force_fp16"), out_nodes=out_nodes)
    target = Path(output + ".om")
    if not target.parent.is_dir():
        raise AtcError("E10001", output, "output", "The directory of the output file does not exist.")
    write_om(target, doc, workload)


def _to_json(flags: dict[str, str], argv: Sequence[str], cfg: simconfig.SimConfig) -> None:
    import json

    from workbench.core.fsutil import atomic_write_text

    json_path = _required(flags, "json")
    if flags.get("om"):
        try:
            doc = read_om(Path(flags["om"]))["om_json"]
        except OmError as exc:
            raise AtcError("E10001", flags["om"], "om", str(exc)) from None
    else:
        _required(flags, "model")
        fw_text = flags.get("framework", "")
        if fw_text not in ("0", "3", "5"):
            raise AtcError("E10007", "framework", "0(Caffe) or 3(TensorFlow) or 5(Onnx)")
        graph = _load(flags, int(fw_text))
        cmdline = f"{cfg.toolkit_root}/{cfg.arch}-linux/bin/atc.bin " + " ".join(argv)
        doc, _ = build_om_json(graph, name=graph.name, soc_version=flags.get("soc_version", cfg.soc_version),
                               target_type=cfg.soc.target_type, atc_cmdline=cmdline, component=cfg.release.component,
                               precision_mode="must_keep_origin_dtype")
    atomic_write_text(json_path, json.dumps(doc, indent=2) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    simconfig.banner()
    cfg = simconfig.load()
    flags, unknown = parse_flags(argv)
    if unknown is not None:
        print(f"ERROR: unknown command line flag '{unknown}'", file=sys.stderr)
        return 1
    if "help" in flags or "h" in flags:
        sys.stdout.write(HELP)
        return 0
    print(START, flush=True)
    try:
        if flags.get("log", "null") not in LOG_LEVELS:
            raise AtcError("E10010", flags["log"])
        mode = flags.get("mode", "0")
        if mode == "0":
            _convert(flags, argv, cfg)
        elif mode == "1":
            _to_json(flags, argv, cfg)
        elif mode in ("3", "5", "6", "7", "30"):
            raise AtcError("E10001", mode, "mode", "This mode is not supported by the simulated CANN toolkit.")
        else:
            raise AtcError("E10001", mode, "mode", "The value must be one of [0, 1, 3, 5, 6, 7, 30].")
    except AtcError as exc:
        print(FAILED)
        print(message(exc.code, exc.args_, cfg.release), flush=True)
        return EXIT_FAILED
    print(SUCCESS, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
