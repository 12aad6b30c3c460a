"""The simulated pyACL runtime: what ``import acl`` gives an application on a simulated toolkit.

``sim install`` puts a thin ``acl`` package under ``<version>/python/site-packages/acl/`` (where the
real toolkit has its ``acl`` extension module; set_env.sh puts that folder on ``PYTHONPATH``); the
package calls :func:`configure` with the toolkit's settings and re-exports this module's API. It is
NOT Huawei's pyACL: it implements the small subset a Python inference app uses, with pyACL's
calling and return conventions (every call returns ``ret``, an ``aclError`` int, 0 on success;
``acl.mdl.load_from_file`` returns ``(model_id, ret)``)::

    ret = acl.init("./acl.json")            # the dump section is read here, as aclInit does
    ret = acl.rt.set_device(0)
    model_id, ret = acl.mdl.load_from_file("./model.om")
    ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    ret = acl.mdl.execute(model_id, ds_in, ds_out)   # writes the model dump acl.json asks for
    ret = acl.mdl.unload(model_id); acl.mdl.destroy_dataset(ds_in); ...
    ret = acl.rt.reset_device(0); ret = acl.finalize()

The dump is written when the model executes, in the real layout
``{dump_path}/{YYYYMMDDhhmmss}/{device}/{model}/{model_id}/{iteration}/`` (:mod:`dumpwriter`; one
time folder per process, one iteration folder per execute). Relative paths (the acl.json, its
``dump_path``, the model) resolve against the process's working folder, as the real runtime does.

The simulated msprof sets ``ASCEND_SIM_RUNTIME_LOG`` to a file; the runtime appends one JSON line
per event (``init``, ``load`` with the model's absolute path, ``dump``) so msprof profiles the
models the application really loaded and does not dump a second time.

Return codes: the aclError table of the pyACL and AscendCL API references ("aclError",
hiascend.com CANN 8.0 ``aclpythondevg_01_0911`` / ``aclcppdevg_03_1345``; runtime 107xxx codes
from ``rt_error_codes.h``, e.g. as quoted by docs.rs ``cann-sys`` acl_error_code.rs). Where the
real runtime's choice of code for a case is not documented, the comment at the code says so.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ENV_RUNTIME_LOG = "ASCEND_SIM_RUNTIME_LOG"
BANNER = "[simulated CANN toolkit]"

ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_UNINITIALIZE = 100001
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_INVALID_FILE = 100003
ACL_ERROR_PARSE_FILE = 100006
ACL_ERROR_INVALID_MODEL_ID = 100011
ACL_ERROR_DESERIALIZE_MODEL = 100012
ACL_ERROR_RT_INVALID_DEVICEID = 107001
ACL_ERROR_RT_CONTEXT_NULL = 107002
# aclmdlLoadFromFile of a path that is no model: the hiascend forum reports 145000 (GE's
# ACL_ERROR_GE_PARAM_INVALID) for a wrong model path (thread 0298151142489510110); not documented per case.
ACL_ERROR_GE_PARAM_INVALID = 145000

NAMES = {v: k for k, v in globals().items() if k.startswith("ACL_ERROR_")}


@dataclass
class _Model:
    path: Path
    model: Any  # workbench.core.dump.omjson.OmModel
    executions: int = 0


@dataclass
class _Runtime:
    config_path: str = ""
    initialized: bool = False
    acl_json: Path | None = None
    acl_config: Any = None  # workbench.core.dump.aclconfig.AclConfig
    device: int | None = None
    devices: set[int] = field(default_factory=set)
    models: dict[int, _Model] = field(default_factory=dict)
    next_model_id: int = 1
    handles: itertools.count[int] = field(default_factory=lambda: itertools.count(0x12C0_0000, 0x40))
    datasets: set[int] = field(default_factory=set)
    contexts: set[int] = field(default_factory=set)
    dump_time: float | None = None


_rt = _Runtime()


def configure(config_path: str = "") -> None:
    """Called by the installed ``acl`` package: the toolkit's ``simulated_toolkit.json``."""
    _rt.config_path = config_path


