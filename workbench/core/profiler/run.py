"""Run a profiling job: deploy, msprof with the application on the host, export, download, record.

``profile(job, transport, toolkit, progress=, cancel=)`` is the work function (``run_profiling``
returns just the local report path). Steps:

1. checks (:func:`~.preflight.preflight`): any error stops here, before anything runs;
2. Remote mode with an app project: deploy it (new and changed files only; the results folder is
   excluded when it lies inside the project);
3. ``msprof … <app>`` on the host in the job's working folder, the job's environment and devices,
   output to ``<base>/<run id>`` (base: ``<remote project>/.ascend-workbench/msprof-output``, else
   ``~/ascend-workbench/msprof-output``); both output streams arrive as ``("stdout"|"stderr",
   line)`` partials; Cancel kills msprof and the application (the transport kills the process group);
4. the export step where the CANN version needs it, then only what the views need is downloaded
   (:mod:`.fetch`) to ``<results>/<run id>/PROF_*``;
5. the run is recorded in the project's history (:class:`ProfilingRun` in ``project.profiling_runs``).
"""

from __future__ import annotations

import datetime as _dt
import os
import posixpath
import secrets
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from workbench.core.profiler.command import bad_path_chars, msprof_command
from workbench.core.profiler.fetch import FetchError, find_prof_dirs, prepare_prof, staged_download
from workbench.core.profiler.options import LOCAL, ProfilingJob
from workbench.core.profiler.preflight import Issue, preflight
from workbench.core.project import PROJECT_DIR, PROJECT_FILE, Project, detect_type, open_project
from workbench.core.services.deploy import Mapping, compute_plan, project_mappings, sync
from workbench.core.services.toolkit import ToolkitInfo, detect_toolkit
from workbench.core.services.transport import RunResult, Transport, TransportError, posix_join
from workbench.core.tasks import Cancelled, CancelToken, NullProgress, Progress, ScaledProgress

REMOTE_BASE = ".ascend-workbench/msprof-output"  # under the remote project folder
HOME_BASE = "ascend-workbench/msprof-output"  # under the login folder when there is no project
COLLECTED, IMPORTED = "collected", "imported"


class ProfilerError(TransportError):
    """A profiling run could not start or failed; the message says why (and ``issues`` lists
    the blocking checks when that is the reason)."""

    def __init__(self, message: str, issues: list[Issue] | None = None) -> None:
        super().__init__(message)
        self.issues = issues or []


@dataclass
class ProfilingRun:
    """One entry of the project's profiling history (stored as a dict in ``project.profiling_runs``)."""

    id: str
    kind: str = COLLECTED  # collected | imported
    time: str = ""  # local ISO time the run started
    host: str = ""  # host name ("local" for this machine)
    cann_version: str | None = None
    toolkit: str = ""
    options: dict[str, Any] = field(default_factory=dict)  # ProfilingJob.to_dict() (collected runs)
    command: list[str] = field(default_factory=list)
    remote_dir: str = ""  # msprof --output folder on the host, or the imported source
    prof_dirs: list[str] = field(default_factory=list)  # PROF_* folders on the host
    local_dir: str = ""  # the run's local folder (relative to the project root if inside)
    report_path: str = ""  # what open_report opens (same rule)
    report_kind: str = ""
    exit_status: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, raw: Any, where: str = "profiling run") -> ProfilingRun:
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            raise ValueError(f"{where}: expected an object with a string 'id'")
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in raw.items() if k in known})

    def job(self) -> ProfilingJob:
        """The job that made this run (re-run with the same options)."""
        if self.kind != COLLECTED:
            raise ValueError(f"profiling run {self.id}: an imported result has no options to re-run")
        return ProfilingJob.from_dict(self.options, f"profiling run {self.id}: field 'options'")

    def local_path(self, root: Path | None) -> Path:
        return _absolute(self.local_dir, root)

    def report(self, root: Path | None) -> Path:
        """The local path :func:`workbench.core.profiling.report.open_report` opens."""
        return _absolute(self.report_path, root)


