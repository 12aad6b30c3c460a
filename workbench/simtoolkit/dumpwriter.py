"""The simulated runtime's model dump: real-format dump files for a model's ops (docs/cann-formats.md §7.1).

When an application run through the simulated toolkit uses an acl.json with model dump enabled
(``dump_list`` naming the model, by the om JSON's ``name`` or the om file stem), every dumped op
gets a file ``{op_type}.{op_name}.{task_id}.{stream_id}.{timestamp}`` under
``{dump_path}/{YYYYMMDDhhmmss}/{device_id}/{model_name}/{model_id}/{iteration}/``: the 8-byte
header length, the DumpData message, then the raw tensors, with the dtypes, device layouts
(NC1HWC0, FRACTAL_NZ …) and original shapes of the om JSON's tensor descs. Values are
deterministic pseudo-random numbers per op. :func:`write_golden` makes matching ground-truth
``{op}.{index}.{timestamp}.npy`` files (the NPU values in the original layout, plus noise) for
demos and tests of the accuracy comparison.
"""

from __future__ import annotations

import glob
import hashlib
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

from workbench.core.dump import dtypes, formats
from workbench.core.dump.aclconfig import AclConfig, AclConfigError, DumpSettings
from workbench.core.dump.convert import save_npy
from workbench.core.dump.dumpfile import TensorSpec, read_dump, write_dump
from workbench.core.dump.omjson import OmModel, OmOp, TensorDesc, parse_om_json


def _rng(name: str, seed: int) -> np.random.Generator:
    return np.random.default_rng(int(hashlib.sha256(f"{seed}:{name}".encode()).hexdigest()[:12], 16))


def runtime_shape(dims) -> tuple[int, ...]:
    """The shape a tensor has when the model runs: an om's unknown dims (``-1``, a dynamic-shape
    model) are what the runtime got, 1 here; a real dump never holds a negative dim."""
    return tuple(max(int(d), 1) for d in dims)


