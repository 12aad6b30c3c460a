"""The simulator's rule table: a small, real subset of what the migration tools change or flag.

Each rule works on one source line. ``migrate_lines(lines, table)`` returns the migrated lines and
what happened: :class:`Edit` (a line changed or inserted; ``line`` is 1-based in the migrated
file, ``source_line`` in the input) and :class:`ApiUse` (an API seen on an input line with its
support value and advice, written to the API tables).

TensorFlow (convert_tf2npu, mappings/ast.py of Ascend/tensorflow): the NPU import after the last
top-level import (``from npu_bridge.npu_init import *`` for TF1, ``import npu_device as npu`` +
``npu.open().as_default()`` for TF2), ``tf.Session`` config wrapped in ``npu_config_proto``,
``hvd.rank/size/local_rank`` → ``get_rank_id/get_rank_size/get_local_rank_id``,
``hvd.DistributedOptimizer`` → ``NPUDistributedOptimizer``, ``tf.nn.dropout`` → ``npu_ops.dropout``
(TF1), ``hvd.allreduce`` left unsupported. PyTorch (msFmkTransplt): ``import torch_npu`` after
``import torch``, ``.cuda(`` → ``.npu(``, ``"cuda"``/``"cuda:N"`` device strings → ``"npu…"``,
``torch.cuda.`` → ``torch.npu.``, ``backend='nccl'`` → ``'hccl'``; ``apex.optimizers.FusedAdam``
unsupported (the CANN guide says the tools cannot migrate it), ``torch.nn.SyncBatchNorm`` and
``torch.cuda.get_device_properties`` listed unsupported (the "Replace Unsupported APIs" list of the
MindStudio GPU2Ascend page).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SUPPORT = "支持"
SUPPORT_TOOL = "支持但需工具迁移"
SUPPORT_MANUAL = "支持但需手工迁移"
UNSUPPORTED = "不支持"
DEPRECATED = "废弃"


@dataclass
class Edit:
    line: int  # in the migrated file
    source_line: int  # in the input file (0: an inserted line)
    kind: str  # "insert" | "modify"
    text: str  # the migrated line / what changed
    message: str


@dataclass
class ApiUse:
    line: int  # in the input file
    module: str
    api: str
    support: str
    advice: str


_IMPORT = re.compile(r"^(import\s+\S+|from\s+\S+\s+import\s+.+)")


def _last_import(lines: list[str]) -> int:
    """Index (0-based) after the last top-level import line, 0 when there is none."""
    last = -1
    for i, line in enumerate(lines):
        if _IMPORT.match(line) and not line.rstrip().endswith("("):
            last = i
    return last + 1


# --- TensorFlow ---------------------------------------------------------------------------------

# (regex, replacement or None = unsupported, API name, module, support, advice)
_TF_COMMON = [
    (
        re.compile(r"\bhvd\.allreduce\("),
        None,
        "hvd.allreduce",
        "horovod",
        UNSUPPORTED,
        "NPU does not support hvd.allreduce; use npu_ops / HCCL allreduce (npu_bridge.hccl.hccl_ops.allreduce)",
    ),
    (re.compile(r"\bhvd\.rank\(\)"), "get_rank_id()", "hvd.rank", "horovod", SUPPORT_TOOL, "changed to get_rank_id"),
    (
        re.compile(r"\bhvd\.local_rank\(\)"),
        "get_local_rank_id()",
        "hvd.local_rank",
        "horovod",
        SUPPORT_TOOL,
        "changed to get_local_rank_id",
    ),
    (
        re.compile(r"\bhvd\.size\(\)"),
        "get_rank_size()",
        "hvd.size",
        "horovod",
        SUPPORT_TOOL,
        "changed to get_rank_size",
    ),
    (
        re.compile(r"\bhvd\.DistributedOptimizer\b"),
        "NPUDistributedOptimizer",
        "hvd.DistributedOptimizer",
        "horovod",
        SUPPORT_TOOL,
        "changed to NPUDistributedOptimizer",
    ),
    (
        re.compile(r"\btf\.py_func\("),
        "",
        "tf.py_func",
        "tensorflow",
        SUPPORT_MANUAL,
        "py_func runs on the host CPU; move it out of the graph or rewrite it with TF ops",
    ),
]
_TF1_ONLY = [
    (
        re.compile(r"\btf\.nn\.dropout\("),
        "npu_ops.dropout(",
        "tf.nn.dropout",
        "tensorflow",
        SUPPORT_TOOL,
        "changed to npu_ops.dropout",
    ),
    (
        re.compile(r"\btf\.contrib\.\w+"),
        None,
        "tf.contrib",
        "tensorflow",
        DEPRECATED,
        "tf.contrib is not part of TensorFlow 1.15 on NPU; replace it with a core TF API",
    ),
]
_TF_SESSION = re.compile(r"\b(tf(?:\.compat\.v1)?\.(?:Session|InteractiveSession))\((.*)\)")
_TF_API = re.compile(r"\b(tf(?:\.[A-Za-z_]\w*)+)\(")


def _session(line: str) -> str | None:
    m = _TF_SESSION.search(line)
    if not m or "npu_config_proto" in line:
        return None
    args = m.group(2).strip()
    if not args:
        new = f"{m.group(1)}(config=npu_config_proto())"
    elif args.startswith("config="):
        new = f"{m.group(1)}(config=npu_config_proto(config_proto={args[len('config=') :]}))"
    else:
        return None
    return line[: m.start()] + new + line[m.end() :]


def migrate_tf(lines: list[str], version: int) -> tuple[list[str], list[Edit], list[ApiUse]]:
    """TF1 (``version`` 1) or TF2 rules over one .py file's lines (without line ends)."""
    out: list[str] = []
    edits: list[Edit] = []
    apis: list[ApiUse] = []
    uses_tf = any(re.match(r"\s*(import tensorflow|from tensorflow)", ln) for ln in lines)
    insert_at = _last_import(lines) if uses_tf else -1
    inserted = (
        ["from npu_bridge.npu_init import *"]
        if version == 1
        else ["import npu_device as npu", "npu.open().as_default()"]
    )
    table = _TF_COMMON + (_TF1_ONLY if version == 1 else [])
    for n, line in enumerate(lines, start=1):
        if n - 1 == insert_at:
            for text in inserted:
                out.append(text)
                edits.append(Edit(len(out), 0, "insert", text, text))
        new = line
        seen: set[str] = set()
        for rx, repl, api, module, support, advice in table:
            if not rx.search(new):
                continue
            seen.add(api)
            apis.append(ApiUse(n, module, api, support, advice))
            if repl is not None and support != SUPPORT_MANUAL:
                new = rx.sub(repl, new)
        sess = _session(new) if version == 1 else None
        if sess is not None:
            m = _TF_SESSION.search(new)
            api = m.group(1) if m else "tf.Session"
            seen.add(api)
            apis.append(ApiUse(n, "tensorflow", api, SUPPORT_TOOL, "session config wrapped in npu_config_proto"))
            new = sess
        for m in _TF_API.finditer(line):
            api = m.group(1)
            if api not in seen and not any(api.startswith(s) for s in seen):
                seen.add(api)
                apis.append(ApiUse(n, "tensorflow", api, SUPPORT, ""))
        out.append(new)
        if new != line:
            edits.append(Edit(len(out), n, "modify", new.strip(), f"change {line.strip()} to {new.strip()}"))
    if insert_at == len(lines):
        for text in inserted:
            out.append(text)
            edits.append(Edit(len(out), 0, "insert", text, text))
    return out, edits, apis


