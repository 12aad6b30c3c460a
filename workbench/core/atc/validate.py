"""Validation of a :class:`ConversionJob` before anything is sent to the host.

It mirrors ATC's own checks with ATC's codes and message texts (E10001, E10004, E10007, E10008,
E10009, E10010, E10011, E10016, E10022, E10047, E10052, E19005 …; the shared value checks come
from :mod:`workbench.core.atc.flags`, the same ones the simulated atc applies), and adds what ATC
only finds late: input / out-node names against the model read locally, the ``-1`` axes each
dynamic option needs, AIPP constraints. Findings ATC has no code for use ``WB-…`` codes;
``severity="warning"`` findings do not block a run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from workbench.core.atc import flags as F
from workbench.core.atc.aipp import AippConfig, AippError, check_aipp, read_aipp
from workbench.core.atc.explain import explain
from workbench.core.atc.job import MANAGED_FLAGS, ConversionJob, flag_values
from workbench.core.atc.modelinfo import ModelInfoError, ModelInputs, detect_framework, inspect_model

ERROR, WARNING = "error", "warning"
MAX_GEARS = 100


@dataclass(frozen=True)
class Issue:
    code: str
    field: str  # the flag / job field it is about ("" for the job as a whole)
    message: str
    severity: str = ERROR

    def to_json(self) -> dict:
        ex = explain(self.code, self.message)
        return {
            "code": self.code,
            "field": self.field,
            "message": self.message,
            "severity": self.severity,
            "explanation": ex.text,
            "fix": ex.fix,
        }


def _issue(code: str, field: str, *args: object, severity: str = ERROR) -> Issue:
    return Issue(code, field, F.message_text(code, *args), severity)


def _e10001(value: object, flag: str, reason: str) -> Issue:
    return _issue("E10001", flag, value, flag, reason)


def errors(issues: list[Issue]) -> list[Issue]:
    return [i for i in issues if i.severity == ERROR]


def validate(job: ConversionJob, model: ModelInputs | None = None, *, inspect: bool = True) -> list[Issue]:
    """Every problem of ``job`` (errors first in ATC's order, then warnings). ``model``: the model
    as read by ``inspect_model``; when None and ``inspect``, a local model file is read here."""
    issues: list[Issue] = []
    fw = job.effective_framework
    issues += _files(job, fw)
    if (
        model is None
        and inspect
        and not job.model_on_host
        and job.model
        and Path(job.model).is_file()
        and fw in (0, 3, 5)
    ):
        try:
            model = inspect_model(job.model, fw)
        except ModelInfoError:
            issues.append(_issue("E19005", "model", job.model))
    issues += _flags(job)
    issues += _dynamic(job)
    issues += _aipp(job, model)
    if model is not None:
        issues += _against_model(job, model)
    seen: set[tuple[str, str, str]] = set()
    unique = [
        i for i in issues if (i.code, i.field, i.message) not in seen and not seen.add((i.code, i.field, i.message))
    ]
    return errors(unique) + [i for i in unique if i.severity != ERROR]


def _files(job: ConversionJob, fw: int | None) -> list[Issue]:
    out: list[Issue] = []
    if not job.model:
        out.append(_issue("E10004", "model", "model"))
    elif not job.model_on_host and not Path(job.model).is_file():
        out.append(_e10001(job.model, "model", "The model file does not exist."))
    if fw not in F.FRAMEWORKS:
        out.append(_issue("E10007", "framework", "framework", F.FRAMEWORK_CHOICES))
    elif job.model and detect_framework(job.model) not in (None, fw):
        out.append(
            Issue(
                "WB-FRAMEWORK-MISMATCH",
                "framework",
                f"--framework={fw} ({F.FRAMEWORKS[fw]}) but "
                f"{Path(job.model).name} looks like framework {detect_framework(job.model)}",
                WARNING,
            )
        )
    if fw == 0 and not job.weight:
        out.append(_issue("E10008", "weight"))
    if job.weight and not job.model_on_host and not Path(job.weight).is_file():
        out.append(_e10001(job.weight, "weight", "The weight file does not exist."))
    if job.weight and fw not in (0, None):
        out.append(
            Issue("WB-FRAMEWORK-MISMATCH", "weight", "--weight is only used for Caffe models (framework 0)", WARNING)
        )
    name = job.output_name
    if name.endswith("/"):
        out.append(_issue("E10022", "output", name, "output"))
    elif "/" in name or "\\" in name:
        out.append(
            _e10001(
                name,
                "output",
                "Give a file name without folders; the .om is written in the working "
                "folder and downloaded to the output folder.",
            )
        )
    if not job.soc_version:
        out.append(_issue("E10004", "soc_version", "soc_version"))
    elif job.soc_version not in F.SOC_VERSIONS:
        out.append(
            Issue(
                "WB-UNKNOWN-SOC",
                "soc_version",
                f"{job.soc_version} is not a known --soc_version ({', '.join(F.SOC_VERSIONS)})",
                WARNING,
            )
        )
    return out


def _flags(job: ConversionJob) -> list[Issue]:
    out: list[Issue] = []
    values = flag_values(job)
    names = [k for k, _ in values]
    for name in job.extra:
        if name not in F.FLAGS:
            out.append(Issue("WB-UNKNOWN-FLAG", name, f"ERROR: unknown command line flag '{name}'"))
        elif name in MANAGED_FLAGS:
            out.append(Issue("WB-DUPLICATE-FLAG", name, f"--{name} is set by its own field, not as an extra flag"))
        elif names.count(name) > 1:
            out.append(Issue("WB-DUPLICATE-FLAG", name, f"--{name} is set twice (its own field and an extra flag)"))
        if not job.extra[name]:
            out.append(_issue("E10004", name, name))
    flags = dict(values)
    if "log" in flags and flags["log"] not in F.LOG_LEVELS:
        out.append(_issue("E10010", "log", flags["log"]))
    out += [Issue(p.code, p.field, p.text) for p in F.value_problems(flags)]
    fw = job.effective_framework
    if (
        job.input_format
        and fw in F.INPUT_FORMATS
        and job.input_format in F.ENUMS["input_format"]
        and job.input_format not in F.INPUT_FORMATS[fw]
    ):
        out.append(
            _e10001(
                job.input_format,
                "input_format",
                f"For {F.FRAMEWORKS[fw]} models the value must be one of [{', '.join(F.INPUT_FORMATS[fw])}].",
            )
        )
    if job.output_type and job.output_types:
        out.append(
            _e10001(flags["output_type"], "output_type", "Give one type for all outputs or one per output, not both.")
        )
    for item in job.out_nodes:
        node, sep, idx = item.rpartition(":")
        if not sep or not node or not idx.isdigit():
            out.append(
                _e10001(
                    ";".join(job.out_nodes),
                    "out_nodes",
                    'The value must be formatted as "node_name1:0;node_name1:1;node_name2:0".',
                )
            )
            break
    return out


def _dynamic(job: ConversionJob) -> list[Issue]:
    """The gears and the -1 axes of --input_shape must agree (§6.1: dynamic axes are -1)."""
    out: list[Issue] = []
    chosen = [
        n
        for n, v in (
            ("dynamic_batch_size", job.dynamic_batch_sizes),
            ("dynamic_image_size", job.dynamic_image_sizes),
            ("dynamic_dims", job.dynamic_dims),
        )
        if v
    ]
    if len(chosen) != 1:
        return out  # none, or E10009 already reported by the shared checks
    flag = chosen[0]
    value = dict(flag_values(job))[flag]
    shapes = {i.name: i.shape for i in job.inputs if i.shape is not None}
    if any(isinstance(d, str) for dims in shapes.values() for d in dims):
        out.append(_e10001(value, flag, "Shape ranges (n1~n2) in --input_shape cannot be combined with gears."))
        return out
    dyn = {name: [k for k, d in enumerate(dims) if d == -1] for name, dims in shapes.items()}
    total = sum(len(v) for v in dyn.values())
    gears = {
        "dynamic_batch_size": job.dynamic_batch_sizes,
        "dynamic_image_size": job.dynamic_image_sizes,
        "dynamic_dims": job.dynamic_dims,
    }[flag]
    if len(gears) > MAX_GEARS:
        out.append(_e10001(value, flag, f"At most {MAX_GEARS} gears are allowed, got {len(gears)}."))
    if len({str(g) for g in gears}) != len(gears):
        out.append(_e10001(value, flag, "Each gear may appear only once."))
    if total == 0:
        return out  # "must contain -1" comes from the shared checks
    if flag == "dynamic_batch_size":
        for name, axes in dyn.items():
            if axes and axes != [0]:
                out.append(
                    _e10001(
                        value,
                        flag,
                        f"Only the batch axis (the first) may be -1; input [{name}] has -1 "
                        f"at axis {', '.join(map(str, axes))}.",
                    )
                )
    elif flag == "dynamic_image_size":
        hw = {"NHWC": [1, 2]}.get(job.input_format, [2, 3])
        for name, axes in dyn.items():
            if axes and (len(axes) != 2 or (len(shapes[name]) == 4 and axes != hw)):
                out.append(
                    _e10001(
                        value,
                        flag,
                        f"Exactly the height and width axes must be -1; input [{name}] has "
                        f"-1 at axis {', '.join(map(str, axes))}.",
                    )
                )
    else:
        for group in job.dynamic_dims:
            if len(group) != total:
                out.append(
                    _e10001(
                        value,
                        flag,
                        f"Each gear needs one value per -1 in --input_shape ({total}); "
                        f"[{','.join(map(str, group))}] has {len(group)}.",
                    )
                )
                break
        if job.input_format != "ND":
            out.append(
                _e10001(job.input_format or "(not set)", "input_format", "--dynamic_dims requires --input_format=ND.")
            )
    return out


def load_aipp(job: ConversionJob) -> AippConfig | None:
    """The job's AIPP config (the edited one, or the file read); AippError from a bad file."""
    if job.aipp_config is not None and not job.aipp_file:
        return job.aipp_config
    return read_aipp(job.aipp_file) if job.aipp_file else None


def _aipp(job: ConversionJob, model: ModelInputs | None) -> list[Issue]:
    if not job.aipp:
        return []
    if not job.aipp_file and job.aipp_config is None:
        return [_issue("E10004", "insert_op_conf", "insert_op_conf")]
    if job.aipp_file and not Path(job.aipp_file).is_file():
        return [_e10001(job.aipp_file, "insert_op_conf", "The file does not exist.")]
    out: list[Issue] = []
    if job.dynamic_dims:
        out.append(_issue("E10047", "insert_op_conf", "insert_op_conf", "dynamic_dims"))
    try:
        config = load_aipp(job)
    except AippError as exc:
        return out + [_issue("E10052", "insert_op_conf", str(exc))]
    assert config is not None
    for where, reason in check_aipp(
        config, model_inputs=len(model.inputs) if model else None, dynamic_image_size=bool(job.dynamic_image_sizes)
    ):
        out.append(Issue("E10052", where, F.message_text("E10052", reason)))
    return out


def _against_model(job: ConversionJob, model: ModelInputs) -> list[Issue]:
    out: list[Issue] = []
    inputs = {t.name: t for t in model.inputs}
    for spec in job.inputs:
        if spec.shape is None:
            continue
        if spec.name not in inputs:
            out.append(_issue("E10016", "input_shape", spec.name, "input_shape"))
        elif inputs[spec.name].shape not in ([], [-1]) and len(inputs[spec.name].shape) != len(spec.shape):
            out.append(
                Issue(
                    "E10001",
                    "input_shape",
                    F.message_text(
                        "E10001",
                        f"{spec.name}:{','.join(map(str, spec.shape))}",
                        "input_shape",
                        f"The model's input [{spec.name}] has {len(inputs[spec.name].shape)} dimensions.",
                    ),
                    WARNING,
                )
            )
    for name in job.input_fp16_nodes:
        if name not in inputs:
            out.append(_issue("E10016", "input_fp16_nodes", name, "input_fp16_nodes"))
    for item in job.out_nodes:
        node, _, idx = item.rpartition(":")
        if node and idx.isdigit() and (node not in model.node_outputs or int(idx) >= model.node_outputs[node]):
            out.append(_issue("E10016", "out_nodes", item, "out_nodes"))
    for key in job.output_types:
        node, _, idx = key.rpartition(":")
        if node and node not in model.node_outputs:
            out.append(_issue("E10016", "output_type", node, "output_type"))
    if "MaxPool" in model.op_types and job.input_format == "NHWC":
        out.append(
            Issue(
                "WB-MAXPOOL-AICPU",
                "input_format",
                "The model has MaxPool and the input format is NHWC: "
                "MaxPool may land on AI CPU, which does not support it in NHWC.",
                WARNING,
            )
        )
    return out
