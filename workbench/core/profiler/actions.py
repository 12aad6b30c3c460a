"""The System Profiler's actions as work functions over a host name: probe a host, check a job,
profile, re-run, delete, import (what the wizard, the runs panel and Import Result start).

Each runs on a worker thread (the UI starts them through ``window.bridge.start``): opening the
host (the demo host installs its simulated toolkit on first use; an SSH host may ask for a key or
a password through the window's prompter) never happens on the GUI thread. Projects are re-read from disk here, so a
run recorded by one task is never lost by another holding a stale copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.profiler import history
from workbench.core.profiler.command import msprof_command
from workbench.core.profiler.importer import import_result
from workbench.core.profiler.options import REMOTE, ProfilingJob
from workbench.core.profiler.preflight import Issue, preflight
from workbench.core.profiler.run import (
    ProfilingRun,
    open_host,
    plan_locations,
    resolve_toolkit,
    results_root,
    run_profiling,
)
from workbench.core.project import Project, open_project
from workbench.core.services.toolkit import ToolkitNotFound, read_npu_smi
from workbench.core.services.transport import LocalTransport, Transport, TransportError, posix_join
from workbench.core.tasks import CancelToken, NullProgress, Progress

RUN_ID = "RUN_ID"  # stands for the run's id (chosen at start) in the command shown before it
PREVIEW_OUTPUT = "OUTPUT_DIR"


@dataclass
class HostProbe:
    """What the wizard fills from a host: its toolkit, CANN version, chip and devices."""

    host: str
    toolkit: str = ""  # toolkit root found ("" when none)
    host_toolkit: str = ""  # the host's own setting
    version: str | None = None
    simulated: bool = False
    msprof: str = ""
    soc: str = ""
    devices: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class CheckResult:
    """The checks page: the exact argv (output folder as a placeholder), the issues, where it runs."""

    argv: list[str]
    issues: list[Issue]
    version: str | None
    workdir: str | None
    remote_base: str


def _project(root: str | Path | None) -> Project | None:
    return open_project(root) if root else None


def _job_for_host(run_mode: str, host: str) -> ProfilingJob:
    return ProfilingJob(run_mode=run_mode, host=host, executable="-")


def probe_host(
    run_mode: str,
    host: str,
    toolkit_path: str,
    prompter: Any,
    pool: Any,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> HostProbe:
    """Work function: find the toolkit (``toolkit_path`` else the host's setting else the standard
    places) and read ``npu-smi info`` for the chip and the device ids."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    job = _job_for_host(run_mode, host)
    transport, host_toolkit = open_host(job, prompter, pool)
    out = HostProbe(host=host, host_toolkit=host_toolkit)
    progress.status(f"Looking for the CANN toolkit on {transport.label}")
    job.toolkit = toolkit_path
    try:
        info = resolve_toolkit(job, transport, host_toolkit, cancel)
    except ToolkitNotFound as exc:
        out.problems.append(str(exc))
        return out
    out.toolkit, out.version, out.simulated = info.root, info.version, info.simulated
    out.msprof = info.tools.get("msprof") or ""
    out.problems += list(info.warnings)
    if info.has("npu_smi"):
        progress.status("Reading npu-smi info")
        try:
            smi = read_npu_smi(transport, info, cancel=cancel)
            out.devices = [d.npu_id for d in smi.devices]
            out.soc = smi.devices[0].soc_version if smi.devices else ""
        except (TransportError, ValueError) as exc:
            out.problems.append(str(exc))
    progress.fraction(1.0)
    return out


def check_job(
    job: ProfilingJob,
    project_root: str | None,
    prompter: Any,
    pool: Any,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> CheckResult:
    """Work function: the checks the run itself makes first (:func:`preflight`), with the toolkit
    and working folder the run would use, and the exact msprof command."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    transport, host_toolkit = open_host(job, prompter, pool)
    progress.status(f"Checking the profiling options on {transport.label}")
    try:
        toolkit = resolve_toolkit(job, transport, host_toolkit, cancel)
    except ToolkitNotFound as exc:
        return CheckResult(msprof_command(job, None), [Issue("error", "toolkit", str(exc))], None, None, "")
    project = _project(project_root)
    where = plan_locations(job, transport, project, results_root(job, project.root if project else None))
    issues = preflight(job, transport, toolkit, workdir=where.workdir, cancel=cancel)
    output = posix_join(where.remote_base, RUN_ID)
    argv = msprof_command(job, toolkit.version, output=output, msprof=toolkit.tools.get("msprof") or "msprof")
    progress.fraction(1.0)
    return CheckResult(argv, issues, toolkit.version, where.workdir, where.remote_base)


def start_profiling(
    job: ProfilingJob,
    project_root: str | None,
    prompter: Any,
    pool: Any,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Work function: the whole run (deploy, msprof, export, download, record); the report path."""
    transport, host_toolkit = open_host(job, prompter, pool)
    return run_profiling(
        job, transport, project=_project(project_root), host_toolkit=host_toolkit, progress=progress, cancel=cancel
    )


def _run_host(run: ProfilingRun, prompter: Any, pool: Any) -> Transport:
    if run.host in ("", "local"):
        return LocalTransport()
    return open_host(_job_for_host(REMOTE, run.host), prompter, pool)[0]


def rerun(
    project_root: str,
    run_id: str,
    prompter: Any,
    pool: Any,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Work function: profile again with the options of ``run_id``; the new report path."""
    project = open_project(project_root)
    job = history.find_run(project, run_id).job()
    transport, host_toolkit = open_host(job, prompter, pool)
    run = history.rerun(project, run_id, transport, host_toolkit=host_toolkit, progress=progress, cancel=cancel)
    return run.report(project.root)


def delete(
    project_root: str,
    run_id: str,
    on_host: bool,
    prompter: Any,
    pool: Any,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> str:
    """Work function: delete a run locally (and on its host when ``on_host``); returns its id."""
    project = open_project(project_root)
    transport = _run_host(history.find_run(project, run_id), prompter, pool) if on_host else None
    history.delete_run(project, run_id, on_host=on_host, transport=transport, progress=progress, cancel=cancel)
    return run_id


def import_into(
    source: str,
    host: str | None,
    project_root: str | None,
    results_dir: str | None,
    prompter: Any,
    pool: Any,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Path:
    """Work function: Import Result from ``host`` (None = this machine); the report path."""
    transport: Transport = LocalTransport()
    toolkit = None
    if host:
        job = _job_for_host(REMOTE, host)
        transport, host_toolkit = open_host(job, prompter, pool)
        try:
            toolkit = resolve_toolkit(job, transport, host_toolkit, cancel)
        except ToolkitNotFound:
            toolkit = None  # exported data still imports; unexported data is reported by the importer
    project = _project(project_root)
    run = import_result(
        source,
        transport=transport,
        toolkit=toolkit,
        project=project,
        results_dir=results_dir,
        host=host or "",
        progress=progress,
        cancel=cancel,
    )
    return run.report(project.root if project else None)


__all__ = ["HostProbe", "CheckResult", "probe_host", "check_job", "start_profiling", "rerun", "delete", "import_into"]
