"""``ascend-workbench profile``: profile an application on a host with msprof and fetch the data.

    ascend-workbench profile --host NAME --app "CMD ARGS" [--cwd DIR] [--aic-mode task-based|sample-based]
        [--aic-metrics GROUP] [--task-time l0|l1|l2|off] [--ascendcl on|off] [--runtime-api on|off]
        [--aicpu on|off] [--sys-hardware-mem on|off] [--host-sys cpu,mem,disk,network] [--msproftx on|off]
        [--devices IDS] [--out DIR] [--dry-run] [--json]

``--host demo`` is the demo host (simulated toolkit, this machine). ``--dry-run`` prints the exact
msprof command (and the checks) without running anything. ``--json`` prints
``{ok, command, remote_dir, local_dir, report_kind}`` on stdout (msprof's output then goes to
stderr); ``local_dir`` opens with ``ascend-workbench report info``. Exit codes: 0 ok, 2 bad input
or a failed check, 1 a failure on the host.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from workbench.core.profiler.chips import ALL_GROUPS
from workbench.core.profiler.command import command_text, msprof_command
from workbench.core.profiler.options import AIC_MODES, HOST_SYS, LOCAL, REMOTE, TASK_TIME_LEVELS, JobError, ProfilingJob
from workbench.core.services.runner import parse_devices, parse_env
from workbench.core.verbs import register_verb

ON_OFF = ("on", "off")
HELP = "profile an application on a host with msprof, fetch the data and print where it is"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", required=True, help="a configured CANN machine, or 'demo' (simulated toolkit)")
    p.add_argument(
        "--app",
        required=True,
        metavar="CMD ARGS",
        help='the application and its arguments, e.g. "python3 /home/me/app/main.py --n 2"',
    )
    p.add_argument("--cwd", default="", metavar="DIR", help="working folder on the host")
    p.add_argument("--aic-mode", choices=AIC_MODES, default="task-based")
    p.add_argument(
        "--aic-metrics",
        choices=ALL_GROUPS,
        default="PipeUtilization",
        metavar="GROUP",
        help="AI Core metric group: " + ", ".join(ALL_GROUPS),
    )
    p.add_argument("--aic-freq", type=int, default=100, metavar="HZ", help="sample-based frequency (1-100)")
    p.add_argument("--ai-core", choices=ON_OFF, default="on")
    p.add_argument("--task-time", choices=TASK_TIME_LEVELS, default="l1")
    p.add_argument("--ascendcl", choices=ON_OFF, default="on")
    p.add_argument("--runtime-api", choices=ON_OFF, default="off")
    p.add_argument("--os-runtime-api", choices=ON_OFF, default="off", help="needs perf and ltrace on the host")
    p.add_argument("--graph-engine", choices=ON_OFF, default="off")
    p.add_argument("--hccl", choices=ON_OFF, default="off")
    p.add_argument("--aicpu", choices=ON_OFF, default="off")
    p.add_argument("--sys-hardware-mem", choices=ON_OFF, default="off")
    p.add_argument("--sys-hardware-mem-freq", type=int, default=50, metavar="HZ")
    p.add_argument("--host-sys", default="", metavar="LIST", help="cpu,mem,disk,network (and osrt)")
    p.add_argument("--msproftx", choices=ON_OFF, default="off")
    p.add_argument("--devices", default="", metavar="IDS", help="ASCEND_RT_VISIBLE_DEVICES, e.g. 0,1")
    p.add_argument("--env", action="append", default=[], metavar="K=V", help="environment variable for the app")
    p.add_argument("--toolkit", default="", help="CANN toolkit path on the host (default: the host's, else detect)")
    p.add_argument(
        "--project",
        default="",
        metavar="DIR",
        help="local app project: deployed first, the run recorded in its history",
    )
    p.add_argument("--no-deploy", action="store_true", help="with --project: do not sync it first")
    p.add_argument("--local", action="store_true", help="Local run mode: run on this machine, not on --host")
    p.add_argument("--remote-out", default="", metavar="DIR", help="msprof --output base folder on the host")
    p.add_argument(
        "--out",
        default="",
        metavar="DIR",
        help="local folder receiving <run id>/PROF_* (default: the project's, else ./profiling)",
    )
    p.add_argument("--accept-new-host-key", action="store_true")
    p.add_argument("--dry-run", action="store_true", help="print the exact msprof command and the checks only")
    p.add_argument("--json", action="store_true")


def job_from_args(args: argparse.Namespace) -> ProfilingJob:
    """The :class:`ProfilingJob` the command line describes (raises ValueError / JobError)."""
    host_sys = [v.strip() for v in args.host_sys.split(",") if v.strip()]
    unknown = [v for v in host_sys if v not in (*HOST_SYS, "osrt")]
    if unknown:
        raise JobError(
            f"--host-sys {args.host_sys!r}: expected a list of {', '.join(HOST_SYS)}, osrt (got {', '.join(unknown)})",
            "host_sys",
        )
    job = ProfilingJob.from_command(
        args.app,
        run_mode=LOCAL if args.local else REMOTE,
        host=args.host,
        cwd=args.cwd,
        toolkit=args.toolkit,
        project_path=str(Path(args.project).absolute()) if args.project else "",
        deploy=not args.no_deploy,
        remote_output=args.remote_out,
        devices=parse_devices(args.devices),
        env=parse_env(args.env),
        ai_core=args.ai_core == "on",
        aic_mode=args.aic_mode,
        aic_metrics=args.aic_metrics,
        aic_freq=args.aic_freq,
        task_time=args.task_time,
        ascendcl=args.ascendcl == "on",
        runtime_api=args.runtime_api == "on",
        os_runtime_api=args.os_runtime_api == "on" or "osrt" in host_sys,
        graph_engine=args.graph_engine == "on",
        hccl=args.hccl == "on",
        aicpu=args.aicpu == "on",
        sys_hardware_mem=args.sys_hardware_mem == "on",
        sys_hardware_mem_freq=args.sys_hardware_mem_freq,
        msproftx=args.msproftx == "on",
        host_sys=[v for v in host_sys if v != "osrt"],
    )
    return job.validate()


class _Output:
    """Streams msprof's lines (stdout/stderr, or all to stderr with --json) and status lines."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json

    def status(self, text: str) -> None:
        sys.stderr.write(f"[workbench] {text}\n")
        sys.stderr.flush()

    def fraction(self, value: float | None) -> None:
        pass

    def partial(self, item: Any) -> None:
        if not (isinstance(item, tuple) and len(item) == 2):
            return
        stream, line = item
        out = sys.stdout if stream == "stdout" and not self.as_json else sys.stderr
        if stream in ("stdout", "stderr"):
            out.write(line)
        else:
            out.write(f"[{stream}] {line}\n")
        out.flush()


