"""The project's profiling history: list the runs, re-run one with the same options, delete one.

Deleting removes the local copy and the history entry; the data on the host is removed only
when asked (``on_host=True``), and only for runs this workbench collected (never the folder an
imported result came from), and only folders whose name is the run's id, locally and on the
host (a hand-edited project file cannot make it delete something else).
"""

from __future__ import annotations

import posixpath
import shutil
from typing import Any

from workbench.core.profiler.options import ProfilingJob
from workbench.core.profiler.run import COLLECTED, ProfilingRun, profile
from workbench.core.project import Project
from workbench.core.services.toolkit import ToolkitInfo
from workbench.core.services.transport import Transport, TransportError
from workbench.core.tasks import CancelToken, NullProgress, Progress


def list_runs(project: Project) -> list[ProfilingRun]:
    """The project's runs, oldest first (entries that cannot be read are skipped)."""
    runs = []
    for i, raw in enumerate(project.profiling_runs):
        try:
            runs.append(ProfilingRun.from_dict(raw, f"{project.file}: history.profiling[{i}]"))
        except (ValueError, TypeError):
            continue
    return runs


def find_run(project: Project, run_id: str) -> ProfilingRun:
    for run in list_runs(project):
        if run.id == run_id:
            return run
    raise KeyError(f"{project.file}: no profiling run {run_id!r} in the history")


def last_job(project: Project) -> ProfilingJob | None:
    """The options of the project's latest collected run: the wizard starts from them next time
    (host, toolkit path, environment and options remembered, as MindStudio does)."""
    for run in reversed(list_runs(project)):
        if run.kind == COLLECTED:
            try:
                return run.job()
            except ValueError:
                continue
    return None


def rerun(
    project: Project,
    run_id: str,
    transport: Transport,
    toolkit: ToolkitInfo | None = None,
    *,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
    **kwargs: Any,
) -> ProfilingRun:
    """Work function: profile again with the options of ``run_id`` (a new run is recorded)."""
    job = find_run(project, run_id).job()
    return profile(job, transport, toolkit, project=project, progress=progress, cancel=cancel, **kwargs)


def delete_run(
    project: Project,
    run_id: str,
    *,
    on_host: bool = False,
    transport: Transport | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ProfilingRun:
    """Work function: forget ``run_id`` and remove its local folder (and its host folder when
    ``on_host``; needs ``transport``). Returns the removed entry."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    run = find_run(project, run_id)
    if on_host:
        if run.kind != COLLECTED:
            raise ValueError(f"profiling run {run_id}: an imported result's source on the host is never deleted")
        if transport is None:
            raise ValueError(f"profiling run {run_id}: deleting on the host needs a connection to {run.host}")
        if posixpath.basename(run.remote_dir.rstrip("/")) != run.id or not posixpath.isabs(run.remote_dir):
            raise ValueError(
                f"profiling run {run_id}: remote folder {run.remote_dir!r} is not this run's own "
                "folder; not deleting it"
            )
        progress.status(f"Deleting {run.remote_dir} on {transport.label}")
        result = transport.run(["rm", "-rf", "--", run.remote_dir], timeout=600, cancel=cancel)
        if not result.ok:
            raise TransportError(f"{transport.label}: deleting {run.remote_dir} failed: {result.stderr.strip()}")
    local = run.local_path(project.root)
    if local.name != run.id:
        raise ValueError(f"profiling run {run_id}: local folder {local} is not this run's own folder; not deleting it")
    if local.exists():
        progress.status(f"Deleting {local}")
        shutil.rmtree(local)
    project.profiling_runs = [r for r in project.profiling_runs if not (isinstance(r, dict) and r.get("id") == run_id)]
    project.save()
    return run