def _absolute(path: str, root: Path | None) -> Path:
    p = Path(path)
    return p if p.is_absolute() or root is None else root / p


def _relative(path: Path, root: Path | None) -> str:
    if root is not None:
        try:
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return str(path)


def new_run_id(now: _dt.datetime | None = None) -> str:
    """``YYYYMMDD-HHMMSS-xxxx``: sortable by time, unique between quick runs."""
    now = now or _dt.datetime.now()
    return now.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(2)


def is_project(path: str | os.PathLike[str]) -> bool:
    return bool(path) and (Path(path) / PROJECT_DIR / PROJECT_FILE).is_file()


def detect_project_type(path: str | os.PathLike[str]) -> str:
    """Ascend App / Ascend Operator / Ascend Training, as MindStudio detects it from Project Path."""
    return detect_type(Path(path))


def results_root(job: ProfilingJob, project_root: Path | None = None) -> Path:
    """Where the job's runs are kept: ``<location>/<name>``; location defaults to the app
    project's ``.ascend-workbench`` folder."""
    base = (
        job.location
        or (str(project_root / PROJECT_DIR) if project_root else "")
        or (str(Path(job.project_path) / PROJECT_DIR) if job.project_path else "")
    )
    if not base:
        raise ProfilerError("profiling job field 'location': expected a folder for the results (no app project given)")
    return Path(base).expanduser().absolute() / job.name


def resolve_toolkit(
    job: ProfilingJob, transport: Transport, host_toolkit: str = "", cancel: CancelToken | None = None
) -> ToolkitInfo:
    """The toolkit the job names, else the host's setting, else the standard places."""
    return detect_toolkit(transport, job.toolkit or host_toolkit or None, cancel=cancel)


def open_host(job: ProfilingJob, prompter: Any = None, pool: Any = None) -> tuple[Transport, str]:
    """(transport, host's toolkit setting) for the job: the demo host, a configured host, or this
    machine in Local mode."""
    from workbench.core.services.transport import LocalTransport

    if job.run_mode == LOCAL:
        return LocalTransport(), ""
    from workbench.core.services.demohost import resolve_host
    from workbench.core.services.ssh import transport_for

    host = resolve_host(job.host)
    return transport_for(host, prompter, pool), host.toolkit


@dataclass
class _Where:
    workdir: str | None  # cwd on the host
    remote_base: str  # msprof output base on the host
    mappings: list[Mapping]  # deployment (empty: nothing to deploy)
    project_root: Path | None


def host_home(job: ProfilingJob, transport: Transport) -> str:
    """The login folder of the job's host; for the demo host (this machine, simulated toolkit) a
    folder of its own under the data folder, so demo runs never write into the user's home."""
    from workbench.core.services.demohost import DEMO_NAME

    if job.run_mode != LOCAL and job.host == DEMO_NAME and transport.is_local:
        from workbench.core.paths import data_dir

        return str(data_dir() / "demo-host" / "home")
    return transport.home()


def _absolute_remote(home: str, path: str) -> str:
    return path if posixpath.isabs(path) else posix_join(home, path)


def plan_locations(job: ProfilingJob, transport: Transport, project: Project | None, results: Path) -> _Where:
    """Working folder, remote output base and deployment mappings for ``job``."""
    root = project.root if project else (Path(job.project_path).absolute() if job.project_path else None)
    home = host_home(job, transport)
    mappings: list[Mapping] = []
    project_remote = None
    if job.run_mode == LOCAL:
        project_remote = str(root) if root else None
    elif root is not None:
        mappings = project_mappings(project) if project is not None else [Mapping(".", f"ascend-workbench/{root.name}")]
        for m in mappings:  # absolute on the host; never upload the results back
            m.remote = _absolute_remote(home, m.remote)
            local_root = (root / m.local).resolve()
            try:
                rel = results.resolve().relative_to(local_root).as_posix()
                m.excludes = [*m.excludes, rel]
            except ValueError:
                pass
        project_remote = mappings[0].remote
    workdir = _absolute_remote(home, job.cwd) if job.cwd else project_remote
    if job.remote_output:
        base = _absolute_remote(home, job.remote_output)
    elif project_remote:
        base = posix_join(project_remote, REMOTE_BASE)
    else:
        base = posix_join(home, HOME_BASE)
    return _Where(workdir, base, mappings if job.deploy else [], root)


