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

The package's names load on first use (PEP 562), so that ``convert --help`` / ``model --help`` (which
import ``workbench.core.atc.cli``, hence this package) pay for none of these modules: ``run`` and
``structure`` pull in the transports, the toolkit detection and npu-smi. Two names, ``validate`` and
``explain``, are also the names of the submodules defining them; the package keeps the function
whatever is imported when (see :class:`_Package`).
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# Each package name -> the submodule defining it.
_HOMES = {
    "AippConfig": "aipp",
    "AippError": "aipp",
    "AippOp": "aipp",
    "check_aipp": "aipp",
    "parse_aipp": "aipp",
    "read_aipp": "aipp",
    "write_aipp": "aipp",
    "Diagnostic": "explain",
    "Explanation": "explain",
    "explain": "explain",
    "parse_atc_output": "explain",
    "ConversionJob": "job",
    "InputSpec": "job",
    "Produced": "job",
    "Upload": "job",
    "apply_flag": "job",
    "command": "job",
    "command_line": "job",
    "files_produced": "job",
    "files_to_upload": "job",
    "ModelInfoError": "modelinfo",
    "ModelInputs": "modelinfo",
    "TensorInfo": "modelinfo",
    "detect_framework": "modelinfo",
    "inspect_model": "modelinfo",
    "ConversionResult": "run",
    "JobInvalid": "run",
    "propose_soc_version": "run",
    "run_conversion": "run",
    "ModelStructure": "structure",
    "OpEntry": "structure",
    "model_structure": "structure",
    "Issue": "validate",
    "validate": "validate",
}


def __getattr__(name: str) -> Any:
    import importlib

    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value  # the dict itself: not through _Package.__setattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


class _Package(types.ModuleType):
    """This package's module type: a package name is never replaced by a submodule.

    The first import of a submodule (``import workbench.core.atc.validate``, or any module doing
    ``from workbench.core.atc.validate import Issue``) ends with the import system setting the
    submodule as an attribute of its package. For ``validate`` and ``explain`` that attribute is
    the function of the same name: were the module stored, ``atc.validate(job)`` and ``from
    workbench.core.atc import explain`` would get the module ("'module' object is not callable").
    The submodule stays reachable as ``sys.modules["workbench.core.atc.validate"]`` and through
    ``from workbench.core.atc.validate import …``, as before these names loaded lazily.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _HOMES and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

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
