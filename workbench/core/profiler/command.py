"""The exact ``msprof`` command line for a job and a CANN version, and the export step (§1.1, §1.2).

Flag names and values are msprof's (docs/cann-formats.md §1.1). Every switch the wizard shows is
written out explicitly (``--ascendcl=on --runtime-api=off …``) so the command shown is the whole
truth whatever msprof's defaults are. Version rules:

* ``--task-time``: CANN 8.x takes a level (``l0``, ``l1``, ``l2``, ``off``); older versions only
  ``on``/``off`` (every level -> ``on``).
* Graph Engine and HCCL: ``--model-execution=on`` / ``--hccl=on`` before 8.0; CANN 8.x deprecates
  both ("use --task-time": GE and communication data come with task time), so they are left out.
* The application: 7.0+ after the options (``msprof [options] <app> [args]``, every argument
  literal); older versions ``--application="<cmd args>"`` (UNVERIFIED: which release first took
  the trailing form is not documented; 5.x/6.x documents show ``--application``).
* ``--host-sys=cpu,mem,disk,network,osrt`` (spelling UNVERIFIED in the reference; OS Runtime API
  tracing is its ``osrt`` value).

Export (§1.2, §1.3): msprof exports after collecting; when a PROF_* folder lacks its exported
output (``mindstudio_profiler_output`` on 7.0+, ``device_N/summary`` + ``timeline`` before) the
export is run: ``msprof --export=on --output=<PROF>`` on 7.0+; on 5.x/6.x the analysis script
``msprof.py export summary|timeline -dir <PROF>`` when the toolkit has it, else
``msprof --export=on --output=<PROF>``.
"""

from __future__ import annotations

import re
import shlex

from workbench.core.profiler.options import SAMPLE_BASED, ProfilingJob

MSPROF_PY = "tools/profiler/profiler_tool/analysis/msprof/msprof.py"
MODERN_OUTPUT = "mindstudio_profiler_output"
# msprof refuses paths holding any of these (msprof_parsing_instruct.md "Other constraints").
FORBIDDEN_PATH_CHARS = set("\n\f\r\b\t\v\x7f\"'\\%><|&$;`")
LATEST = (8, 0)


def cann_tuple(version: str | None) -> tuple[int, int]:
    """``"8.0.RC1"`` -> (8, 0); ``None`` or an unreadable version -> the newest layout (8, 0)."""
    m = re.match(r"^(\d+)\.(\d+)", version or "")
    return (int(m.group(1)), int(m.group(2))) if m else LATEST


def modern_layout(version: str | None) -> bool:
    """True for CANN 7.0+ (``mindstudio_profiler_output``), False for 5.x/6.x (summary/timeline)."""
    return cann_tuple(version) >= (7, 0)


def _on(flag: bool) -> str:
    return "on" if flag else "off"


def msprof_command(
    job: ProfilingJob, cann_version: str | None, *, output: str = "<output>", msprof: str = "msprof"
) -> list[str]:
    """The msprof argv that profiles ``job`` on a toolkit of ``cann_version`` into ``output``."""
    ver = cann_tuple(cann_version)
    argv = [msprof, f"--output={output}", f"--ascendcl={_on(job.ascendcl)}", f"--runtime-api={_on(job.runtime_api)}"]
    if ver >= (8, 0):
        argv.append(f"--task-time={job.task_time}")
    else:
        argv.append(f"--task-time={'off' if job.task_time == 'off' else 'on'}")
        if job.graph_engine:
            argv.append("--model-execution=on")
        if job.hccl:
            argv.append("--hccl=on")
    if job.ai_core:
        argv += ["--ai-core=on", f"--aic-mode={job.aic_mode}"]
        if job.aic_mode == SAMPLE_BASED:
            argv.append(f"--aic-freq={job.aic_freq}")
        argv.append(f"--aic-metrics={job.aic_metrics}")
    else:
        argv.append("--ai-core=off")
    argv.append(f"--aicpu={_on(job.aicpu)}")
    if job.msproftx:
        argv.append("--msproftx=on")
    if job.sys_hardware_mem:
        argv += ["--sys-hardware-mem=on", f"--sys-hardware-mem-freq={job.sys_hardware_mem_freq}"]
    host_sys = job.host_sys_values()
    if host_sys:
        argv.append("--host-sys=" + ",".join(host_sys))
    app = job.app_argv()
    if ver >= (7, 0):
        return argv + app
    return argv + ["--application=" + shlex.join(app)]


def command_text(argv: list[str]) -> str:
    """The argv as one copyable shell line."""
    return shlex.join(argv)


def export_commands(
    prof_dir: str,
    cann_version: str | None,
    *,
    msprof: str = "msprof",
    msprof_py: str | None = None,
    python: str = "python3",
) -> list[list[str]]:
    """The command(s) exporting one collected PROF_* folder (see the module docstring)."""
    if modern_layout(cann_version) or not msprof_py:
        return [[msprof, "--export=on", f"--output={prof_dir}"]]
    return [[python, msprof_py, "export", kind, "-dir", prof_dir] for kind in ("summary", "timeline")]


def bad_path_chars(path: str) -> str:
    """The characters of ``path`` msprof refuses ("" when none)."""
    return "".join(sorted(set(path) & FORBIDDEN_PATH_CHARS))
