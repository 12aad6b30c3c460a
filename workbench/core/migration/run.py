"""Running a migration tool on a host: upload, run, fetch (a work function: ``progress`` / ``cancel``).

:func:`run_migration` checks the job and the local project, uploads the project to a fresh working
folder on the host (``~/ascend-workbench/migration/<name>-<UTC time>/input/<name>``), runs the
tool there through the transport under bash with the toolkit's ``set_env.sh`` (its lines stream
as ``("stdout"|"stderr", line)`` partials; msFmkTransplt's ``[Progress: n%]`` moves the fraction;
Cancel kills the tool's process group on the host), then downloads the tool's output folder (the
migrated copy; msFmkTransplt keeps its report files in it) and convert_tf2npu's report folder and
reads the reports (:func:`reports.read_report_folder`).

Local layout under ``out``: ``output/`` (the host's output folder as the tool left it:
``<name>_npu_<time>/`` or ``<name>_msft[_multi]/``) and, for TensorFlow, ``report/``
(``report_npu_<time>/``).
"""

from __future__ import annotations

import datetime as _dt
import os
import posixpath
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.migration.job import JobError, MigrationJob, check_job, check_local_input, command, command_line
from workbench.core.migration.reports import MigrationReport, MigrationReportError, read_report_folder
from workbench.core.services.toolkit import ToolkitInfo, detect_toolkit
from workbench.core.services.transport import Transport
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress

REMOTE_BASE = "ascend-workbench/migration"  # under the login folder
_PROGRESS = re.compile(r"\[Progress:\s*([\d.]+)%\]")
# The status lines of run_migration (progress.status), as templates ({0}… are names, folders, hosts): the UI
# shows them translated (ui/labels.tr_status; their translations: ui/migration/texts.STATUS_TEMPLATES).
UPLOADING = "Uploading {0} to {1} on {2}"
RUNNING = "Running {0} on {1}"
DOWNLOADING = "Downloading the migrated project and the reports from {0}"
FINISHED = "Migration finished"
FAILED = "Migration failed"
STATUS_TEMPLATES = (UPLOADING, RUNNING, DOWNLOADING, FINISHED, FAILED)


@dataclass
class MigrationResult:
    ok: bool
    framework: str
    host: str
    command: str
    remote_dir: str
    exit_status: int | None
    output_dir: str | None  # local: the migrated project (None when the tool wrote none)
    report_dir: str | None  # local: the folder holding the report files
    report: MigrationReport | None
    log: str = ""
    error: str = ""
    started: str = ""
    duration_s: float = 0.0
    warnings: list[str] = field(default_factory=list)
    simulated: bool = False  # the host's toolkit is the simulated one

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "framework": self.framework,
            "host": self.host,
            "command": self.command,
            "remote_dir": self.remote_dir,
            "exit_status": self.exit_status,
            "output_dir": self.output_dir,
            "report_dir": self.report_dir,
            "error": self.error,
            "started": self.started,
            "duration_s": round(self.duration_s, 3),
            "warnings": self.warnings,
            "counts": self.report.counts() if self.report else None,
            "brief": self.report.brief if self.report else None,
            "simulated": self.simulated,
        }


class _ToolProgress:
    """Forwards everything; a ``[Progress: n%]`` line of msFmkTransplt sets the fraction."""

    def __init__(self, inner: Progress) -> None:
        self.inner = inner

    def status(self, text: str) -> None:
        self.inner.status(text)

    def fraction(self, value: float | None) -> None:
        self.inner.fraction(value)

    def partial(self, item: Any) -> None:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], str):
            m = _PROGRESS.search(item[1])
            if m:
                self.inner.fraction(0.2 + 0.6 * min(float(m.group(1)), 100.0) / 100.0)
        self.inner.partial(item)


def default_out(input_dir: str | os.PathLike[str]) -> Path:
    """``<input>_npu`` beside the input folder."""
    p = Path(input_dir).expanduser().resolve()
    return p.with_name(p.name + "_npu")


