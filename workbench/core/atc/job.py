"""The conversion the wizard edits: :class:`ConversionJob`, its exact ``atc`` command, the files
it uploads and produces.

ATC runs in the job's working folder on the host (``remote_dir``), so uploaded files appear in the
command by their file names, as in Huawei's examples (``atc --model=resnet18.onnx --framework=5
--output=resnet18 --soc_version=Ascend310``); a model already on the host keeps its path. Flags
are written ``--name=value`` in this order: model, weight, framework, output, soc_version,
input_format, input_shape, dynamic gear, input_fp16_nodes, insert_op_conf, out_nodes,
output_type, precision_mode, op_select_implmode, enable_small_channel, log, then the extras.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from workbench.core.atc.aipp import AippConfig, write_aipp
from workbench.core.atc.flags import AtcCheck, Dim, parse_shape_spec
from workbench.core.atc.modelinfo import detect_framework

# Flags the job sets through its own fields; --extra may not name them.
MANAGED_FLAGS = ("model", "weight", "framework", "output", "mode", "om", "json", "help", "h")
_SAFE = re.compile(r"[\w@%+=:,./~-]*")


@dataclass
class InputSpec:
    """One model input; ``shape`` None leaves it out of ``--input_shape`` (ATC keeps the model's)."""

    name: str
    shape: list[Dim] | None = None  # ints (-1 dynamic) or "n1~n2" ranges
    dtype: str = ""  # as read from the model (shown, not passed to atc)


@dataclass
class Upload:
    kind: str  # model / weight / aipp
    remote: str  # where it goes on the host
    local: str | None  # the local file, or None when ``text`` is written instead
    text: str | None = None


@dataclass
class Produced:
    remote: str
    local: str


@dataclass
class ConversionJob:
    host: str = ""  # a CANN machine's name ("demo" for the demo host)
    model: str = ""  # local path, or a path on the host when model_on_host
    model_on_host: bool = False  # model and weight already on the host (not uploaded)
    framework: int | None = None  # None: from the model's file name
    weight: str = ""  # Caffe .caffemodel
    output_name: str = ""  # without .om; default: the model's file stem
    out_dir: str = ""  # local folder receiving the .om (relative: to the project)
    remote_dir: str = ""  # working folder on the host (default: see run.remote_workdir)
    soc_version: str = ""
    inputs: list[InputSpec] = field(default_factory=list)
    input_format: str = ""
    input_fp16_nodes: list[str] = field(default_factory=list)
    dynamic_batch_sizes: list[int] = field(default_factory=list)
    dynamic_image_sizes: list[tuple[int, int]] = field(default_factory=list)  # (height, width)
    dynamic_dims: list[list[int]] = field(default_factory=list)
    aipp: bool = False
    aipp_file: str = ""  # a local AIPP file to upload as is
    aipp_config: AippConfig | None = None  # or the config edited in the wizard (written on upload)
    output_type: str = ""  # one type for every output
    output_types: dict[str, str] = field(default_factory=dict)  # or per output: "node:index" -> type
    out_nodes: list[str] = field(default_factory=list)  # "node:index"
    precision_mode: str = ""
    op_select_implmode: str = ""
    log: str = ""
    enable_small_channel: bool | None = None
    extra: dict[str, str] = field(default_factory=dict)  # any other documented flag
    devices: list[int] | None = None  # ASCEND_RT_VISIBLE_DEVICES for the run
    env: dict[str, str] = field(default_factory=dict)  # extra environment for the run

    @property
    def effective_framework(self) -> int | None:
        return self.framework if self.framework is not None else detect_framework(self.model)

    @property
    def effective_output_name(self) -> str:
        return self.output_name or (posixpath.basename(self.model.replace("\\", "/")).rsplit(".", 1)[0] or "model")

    @property
    def aipp_remote_name(self) -> str:
        if self.aipp_file:
            return posixpath.basename(self.aipp_file.replace("\\", "/"))
        return f"{self.effective_output_name}_insert_op.cfg"

    # --- persistence (the wizard remembers the last values per project) ------------------------
    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["aipp_config"] = write_aipp(self.aipp_config) if self.aipp_config else None
        data["dynamic_image_sizes"] = [list(p) for p in self.dynamic_image_sizes]
        return data

    @classmethod
    def from_dict(cls, raw: dict[str, Any], where: str = "conversion job") -> ConversionJob:
        from workbench.core.atc.aipp import parse_aipp

        if not isinstance(raw, dict):
            raise ValueError(f"{where}: expected an object")
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in raw.items() if k in known}
        try:
            data["inputs"] = [InputSpec(**i) for i in data.get("inputs", [])]
            data["dynamic_image_sizes"] = [tuple(p) for p in data.get("dynamic_image_sizes", [])]
            if data.get("aipp_config"):
                data["aipp_config"] = parse_aipp(data["aipp_config"], f"{where}: aipp_config")
            return cls(**data)
        except TypeError as exc:
            raise ValueError(f"{where}: {exc}") from None