def _project_for(job: ProfilingJob, project: Project | None) -> Project | None:
    if project is None and job.project_path and is_project(job.project_path):
        return open_project(job.project_path)
    return project


def leftover_processes(transport: Transport, marker: str) -> list[tuple[int, int, str]]:
    """(pid, pgid, args) of every process in a process group where some process's command line
    holds ``marker`` (msprof's ``--output=<run folder>``): msprof and the application it started."""
    result = transport.run(["ps", "-ww", "-eo", "pid=,pgid=,args="], timeout=30)  # -ww: never cut lines
    rows = []
    for line in result.stdout.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit():
            rows.append((int(parts[0]), int(parts[1]), parts[2]))
    groups = {pgid for _, pgid, args in rows if marker in args}
    return [row for row in rows if row[1] in groups]


def kill_leftovers(transport: Transport, marker: str) -> list[tuple[int, int, str]]:
    """After a cancel: SIGKILL any process group still running for ``marker``; returns what was
    found (empty when the transport's group kill already stopped everything)."""
    try:
        left = leftover_processes(transport, marker)
        for pgid in sorted({pgid for _, pgid, _ in left}):
            transport.run(["kill", "-KILL", "--", f"-{pgid}"], timeout=30)
    except TransportError:
        return []  # no ps on the host, or the connection is gone: nothing more can be done here
    return left


def _tail(text: str, n: int = 5) -> str:
    return " / ".join(text.strip().splitlines()[-n:])


def _run_msprof(
    transport: Transport,
    argv: list[str],
    job: ProfilingJob,
    toolkit: ToolkitInfo,
    workdir: str | None,
    remote_dir: str,
    progress: Progress,
    cancel: CancelToken,
) -> RunResult:
    """msprof with the application, streaming both outputs; on cancel, make sure nothing is left."""
    try:
        result = transport.run(
            argv,
            cwd=workdir,
            env=job.env,
            toolkit=toolkit.set_env,
            devices=job.devices or None,
            progress=progress,
            cancel=cancel,
        )
    except Cancelled:
        left = kill_leftovers(transport, remote_dir)  # the run's own --output folder marks its processes
        if left:
            progress.partial(
                (
                    "stderr",
                    f"killed {len(left)} process(es) left after cancelling: "
                    + ", ".join(str(pid) for pid, _, _ in left)
                    + "\n",
                )
            )
        raise
    if not result.ok:
        raise ProfilerError(
            f"{transport.label}: msprof exited with status {result.exit_status}: {_tail(result.stdout + result.stderr)}"
        )
    return result


