"""Simulated ``msprof`` (``tools/profiler/bin/msprof``): really runs the application, then writes
a ``PROF_*`` folder of the toolkit's CANN version with the profiling data generator.

Command line as the real one (docs/cann-formats.md §1.1, msprof's input parser): ``--name=value`` or
``--name value`` options; the first argument not starting with ``--`` begins the application
(``msprof --output=d python3 train.py``) unless ``--application="cmd args"`` is given (it wins).
Console lines are the real ``CmdLog`` ones on stdout (``[INFO] Start profiling....``, the export and
query lines, ``[INFO] Profiling finished.``, ``[INFO] Process profiling data complete. Data is saved
in <dir>``); errors are ``[ERROR] Argument --x: …`` and exit 255 (msprof returns -1). An unknown
option gets getopt's ``msprof: unrecognized option '--x'`` on stderr and the help text.

What is profiled: the ops of the models the application loaded through the simulated pyACL
runtime (:mod:`pyacl`: msprof gives the app ``ASCEND_SIM_RUNTIME_LOG``, a file the runtime appends
its loads and dumps to; the runtime has written the acl.json dump itself), or the kernels a PyTorch
script launched on the simulated torch / torch_npu runtime (:mod:`torchsim`: one event per op on an npu
tensor, in launch order, the whole run as one iteration); a script that imported torch_npu but launched
no kernel gets no PROF_* folder (there is no device data). For an application that
did not use it (a C++ binary the simulator cannot watch), the model it runs (:mod:`appmodels`: the
first existing ``.om`` written by the simulated atc, or ``.onnx``, among its arguments or named in
its script) and the runtime's dump after it (:func:`dumpwriter.dump_after_app`). Ops are in the
model's execution order; only when it runs no model the simulator knows, a canned
workload (ResNet-50 as an offline model, or a small transformer in torch_npu eager style when the
app is a Python script). Either way a ``[simulated CANN toolkit] profiling …`` line on stderr says
which. Devices: ``ASCEND_RT_VISIBLE_DEVICES`` (physical ids) or device 0. The data is
deterministic for the same inputs; only the folder's timestamp follows the clock.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from workbench.simtoolkit import config as simconfig
from workbench.simtoolkit.install import ENV_SAVED_PYTHONPATH
from workbench.simtoolkit.pyacl import ENV_RUNTIME_LOG, runtime_events

EXIT_FAILED = 255
SWITCHES = (
    "ascendcl",
    "model-execution",
    "runtime-api",
    "hccl",
    "aicpu",
    "ai-core",
    "l2",
    "sys-hardware-mem",
    "sys-cpu-profiling",
    "sys-profiling",
    "sys-pid-profiling",
    "sys-io-profiling",
    "sys-interconnection-profiling",
    "dvpp-profiling",
    "msproftx",
    "export",
    "parse",
    "query",
    "clear",
    "dynamic",
    "instr-profiling",
)
RANGES = {
    "sys-sampling-freq": (1, 10),
    "sys-pid-sampling-freq": (1, 10),
    "sys-cpu-freq": (1, 50),
    "sys-interconnection-freq": (1, 50),
    "host-sys-usage-freq": (1, 50),
    "aic-freq": (1, 100),
    "aiv-freq": (1, 100),
    "sys-io-sampling-freq": (1, 100),
    "dvpp-freq": (1, 100),
    "sys-hardware-mem-freq": (1, 100),
    "sys-period": (1, 2592000),
    "delay": (1, 4294967295),
    "duration": (1, 4294967295),
    "pid": (1, 4294967295),
}
VALUES = {
    "task-time": ("on", "off", "l0", "l1", "l2", "l3"),
    "aic-mode": ("task-based", "sample-based"),
    "aiv-mode": ("task-based", "sample-based"),
    "llc-profiling": ("read", "write"),
    "type": ("text", "db"),
    "summary-format": ("csv", "json"),
}
METRICS = (
    "ArithmeticUtilization",
    "PipeUtilization",
    "Memory",
    "MemoryL0",
    "MemoryUB",
    "ResourceConflictRatio",
    "L2Cache",
    "PipelineExecuteUtilization",
    "MemoryAccess",
)
FREE = (
    "output",
    "application",
    "sys-devices",
    "host-sys",
    "host-sys-usage",
    "model-id",
    "iteration-id",
    "python-path",
    "reports",
    "storage-limit",
    "environment",
    "rule",
    "aic-metrics",
    "aiv-metrics",
)
OPTIONS = set(SWITCHES) | set(RANGES) | set(VALUES) | set(FREE) | {"help"}
HELP = """Usage:
      ./msprof [--options] <app> [app arguments]