def _sim_config():
    from workbench.simtoolkit.config import SimConfig, load

    if _rt.config_path:
        try:
            return SimConfig.from_file(Path(_rt.config_path))
        except ValueError:
            pass
    return load()


def _error(api: str, code: int, why: str) -> int:
    """The runtime's error line (the real one goes to the plog; on stderr here) and the code."""
    print(f"{BANNER} [ERROR] {api}: {why} (return code {code} {NAMES.get(code, '')})", file=sys.stderr, flush=True)
    return code


def log_event(event: str, **data: Any) -> None:
    """One JSON line for the simulated msprof, when it started this process (or its parent); the
    simulated torch / torch_npu runtime (:mod:`torchsim`) reports its kernels through it too."""
    target = os.environ.get(ENV_RUNTIME_LOG)
    if not target:
        return
    line = json.dumps({"event": event, "pid": os.getpid(), **data}) + "\n"
    try:
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
    except OSError:
        pass


_log = log_event


def _visible_devices() -> int:
    visible = os.environ.get("ASCEND_RT_VISIBLE_DEVICES", "").strip()
    count = _sim_config().devices
    return len([p for p in visible.split(",") if p.strip()]) if visible else count


# --- acl ----------------------------------------------------------------------------------------------------------
def init(config_path: str = "") -> int:
    """``ret = acl.init(config_path)``: read acl.json (a relative path against the working folder)."""
    from workbench.core.dump.aclconfig import AclConfig, AclConfigError

    if _rt.initialized:
        return _error("aclInit", ACL_ERROR_REPEAT_INITIALIZE, "already initialized")
    cfg = AclConfig()
    path = None
    if config_path:
        path = Path(os.path.abspath(config_path))
        if not path.is_file():
            # not documented which code a missing config file gets: the table's "invalid file"
            return _error("aclInit", ACL_ERROR_INVALID_FILE, f"{config_path}: no such file")
        try:
            cfg = AclConfig.load(path)
        except AclConfigError as exc:
            return _error("aclInit", ACL_ERROR_PARSE_FILE, str(exc))
    _rt.initialized, _rt.acl_json, _rt.acl_config = True, path, cfg
    _log("init", acl_json=str(path or ""), dump=cfg.dump_enabled)
    return ACL_SUCCESS


def finalize() -> int:
    global _rt
    if not _rt.initialized:
        return _error("aclFinalize", ACL_ERROR_UNINITIALIZE, "acl.init was not called")
    _rt = _Runtime(config_path=_rt.config_path)
    return ACL_SUCCESS


# --- acl.rt -------------------------------------------------------------------------------------------------------
def set_device(device_id: int) -> int:
    if not _rt.initialized:
        return _error("aclrtSetDevice", ACL_ERROR_UNINITIALIZE, "acl.init was not called")
    count = _visible_devices()
    if not isinstance(device_id, int) or not 0 <= device_id < count:
        return _error("aclrtSetDevice", ACL_ERROR_RT_INVALID_DEVICEID, f"device {device_id} (devices 0-{count - 1})")
    _rt.device = device_id
    _rt.devices.add(device_id)
    return ACL_SUCCESS


def reset_device(device_id: int) -> int:
    if not _rt.initialized:
        return _error("aclrtResetDevice", ACL_ERROR_UNINITIALIZE, "acl.init was not called")
    if device_id not in _rt.devices:
        return _error("aclrtResetDevice", ACL_ERROR_RT_INVALID_DEVICEID, f"device {device_id} was not set")
    _rt.devices.discard(device_id)
    if _rt.device == device_id:
        _rt.device = next(iter(_rt.devices), None)
    return ACL_SUCCESS


