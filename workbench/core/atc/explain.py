"""What ATC's messages mean and how to fix them, and the parser of atc's console output.

The catalog covers the error codes of docs/cann-formats.md §6.3 plus the cases developers keep hitting
on the Ascend forums: E19005 from a damaged / mismatched protobuf file, E10016 for an input or
out-node name the model does not have, EZ3003 for an op no kernel supports, MaxPool placed on AI
CPU in NHWC, and ``source: not found`` when set_env.sh is run by dash. Lines without a code are
matched by pattern and get a ``WB-…`` code (the workbench's own, never printed by atc).

Console form (§6.2): ``ATC start working now…``, then ``ATC run success…`` (warnings such as
``W11001: …`` may follow) or ``ATC run failed…`` and ``CODE: [PID: n] timestamp message`` lines
(8.x; older releases omit the PID/time), continued by indented ``Possible Cause:``,
``Solution:`` and ``TraceBack`` lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from workbench.core.atc.flags import FAILED, SUCCESS


@dataclass(frozen=True)
class Explanation:
    text: str
    fix: str


_E = Explanation
CATALOG: dict[str, Explanation] = {
    "E10001": _E(
        "A flag has a value ATC does not accept; the message says which flag and why.",
        "Correct the value of the flag named in the message (the Reason lists what is accepted).",
    ),
    "E10002": _E(
        "--input_shape is not written as name:dim,dim,…;name:dim,… .",
        'Write it as "input_name1:n,c,h,w;input_name2:…" with the model\'s input names.',
    ),
    "E10003": _E("A flag has a value ATC does not accept.", "Correct the flag's value as the Reason says."),
    "E10004": _E("A flag was given without a value.", "Give the flag a value or leave it out."),
    "E10005": _E("This flag takes only true or false.", "Set it to true or false."),
    "E10006": _E("This flag takes only 1 or 0.", "Set it to 1 or 0."),
    "E10007": _E(
        "A required flag is missing — usually --framework, which ATC does not guess from the file.",
        "Add it: --framework=0 for Caffe, 1 for MindSpore .air, 3 for TensorFlow .pb, 5 for ONNX.",
    ),
    "E10008": _E(
        "Caffe models come as two files: the network (.prototxt) and the weights (.caffemodel).",
        "Give the .caffemodel with --weight.",
    ),
    "E10009": _E(
        "Only one kind of dynamic shape can be used per model: batch sizes, image sizes, shape ranges or dims.",
        "Keep one of --dynamic_batch_size, --dynamic_image_size, --input_shape_range, "
        "--dynamic_dims and remove the others.",
    ),
    "E10010": _E("--log takes debug, info, warning, error or null.", "Set --log to one of those levels."),
    "E10011": _E(
        "Every dimension in --input_shape must be a positive number, or -1 for a dynamic axis.",
        "Replace 0 or negative values (other than -1) in --input_shape.",
    ),
    "E10016": _E(
        "A name given in --input_shape, --out_nodes or --input_fp16_nodes is not a node of the model. "
        "Names are case-sensitive; ONNX input names are the graph's input names (not node names); "
        "out nodes are written node_name:output_index; entries are separated by ';'.",
        "Use the names listed on the Inputs page (or by `ascend-workbench model inspect`), e.g. "
        '--input_shape="<input name>:1,3,224,224".',
    ),
    "E10017": _E(
        "The input named in the flag is not a Data (input) op of the model.", "Name one of the model's inputs."
    ),
    "E10021": _E("A path is longer than ATC allows.", "Use a shorter folder or file name."),
    "E10022": _E(
        "--output must end with a file name (ATC appends .om), not a folder.", "Give a name, e.g. --output=./resnet50 ."
    ),
    "E10041": _E(
        "ATC could not load the model file.",
        "Check the path, the file's permissions and that it is "
        "complete (compare its size / checksum with the original).",
    ),
    "E10047": _E("These two flags cannot be used together.", "Remove one of them."),
    "E10052": _E(
        "The AIPP (--insert_op_conf) file breaks a rule; the Reason says which.",
        "Fix the AIPP file as the Reason says (the Preprocessing page checks these rules).",
    ),
    "E10054": _E(
        "A required flag is empty — often because a value with ';' or spaces was not quoted, so the "
        "shell cut the command short.",
        'Give the flag, and quote values such as --input_shape="…".',
    ),
    "E10055": _E("The requested operation is not supported in this mode or version.", "See the Reason."),
    "E10501": _E(
        "The model uses an op type that has no IR registered in this CANN version.",
        "Upgrade CANN, replace the op in the model, or register a custom op.",
    ),
    "E11017": _E(
        "A node given in --out_nodes does not exist in the Caffe model.",
        "Use the layer names of the .prototxt (name:output_index).",
    ),
    "E13001": _E("A file could not be opened.", "Check the path and permissions on the host."),
    "E13005": _E("A file could not be parsed.", "Check that the file is complete and of the expected kind."),
    "E19005": _E(
        "The model file could not be parsed as protobuf. Typical causes: the file is damaged or "
        "incomplete (an interrupted copy, or a Git LFS pointer instead of the model); --framework does "
        "not match the file (e.g. an ONNX file with --framework=3); an ONNX model over 2 GB whose "
        "external-data file is not beside it; or a model written by a newer protobuf/exporter than this "
        "CANN's parser reads.",
        "Check the file's size and checksum against the original and copy it again; set --framework to "
        "the file's real type; keep external-data files next to the .onnx; re-export with an older opset "
        "(e.g. 11–13) or upgrade CANN.",
    ),
    "E19010": _E(
        "The model contains an op that ATC's parser does not know (often an ONNX opset newer than this "
        "CANN supports, or a custom-domain op).",
        "Re-export with a lower opset (11–13), replace the op, or upgrade CANN.",
    ),
    "EZ3003": _E(
        "No kernel in any operator library supports this op (type, dtype or format) on this SoC.",
        "Check that the OPP package matching the toolkit is installed, try --precision_mode=allow_fp32_to_fp16 "
        "or another dtype, replace the op in the model, or ask Huawei for support of the op.",
    ),
    "E40000": _E(
        "A Python component of CANN failed to start (usually a missing Python package).",
        "Install the packages CANN needs in the Python it uses (e.g. pip install decorator sympy "
        "attrs psutil numpy) and source set_env.sh again.",
    ),
    "EC0010": _E(
        "CANN could not import a Python module it needs.",
        "Install the module named in the message in the Python CANN uses (e.g. pip install decorator).",
    ),
    "W11001": _E(
        "Performance warning: the op fell back to a lower-priority op library (often AI CPU) and may be "
        "slow. The conversion itself succeeded.",
        "Usually none is needed; if the op is hot, check its dtype/format or try another op version.",
    ),
    "WB-DASH-SOURCE": _E(
        "The command was run by sh (dash on Debian/Ubuntu), which has no `source` builtin, so "
        "set_env.sh was never loaded.",
        "Run through bash (`bash -c 'source …/set_env.sh && atc …'`) or use `. set_env.sh`; "
        "the workbench always uses bash.",
    ),
    "WB-ATC-NOT-FOUND": _E(
        "atc is not on PATH: the toolkit's set_env.sh was not sourced or the toolkit is not installed there.",
        "Check the host's toolkit path in the host settings (Host ▸ Check).",
    ),
    "WB-UNKNOWN-FLAG": _E(
        "ATC (gflags) refuses unknown flags before doing anything else.",
        "Remove the flag or correct its spelling (flags use underscores: --soc_version).",
    ),
    "WB-DUPLICATE-FLAG": _E("The same flag is set twice.", "Keep one value."),
    "WB-MAXPOOL-AICPU": _E(
        "MaxPool was placed on AI CPU because of its NHWC layout (or an unsupported attribute); "
        "the AI CPU kernel does not support that case, so conversion or inference fails.",
        "Convert with --input_format=NCHW (transpose the model's input to NCHW), or change the "
        "pooling attributes so the AI Core kernel applies.",
    ),
    "WB-OUT-OF-MEMORY": _E(
        "ATC was killed or refused to start for lack of memory (it needs at least 2 GB free).",
        "Free memory on the host, or convert on a machine with more RAM.",
    ),
    "WB-FRAMEWORK-MISMATCH": _E(
        "--framework does not match the model file's type.", "Use 5 for .onnx, 3 for .pb, 0 for .prototxt, 1 for .air."
    ),
    "WB-UNKNOWN-SOC": _E(
        "The SoC is not in the list of known --soc_version values; ATC rejects unknown SoCs.",
        "Use the name `npu-smi info` shows with 'Ascend' in front, e.g. Ascend310P3.",
    ),
    "WB-FAILED": _E("ATC failed without an error code.", "Read the log above; rerun with --log=debug for details."),
}
UNKNOWN = Explanation(
    "An ATC message without an entry in the workbench's catalog.",
    "Read the message; rerun with --log=debug and look at the plog under ~/ascend/log.",
)

_CODE_LINE = re.compile(r"^(?P<code>[EW][A-Z0-9]{5}):\s?(?P<rest>.*)$")
_PID_PREFIX = re.compile(r"^\[PID: \d+\] \d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d+\.\d+ ")
_MAXPOOL_AICPU = re.compile(r"maxpool.*ai ?cpu|ai ?cpu.*maxpool", re.IGNORECASE | re.DOTALL)
# Lines that carry no code but are recognised (checked in order).
PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bsource: not found"), "WB-DASH-SOURCE"),
    (re.compile(r"\batc: (command )?not found"), "WB-ATC-NOT-FOUND"),
    (re.compile(r"^ERROR: unknown command line flag '"), "WB-UNKNOWN-FLAG"),
    (_MAXPOOL_AICPU, "WB-MAXPOOL-AICPU"),
    (re.compile(r"^Killed$|available memory|out of memory|MemoryError", re.IGNORECASE), "WB-OUT-OF-MEMORY"),
)


def explain(code: str, message: str = "") -> Explanation:
    """The explanation of a message: a recognised forum case in its text first, then its code."""
    if _MAXPOOL_AICPU.search(message):  # this forum case hides behind generic codes (EZ9999, E19999…)
        return CATALOG["WB-MAXPOOL-AICPU"]
    return CATALOG.get(code, UNKNOWN)


@dataclass
class Diagnostic:
    code: str
    message: str
    details: list[str] = field(default_factory=list)  # Possible Cause / Solution / TraceBack lines

    @property
    def explanation(self) -> Explanation:
        return explain(self.code, self.message + "\n" + "\n".join(self.details))

    def to_json(self) -> dict:
        ex = self.explanation
        return {
            "code": self.code,
            "message": self.message,
            "explanation": ex.text,
            "fix": ex.fix,
            "details": list(self.details),
        }


@dataclass
class AtcOutcome:
    ok: bool
    success_line: bool
    warnings: list[Diagnostic]
    errors: list[Diagnostic]


def parse_atc_output(stdout: str, stderr: str = "", exit_status: int | None = None) -> AtcOutcome:
    """Errors and warnings of one atc run. ``ok`` needs the success line and (when known) exit 0."""
    warnings: list[Diagnostic] = []
    errors: list[Diagnostic] = []
    last: Diagnostic | None = None
    success = failed = False
    for raw in (stdout + ("\n" if stdout and not stdout.endswith("\n") else "") + stderr).splitlines():
        line = raw.rstrip()
        if line == SUCCESS:
            success = True
            continue
        if line == FAILED:
            failed = True
            continue
        m = _CODE_LINE.match(line)
        if m:
            last = Diagnostic(m["code"], _PID_PREFIX.sub("", m["rest"]))
            (warnings if m["code"].startswith("W") else errors).append(last)
            continue
        if last is not None and line[:1] in (" ", "\t") and line.strip():
            last.details.append(line.strip())
            continue
        last = None
        for pattern, code in PATTERNS:
            if pattern.search(line):
                errors.append(Diagnostic(code, line.strip()))
                break
    ok = success and not failed and (exit_status is None or exit_status == 0)
    if not ok and not errors:
        tail = [ln.strip() for ln in (stdout + "\n" + stderr).splitlines() if ln.strip()][-3:]
        msg = " / ".join(tail) or "no output"
        errors.append(
            Diagnostic(
                "WB-FAILED",
                f"atc exited with status {exit_status}: {msg}"
                if exit_status not in (None, 0)
                else f"atc did not report success: {msg}",
            )
        )
    return AtcOutcome(ok, success, warnings, errors)