def _file_arg(job: ConversionJob, path: str) -> str:
    return path if job.model_on_host else posixpath.basename(path.replace("\\", "/"))


def shape_text(inputs: list[InputSpec]) -> str:
    return ";".join(f"{i.name}:{','.join(str(d) for d in i.shape)}" for i in inputs if i.shape is not None)


def flag_values(job: ConversionJob) -> list[tuple[str, str]]:
    """(flag, value) pairs of the command, in order (extras last)."""
    out: list[tuple[str, str]] = [("model", _file_arg(job, job.model) if job.model else "")]
    if job.weight:
        out.append(("weight", _file_arg(job, job.weight)))
    if job.effective_framework is not None:
        out.append(("framework", str(job.effective_framework)))
    out.append(("output", job.effective_output_name))
    pairs = [
        ("soc_version", job.soc_version),
        ("input_format", job.input_format),
        ("input_shape", shape_text(job.inputs)),
        ("dynamic_batch_size", ",".join(str(b) for b in job.dynamic_batch_sizes)),
        ("dynamic_image_size", ";".join(f"{h},{w}" for h, w in job.dynamic_image_sizes)),
        ("dynamic_dims", ";".join(",".join(str(d) for d in g) for g in job.dynamic_dims)),
        ("input_fp16_nodes", ";".join(job.input_fp16_nodes)),
        ("insert_op_conf", job.aipp_remote_name if job.aipp and (job.aipp_file or job.aipp_config) else ""),
        ("out_nodes", ";".join(job.out_nodes)),
        ("output_type", job.output_type or ";".join(f"{k}:{v}" for k, v in job.output_types.items())),
        ("precision_mode", job.precision_mode),
        ("op_select_implmode", job.op_select_implmode),
        ("enable_small_channel", "" if job.enable_small_channel is None else str(int(job.enable_small_channel))),
        ("log", job.log),
    ]
    out += [(k, v) for k, v in pairs if v]
    return out + [(k, v) for k, v in job.extra.items()]


def command(job: ConversionJob, program: str = "atc") -> list[str]:
    """The exact atc argv (run in the job's working folder on the host)."""
    return [program] + [f"--{k}={v}" for k, v in flag_values(job)]


def quote_arg(arg: str) -> str:
    """Shell quoting in ATC's documentation style: ``--input_shape="x:1,3;y:2"``."""
    if _SAFE.fullmatch(arg):
        return arg
    name, eq, value = arg.partition("=")
    if arg.startswith("--") and eq and _SAFE.fullmatch(name) and not set(value) & set('"$`\\!'):
        return f'{name}="{value}"'
    return shlex.quote(arg)


def command_line(job: ConversionJob, program: str = "atc") -> str:
    """The command as one copyable line (the Summary page's live preview)."""
    return " ".join(quote_arg(a) for a in command(job, program))


def files_to_upload(job: ConversionJob, remote_dir: str | None = None) -> list[Upload]:
    """Model, weight and AIPP file with their places on the host (``remote_dir`` defaults to the
    job's; empty means relative to the working folder)."""
    base = job.remote_dir if remote_dir is None else remote_dir
    out = []
    if not job.model_on_host:
        if job.model:
            out.append(Upload("model", posixpath.join(base, _file_arg(job, job.model)), job.model))
        if job.weight:
            out.append(Upload("weight", posixpath.join(base, _file_arg(job, job.weight)), job.weight))
    if job.aipp and (job.aipp_file or job.aipp_config):
        remote = posixpath.join(base, job.aipp_remote_name)
        if job.aipp_file:
            out.append(Upload("aipp", remote, job.aipp_file))
        else:
            out.append(Upload("aipp", remote, None, write_aipp(job.aipp_config)))  # type: ignore[arg-type]
    return out


def files_produced(job: ConversionJob, remote_dir: str | None = None, out_dir: str | None = None) -> list[Produced]:
    """The .om on the host and where it is downloaded to."""
    base = job.remote_dir if remote_dir is None else remote_dir
    local = job.out_dir if out_dir is None else out_dir
    name = job.effective_output_name + ".om"
    return [Produced(posixpath.join(base, name), str(Path(local) / name) if local else name)]


