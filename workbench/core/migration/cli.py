"""``ascend-workbench migrate`` (Qt-free): GPU → Ascend migration on a CANN machine, and its reports.

``migrate run HOST --framework tf1|tf2|pytorch --input DIR [--main FILE] [--out DIR]
[--pytorch-version V] [--distributed] [--target-model NAME] [--force] [--dry-run] [--json]``: runs
convert_tf2npu (TensorFlow) or msFmkTransplt's pytorch_gpu2npu.sh (PyTorch) on HOST (``demo``: the
simulated toolkit on this machine) and fetches the migrated project and the reports into ``--out``
(default ``<input>_npu`` beside the input). The tool's lines stream to stderr; Ctrl-C kills the
tool's process group on the host. Exit 0 migrated, 1 the tool or the connection failed, 2 bad
input (nothing run).

``migrate report DIR [--json]``: reads a report folder (convert_tf2npu's ``report_npu_*`` or
msFmkTransplt's ``*_msft``) and prints the brief counts, the changes and the unsupported APIs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from workbench.core.verbs import register_verb, run_guarded

OK, FAILED, INVALID = 0, 1, 2
DEFAULT_ROOT = "/usr/local/Ascend/ascend-toolkit/latest"  # the real default install (dry run)


def _fail(msg: str, code: int) -> int:
    print(f"ascend-workbench: {msg}", file=sys.stderr)
    return code


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.usage = "ascend-workbench migrate [run] HOST --framework … | migrate report DIR"
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    r = sub.add_parser(
        "run", help="(the default action) run the migration tool on a CANN machine and fetch the migrated project"
    )
    r.add_argument("host", metavar="HOST", help="a configured CANN machine, or 'demo' (simulated toolkit)")
    r.add_argument("--framework", required=True, choices=("tf1", "tf2", "pytorch"))
    r.add_argument("--input", required=True, metavar="DIR", help="the GPU project folder")
    r.add_argument("--main", metavar="FILE", default="", help="the entry script, relative to --input")
    r.add_argument("--out", metavar="DIR", help="local folder for the result (default: <input>_npu beside it)")
    r.add_argument("--pytorch-version", default="2.1.0", help="PyTorch version of the script (-v; default 2.1.0)")
    r.add_argument("--distributed", action="store_true", help="PyTorch: make a multi-device NPU script (needs --main)")
    r.add_argument("--target-model", default="model", help="PyTorch distributed: the model variable (-t)")
    r.add_argument("--force", action="store_true", help="write into an --out folder that already holds files")
    r.add_argument("--dry-run", action="store_true", help="print the tool's command line; run nothing")
    r.add_argument("--json", action="store_true")
    r.add_argument("--accept-new-host-key", action="store_true", help="trust an unknown SSH host key (printed)")
    q = sub.add_parser("report", help="read a migration report folder")
    q.add_argument("folder", metavar="DIR")
    q.add_argument("--json", action="store_true")


class _LogProgress:
    def status(self, text: str) -> None:
        print(f"[{text}]", file=sys.stderr, flush=True)

    def fraction(self, value: float | None) -> None:
        pass

    def partial(self, item: Any) -> None:
        if isinstance(item, tuple) and len(item) == 2 and item[0] in ("stdout", "stderr"):
            sys.stderr.write(item[1])
            sys.stderr.flush()


def _summary(rep: Any) -> str:
    c = rep.counts()
    lines = [
        f"{rep.tool} report: {rep.folder}",
        f"files: {c['files']}  changes: {c['changes']}  APIs: {c['apis']}  unsupported: {c['unsupported']}"
        + (f"  deprecated: {c['deprecated']}" if c["deprecated"] else "")
        + (f"  manual: {c['manual']}" if c["manual"] else ""),
    ]
    for a in rep.unsupported:
        lines.append(f"unsupported  {a.file}:{a.line}  {a.api}" + (f"  — {a.advice}" if a.advice else ""))
    for ch in rep.changes:
        lines.append(f"changed      {ch.file}:{ch.line}  {ch.text}")
    for w in rep.warnings:
        lines.append(f"warning: {w}")
    return "\n".join(lines)


def _report(args: argparse.Namespace) -> int:
    from workbench.core.migration.reports import MigrationReportError, read_report_folder

    try:
        rep = read_report_folder(args.folder)
    except MigrationReportError as exc:
        return _fail(str(exc), INVALID)
    print(json.dumps(rep.to_json(), indent=2, ensure_ascii=False) if args.json else _summary(rep))
    return OK


def _run(args: argparse.Namespace) -> int:
    from workbench.core.migration.job import JobError, MigrationJob, check_job, check_local_input, command_line
    from workbench.core.migration.run import default_out, run_migration
    from workbench.core.services.cli import SignalCancel, open_transport
    from workbench.core.services.demohost import resolve_host
    from workbench.core.services.hosts import HostError
    from workbench.core.services.transport import TransportError
    from workbench.core.tasks import Cancelled, CancelToken

    out = Path(args.out).expanduser() if args.out else default_out(args.input)
    try:
        local_in = check_local_input(args.input, args.main)
        job = MigrationJob(
            framework=args.framework,
            input=str(local_in),
            output=str(out.resolve()),
            main=str(local_in / args.main) if args.main else "",
            pytorch_version=args.pytorch_version,
            distributed=args.distributed,
            target_model=args.target_model,
        )
        check_job(job)
        if args.dry_run:
            print(f"[toolkit root assumed: {DEFAULT_ROOT}; a run uses the one detected on the host]", file=sys.stderr)
            print(command_line(job, DEFAULT_ROOT))
            return OK
        host = resolve_host(args.host)
        transport = open_transport(host, accept_new=args.accept_new_host_key)
    except (JobError, HostError, ValueError) as exc:
        return _fail(str(exc), INVALID)
    cancel = CancelToken()
    signals = SignalCancel(cancel)
    try:
        with signals.active():
            result = run_migration(
                args.framework,
                local_in,
                out,
                transport,
                host.toolkit or None,
                main=args.main,
                pytorch_version=args.pytorch_version,
                distributed=args.distributed,
                target_model=args.target_model,
                host=host.name,
                force=args.force,
                progress=_LogProgress(),
                cancel=cancel,
            )
    except (Cancelled, KeyboardInterrupt):
        if signals.signum is None:
            return _fail("cancelled", FAILED)
        return _fail(
            f"{host.name}: migration cancelled by {signals.name}; the tool's process group on the host was killed",
            signals.exit_code,
        )
    except (JobError, FileExistsError) as exc:
        return _fail(str(exc), INVALID)
    except (TransportError, OSError) as exc:
        return _fail(str(exc), FAILED)
    finally:
        transport.close()
    if args.json:
        data = result.to_json()
        if result.report is not None:
            data["report"] = result.report.to_json()
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        if result.report is not None:
            print(_summary(result.report))
        if result.output_dir:
            print(f"migrated project: {result.output_dir}")
    if not result.ok:
        return _fail(result.error or "the migration failed", FAILED)
    return OK


def _handle(args: argparse.Namespace) -> int:
    return run_guarded(_report if args.action == "report" else _run, args)


register_verb(
    "migrate",
    "GPU -> Ascend migration: run convert_tf2npu / msFmkTransplt on a CANN machine, or read its reports",
    _add_arguments,
    _handle,
    default_action=("run", ("run", "report")),  # the issue's `migrate HOST --framework …`
)
