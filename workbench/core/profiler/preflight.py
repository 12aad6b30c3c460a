"""Checks before a profiling run starts: what would fail or mislead, said before anything runs.

* the job's fields (:meth:`ProfilingJob.validate`) and the toolkit (msprof present, version known);
* the chip: the metric group must be one the host's SoC supports (:mod:`.chips`), devices must exist;
* OS Runtime API tracing needs ``perf`` and ``ltrace`` on the host, host disk sampling ``iotop``:
  looked up with the same environment msprof gets (toolkit sourced, the job's variables), and
  what to install is said;
* Python scripts: asynchronous ACL APIs (``*_async``, callbacks) need a synchronise before the
  script ends or their tasks are missing; inside acl Python projects MindStudio requires absolute
  paths (models, data), so relative path literals are pointed out;
* option combinations msprof ignores (task-based PMU without task time, a task-time level on a
  CANN without levels, GE/HCCL switches CANN 8 folds into task time).

Each finding is an :class:`Issue`; ``level == "error"`` blocks the run.
"""

from __future__ import annotations

import ast
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from workbench.core.profiler.chips import metric_groups
from workbench.core.profiler.command import bad_path_chars, cann_tuple
from workbench.core.profiler.options import LOCAL, PYTHON, TASK_BASED, JobError, ProfilingJob
from workbench.core.services.toolkit import ToolkitInfo, read_npu_smi
from workbench.core.services.transport import Transport, TransportError
from workbench.core.tasks import CancelToken

ERROR, WARNING, INFO = "error", "warning", "info"
INSTALL_HINTS = {
    "perf": "perf (Debian/Ubuntu: apt-get install linux-tools-common linux-tools-$(uname -r); "
    "CentOS/openEuler/EulerOS: yum install perf)",
    "ltrace": "ltrace (apt-get install ltrace / yum install ltrace)",
    "iotop": "iotop (apt-get install iotop / yum install iotop)",
}
ASYNC_CALL = re.compile(r"\b(acl\.[A-Za-z_.]*(?:_async|launch_callback|subscribe_report|process_report))\s*\(")
PATH_LITERAL = re.compile(
    r"\.(om|onnx|pb|prototxt|caffemodel|json|bin|npy|jpg|jpeg|png|bmp|yuv|mp4|txt|cfg)$", re.IGNORECASE
)
SCRIPT_LIMIT = 2 * 1024 * 1024


@dataclass(frozen=True)
class Issue:
    level: str  # error | warning | info
    field: str  # the job field (or "host") the issue is about, for the wizard to point at
    message: str  # English; the UI translates its own framing

    @property
    def blocking(self) -> bool:
        return self.level == ERROR

    def to_dict(self) -> dict[str, str]:
        return {"level": self.level, "field": self.field, "message": self.message}


def missing_tools(
    transport: Transport,
    tools: list[str],
    *,
    toolkit: str | None,
    env: dict[str, str],
    cancel: CancelToken | None = None,
) -> list[str]:
    """Which of ``tools`` are not found on the host's PATH as msprof will see it."""
    script = "for t in " + " ".join(tools) + '; do command -v "$t" >/dev/null 2>&1 || echo "$t"; done'
    result = transport.run(["bash", "-c", script], toolkit=toolkit, env=env, timeout=60, cancel=cancel)
    if not result.ok:
        raise TransportError(f"{transport.label}: checking for {', '.join(tools)} failed: {result.stderr.strip()}")
    return [line.strip() for line in result.stdout.splitlines() if line.strip() in tools]


