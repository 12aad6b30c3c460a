"""The ATC model converter, Qt-free: what the Model Converter wizard and ``ascend-workbench convert``
/ ``model`` are built on.

- :mod:`flags` — ATC's flag catalog, console lines and message templates (shared with the simulator)
- :mod:`job` — :class:`ConversionJob`, ``command(job)``, ``command_line(job)``, files to upload / produced
- :mod:`validate` — ``validate(job) -> [Issue(code, field, message, severity)]`` mirroring ATC's checks
- :mod:`modelinfo` — ``inspect_model(path) -> ModelInputs`` (ONNX, Caffe, TensorFlow .pb)
- :mod:`aipp` — the ``--insert_op_conf`` model, reader, writer and constraints
- :mod:`explain` — the error explainer and the parser of atc's console output
- :mod:`run` — ``run_conversion(job, transport, toolkit, progress=, cancel=)`` and project history
- :mod:`structure` — ``model_structure(path, transport)``: searchable op list of an .om / ONNX model
"""

from workbench.core.atc.aipp import AippConfig, AippError, AippOp, check_aipp, parse_aipp, read_aipp, write_aipp
from workbench.core.atc.explain import Diagnostic, Explanation, explain, parse_atc_output
from workbench.core.atc.job import (
    ConversionJob,
    InputSpec,
    Produced,
    Upload,
    apply_flag,
    command,
    command_line,
    files_produced,
    files_to_upload,
)
from workbench.core.atc.modelinfo import ModelInfoError, ModelInputs, TensorInfo, detect_framework, inspect_model
from workbench.core.atc.run import ConversionResult, JobInvalid, propose_soc_version, run_conversion
from workbench.core.atc.structure import ModelStructure, OpEntry, model_structure
from workbench.core.atc.validate import Issue, validate

__all__ = [
    "AippConfig",
    "AippError",
    "AippOp",
    "ConversionJob",
    "ConversionResult",
    "Diagnostic",
    "Explanation",
    "InputSpec",
    "Issue",
    "JobInvalid",
    "ModelInfoError",
    "ModelInputs",
    "ModelStructure",
    "OpEntry",
    "Produced",
    "TensorInfo",
    "Upload",
    "apply_flag",
    "check_aipp",
    "command",
    "command_line",
    "detect_framework",
    "explain",
    "files_produced",
    "files_to_upload",
    "inspect_model",
    "model_structure",
    "parse_aipp",
    "parse_atc_output",
    "propose_soc_version",
    "read_aipp",
    "run_conversion",
    "validate",
    "write_aipp",
]
