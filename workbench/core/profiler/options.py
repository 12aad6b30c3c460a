"""The System Profiler job: every field of MindStudio's New Profiling wizard, with its defaults.

Pages (as MindStudio's System Profiler wizard has them): *Project Properties* (name, location:
where results are kept, one
folder per run), *Executable Properties* (run mode, host, deployment, app project path and its
detected type, executable with arguments and environment variables, toolkit path, devices) and
*Profiling Options*. Defaults are msprof's own (docs/cann-formats.md §1.1), which MindStudio's
"defaults OK" page uses: AscendCL on, Runtime API off, task time on (l1), AI Core on, task-based,
PipeUtilization, sampling at 100 Hz, AI CPU / MsprofTX / device memory / host sampling / HCCL off.

A job is plain data (``to_dict`` / ``from_dict`` for the project history); :meth:`validate`
raises :class:`JobError` naming the field and what was expected.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from workbench.core.profiler.chips import ALL_GROUPS, DEFAULT_GROUP
from workbench.core.services.transport import check_env_name

REMOTE, LOCAL = "Remote", "Local"
RUN_MODES = (REMOTE, LOCAL)
BINARY, PYTHON, SHELL = "binary", "python", "shell"
EXECUTABLE_TYPES = (BINARY, PYTHON, SHELL)
TASK_BASED, SAMPLE_BASED = "task-based", "sample-based"
AIC_MODES = (TASK_BASED, SAMPLE_BASED)
TASK_TIME_LEVELS = ("l0", "l1", "l2", "off")
HOST_SYS = ("cpu", "mem", "disk", "network")  # msprof --host-sys order; "osrt" comes from os_runtime_api
FREQ_RANGE = (1, 100)  # --aic-freq and --sys-hardware-mem-freq (msprof's ranges)
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

# English labels the UI translates (core never translates).
LABELS = {
    REMOTE: "Remote",
    LOCAL: "Local",
    BINARY: "Binary",
    PYTHON: "Python script",
    SHELL: "Shell script",
    TASK_BASED: "Task-based",
    SAMPLE_BASED: "Sample-based",
    "l0": "Level 0 (launch and execution time only)",
    "l1": "Level 1 (adds op information)",
    "l2": "Level 2 (adds op attributes)",
    "off": "Off",
    "cpu": "CPU",
    "mem": "Memory",
    "disk": "Disk",
    "network": "Network",
}


class JobError(ValueError):
    """A profiling job field is wrong; the message names the field and what was expected."""

    def __init__(self, message: str, field_name: str = "") -> None:
        super().__init__(message)
        self.field = field_name


@dataclass
class ProfilingJob:
    # --- Project Properties ------------------------------------------------------------------
    name: str = "profiling"  # results folder name (MindStudio's Project Name)
    location: str = ""  # local folder holding it; "" = <app project>/.ascend-workbench
    # --- Executable Properties ---------------------------------------------------------------
    run_mode: str = REMOTE
    host: str = ""  # host name; "demo" = the demo host
    project_path: str = ""  # local app project folder ("" = no project: nothing deployed)
    project_type: str = ""  # detected: Ascend App / Ascend Operator / Ascend Training
    deploy: bool = True  # sync the project to the host before running (Remote mode)
    executable: str = ""  # on the host: absolute, or relative to the working folder
    executable_type: str = BINARY
    python: str = "python3"  # interpreter for Python scripts
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str = ""  # working folder on the host ("" = the deployed project / home)
    toolkit: str = ""  # toolkit path on the host ("" = the host's setting, else detect)
    devices: list[int] = field(default_factory=list)  # ASCEND_RT_VISIBLE_DEVICES ([] = all)
    remote_output: str = ""  # msprof --output base on the host ("" = chosen per run)
    soc_version: str = ""  # the host's chip, filled from npu-smi ("" = read it)
    # --- Profiling Options -------------------------------------------------------------------
    ai_core: bool = True
    aic_mode: str = TASK_BASED
    aic_metrics: str = DEFAULT_GROUP
    aic_freq: int = 100  # Hz, sample-based only
    task_time: str = "l1"
    msproftx: bool = False
    ascendcl: bool = True
    runtime_api: bool = False
    os_runtime_api: bool = False  # needs perf and ltrace on the host
    graph_engine: bool = False
    aicpu: bool = False
    sys_hardware_mem: bool = False  # device memory / DDR sampling
    sys_hardware_mem_freq: int = 50  # Hz
    host_sys: list[str] = field(default_factory=list)  # subset of HOST_SYS (disk needs iotop)
    hccl: bool = False

    # --- derived -----------------------------------------------------------------------------
    def app_argv(self) -> list[str]:
        """The application as it runs on the host (binary / ``python3 x.py`` / ``bash x.sh``)."""
        if self.executable_type == PYTHON:
            return [self.python or "python3", self.executable, *self.args]
        if self.executable_type == SHELL:
            return ["bash", self.executable, *self.args]
        return [self.executable, *self.args]

    def host_sys_values(self) -> list[str]:
        """``--host-sys`` values in msprof's order, ``osrt`` last when OS Runtime tracing is on."""
        values = [v for v in HOST_SYS if v in self.host_sys]
        return values + (["osrt"] if self.os_runtime_api else [])

    def executable_on_host(self, workdir: str | None) -> str:
        """The executable's path on the host (relative ones resolved against ``workdir``)."""
        if not workdir or posixpath.isabs(self.executable):
            return self.executable
        return posixpath.normpath(posixpath.join(workdir, self.executable))

    # --- checks --------------------------------------------------------------------------------
    def validate(self) -> ProfilingJob:
        def bad(name: str, expected: str) -> JobError:
            return JobError(f"profiling job field {name!r}: expected {expected}, got {getattr(self, name)!r}", name)

        if not _NAME_RE.match(self.name or ""):
            raise bad("name", "1-64 letters, digits, '.', '_' or '-' starting with a letter or digit")
        if self.run_mode not in RUN_MODES:
            raise bad("run_mode", " or ".join(RUN_MODES))
        if self.run_mode == REMOTE and not self.host:
            raise bad("host", "a CANN machine (or 'demo') in Remote mode")
        if not isinstance(self.executable, str) or not self.executable.strip():
            raise bad("executable", "the program or script to profile")
        if self.executable_type not in EXECUTABLE_TYPES:
            raise bad("executable_type", " or ".join(EXECUTABLE_TYPES))
        if not isinstance(self.args, list) or not all(isinstance(a, str) for a in self.args):
            raise bad("args", "a list of strings")
        if not isinstance(self.env, dict) or not all(isinstance(v, str) for v in self.env.values()):
            raise bad("env", "NAME: value strings")
        for key in self.env:
            try:
                check_env_name(key)
            except ValueError as exc:
                raise JobError(f"profiling job field 'env': {exc}", "env") from None
        if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in self.devices):
            raise bad("devices", "device ids (whole numbers >= 0)")
        if self.aic_mode not in AIC_MODES:
            raise bad("aic_mode", " or ".join(AIC_MODES))
        if self.aic_metrics not in ALL_GROUPS:
            raise bad("aic_metrics", "one of " + ", ".join(ALL_GROUPS))
        if self.task_time not in TASK_TIME_LEVELS:
            raise bad("task_time", " or ".join(TASK_TIME_LEVELS))
        for name in ("aic_freq", "sys_hardware_mem_freq"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not FREQ_RANGE[0] <= value <= FREQ_RANGE[1]:
                raise bad(name, f"a whole number of Hz from {FREQ_RANGE[0]} to {FREQ_RANGE[1]}")
        if not isinstance(self.host_sys, list) or not set(self.host_sys) <= set(HOST_SYS):
            raise bad("host_sys", "a list of " + ", ".join(HOST_SYS))
        for name in (
            "ai_core",
            "msproftx",
            "ascendcl",
            "runtime_api",
            "os_runtime_api",
            "graph_engine",
            "aicpu",
            "sys_hardware_mem",
            "hccl",
            "deploy",
        ):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, "true or false")
        return self

    # --- storage ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: Any, where: str = "profiling job") -> ProfilingJob:
        """A job from stored options; unknown keys (a newer version's) are ignored, bad ones named."""
        if not isinstance(raw, dict):
            raise JobError(f"{where}: expected an object of profiling options")
        known = {f.name for f in fields(cls)}
        try:
            job = cls(**{k: v for k, v in raw.items() if k in known})
            return job.validate()
        except JobError as exc:
            raise JobError(f"{where}: {exc}", exc.field) from None

    @classmethod
    def from_command(cls, command: str, **kwargs: Any) -> ProfilingJob:
        """A job from a command line such as ``"python3 /opt/app/main.py --n 2"``: the executable
        type follows the program (a Python interpreter, bash/sh, a ``.py`` or ``.sh`` file)."""
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise JobError(f"application {command!r}: {exc}") from None
        if not argv:
            raise JobError("application: expected a command such as 'python3 main.py' or './main'")
        prog = posixpath.basename(argv[0])
        script_next = len(argv) > 1 and not argv[1].startswith("-")  # "python3 -u x.py" stays a binary
        if re.fullmatch(r"python[0-9.]*", prog) and script_next:
            kwargs.update(executable_type=PYTHON, python=argv[0], executable=argv[1], args=argv[2:])
        elif prog in ("bash", "sh") and script_next:
            kwargs.update(executable_type=SHELL, executable=argv[1], args=argv[2:])
        elif argv[0].endswith(".py"):
            kwargs.update(executable_type=PYTHON, executable=argv[0], args=argv[1:])
        elif argv[0].endswith(".sh"):
            kwargs.update(executable_type=SHELL, executable=argv[0], args=argv[1:])
        else:
            kwargs.update(executable_type=BINARY, executable=argv[0], args=argv[1:])
        return cls(**kwargs)