def create_context(device_id: int) -> tuple[int, int]:
    ret = set_device(device_id) if device_id not in _rt.devices else ACL_SUCCESS
    if ret != ACL_SUCCESS:
        return 0, ret
    ctx = next(_rt.handles)
    _rt.contexts.add(ctx)
    return ctx, ACL_SUCCESS


def destroy_context(context: int) -> int:
    if context not in _rt.contexts:
        return _error("aclrtDestroyContext", ACL_ERROR_INVALID_PARAM, f"unknown context {context}")
    _rt.contexts.discard(context)
    return ACL_SUCCESS


# --- acl.mdl ------------------------------------------------------------------------------------------------------
def load_from_file(model_path: str) -> tuple[int, int]:
    """``model_id, ret = acl.mdl.load_from_file(path)``; model ids count from 1 per process."""
    from workbench.core.dump.omjson import parse_om_json
    from workbench.simtoolkit.omfile import OmError, read_om

    api = "aclmdlLoadFromFile"
    if not _rt.initialized:
        return 0, _error(api, ACL_ERROR_UNINITIALIZE, "acl.init was not called")
    if _rt.device is None:
        return 0, _error(api, ACL_ERROR_RT_CONTEXT_NULL, "no current context: call acl.rt.set_device first")
    path = Path(os.path.abspath(str(model_path)))
    if not path.is_file():
        return 0, _error(api, ACL_ERROR_GE_PARAM_INVALID, f"{model_path}: no such model file")
    try:
        model = parse_om_json(read_om(path)["om_json"], str(path))
    except (OmError, ValueError, KeyError) as exc:
        return 0, _error(api, ACL_ERROR_DESERIALIZE_MODEL, f"not an offline model the simulator wrote: {exc}")
    model_id = _rt.next_model_id
    _rt.next_model_id += 1
    _rt.models[model_id] = _Model(path, model)
    _log("load", model=str(path), model_id=model_id, device=_rt.device)
    return model_id, ACL_SUCCESS


def unload(model_id: int) -> int:
    if not _rt.initialized:
        return _error("aclmdlUnload", ACL_ERROR_UNINITIALIZE, "acl.init was not called")
    if _rt.models.pop(model_id, None) is None:
        return _error("aclmdlUnload", ACL_ERROR_INVALID_MODEL_ID, f"model id {model_id} is not loaded")
    return ACL_SUCCESS


def create_dataset() -> int:
    """``dataset = acl.mdl.create_dataset()`` (a handle, no ret, as in pyACL)."""
    handle = next(_rt.handles)
    _rt.datasets.add(handle)
    return handle


def destroy_dataset(dataset: int) -> int:
    if dataset not in _rt.datasets:
        return _error("aclmdlDestroyDataset", ACL_ERROR_INVALID_PARAM, f"unknown dataset {dataset}")
    _rt.datasets.discard(dataset)
    return ACL_SUCCESS


def execute(model_id: int, input_dataset: int, output_dataset: int) -> int:
    """``ret = acl.mdl.execute(model_id, input, output)``: runs the model; writes its dump if asked."""
    api = "aclmdlExecute"
    if not _rt.initialized:
        return _error(api, ACL_ERROR_UNINITIALIZE, "acl.init was not called")
    entry = _rt.models.get(model_id)
    if entry is None:
        return _error(api, ACL_ERROR_INVALID_MODEL_ID, f"model id {model_id} is not loaded")
    if input_dataset not in _rt.datasets or output_dataset not in _rt.datasets:
        return _error(api, ACL_ERROR_INVALID_PARAM, "input and output must be datasets from acl.mdl.create_dataset")
    iteration = entry.executions
    entry.executions += 1
    _dump(entry, model_id, iteration)
    return ACL_SUCCESS