# --- PyTorch ------------------------------------------------------------------------------------

_PT_UNSUPPORTED = [
    (
        re.compile(r"\b(?:apex\.optimizers\.)?FusedAdam\("),
        "apex.optimizers.FusedAdam",
        "FusedAdam of apex cannot be migrated by the tool; use torch_npu.optim.NpuFusedAdam",
    ),
    (
        re.compile(r"\btorch\.nn\.SyncBatchNorm\b|\bnn\.SyncBatchNorm\b"),
        "torch.nn.SyncBatchNorm",
        "SyncBatchNorm is not supported on NPU; use torch.nn.BatchNorm2d per device",
    ),
    (
        re.compile(r"\btorch\.cuda\.get_device_properties\("),
        "torch.cuda.get_device_properties",
        "not supported on NPU; remove it or read the device name with torch_npu.npu.get_device_name",
    ),
]
_PT_REWRITES = [
    (re.compile(r"\.cuda\("), ".npu(", "change .cuda( to .npu("),
    (re.compile(r"""(["'])cuda(:\d+)?\1"""), r"\1npu\2\1", 'change "cuda" device to "npu"'),
    (re.compile(r"\btorch\.cuda\."), "torch.npu.", "change torch.cuda to torch.npu"),
    (re.compile(r"""backend\s*=\s*(["'])nccl\1"""), r"backend=\1hccl\1", "change backend nccl to hccl"),
]


def migrate_pytorch(lines: list[str]) -> tuple[list[str], list[Edit], list[ApiUse]]:
    out: list[str] = []
    edits: list[Edit] = []
    apis: list[ApiUse] = []
    for n, line in enumerate(lines, start=1):
        new = line
        blocked = False
        for rx, api, tip in _PT_UNSUPPORTED:
            if rx.search(line):
                apis.append(ApiUse(n, "torch", api, UNSUPPORTED, tip))
                blocked = True
        if not blocked:
            messages = []
            for rx, repl, msg in _PT_REWRITES:
                if rx.search(new):
                    new = rx.sub(repl, new)
                    messages.append(msg)
            if messages:
                out.append(new)
                edits.append(Edit(len(out), n, "modify", new.strip(), "; ".join(messages)))
                continue
        out.append(new)
        if re.match(r"^import torch\s*$", line) and "import torch_npu" not in lines:
            out.append("import torch_npu")
            edits.append(Edit(len(out), 0, "insert", "import torch_npu", "add import torch_npu"))
    return out, edits, apis
