"""ATC's flag catalog, console lines and error-message templates: pure data shared by the
converter (``workbench.core.atc``) and the simulated ``atc`` (``workbench.simtoolkit.atc``).

Everything here comes from docs/cann-formats.md §6.1–6.3 (the ``DEFINE_*`` flag definitions, the real
console lines and the GE error catalog). Messages use the bracketed form (``Value [x] for
parameter [--log]``) that older releases print and the simulator prints for every release.

:func:`value_problems` yields ATC's value checks in the order the simulator applies them, so the
simulator raises the first one and the converter's validation lists them all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from workbench.core.services.npusmi import A3_SOC_VERSIONS

START = "ATC start working now, please wait for a moment."
SUCCESS = "ATC run success, welcome to the next use."
FAILED = "ATC run failed, Please check the detail log, Try 'atc --help' for more information"

FLAGS = [
    "model",
    "weight",
    "output",
    "framework",
    "mode",
    "om",
    "json",
    "soc_version",
    "input_shape",
    "input_shape_range",
    "input_hint_shape",
    "input_format",
    "dynamic_batch_size",
    "dynamic_image_size",
    "dynamic_dims",
    "out_nodes",
    "insert_op_conf",
    "op_name_map",
    "input_fp16_nodes",
    "is_input_adjust_hw_layout",
    "is_output_adjust_hw_layout",
    "output_type",
    "precision_mode",
    "precision_mode_v2",
    "allow_hf32",
    "modify_mixlist",
    "keep_dtype",
    "op_precision_mode",
    "customize_dtypes",
    "op_select_implmode",
    "optypelist_for_implmode",
    "log",
    "dump_mode",
    "check_report",
    "singleop",
    "disable_reuse_memory",
    "core_type",
    "aicore_num",
    "virtual_type",
    "buffer_optimize",
    "fusion_switch_file",
    "compression_optimize_conf",
    "enable_compress_weight",
    "compress_weight_conf",
    "enable_small_channel",
    "sparsity",
    "enable_single_stream",
    "ac_parallel_enable",
    "tiling_schedule_optimize",
    "enable_attr_compression",
    "op_debug_level",
    "op_debug_config",
    "debug_dir",
    "op_compiler_cache_dir",
    "op_compiler_cache_mode",
    "mdl_bank_path",
    "op_bank_path",
    "save_original_model",
    "external_weight",
    "deterministic",
    "oo_level",
    "host_env_os",
    "host_env_cpu",
    "status_check",
    "shape_generalized_build_mode",
    "quant_dumpable",
    "cal_conf",
    "enable_scope_fusion_passes",
    "target",
    "auto_tune_mode",
    "help",
    "h",
]
ENUMS: dict[str, tuple[str, ...]] = {
    "input_format": ("NCHW", "NHWC", "ND", "NCDHW", "NDHWC"),
    "precision_mode": (
        "force_fp16",
        "force_fp32",
        "cube_fp16in_fp32out",
        "allow_mix_precision",
        "allow_fp32_to_fp16",
        "must_keep_origin_dtype",
        "allow_mix_precision_fp16",
        "allow_mix_precision_bf16",
        "allow_fp32_to_bf16",
    ),
    "precision_mode_v2": (
        "fp16",
        "origin",
        "cube_fp16in_fp32out",
        "mixed_float16",
        "mixed_bfloat16",
        "cube_hif8",
        "mixed_hif8",
    ),
    "op_select_implmode": ("high_precision", "high_performance", "high_precision_for_all", "high_performance_for_all"),
    "buffer_optimize": ("l2_optimize", "off_optimize"),
    "core_type": ("AiCore", "VectorCore"),
    "op_debug_level": ("0", "1", "2", "3", "4"),
}
ZERO_ONE = (
    "disable_reuse_memory",
    "enable_small_channel",
    "sparsity",
    "ac_parallel_enable",
    "tiling_schedule_optimize",
    "virtual_type",
    "dump_mode",
    "deterministic",
)
TRUE_FALSE = (
    "allow_hf32",
    "enable_single_stream",
    "enable_compress_weight",
    "enable_attr_compression",
    "is_input_adjust_hw_layout",
    "is_output_adjust_hw_layout",
)
LOG_LEVELS = ("debug", "info", "warning", "error", "null")
FRAMEWORKS = {0: "Caffe", 1: "MindSpore", 3: "TensorFlow", 5: "Onnx"}
FRAMEWORK_CHOICES = "0(Caffe) or 1(MindSpore) or 3(TensorFlow) or 5(Onnx)"
# --input_format values each framework accepts (§6.1).
INPUT_FORMATS = {0: ("NCHW", "ND"), 1: ENUMS["input_format"], 3: ENUMS["input_format"], 5: ("NCHW", "ND", "NCDHW")}
OUTPUT_TYPES = ("FP32", "FP16", "INT8", "INT16", "UINT16", "UINT8", "INT32", "INT64", "UINT32", "UINT64", "DOUBLE")
DYNAMIC_FLAGS = ("dynamic_batch_size", "dynamic_image_size", "input_shape_range", "dynamic_dims")
# --soc_version values seen in real commands plus those Huawei documents (the latter UNVERIFIED).
SOC_VERSIONS = (
    "Ascend310",
    "Ascend310P1",
    "Ascend310P3",
    "Ascend310P5",
    "Ascend310P7",
    "Ascend310B1",
    "Ascend910",
    "Ascend910A",
    "Ascend910B",
    "Ascend910ProA",
    "Ascend910ProB",
    "Ascend910PremiumA",
    "Ascend910B1",
    "Ascend910B2",
    "Ascend910B3",
    "Ascend910B4",
    # Atlas A3: <Chip Name>_<NPU Name> of npu-smi info -t board (docs/cann-formats.md §6.1; UNVERIFIED
    # beyond the SoC table of Ascend/RecSDK transform.json)
    *A3_SOC_VERSIONS,
)
MESSAGES = {
    "E10001": "Value [{0}] for parameter [--{1}] is invalid. Reason: {2}",
    "E10002": (
        "Value [{0}] for parameter [--input_shape] is invalid. Reason: {1}. The value must be formatted as [{2}]."
    ),
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
    "E10047": "[--{0}] and [--{1}] are mutually exclusive.",
    "E10052": "AIPP configuration is invalid. Reason: {0}.",
    "E10054": "The {req} parameter [--{0}] for ATC is empty. Another possible reason is that the values of some "
    'parameters are not enclosed by quotation marks ("").',
    "E19005": "Failed to parse the protobuf file [{0}].",
    "E19010": "No parser is registered for Op [{0}, optype [{1}]].",
}
SHAPE_FORMAT = '"input_name1:n1,c1,h1,w1;input_name2:n2,c2,h2,w2"'
_INT = re.compile(r"-?\d+")
_RANGE = re.compile(r"\d+~\d+")


def message_text(code: str, *args: object, req: str = "required") -> str:
    """The catalog message of ``code`` with its values filled in (no ``CODE:`` prefix)."""
    return MESSAGES[code].format(*args, req=req)


class AtcCheck(Exception):
    """One of ATC's checks failed: ``code`` and ``args_`` select and fill the catalog message;
    ``field`` names the flag it is about (without ``--``)."""

    def __init__(self, code: str, *args: str, field: str = "") -> None:
        super().__init__(code, *args)
        self.code = code
        self.args_ = args
        self.field = field

    @property
    def text(self) -> str:
        return message_text(self.code, *self.args_)


Dim = int | str  # a number (-1: dynamic) or a range "n1~n2"


def parse_shape_spec(value: str) -> dict[str, list[Dim]]:
    """``"name1:n,c,h,w;name2:…"`` -> {name: dims}; dims are ints (``-1`` = dynamic) or ``"n1~n2"``
    ranges. Raises :class:`AtcCheck` E10002 (bad form) or E10011 (0 or < -1) like ATC."""
    out: dict[str, list[Dim]] = {}
    for part in filter(None, value.split(";")):
        name, sep, dims_text = part.rpartition(":")
        if not sep or not name:
            raise AtcCheck(
                "E10002", value, f"The shape of input [{part}] has no name", SHAPE_FORMAT, field="input_shape"
            )
        dims: list[Dim] = []
        for d in dims_text.split(","):
            d = d.strip()
            if _INT.fullmatch(d):
                n = int(d)
                if n == 0 or n < -1:
                    raise AtcCheck("E10011", value, d, field="input_shape")
                dims.append(n)
            elif _RANGE.fullmatch(d):
                dims.append(d)
            else:
                raise AtcCheck("E10002", value, f"[{d}] is not a number", SHAPE_FORMAT, field="input_shape")
        out[name] = dims
    return out


def parse_input_shape(value: str, names: set[str] | None = None) -> dict[str, list[int]]:
    """Like :func:`parse_shape_spec` with ranges taken as ``-1``; with ``names``, an input not
    among them raises E10016."""
    out = {name: [d if isinstance(d, int) else -1 for d in dims] for name, dims in parse_shape_spec(value).items()}
    if names is not None:
        for name in out:
            if name not in names:
                raise AtcCheck("E10016", name, "input_shape", field="input_shape")
    return out


def value_problems(flags: Mapping[str, str]) -> Iterator[AtcCheck]:
    """ATC's checks of flag values (enums, 0/1, true/false, output types, dynamic options), in order."""
    for name, allowed in ENUMS.items():
        if name in flags and flags[name] not in allowed:
            yield AtcCheck("E10001", flags[name], name, f"The value must be one of [{', '.join(allowed)}].", field=name)
    for name in ZERO_ONE:
        if name in flags and flags[name] not in ("0", "1"):
            yield AtcCheck("E10006", flags[name], name, field=name)
    for name in TRUE_FALSE:
        if name in flags and any(v not in ("true", "false") for v in flags[name].split(",")):
            yield AtcCheck("E10005", flags[name], name, field=name)
    if "output_type" in flags:
        for item in flags["output_type"].split(";"):
            if item.rpartition(":")[2] not in OUTPUT_TYPES:
                yield AtcCheck(
                    "E10001",
                    flags["output_type"],
                    "output_type",
                    f"The value must be one of [{', '.join(OUTPUT_TYPES)}] or node:index:type.",
                    field="output_type",
                )
                break
    dynamic = [f for f in DYNAMIC_FLAGS if flags.get(f)]
    if len(dynamic) > 1:
        yield AtcCheck("E10009", field=dynamic[1])
        return
    if dynamic and dynamic[0] != "input_shape_range":
        try:
            shapes = parse_input_shape(flags.get("input_shape", ""))
        except AtcCheck as exc:
            yield exc
            return
        if not any(-1 in dims for dims in shapes.values()):
            yield AtcCheck(
                "E10001",
                flags[dynamic[0]],
                dynamic[0],
                "--input_shape must contain -1 in the dimensions to be made dynamic.",
                field=dynamic[0],
            )
    if flags.get("dynamic_batch_size") and not re.fullmatch(r"\d+(,\d+)*", flags["dynamic_batch_size"]):
        yield AtcCheck(
            "E10001",
            flags["dynamic_batch_size"],
            "dynamic_batch_size",
            'The value must be formatted as "batchsize1,batchsize2,..." with positive integers.',
            field="dynamic_batch_size",
        )