def profile(
    job: ProfilingJob,
    transport: Transport,
    toolkit: ToolkitInfo | None = None,
    *,
    project: Project | None = None,
    results_dir: str | os.PathLike[str] | None = None,
    host_toolkit: str = "",
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ProfilingRun:
    """Work function: the whole run (see the module docstring); returns the recorded run.

    ``toolkit``: the host's detected toolkit (detected here when None). ``results_dir``: overrides
    :func:`results_root` (the run goes into ``<results_dir>/<run id>``). ``project``: the
    workbench project whose history records the run (default: ``job.project_path`` if it is one).
    """
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    job.validate()
    project = _project_for(job, project)
    if job.project_path and not job.project_type:
        job.project_type = detect_project_type(job.project_path)
    if toolkit is None:
        progress.status(f"Looking for the CANN toolkit on {transport.label}")
        toolkit = resolve_toolkit(job, transport, host_toolkit, cancel)
    results = Path(results_dir).absolute() if results_dir else results_root(job, project.root if project else None)
    where = plan_locations(job, transport, project, results)
    progress.status("Checking the profiling options")
    issues = preflight(job, transport, toolkit, workdir=where.workdir, cancel=cancel)
    for issue in issues:
        progress.partial(("preflight", f"{issue.level}: {issue.message}"))
    blocking = [i for i in issues if i.blocking]
    if blocking:
        raise ProfilerError("cannot start profiling: " + "; ".join(i.message for i in blocking), blocking)
    run_id = new_run_id()
    started = _dt.datetime.now().astimezone().isoformat(timespec="seconds")
    if where.mappings:
        progress.status(f"Deploying {where.project_root} to {transport.label}")
        plan = compute_plan(
            transport,
            where.mappings,
            where.project_root or ".",
            progress=ScaledProgress(progress, 0, 0.05),
            cancel=cancel,
        )
        sync(transport, plan, progress=ScaledProgress(progress, 0.05, 0.2), cancel=cancel)
    remote_dir = posix_join(where.remote_base, run_id)
    if bad_path_chars(remote_dir):
        raise ProfilerError(
            f"{remote_dir}: msprof refuses output paths holding {bad_path_chars(remote_dir)!r}; "
            "set another remote output folder"
        )
    transport.mkdir(remote_dir)
    argv = msprof_command(job, toolkit.version, output=remote_dir, msprof=toolkit.tools.get("msprof") or "msprof")
    progress.status(f"Profiling {job.executable} on {transport.label}")
    progress.fraction(None)
    result = _run_msprof(transport, argv, job, toolkit, where.workdir, remote_dir, progress, cancel)
    profs = find_prof_dirs(transport, remote_dir)
    if not profs:
        raise FetchError(f"{transport.label}: msprof wrote no PROF_* folder in {remote_dir}; see its output")
    prepared = [
        (prof, prepare_prof(transport, toolkit, prof, progress=progress, cancel=cancel)[1], posixpath.basename(prof))
        for prof in profs
    ]
    local_dir = results / run_id
    progress.status(f"Downloading the results to {local_dir}")
    staged_download(transport, prepared, local_dir, progress=ScaledProgress(progress, 0.2, 1.0), cancel=cancel)
    run = ProfilingRun(
        id=run_id,
        kind=COLLECTED,
        time=started,
        host=job.host if job.run_mode != LOCAL else "local",
        cann_version=toolkit.version,
        toolkit=toolkit.root,
        options=job.to_dict(),
        command=argv,
        remote_dir=remote_dir,
        prof_dirs=profs,
        exit_status=result.exit_status,
    )
    return finish_run(run, local_dir, project, progress)


def finish_run(run: ProfilingRun, local_dir: Path, project: Project | None, progress: Progress) -> ProfilingRun:
    """Fill the local paths and report kind, record the run in the project's history."""
    from workbench.core.profiling.detect import detect

    profs = sorted(p for p in local_dir.iterdir() if p.is_dir())
    report = profs[0] if len(profs) == 1 and profs[0].name.startswith("PROF_") else local_dir
    root = project.root if project else None
    run.local_dir = _relative(local_dir, root)
    run.report_path = _relative(report, root)
    run.report_kind = detect(report).kind
    if project is not None:
        project.profiling_runs.append(run.to_dict())
        project.save()
    progress.status(f"Profiling data ready: {report}")
    progress.fraction(1.0)
    return run


def run_profiling(
    job: ProfilingJob,
    transport: Transport,
    toolkit: ToolkitInfo | None = None,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    **kwargs: Any,
) -> Path:
    """Work function: :func:`profile`, returning the local report path ``open_report`` opens."""
    run = profile(job, transport, toolkit, progress=progress, cancel=cancel, **kwargs)
    project = kwargs.get("project") or _project_for(job, None)
    return run.report(project.root if project else None)