Options:
   --output=<path>                 Specify the directory that is used for storing data (default: current directory).
   --application=<cmd>             Specify the application to be profiled (the trailing <app> form is preferred).
   --ascendcl=on|off               Show AscendCL API data (default: on).
   --runtime-api=on|off            Show runtime API data (default: off).
   --task-time=on|off|l0|l1|l2     Show task time data (default: on).
   --aicpu=on|off                  Show AI CPU data (default: off).
   --ai-core=on|off                Turn on AI Core PMU collection (default: on with task-time).
   --aic-mode=task-based|sample-based
   --aic-freq=<1-100>              AI Core sampling frequency in Hz (default: 100).
   --aic-metrics=<group>           ArithmeticUtilization|PipeUtilization|Memory|MemoryL0|MemoryUB|ResourceConflictRatio|L2Cache|MemoryAccess
   --l2=on|off                     L2 cache data (default: off).
   --sys-hardware-mem=on|off       DDR/HBM/LLC data; --sys-hardware-mem-freq=<1-100>.
   --sys-period=<s> --sys-devices=all|<ids>   System data collection without an application.
   --msproftx=on|off               msproftx data (default: off).
   --type=text|db                  Export type (default: text).
   --export=on --output=<PROF dir> Export collected data; --query=on lists it.
   --help                          Show this help message.
(simulated CANN toolkit)
"""


class MsprofError(Exception):
    """A command-line error; the message is printed after ``[ERROR] ``."""


def info(text: str) -> None:
    print(f"[INFO] {text}", flush=True)


def split_argv(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(msprof options, application argv) as the real SplitApplicationArgv does."""
    opts: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg.startswith("--"):
            opts.append(arg)
            if "=" not in arg and i + 1 < len(argv):
                opts.append(argv[i + 1])
                i += 1
            i += 1
        else:
            return opts, list(argv[i:])
    return opts, []


