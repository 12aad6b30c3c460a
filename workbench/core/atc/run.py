"""Running a conversion on a host: upload, atc, result, download, project history.

:func:`run_conversion` is a work function (``progress``/``cancel``): it validates the job (errors
raise :class:`JobInvalid`), uploads the model, weight and AIPP file into the working folder on the
host, runs ``atc`` there through the transport under bash with the toolkit's ``set_env.sh`` and the
chosen devices (the log streams as ``("stdout"|"stderr", line)`` partials; Cancel kills atc's
process group), parses the console output, downloads the ``.om`` on success and records the
conversion in the project's history (``project.conversions`` + ``project.save()``).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import posixpath
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.atc.explain import Diagnostic, parse_atc_output
from workbench.core.atc.flags import SOC_VERSIONS
from workbench.core.atc.job import ConversionJob, command, command_line, files_produced, files_to_upload
from workbench.core.atc.modelinfo import ModelInputs
from workbench.core.atc.validate import Issue, errors, validate
from workbench.core.services.demohost import DEMO_NAME
from workbench.core.services.toolkit import ToolkitInfo, detect_toolkit, read_npu_smi
from workbench.core.services.transport import Transport
from workbench.core.tasks import CancelToken, NullProgress, Progress, ScaledProgress

REMOTE_SUBDIR = "atc"  # under the project's remote folder
DEFAULT_REMOTE_BASE = "ascend-workbench/atc"  # under the login folder when the project has none
HISTORY_KEY = "model_converter"  # project.extra key: the wizard's last values


class JobInvalid(ValueError):
    """Validation found errors; ``issues`` lists them (nothing was sent to the host)."""

    def __init__(self, issues: list[Issue]) -> None:
        super().__init__("the conversion is not valid: " + "; ".join(f"{i.code}: {i.message}" for i in issues))
        self.issues = issues


@dataclass
class ConversionResult:
    ok: bool
    command: str
    host: str
    remote_dir: str
    remote_om: str
    om_path: str | None  # the downloaded .om (None when atc failed)
    exit_status: int | None
    warnings: list[Diagnostic] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    log: str = ""
    started: str = ""
    duration_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "command": self.command,
            "om_path": self.om_path,
            "warnings": [w.to_json() for w in self.warnings],
            "errors": [e.to_json() for e in self.errors],
            "host": self.host,
            "remote_dir": self.remote_dir,
            "exit_status": self.exit_status,
            "started": self.started,
            "duration_s": round(self.duration_s, 3),
        }


def remote_workdir(job: ConversionJob, transport: Transport, project: Any = None) -> str:
    """The absolute working folder on the host: the job's, else ``<project remote folder>/atc`` when
    the project is mapped to this host, else ``~/ascend-workbench/atc/<project or model name>``."""
    remote = job.remote_dir
    if not remote and project is not None and project.remote.remote_path and project.remote.host in ("", job.host):
        remote = posixpath.join(project.remote.remote_path, REMOTE_SUBDIR)
    if not remote:
        remote = posixpath.join(DEFAULT_REMOTE_BASE, project.name if project is not None else job.effective_output_name)
    return remote if remote.startswith("/") else posixpath.join(transport.home(), remote)


def local_out_dir(job: ConversionJob, project: Any = None) -> Path:
    """Where the .om lands: ``job.out_dir`` (relative to the project root), else the project root,
    else the current folder."""
    base = Path(project.root) if project is not None else Path.cwd()
    return base / job.out_dir if job.out_dir else base


def propose_soc_version(
    transport: Transport, toolkit: ToolkitInfo, *, cancel: CancelToken | None = None
) -> tuple[str | None, list[str]]:
    """(``--soc_version`` of the host's first healthy NPU per ``npu-smi info`` or None, the choices:
    the host's spellings first, then the known list)."""
    devices = read_npu_smi(transport, toolkit, cancel=cancel).devices
    mine = [s for d in sorted(devices, key=lambda d: not d.healthy) for s in d.soc_versions]
    choices = list(dict.fromkeys(mine + list(SOC_VERSIONS)))
    return (mine[0] if mine else None), choices


def run_conversion(
    job: ConversionJob,
    transport: Transport,
    toolkit: ToolkitInfo | str | None = None,
    *,
    project: Any = None,
    model: ModelInputs | None = None,
    overwrite: bool = True,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> ConversionResult:
    """Work function: convert ``job`` on the host behind ``transport`` (see the module docstring).

    ``toolkit``: the detected toolkit, a set_env.sh path, or None to detect it. Raises
    :class:`JobInvalid` before touching the host when validation finds errors, FileExistsError when
    the local .om exists and not ``overwrite``; TransportError / Cancelled from the transport."""
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    bad = errors(validate(job, model))
    if bad:
        raise JobInvalid(bad)
    out_dir = local_out_dir(job, project)
    local_om = out_dir / (job.effective_output_name + ".om")
    if local_om.exists() and not overwrite:
        raise FileExistsError(f"{local_om}: already exists; choose another output name or allow overwriting")
    if not isinstance(toolkit, ToolkitInfo):
        toolkit = detect_toolkit(transport, toolkit or None, cancel=cancel)
    started = _dt.datetime.now(_dt.timezone.utc)
    t0 = time.monotonic()
    remote_dir = remote_workdir(job, transport, project)
    progress.status(f"Preparing {remote_dir} on {transport.label}")
    transport.mkdir(remote_dir)
    uploads = files_to_upload(job, remote_dir)
    for n, up in enumerate(uploads):
        cancel.raise_if_cancelled()
        progress.status(f"Uploading {up.kind} {Path(up.local).name if up.local else up.remote}")
        if up.local is None:
            transport.write_text(up.remote, up.text or "")
        else:
            transport.put(
                up.local,
                up.remote,
                progress=ScaledProgress(progress, 0.4 * n / len(uploads), 0.4 * (n + 1) / len(uploads)),
                cancel=cancel,
            )
    produced = files_produced(job, remote_dir, str(out_dir))[0]
    if transport.exists(produced.remote):
        transport.remove(produced.remote)  # never download a stale .om from an earlier run
    argv = command(job)
    progress.status(f"Running atc on {transport.label}")
    progress.fraction(None)
    run = transport.run(
        argv,
        cwd=remote_dir,
        env=job.env or None,
        toolkit=toolkit.set_env,
        devices=job.devices,
        progress=progress,
        cancel=cancel,
    )
    outcome = parse_atc_output(run.stdout, run.stderr, run.exit_status)
    om_path = None
    if outcome.ok:
        if not transport.exists(produced.remote):
            outcome.ok = False
            outcome.errors.append(Diagnostic("WB-FAILED", f"atc reported success but {produced.remote} is missing"))
        else:
            progress.status(f"Downloading {posixpath.basename(produced.remote)}")
            out_dir.mkdir(parents=True, exist_ok=True)
            transport.get(produced.remote, str(local_om), progress=ScaledProgress(progress, 0.9, 1.0), cancel=cancel)
            om_path = str(local_om)
    result = ConversionResult(
        outcome.ok,
        command_line(job),
        job.host or transport.label,
        remote_dir,
        produced.remote,
        om_path,
        run.exit_status,
        outcome.warnings,
        outcome.errors,
        run.stdout + run.stderr,
        started.isoformat(timespec="seconds"),
        time.monotonic() - t0,
    )
    if project is not None:
        record_conversion(project, job, result)
    progress.fraction(1.0)
    progress.status("Conversion succeeded" if result.ok else "Conversion failed")
    return result


def record_conversion(project: Any, job: ConversionJob, result: ConversionResult) -> dict[str, Any]:
    """Append the conversion (command, time, result) to the project's history and save it."""
    om = result.om_path
    if om:
        with contextlib.suppress(ValueError):
            om = Path(om).resolve().relative_to(Path(project.root).resolve()).as_posix()
    entry = {
        "time": result.started,
        "host": result.host,
        "model": job.model,
        "soc_version": job.soc_version,
        "command": result.command,
        "remote_dir": result.remote_dir,
        "result": "success" if result.ok else "failed",
        "exit_status": result.exit_status,
        "om": om,
        "duration_s": round(result.duration_s, 3),
        "warnings": [w.code for w in result.warnings],
        "errors": [{"code": e.code, "message": e.message} for e in result.errors],
    }
    project.conversions.append(entry)
    project.extra[HISTORY_KEY] = job.to_dict()
    project.save()
    return entry


def last_job(project: Any) -> ConversionJob | None:
    """The wizard's last values in this project (None when never converted or unreadable)."""
    raw = project.extra.get(HISTORY_KEY)
    try:
        return ConversionJob.from_dict(raw, f"{project.file}: {HISTORY_KEY}") if raw else None
    except ValueError:
        return None


def default_host(project: Any = None) -> str:
    """The CANN machine a conversion (or an .om read with ``atc --mode=1``) of ``project`` runs on
    unless the user picks another: the project's own (``project.remote.host``, the one the CANN
    Machine dock shows and run configurations default to), else the converter's last one in this
    project, else the demo host (also without a project)."""
    if project is None:
        return DEMO_NAME
    if project.remote.host:
        return str(project.remote.host)
    job = last_job(project)
    return job.host if job is not None and job.host else DEMO_NAME


def remember_job(project: Any, job: ConversionJob) -> None:
    project.extra[HISTORY_KEY] = job.to_dict()
    project.save()