def _tool_issues(
    job: ProfilingJob, transport: Transport, toolkit: ToolkitInfo | None, cancel: CancelToken | None
) -> list[Issue]:
    wanted: list[tuple[str, str, str]] = []  # (tool, field, what needs it)
    if job.os_runtime_api:
        wanted += [
            ("perf", "os_runtime_api", "OS Runtime API tracing"),
            ("ltrace", "os_runtime_api", "OS Runtime API tracing"),
        ]
    if "disk" in job.host_sys:
        wanted.append(("iotop", "host_sys", "host disk sampling"))
    if not wanted:
        return []
    try:
        missing = set(
            missing_tools(
                transport,
                [t for t, _, _ in wanted],
                toolkit=toolkit.set_env if toolkit else None,
                env=job.env,
                cancel=cancel,
            )
        )
    except TransportError as exc:
        return [Issue(WARNING, "host", f"could not check for {', '.join(t for t, _, _ in wanted)}: {exc}")]
    issues: list[Issue] = []
    for field_name in dict.fromkeys(f for _, f, _ in wanted):
        tools = [t for t, f, _ in wanted if f == field_name and t in missing]
        if tools:
            what = next(w for _, f, w in wanted if f == field_name)
            issues.append(
                Issue(
                    ERROR,
                    field_name,
                    f"{what} needs {' and '.join(tools)} on {transport.label}, "
                    f"not found on the PATH msprof uses. Install "
                    + "; ".join(INSTALL_HINTS[t] for t in tools)
                    + ", or turn the option off.",
                )
            )
    return issues


def _option_issues(job: ProfilingJob, version: str | None) -> list[Issue]:
    issues: list[Issue] = []
    ver = cann_tuple(version)
    if job.ai_core and job.aic_mode == TASK_BASED and job.task_time in ("off", "l0"):
        issues.append(
            Issue(
                WARNING,
                "task_time",
                f"task-based AI Core metrics are collected with task time at "
                f"level 1 or 2; with task time {job.task_time} op_summary has no PMU columns",
            )
        )
    if ver < (8, 0) and job.task_time in ("l0", "l2"):
        issues.append(
            Issue(
                WARNING, "task_time", f"CANN {version} has no task-time levels; {job.task_time} runs as --task-time=on"
            )
        )
    if ver >= (8, 0):
        for name, label in (("graph_engine", "Graph Engine"), ("hccl", "HCCL")):
            if getattr(job, name):
                level = WARNING if job.task_time == "off" else INFO
                issues.append(
                    Issue(
                        level,
                        name,
                        f"CANN {version or '8.x'} collects {label} data with task time "
                        f"(--task-time); its own switch is deprecated"
                        + (" and task time is off" if level == WARNING else ""),
                    )
                )
    return issues


def _chip_issues(
    job: ProfilingJob, transport: Transport, toolkit: ToolkitInfo | None, cancel: CancelToken | None
) -> tuple[list[Issue], str]:
    soc = job.soc_version
    issues: list[Issue] = []
    ids: list[int] | None = None
    if toolkit is not None and toolkit.has("npu_smi") and (not soc or job.devices):
        try:
            info = read_npu_smi(transport, toolkit, cancel=cancel)
            ids = [d.npu_id for d in info.devices]
            soc = soc or (info.devices[0].soc_version if info.devices else "")
        except (TransportError, ValueError) as exc:
            issues.append(Issue(WARNING, "devices", f"could not read npu-smi info on {transport.label}: {exc}"))
    if ids is not None:
        absent = [d for d in job.devices if d not in ids]
        if absent:
            issues.append(
                Issue(
                    ERROR,
                    "devices",
                    f"device(s) {', '.join(map(str, absent))} not on "
                    f"{transport.label} (npu-smi lists {', '.join(map(str, ids)) or 'none'})",
                )
            )
    if job.ai_core:
        groups = metric_groups(soc or None)
        if job.aic_metrics not in groups:
            chip = soc or "an unknown chip"
            issues.append(
                Issue(
                    ERROR if soc else WARNING,
                    "aic_metrics",
                    f"{job.aic_metrics} is not available on {chip}; choose one of {', '.join(groups)}",
                )
            )
    return issues, soc


def _script_text(job: ProfilingJob, transport: Transport, workdir: str | None) -> tuple[str, str] | None:
    """(where, text) of the Python script: the local project copy first, else the host's file."""
    if job.project_path and not posixpath.isabs(job.executable):
        local = Path(job.project_path) / job.executable
        if local.is_file() and local.stat().st_size <= SCRIPT_LIMIT:
            return str(local), local.read_text(encoding="utf-8", errors="replace")
    path = job.executable_on_host(workdir)
    try:
        if transport.exists(path) and transport.stat(path).size <= SCRIPT_LIMIT:
            return f"{transport.label}:{path}", transport.read_text(path)
    except (OSError, TransportError, UnicodeDecodeError):
        pass
    return None