def run_migration(
    framework: str,
    input_dir: str | os.PathLike[str],
    out: str | os.PathLike[str],
    transport: Transport,
    toolkit: ToolkitInfo | str | None = None,
    *,
    main: str = "",
    pytorch_version: str = "2.1.0",
    distributed: bool = False,
    target_model: str = "model",
    host: str = "",
    force: bool = False,
    env: Mapping[str, str] | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> MigrationResult:
    """Work function: migrate the local project ``input_dir`` on the host behind ``transport`` and
    fetch the result into ``out``. Raises JobError (nothing sent), FileExistsError (``out`` holds
    files and not ``force``), TransportError / Cancelled from the transport. ``env``: extra variables
    for the tool's run."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    local_in = check_local_input(input_dir, main)
    local_out = Path(out).expanduser().resolve()
    try:
        local_out.relative_to(local_in)
    except ValueError:
        pass
    else:
        raise JobError(f"--out {out}: must not be inside the input folder {local_in} (the tool refuses it)")
    if local_out.exists() and any(local_out.iterdir()) and not force:
        raise FileExistsError(f"{local_out}: already holds files; choose another --out or pass --force")
    main_rel = ""
    if main:
        m = Path(main) if os.path.isabs(main) else local_in / main
        main_rel = m.resolve().relative_to(local_in).as_posix()
    if not isinstance(toolkit, ToolkitInfo):
        toolkit = detect_toolkit(transport, toolkit or None, cancel=cancel)
    started = _dt.datetime.now(_dt.timezone.utc)
    t0 = time.monotonic()
    remote = posixpath.join(transport.home(), REMOTE_BASE, f"{local_in.name}-{started.strftime('%Y%m%d%H%M%S')}")
    remote_in = posixpath.join(remote, "input", local_in.name)
    job = MigrationJob(
        framework=framework,
        input=remote_in,
        output=posixpath.join(remote, "output"),
        report=posixpath.join(remote, "report") if framework != "pytorch" else "",
        main=posixpath.join(remote_in, main_rel) if main_rel else "",
        pytorch_version=pytorch_version,
        distributed=distributed,
        target_model=target_model,
    )
    check_job(job)
    progress.status(UPLOADING.format(local_in.name, remote, transport.label))
    transport.mkdir(posixpath.dirname(remote_in))
    transport.put(str(local_in), remote_in, progress=ScaledProgress(progress, 0.0, 0.2), cancel=cancel)
    transport.mkdir(job.output)
    if job.report:
        transport.mkdir(job.report)
    argv = command(job, toolkit.root)
    line = command_line(job, toolkit.root)
    progress.status(RUNNING.format(posixpath.basename(argv[1] if argv[0] == "python3" else argv[0]), transport.label))
    progress.fraction(0.2)
    run = transport.run(
        argv, cwd=remote, env=env, toolkit=toolkit.set_env, progress=_ToolProgress(progress), cancel=cancel
    )
    result = MigrationResult(
        ok=False,
        framework=framework,
        host=host or transport.label,
        command=line,
        remote_dir=remote,
        exit_status=run.exit_status,
        output_dir=None,
        report_dir=None,
        report=None,
        log=run.stdout + run.stderr,
        started=started.isoformat(timespec="seconds"),
        simulated=toolkit.simulated,
    )
    if run.exit_status != 0:
        said = [
            ln.split("[ERROR]", 1)[-1].strip()
            for ln in (run.stderr + run.stdout).splitlines()
            if ln.strip() and "MsFmkTransplt run fail" not in ln and not ln.startswith("[simulated ")
        ]
        tool = posixpath.basename(argv[1] if argv[0] == "python3" else argv[0])
        reason = said[-1] if said else "no output"
        result.error = f"{tool} on {transport.label}: exit status {run.exit_status}: {reason}"
        result.duration_s = time.monotonic() - t0
        return result
    progress.status(DOWNLOADING.format(transport.label))
    local_out.mkdir(parents=True, exist_ok=True)
    transport.get(job.output, str(local_out / "output"), progress=ScaledProgress(progress, 0.8, 0.95), cancel=cancel)
    produced = sorted(p for p in (local_out / "output").iterdir() if p.is_dir())
    result.output_dir = str(produced[-1]) if produced else None
    report_root = local_out / "output"
    if job.report:
        transport.get(
            job.report, str(local_out / "report"), progress=ScaledProgress(progress, 0.95, 1.0), cancel=cancel
        )
        report_root = local_out / "report"
    try:
        rep = read_report_folder(report_root, (remote_in,))
    except MigrationReportError as exc:
        result.error = str(exc)
    else:
        result.report = rep
        result.report_dir = rep.folder
        result.warnings = list(rep.warnings)
        result.ok = result.output_dir is not None and rep.log_status != "fail"
        if result.output_dir is None:
            result.error = f"{job.output} on {transport.label}: the tool wrote no migrated project"
    result.duration_s = time.monotonic() - t0
    progress.fraction(1.0)
    progress.status(FINISHED if result.ok else FAILED)
    return result