def parse_options(opts: Sequence[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    i = 0
    while i < len(opts):
        raw = opts[i]
        name, eq, value = raw[2:].partition("=")
        if not eq:
            value = opts[i + 1] if i + 1 < len(opts) else ""
            i += 1
        i += 1
        if name not in OPTIONS:
            raise KeyError(raw.split("=")[0])
        params[name] = value
        _check(name, value)
    return params


def _check(name: str, value: str) -> None:
    if name in SWITCHES and value not in ("on", "off"):
        raise MsprofError(f"Argument --{name}: invalid value: {value}. Please input 'on' or 'off'.")
    if name in VALUES and value not in VALUES[name]:
        allowed = " or ".join(f"'{v}'" for v in VALUES[name])
        raise MsprofError(f"Argument --{name}: invalid value: {value}. Please input {allowed}.")
    if name in RANGES:
        lo, hi = RANGES[name]
        if not value:
            raise MsprofError(f"Argument --{name} is empty, please enter a valid value.")
        if not value.isdigit():
            raise MsprofError(f"Argument --{name}: invalid value: {value}.Please input an integer value in {lo}-{hi}.")
        if not lo <= int(value) <= hi:
            raise MsprofError(
                f"Argument --{name}: invalid int value: {int(value)}.Please input data is in {lo} to {hi}."
            )
    if name == "aic-metrics" and value not in METRICS and not value.startswith("0x"):
        raise MsprofError(
            f"Argument --aic-metrics: invalid value: {value}. Please input in the range of [{'|'.join(METRICS)}]"
        )
    if name in ("output", "application") and not value:
        raise MsprofError(f"Argument --{name}: expected one argument")


def _output_dir(params: dict[str, str]) -> Path:
    out = Path(params.get("output") or ".").absolute()
    bad = set("\n\f\r\b\t\v\x7f\"'\\%><|&$;`")
    if bad & set(str(out)):
        raise MsprofError(f"Argument --output {out} contains invalid character.")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MsprofError(f"Create output dir failed.ErrorCode: {exc.errno}, ErrorInfo: {exc.strerror}.") from None
    if not os.access(out, os.W_OK):
        raise MsprofError(f"Argument --output {out} permission denied.")
    return out


def _app_env() -> dict[str, str]:
    """The caller's environment, with the PYTHONPATH the launcher replaced given back."""
    env = dict(os.environ)
    saved = env.pop(ENV_SAVED_PYTHONPATH, None)
    env.pop(simconfig.ENV_CONFIG, None)
    env.pop(ENV_RUNTIME_LOG, None)
    if saved == "unset":
        env.pop("PYTHONPATH", None)
    elif saved and saved.startswith("set:"):
        env["PYTHONPATH"] = saved[4:]
    return env


def _resolve_app(app: list[str]) -> list[str]:
    exe = app[0]
    if "/" in exe:
        if not os.path.exists(exe):
            raise MsprofError(f"App path({os.path.abspath(exe)}) does not exist or permission denied.")
        if not os.access(exe, os.X_OK):
            raise MsprofError(f"This app({os.path.abspath(exe)}) has no executable permission.")
    elif shutil.which(exe) is None:
        raise MsprofError(f"App path({exe}) does not exist or permission denied.")
    return app


def run_app(app: list[str], runtime_log: str | None = None) -> int:
    """Run the application with our stdout/stderr (streamed as it prints); forward SIGINT/SIGTERM.
    ``runtime_log``: the file the simulated pyACL runtime reports to (``ASCEND_SIM_RUNTIME_LOG``)."""
    sys.stdout.flush()
    env = _app_env()
    if runtime_log:
        env[ENV_RUNTIME_LOG] = runtime_log
    proc = subprocess.Popen(app, env=env)

    def forward(signum, _frame):
        proc.send_signal(signum)

    old = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        return proc.wait()
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def pick_workload(app: list[str], cwd: str | os.PathLike[str] | None = None):
    """``(workload, note)``: the ops of the model the application runs (the first simulated ``.om``
    or ``.onnx`` :func:`appmodels.model_files` finds: its arguments, then the paths in its script),
    else a canned workload (a small transformer in torch_npu eager style for a Python training
    script, ResNet-50 otherwise). ``note`` is the simulator's line saying what was profiled."""
    from workbench.simtoolkit import profdata
    from workbench.simtoolkit.appmodels import model_files
    from workbench.simtoolkit.omfile import OmError, read_om

    skipped = []
    for path in model_files(app, cwd):
        try:
            if path.suffix == ".om":
                ops = read_om(path)["workload"]
                workload = profdata.Workload.from_dicts(path.stem, ops, kind="model")
            else:
                workload = profdata.workload_from_onnx(path)
        except (OmError, ValueError, KeyError, TypeError) as exc:  # OmError names the file itself
            skipped.append(str(exc) if isinstance(exc, OmError) else f"{path} ({type(exc).__name__}: {exc})")
            continue
        return workload, (
            f"{simconfig.BANNER} profiling the ops of {path} ({len(workload.ops)} ops of model {workload.name})"
        )
    if any(Path(a).name.startswith("python") for a in app[:1]) and any(a.endswith(".py") for a in app):
        workload, what = profdata.transformer_workload(), "a canned transformer workload (torch_npu eager ops)"
    else:
        workload, what = profdata.resnet50_workload(), "a canned ResNet-50 offline-model workload"
    why = (
        ("not a model the simulator knows: " + "; ".join(skipped))
        if skipped
        else "the application runs no .om or .onnx model the simulator can find"
    )
    return workload, f"{simconfig.BANNER} {why}; profiling {what}"


def loaded_workload(events: list[dict]):
    """``(workload, note)`` of the models the simulated runtime loaded (in load order, each once),
    or None when it loaded none the simulator can read."""
    from workbench.simtoolkit import profdata
    from workbench.simtoolkit.omfile import OmError, read_om

    paths = list(dict.fromkeys(str(e.get("model")) for e in events if e.get("event") == "load" and e.get("model")))
    parts = []
    for path in paths:
        try:
            parts.append(profdata.Workload.from_dicts(Path(path).stem, read_om(Path(path))["workload"], kind="model"))
        except (OmError, ValueError, KeyError, TypeError):
            continue
    if not parts:
        return None
    workload = parts[0]
    if len(parts) > 1:
        name = "+".join(w.name for w in parts)
        workload = profdata.Workload(name, tuple(op for w in parts for op in w.ops), "model", model_name=name)
    what = "; ".join(f"{p} ({len(w.ops)} ops of model {w.name})" for p, w in zip(paths, parts))
    return workload, f"{simconfig.BANNER} profiling the ops of the models the application loaded: {what}"


NO_KERNELS = (
    "the application started the simulated torch_npu runtime but launched no kernel on the NPU: "
    "no device data, no PROF_* folder written"
)


def torch_ran(events: list[dict]) -> bool:
    """Did the application start the simulated torch / torch_npu runtime?"""
    from workbench.simtoolkit.torchsim.runtime import ran_torch

    return ran_torch(events)


def torch_workload(events: list[dict], app: list[str]):
    """``(workload, note)`` of the kernels the application launched on the simulated torch_npu runtime (in
    launch order, every kernel of the run), or None when it launched none."""
    from workbench.simtoolkit.torchsim.runtime import EVENT_INIT, kernel_events, workload_of

    kernels = kernel_events(events)
    if not kernels:
        return None
    script = next((str(e.get("script")) for e in events if e.get("event") == EVENT_INIT and e.get("script")), "")
    script = script or next((a for a in app if a.endswith(".py")), app[0])
    workload = workload_of(Path(script).stem, kernels)
    types = len({k.get("type") for k in kernels})
    return workload, (
        f"{simconfig.BANNER} profiling the ops {script} ran on the simulated torch_npu runtime "
        f"({len(kernels)} kernels of {types} op types)"
    )


def _devices(cfg: simconfig.SimConfig) -> list[int]:
    visible = os.environ.get("ASCEND_RT_VISIBLE_DEVICES", "").strip()
    if not visible:
        return [0]
    ids = []
    for part in visible.split(","):
        if not part.strip().isdigit() or int(part) >= cfg.devices:
            raise MsprofError(
                f"ASCEND_RT_VISIBLE_DEVICES={visible}: device {part.strip()} does not exist "
                f"(this host has devices 0-{cfg.devices - 1})."
            )
        ids.append(int(part))
    return ids


def profiler_soc(soc_version: str) -> str:
    """The generator's chip for a simulated SoC (the 910 family variants share one profile)."""
    from workbench.simtoolkit.profdata.chips import CHIPS

    if soc_version in CHIPS:
        return soc_version
    return "Ascend910" if soc_version in ("Ascend910A", "Ascend910B") else "Ascend910B2"


def _query_table(prof: Path, devices: list[int], start_ns: int) -> str:
    header = [
        "Job Info",
        "Device ID",
        "Dir Name",
        "Collection Time",
        "Model ID",
        "Iteration Number",
        "Top Time Iteration",
        "Rank ID",
    ]

    def when(offset_ns: int) -> str:
        t = (start_ns + offset_ns) / 1e9
        return (
            time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + f".{(start_ns + offset_ns) // 1000 % 1_000_000:06d}"
        )

    rows = [["NA", "", "host", when(4_000_000), "N/A", "N/A", "N/A", "1"]]
    rows += [
        ["NA", str(d), f"device_{d}", when(4_000_000_000 + d * 1_000_000), "N/A", "N/A", "N/A", "1"] for d in devices
    ]
    widths = [max(len(r[k]) for r in [header, *rows]) + 1 for k in range(len(header))]
    lines = ["".join(c.ljust(w) for c, w in zip(r, widths)) for r in [header, *rows]]
    return "\n\n".join(lines) + "\n"


def collect(params: dict[str, str], app: list[str], cfg: simconfig.SimConfig) -> int:
    from workbench.simtoolkit import profdata

    out = _output_dir(params)
    devices = _devices(cfg)
    app = _resolve_app(app)
    info("Start profiling....")
    start_ns = time.time_ns()
    fd, runtime_log = tempfile.mkstemp(prefix="msprof-runtime-", suffix=".jsonl")
    os.close(fd)
    try:
        run_app(app, runtime_log)
        events = runtime_events(runtime_log)
    finally:
        os.unlink(runtime_log)
    picked = loaded_workload(events)
    iterations = 2
    if picked is None and torch_ran(events):
        picked, iterations = torch_workload(events, app), 1
        if picked is None:
            print(f"{simconfig.BANNER} {NO_KERNELS}", file=sys.stderr, flush=True)
            info("Profiling finished.")
            return 0
    if not events:  # not a pyACL app: the runtime's acl.json dump as the simulator guesses it
        from workbench.simtoolkit.dumpwriter import dump_after_app

        dump_after_app(app)
    workload, note = picked or pick_workload(app)
    print(note, file=sys.stderr, flush=True)
    metrics = (
        None
        if params.get("ai-core") == "off" or params.get("task-time") in ("off", "l0")
        else params.get("aic-metrics", "PipeUtilization")
    )
    seed = int(hashlib.sha256(" ".join([workload.name, *app[1:]]).encode()).hexdigest()[:8], 16)
    prof = profdata.write_msprof_prof(
        out,
        workload,
        cann_version=cfg.cann_version,
        soc=profiler_soc(cfg.soc_version),
        devices=devices,
        iterations=iterations,
        aic_metrics=metrics,
        seed=seed,
        start_ns=start_ns - start_ns % 1_000_000,
        pid=os.getpid(),
    )
    info(f"Start export data in {prof.name}.")
    info(f"Export all data in {prof.name} done.")
    info(f"Start query data in {prof.name}.")
    sys.stdout.write(_query_table(prof, devices, start_ns))
    info(f"Query all data in {prof.name} done.")
    info("Profiling finished.")
    info(f"Process profiling data complete. Data is saved in {prof}")
    return 0


def export(params: dict[str, str]) -> int:
    target = Path(params.get("output") or ".").absolute()
    profs = [target] if target.name.startswith("PROF_") else sorted(target.glob("PROF_*"))
    if not profs or not all(p.is_dir() for p in profs):
        raise MsprofError(f"Argument --output {target} is invalid: no PROF_* collection found.")
    for p in profs:
        info(f"Start export data in {p.name}.")
        info(f"Export all data in {p.name} done.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    simconfig.banner()
    cfg = simconfig.load()
    if not argv:
        sys.stdout.write(HELP)
        return EXIT_FAILED
    opts, app = split_argv(argv)
    try:
        params = parse_options(opts)
    except KeyError as exc:
        print(f"msprof: unrecognized option '{exc.args[0]}'", file=sys.stderr)
        sys.stdout.write(HELP)
        return EXIT_FAILED
    except MsprofError as exc:
        print(f"[ERROR] {exc}", flush=True)
        return EXIT_FAILED
    if "help" in params:
        sys.stdout.write(HELP)
        return 0
    if params.get("application"):
        app = shlex.split(params["application"])  # --application has the higher priority
    try:
        if params.get("export") == "on" or params.get("parse") == "on" or params.get("query") == "on":
            return export(params)
        if not app:
            raise MsprofError("Argument --application: expected one argument")
        return collect(params, app, cfg)
    except MsprofError as exc:
        print(f"[ERROR] {exc}", flush=True)
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