def _listing(items: list[tuple[int, str]]) -> str:
    """``line 3: x, line 9: y`` for the first five findings."""
    return ", ".join(f"line {no}: {what}" for no, what in items[:5]) + (" ..." if len(items) > 5 else "")


def python_script_issues(where: str, text: str) -> list[Issue]:
    """Asynchronous ACL calls and relative path literals in an acl Python script."""
    issues: list[Issue] = []
    calls = [(no, m.group(1)) for no, line in enumerate(text.splitlines(), 1) for m in ASYNC_CALL.finditer(line)]
    if calls:
        issues.append(
            Issue(
                WARNING,
                "executable",
                f"{where} calls asynchronous APIs ({_listing(calls)}). Synchronise "
                "(acl.rt.synchronize_stream / synchronize_device) before the script ends, or tasks "
                "still running are missing from the profile.",
            )
        )
    if not re.search(r"^\s*(import acl\b|from acl\b)", text, re.MULTILINE):
        return issues
    relative: list[tuple[int, str]] = []
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        return issues + [Issue(WARNING, "executable", f"{where}: line {exc.lineno}: not valid Python ({exc.msg})")]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and PATH_LITERAL.search(node.value)
            and "\n" not in node.value
            and not node.value.startswith("/")
        ):
            relative.append((node.lineno, repr(node.value)))
    relative.sort()
    message = (
        "MindStudio requires absolute paths inside acl Python projects (the script runs from the "
        "deployed folder on the host)"
    )
    if relative:
        issues.append(Issue(WARNING, "executable", f"{where}: relative paths ({_listing(relative)}). {message}."))
    else:
        issues.append(Issue(INFO, "executable", f"{message}; keep model and data paths absolute."))
    return issues


def preflight(
    job: ProfilingJob,
    transport: Transport,
    toolkit: ToolkitInfo | None,
    *,
    workdir: str | None = None,
    cancel: CancelToken | None = None,
) -> list[Issue]:
    """Every issue found before starting ``job`` on ``transport`` (errors first)."""
    try:
        job.validate()
    except JobError as exc:
        return [Issue(ERROR, exc.field or "job", str(exc))]
    issues: list[Issue] = []
    if toolkit is None or not toolkit.has("msprof"):
        where = toolkit.root if toolkit else "the host"
        issues.append(
            Issue(
                ERROR,
                "toolkit",
                f"no msprof in the CANN toolkit at {where} on {transport.label}; "
                "set the toolkit path or install the toolkit",
            )
        )
    elif not toolkit.version:
        issues.append(
            Issue(
                WARNING,
                "toolkit",
                f"{toolkit.root}: the CANN version is unknown; the command "
                "line and output layout of CANN 8.x are assumed",
            )
        )
    version = toolkit.version if toolkit else None
    if job.run_mode == LOCAL and not transport.is_local:
        issues.append(Issue(ERROR, "run_mode", "Local run mode runs on this machine; it was given a remote host"))
    for name in ("remote_output", "cwd"):
        chars = bad_path_chars(getattr(job, name))
        if chars:
            issues.append(Issue(ERROR, name, f"{getattr(job, name)!r}: msprof refuses paths holding {chars!r}"))
    chip_issues, _soc = _chip_issues(job, transport, toolkit, cancel)
    issues += chip_issues
    issues += _tool_issues(job, transport, toolkit, cancel)
    issues += _option_issues(job, version)
    if job.executable_type == PYTHON:
        found = _script_text(job, transport, workdir or job.cwd or None)
        if found is not None:
            issues += python_script_issues(*found)
    order = {ERROR: 0, WARNING: 1, INFO: 2}
    return sorted(issues, key=lambda i: order[i.level])