def _values(desc: TensorDesc, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    dt = dtypes.DT.get(desc.dtype.removeprefix("DT_"), 1)
    shape = runtime_shape(desc.shape)
    if dt in (1, 2, 12, 27):
        arr = rng.standard_normal(shape).astype(np.float32)
    elif dt == 11:
        arr = rng.random(shape) > 0.5
    else:
        arr = rng.integers(-8, 8, shape).astype(np.int64)
        if dt in (4, 6, 9, 10, 29, 31):
            arr = np.abs(arr)
    return arr, dt


def _to_device(logical: np.ndarray, fmt: int, shape: tuple[int, ...]) -> np.ndarray | None:
    """The inverse of :func:`formats.to_original` for NC1HWC0 and FRACTAL_NZ (zero padding)."""
    if fmt == dtypes.FORMAT_NC1HWC0 and len(shape) == 5 and logical.ndim == 4:
        n, c1, h, w, c0 = shape
        padded = np.zeros((n, c1 * c0, h, w), logical.dtype)
        padded[:, : logical.shape[1]] = logical
        return padded.reshape(n, c1, c0, h, w).transpose(0, 1, 3, 4, 2).copy()
    if fmt == dtypes.FORMAT_FRACTAL_NZ and len(shape) >= 4 and logical.ndim >= 2:
        *batch, n1, m1, m0, n0 = shape
        padded = np.zeros((*batch, m1 * m0, n1 * n0), logical.dtype)
        padded[..., : logical.shape[-2], : logical.shape[-1]] = logical.reshape(*batch, *logical.shape[-2:])
        return padded.reshape(*batch, m1, m0, n1, n0).swapaxes(-4, -2).swapaxes(-3, -2).copy()
    return None


def _origin(op: OmOp, index: int) -> tuple[str, int] | None:
    """The original (framework) op output that output ``index`` of ``op`` computes, if known."""
    d = op.output_descs[index] if index < len(op.output_descs) else None
    if d is not None and d.origin_name:
        return d.origin_name, d.origin_output_index or 0
    return (op.original_op_names[-1], index) if op.original_op_names else None


def _spec(
    desc: TensorDesc,
    rng: np.random.Generator,
    origin: tuple[str, int] | None = None,
    seed: int = 0,
    attach: bool = True,
) -> TensorSpec:
    """Random values; outputs of the same original op share them (in their own layout)."""
    fmt = dtypes.FORMAT.get(desc.layout, dtypes.FORMAT_ND)
    arr, dt = _values(desc, rng)
    original_shape = runtime_shape(desc.origin_shape or ())
    if origin is not None and original_shape and math.prod(original_shape) > 0:
        logical, _ = _values(TensorDesc(dtype=desc.dtype, shape=list(original_shape)), _rng(f"{origin}", seed))
        same = tuple(arr.shape) == original_shape
        device = logical if same else _to_device(logical, fmt, tuple(arr.shape))
        if device is not None and device.size == arr.size:
            arr = device.reshape(arr.shape)
    return TensorSpec(
        dtypes.encode(arr, dt), dt, fmt, tuple(arr.shape), original_shape, original_op=origin if attach else None
    )


def safe_name(op_name: str) -> str:
    """Op names in dump file names: '/' and '.' become '_' (the real runtime's replacement)."""
    return op_name.replace("/", "_").replace(".", "_")


def model_dump_dir(
    dump_path: str | os.PathLike[str],
    model_name: str,
    *,
    device_id: int = 0,
    model_id: int = 1,
    iteration: int = 0,
    when: float | None = None,
) -> Path:
    stamp = time.strftime("%Y%m%d%H%M%S", time.localtime(when if when is not None else time.time()))
    return Path(dump_path) / stamp / str(device_id) / model_name / str(model_id) / str(iteration)


def write_model_dump(
    model: OmModel,
    settings: DumpSettings,
    out_dir: str | os.PathLike[str],
    *,
    seed: int = 0,
    start_us: int | None = None,
) -> list[Path]:
    """Write one dump file per dumped op of ``model`` into ``out_dir``; returns the files in model order."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    wanted = set(settings.layers) if settings.option == "several" else None
    ts = start_us if start_us is not None else time.time_ns() // 1000
    written = []
    for task_id, op in enumerate(o for o in model.ops if o.dumped and (wanted is None or o.name in wanted)):
        rng = _rng(op.name, seed)
        inputs = []
        if settings.dump_mode in ("input", "all"):
            for j, d in enumerate(op.input_descs):
                src, _, idx = (op.inputs[j] if j < len(op.inputs) else "").rpartition(":")
                src_op = model.op(src)
                origin = _origin(src_op, int(idx)) if src_op is not None and idx.isdigit() else None
                inputs.append(_spec(d, rng, origin, seed, attach=False))
        outputs = [_spec(d, rng, _origin(op, i), seed) for i, d in enumerate(op.output_descs)]
        if settings.dump_mode == "input":
            outputs = []
        ts += 7 + len(op.name) % 13
        path = out / f"{op.type}.{safe_name(op.name)}.{task_id + 2}.0.{ts}"
        write_dump(path, op.name, inputs, outputs, dump_time=ts)
        written.append(path)
    return written


def write_golden(
    dump_files: list[Path],
    golden_dir: str | os.PathLike[str],
    *,
    noise: float = 1e-3,
    drift: dict[str, float] | None = None,
    seed: int = 1,
) -> list[Path]:
    """Ground truth for simulated dumps: each output in its original layout, plus relative noise.

    ``drift`` maps op names to a larger noise level (to make an op fall below the cosine threshold).
    Files are named after the output's original op when the dump carries one, else the op name.
    """
    out = Path(golden_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for f in dump_files:
        d = read_dump(f)
        for t in d.outputs:
            arr = t.array()
            conv = formats.to_original(arr, t.format, t.original_shape)
            arr = conv[0] if conv is not None else arr
            if arr.dtype.kind == "f":
                level = (drift or {}).get(d.op_name, noise)
                arr = arr.astype(np.float32)
                arr = arr + level * np.abs(arr).mean() * _rng(d.op_name, seed).standard_normal(arr.shape, np.float32)
            name, index = t.original_op if t.original_op else (d.op_name, t.index)
            if any(out.glob(f"{glob.escape(safe_name(name))}.{index}.*.npy")):
                continue  # several device ops of one original op: the first one's values are the truth
            target = out / f"{safe_name(name)}.{index}.{d.dump_time}.npy"
            save_npy(target, np.ascontiguousarray(arr))
            written.append(target)
    return written


def _find_acl_json(app: list[str], cwd: Path) -> Path | None:
    """The acl.json the app passes to aclInit: a .json among its arguments, an ``acl*.json`` path in
    its script, else ``acl.json`` or ``src/acl.json`` in the working directory."""
    from workbench.simtoolkit.appmodels import argument_paths, script_paths

    candidates = argument_paths(app, cwd, (".json",))
    candidates += [p for p in script_paths(app, cwd, (".json",)) if p.name.startswith("acl")]
    candidates += [cwd / "acl.json", cwd / "src" / "acl.json"]
    return next((p for p in candidates if p.is_file()), None)


def dump_model_run(
    model: OmModel,
    settings: DumpSettings,
    cwd: str | os.PathLike[str],
    *,
    device_id: int = 0,
    model_id: int = 1,
    iteration: int = 0,
    when: float | None = None,
    seed: int = 0,
) -> list[Path]:
    """The runtime's dump of one execution of ``model``: under ``dump_path`` (a relative one against
    ``cwd``, the process's working folder). A missing dump_path folder or a failed write is the
    runtime's warning on stderr and [] — it never fails the run."""
    dump_path = Path(settings.dump_path)
    dump_path = dump_path if dump_path.is_absolute() else Path(cwd) / dump_path
    if not dump_path.is_dir():
        print(f"[WARNING] acl.json dump_path {dump_path} does not exist: nothing dumped", file=sys.stderr)
        return []
    out = model_dump_dir(dump_path, model.name, device_id=device_id, model_id=model_id, iteration=iteration, when=when)
    try:
        return write_model_dump(model, settings, out, seed=seed)
    except OSError as exc:
        print(f"[WARNING] dump to {dump_path} failed: {exc}", file=sys.stderr)
        return []


def dump_after_app(app: list[str], cwd: str | os.PathLike[str] | None = None, *, seed: int = 0) -> list[Path]:
    """What the simulated runtime dumps after ``app`` ran: [] when no acl.json enables a model dump.

    For an application the simulator cannot watch (a C++ binary: :mod:`pyacl` is the runtime of
    Python apps). The models are the simulated ``.om`` files the app uses
    (:func:`appmodels.model_files`: its arguments, then the paths in its script); the first one the
    dump_list names is dumped. Problems are reported on stderr as the runtime's warnings and never
    fail the run.
    """
    from workbench.simtoolkit.appmodels import model_files
    from workbench.simtoolkit.omfile import OmError, read_om

    base = Path(cwd or os.getcwd())
    acl_path = _find_acl_json(app, base)
    if acl_path is None:
        return []
    try:
        cfg = AclConfig.load(acl_path)
    except AclConfigError as exc:
        print(f"[WARNING] acl.json: {exc}", file=sys.stderr)
        return []
    if not cfg.dump or not cfg.dump.get("dump_list"):
        return []
    for om in model_files(app, base, suffixes=(".om",)):
        try:
            model = parse_om_json(read_om(om)["om_json"], str(om))
        except (OmError, ValueError, KeyError):
            continue
        settings = cfg.model_dump(model.name, Path(om).stem)
        if settings is None:
            continue
        return dump_model_run(model, settings, base, seed=seed)
    return []