# --- parsing the wizard's / CLI's text fields ----------------------------------------------------


def _ints(text: str, flag: str, value: str, what: str) -> list[int]:
    items = [t.strip() for t in text.split(",")]
    if not all(t.isdigit() and int(t) > 0 for t in items):
        raise AtcCheck(
            "E10001", value, flag, f"The value must be formatted as {what} with positive integers.", field=flag
        )
    return [int(t) for t in items]


def parse_batch_sizes(text: str) -> list[int]:
    """``"1,2,4,8"`` -> [1, 2, 4, 8]; AtcCheck E10001 otherwise."""
    return _ints(text, "dynamic_batch_size", text, '"batchsize1,batchsize2,..."') if text.strip() else []


def parse_image_sizes(text: str) -> list[tuple[int, int]]:
    """``"224,224;448,448"`` -> [(224, 224), (448, 448)] (height, width)."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        hw = _ints(part, "dynamic_image_size", text, '"height1,width1;height2,width2"')
        if len(hw) != 2:
            raise AtcCheck(
                "E10001",
                text,
                "dynamic_image_size",
                f'Each size must be "height,width"; [{part}] has {len(hw)} value(s).',
                field="dynamic_image_size",
            )
        out.append((hw[0], hw[1]))
    return out


def parse_dims(text: str) -> list[list[int]]:
    """``"1,224;2,448"`` -> [[1, 224], [2, 448]] (one group per gear)."""
    return [
        _ints(p, "dynamic_dims", text, '"dim1,dim2;dim1,dim2"')
        for p in filter(None, (q.strip() for q in text.split(";")))
    ]


def parse_inputs(spec: str) -> list[InputSpec]:
    """``--input_shape`` text -> inputs (AtcCheck E10002/E10011 when malformed)."""
    return [InputSpec(name, dims) for name, dims in parse_shape_spec(spec).items()]


def parse_output_type(text: str) -> tuple[str, dict[str, str]]:
    """``"FP16"`` -> ("FP16", {}); ``"node:0:FP16;node:1:FP32"`` -> ("", {"node:0": "FP16", …})."""
    if ":" not in text:
        return text.strip(), {}
    per: dict[str, str] = {}
    for item in filter(None, text.split(";")):
        node, _, typ = item.rpartition(":")
        per[node] = typ
    return "", per


def _split(value: str) -> list[str]:
    return [v for v in (x.strip() for x in value.split(";")) if v]


# flag -> how it lands in the job (everything else goes to ``job.extra``)
_SETTERS = {
    "weight": lambda j, v: setattr(j, "weight", v),
    "framework": lambda j, v: setattr(j, "framework", int(v) if v.lstrip("-").isdigit() else -1),
    "output": lambda j, v: setattr(j, "output_name", v),
    "soc_version": lambda j, v: setattr(j, "soc_version", v),
    "input_format": lambda j, v: setattr(j, "input_format", v),
    "input_shape": lambda j, v: setattr(j, "inputs", parse_inputs(v)),
    "dynamic_batch_size": lambda j, v: setattr(j, "dynamic_batch_sizes", parse_batch_sizes(v)),
    "dynamic_image_size": lambda j, v: setattr(j, "dynamic_image_sizes", parse_image_sizes(v)),
    "dynamic_dims": lambda j, v: setattr(j, "dynamic_dims", parse_dims(v)),
    "input_fp16_nodes": lambda j, v: setattr(j, "input_fp16_nodes", _split(v)),
    "insert_op_conf": lambda j, v: (setattr(j, "aipp", True), setattr(j, "aipp_file", v)),
    "out_nodes": lambda j, v: setattr(j, "out_nodes", _split(v)),
    "output_type": lambda j, v: (
        setattr(j, "output_type", parse_output_type(v)[0]),
        setattr(j, "output_types", parse_output_type(v)[1]),
    ),
    "precision_mode": lambda j, v: setattr(j, "precision_mode", v),
    "op_select_implmode": lambda j, v: setattr(j, "op_select_implmode", v),
    "log": lambda j, v: setattr(j, "log", v),
}


def apply_flag(job: ConversionJob, name: str, value: str) -> None:
    """Set an ATC flag given as text (CLI options, ``--extra name=value``, a pasted command): flags
    the job has a field for land there, any other flag in ``job.extra`` (validation checks it
    against the flag list). Raises AtcCheck for a malformed shape or gear list."""
    if name == "enable_small_channel" and value in ("0", "1"):
        job.enable_small_channel = value == "1"
    elif name in _SETTERS and value:
        _SETTERS[name](job, value)
    else:
        job.extra[name] = value