def _dump(entry: _Model, model_id: int, iteration: int) -> None:
    if _rt.acl_config is None:
        return
    settings = _rt.acl_config.model_dump(entry.model.name, Path(entry.path).stem)
    if settings is None:
        return
    if _rt.dump_time is None:
        _rt.dump_time = time.time()
    job = {
        "om": str(entry.path),
        "acl_json": str(_rt.acl_json),
        "cwd": os.getcwd(),
        "device_id": _rt.device or 0,
        "model_id": model_id,
        "iteration": iteration,
        "when": _rt.dump_time,
    }
    files = _write_dump(job)
    _log("dump", model=str(entry.path), model_id=model_id, files=files)


def _write_dump(job: dict[str, Any]) -> int:
    """Write one execution's dump; the number of files. In this process when it can (numpy), else
    with the interpreter that installed the toolkit (the app's own Python may lack numpy)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        python = _sim_config().python or sys.executable
        env = dict(os.environ)
        import workbench

        parent = str(Path(workbench.__file__).resolve().parent.parent)
        env["PYTHONPATH"] = parent + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        done = subprocess.run(
            [python, "-m", "workbench.simtoolkit.pyacl", json.dumps(job)], env=env, stdout=subprocess.PIPE, check=False
        )
        return int(done.stdout.strip() or 0) if done.returncode == 0 else 0
    return len(dump_job(job))


def dump_job(job: dict[str, Any]) -> list[Path]:
    """The dump of one execution described by ``job`` (see :func:`_dump`)."""
    from workbench.core.dump.aclconfig import AclConfig
    from workbench.core.dump.omjson import parse_om_json
    from workbench.simtoolkit.dumpwriter import dump_model_run
    from workbench.simtoolkit.omfile import read_om

    om = Path(job["om"])
    model = parse_om_json(read_om(om)["om_json"], str(om))
    settings = AclConfig.load(job["acl_json"]).model_dump(model.name, Path(om).stem)
    if settings is None:
        return []
    return dump_model_run(
        model,
        settings,
        job["cwd"],
        device_id=int(job["device_id"]),
        model_id=int(job["model_id"]),
        iteration=int(job["iteration"]),
        when=float(job["when"]),
    )


rt = SimpleNamespace(
    set_device=set_device, reset_device=reset_device, create_context=create_context, destroy_context=destroy_context
)
mdl = SimpleNamespace(
    load_from_file=load_from_file,
    execute=execute,
    unload=unload,
    create_dataset=create_dataset,
    destroy_dataset=destroy_dataset,
)


def runtime_events(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The events an ``ASCEND_SIM_RUNTIME_LOG`` file holds (damaged lines skipped)."""
    events = []
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and isinstance(event.get("event"), str):
            events.append(event)
    return events


ACL_PACKAGE = '''"""Simulated pyACL (Ascend Workbench's simulated CANN toolkit): this is NOT Huawei's ``acl`` module.

It imitates the small subset of pyACL a Python inference app uses (acl.init, acl.finalize,
acl.rt.set_device / reset_device / create_context / destroy_context, acl.mdl.load_from_file /
execute / unload / create_dataset / destroy_dataset) and writes the acl.json model dump when a
model executes. The implementation is ``workbench.simtoolkit.pyacl``.
"""

import sys as _sys

if {parent!r} not in _sys.path:
    _sys.path.append({parent!r})

from workbench.simtoolkit import pyacl as _pyacl  # noqa: E402

_pyacl.configure({config!r})
init = _pyacl.init
finalize = _pyacl.finalize
rt = _pyacl.rt
mdl = _pyacl.mdl
ACL_SUCCESS = _pyacl.ACL_SUCCESS
'''


def package_text(workbench_parent: str, config_path: str) -> str:
    """The installed ``acl/__init__.py``."""
    return ACL_PACKAGE.format(parent=workbench_parent, config=config_path)


if __name__ == "__main__":  # the dump of one execution, for an app whose Python lacks numpy
    print(len(dump_job(json.loads(sys.argv[1]))))
