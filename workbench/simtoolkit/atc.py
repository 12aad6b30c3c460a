"""Simulated ATC (``bin/atc``): the real flags, console lines, error codes and exit status.

Supported: ``--mode=0`` (model -> ``<output>.om``; ONNX and Caffe prototxt are read to know the
real inputs and ops; ``--dynamic_batch_size`` / ``--dynamic_image_size`` / ``--dynamic_dims``
build every gear, see :func:`dynamic_gears`) and ``--mode=1`` (``--om=x.om --json=x.json`` or an
original model -> JSON in the real om→json structure). Other modes are refused with E10001 naming
the simulator.

Console (docs/cann-formats.md §6.2): ``ATC start working now, please wait for a moment.`` then either
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

from workbench.core.atc.flags import (
    FAILED,
    FLAGS,
    FRAMEWORK_CHOICES,
    FRAMEWORKS,
    LOG_LEVELS,
    MESSAGES,
    SOC_VERSIONS,
    START,
    SUCCESS,
    AtcCheck,
    parse_input_shape,
    value_problems,
)
from workbench.simtoolkit import config as simconfig
from workbench.simtoolkit import platform
from workbench.simtoolkit.atc_model import ModelError, load_caffe, load_onnx
from workbench.simtoolkit.omfile import OmError, build_om_json, read_om, write_om

EXIT_FAILED = 255
# ATC writes one W11001 line per op that misses the high-priority op library (docs/cann-formats.md §6.2);
# the simulator says it of the ops it places on AI CPU.
W11001 = (
    "W11001: Op [{0}] does not hit the high-priority operator information library, which might result in "
    "compromised performance."
)
ENV_DELAY = "ASCEND_SIM_ATC_SECONDS"  # simulator only: seconds a conversion takes (tests of Cancel)
EXTRA_SOCS = tuple(s for s in SOC_VERSIONS if platform.find_soc(s) is None)
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


AtcError = AtcCheck


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
        if not eq and name not in ("help", "h") and i + 1 < len(argv):
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


def _check_values(flags: dict[str, str]) -> None:
    for problem in value_problems(flags):
        raise problem


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
    return platform.find_soc(soc) is not None or soc in EXTRA_SOCS


def _required(flags: dict[str, str], name: str) -> str:
    value = flags.get(name, "")
    if not value:
        raise AtcError("E10054", name)
    return value


def _load(flags: dict[str, str], framework: int, shapes: dict[str, list[int]] | None = None):
    """The model read with ``shapes`` (default: ``--input_shape``, ``-1`` = unknown) for its inputs."""
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
        raise AtcError(
            "E10001",
            str(framework),
            "framework",
            f"{FRAMEWORKS[framework]} models are not supported by the simulated CANN toolkit.",
        )
    if shapes is None:
        shapes = parse_input_shape(flags.get("input_shape", ""))
    try:
        graph = (load_caffe if framework == 0 else load_onnx)(model, shapes)
    except ModelError as exc:
        raise AtcError(exc.code, *exc.args_) from None
    for name in shapes:
        if name not in graph.inputs:
            raise AtcError("E10016", name, "input_shape")
    return graph


def dynamic_gears(flags: dict[str, str]) -> dict | None:
    """The gears of ``--dynamic_batch_size`` / ``--dynamic_image_size`` / ``--dynamic_dims`` (None
    without one): ``{"origin": {input: dims with -1}, "gears": [{input: dims}, …], "values": n}``.
    Each gear is the ``--input_shape`` with its ``-1`` dims filled in: the batch size for every
    ``-1``; ``h,w`` for the two ``-1`` of each image input; the gear's values for the ``-1`` of all
    inputs in ``--input_shape`` order (dims). ``values`` is the count of numbers per gear (the
    ``ascend_mbatch_shape_data`` input's length). Raises E10001 when a gear does not fit."""
    flag = next((f for f in ("dynamic_batch_size", "dynamic_image_size", "dynamic_dims") if flags.get(f)), None)
    if flag is None:
        return None
    value = flags[flag]
    shapes = parse_input_shape(flags.get("input_shape", ""))
    items = value.strip(",").split(",") if flag == "dynamic_batch_size" else value.strip(";").split(";")
    try:
        profiles = [[int(v) for v in item.split(",")] for item in items]
    except ValueError:
        raise AtcError("E10001", value, flag, "The gear values must be positive integers.") from None
    if any(v <= 0 for p in profiles for v in p):
        raise AtcError("E10001", value, flag, "The gear values must be positive integers.")
    unknown = sum(dims.count(-1) for dims in shapes.values())
    if flag == "dynamic_image_size" and (
        any(len(p) != 2 for p in profiles) or any(d.count(-1) not in (0, 2) for d in shapes.values())
    ):
        raise AtcError(
            "E10001",
            value,
            flag,
            'Each gear must be "height,width" and --input_shape must contain -1 '
            "at the H and W dims of the dynamic inputs.",
        )
    if flag == "dynamic_dims" and any(len(p) != unknown for p in profiles):
        raise AtcError(
            "E10001", value, flag, f"Each gear must give {unknown} values, one for each -1 in --input_shape."
        )
    gears = []
    for profile in profiles:
        values = iter(profile)
        gear = {}
        for name, dims in shapes.items():
            if flag == "dynamic_image_size":
                values = iter(profile)
            gear[name] = [
                (profile[0] if flag == "dynamic_batch_size" else next(values)) if d == -1 else d for d in dims
            ]
        gears.append(gear)
    return {"origin": {k: v for k, v in shapes.items() if -1 in v}, "gears": gears, "values": len(profiles[0])}


def _elements(gear: dict[str, list[int]]) -> int:
    total = 0
    for dims in gear.values():
        n = 1
        for d in dims:
            n *= d
        total += n
    return total


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


def _convert(flags: dict[str, str], argv: Sequence[str], cfg: simconfig.SimConfig) -> list[str]:
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
    # Like ATC's multi-batch build: the graph is compiled for every gear; the model's tensors get the
    # biggest gear's shapes (the runtime runs the gear the application sets); the Data ops keep their
    # -1 dims and the gears as attributes, and the ascend_mbatch_shape_data input selects the gear.
    dynamic = dynamic_gears(flags)
    graph = _load(flags, framework, max(dynamic["gears"], key=_elements) if dynamic else None)
    out_nodes = _out_nodes(flags, graph)
    name = Path(output).name
    chip = platform.find_soc(soc)
    cmdline = f"{Path(cfg.toolkit_root or '.').resolve()}/{cfg.arch}-linux/bin/atc.bin " + " ".join(argv)
    doc, workload = build_om_json(
        graph,
        name=name,
        soc_version=soc,
        target_type=chip.target_type if chip else "MINI",
        atc_cmdline=cmdline,
        component=cfg.release.component,
        precision_mode=flags.get("precision_mode", "force_fp16"),
        out_nodes=out_nodes,
        dynamic=dynamic,
    )
    target = Path(output + ".om")
    if not target.parent.is_dir():
        raise AtcError("E10001", output, "output", "The directory of the output file does not exist.")
    _simulated_compile_time()
    write_om(target, doc, workload)
    return [w["name"] for w in workload if w["core"] == "AI_CPU"]


def _simulated_compile_time() -> None:
    """Sleep ``$ASCEND_SIM_ATC_SECONDS`` (default 0) as if compiling: lets tests cancel a running atc."""
    try:
        seconds = float(os.environ.get(ENV_DELAY, "0") or 0)
    except ValueError:
        seconds = 0.0
    if seconds > 0:
        import time

        time.sleep(seconds)


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
        doc, _ = build_om_json(
            graph,
            name=graph.name,
            soc_version=flags.get("soc_version", cfg.soc_version),
            target_type=cfg.soc.target_type,
            atc_cmdline=cmdline,
            component=cfg.release.component,
            precision_mode="must_keep_origin_dtype",
            fuse=False,  # a framework model's JSON shows its ops as they are; fusion happens in the om build
        )
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
        warnings: list[str] = []
        if mode == "0":
            warnings = _convert(flags, argv, cfg)
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
    for op_name in warnings:
        print(W11001.format(op_name), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