def _emit(data: dict[str, Any], as_json: bool, text: str) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False) if as_json else text)


def _dry_run(job: ProfilingJob, tr: Any, toolkit: Any, args: argparse.Namespace) -> int:
    from workbench.core.profiler.preflight import preflight
    from workbench.core.profiler.run import new_run_id, plan_locations, results_root
    from workbench.core.services.transport import posix_join

    results = Path(args.out).absolute() if args.out else results_root(job)
    where = plan_locations(job, tr, None, results)
    remote_dir = posix_join(where.remote_base, new_run_id())
    argv = msprof_command(job, toolkit.version, output=remote_dir, msprof=toolkit.tools.get("msprof") or "msprof")
    issues = preflight(job, tr, toolkit, workdir=where.workdir)
    data = {
        "ok": not any(i.blocking for i in issues),
        "dry_run": True,
        "command": command_text(argv),
        "argv": argv,
        "cwd": where.workdir,
        "devices": job.devices,
        "cann_version": toolkit.version,
        "remote_dir": remote_dir,
        "local_dir": None,
        "report_kind": None,
        "issues": [i.to_dict() for i in issues],
    }
    text = command_text(argv) + "".join(f"\n{i.level}: {i.message}" for i in issues)
    _emit(data, args.json, text)
    return 0 if data["ok"] else 2


def handler(args: argparse.Namespace) -> int:
    from workbench.core.profiler.run import ProfilerError, open_host, profile, resolve_toolkit
    from workbench.core.project import ProjectError
    from workbench.core.services.cli import TerminalPrompter
    from workbench.core.services.hosts import HostError
    from workbench.core.services.transport import TransportError
    from workbench.core.tasks import Cancelled, CancelToken

    def fail(message: str, code: int, **extra: Any) -> int:
        if args.json:
            print(json.dumps({"ok": False, "error": message, **extra}, indent=2, ensure_ascii=False))
        print(f"ascend-workbench: {message}", file=sys.stderr)
        return code

    try:
        job = job_from_args(args)
        if not args.out and not job.project_path:
            args.out = str(Path.cwd() / "profiling")
        tr, host_toolkit = open_host(job, TerminalPrompter(args.accept_new_host_key))
    except (JobError, HostError, ValueError) as exc:
        return fail(str(exc), 2)
    cancel = CancelToken()
    try:
        toolkit = resolve_toolkit(job, tr, host_toolkit, cancel)
        if args.dry_run:
            return _dry_run(job, tr, toolkit, args)
        try:
            run = profile(
                job,
                tr,
                toolkit,
                results_dir=args.out or None,
                host_toolkit=host_toolkit,
                progress=_Output(args.json),
                cancel=cancel,
            )
        except KeyboardInterrupt:
            cancel.cancel()
            raise Cancelled() from None
        root = Path(job.project_path) if job.project_path else None
        report = run.report(root)
        data = {
            "ok": True,
            "command": command_text(run.command),
            "argv": run.command,
            "remote_dir": run.remote_dir,
            "local_dir": str(report),
            "run_dir": str(run.local_path(root)),
            "report_kind": run.report_kind,
            "run_id": run.id,
            "cann_version": run.cann_version,
            "prof_dirs": run.prof_dirs,
        }
        _emit(data, args.json, f"profiling data: {report} ({run.report_kind}); on {job.host}: {run.remote_dir}")
        return 0
    except ProfilerError as exc:
        return fail(str(exc), 2 if exc.issues else 1, issues=[i.to_dict() for i in exc.issues])
    except (JobError, ProjectError, FileExistsError) as exc:
        return fail(str(exc), 2)
    except (TransportError, OSError) as exc:
        return fail(str(exc), 1)
    except Cancelled:
        return fail("cancelled", 1)
    finally:
        tr.close()


register_verb("profile", HELP, add_arguments, handler)
