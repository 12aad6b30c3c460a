"""Verbs ``dump-config``, ``dump convert`` and ``accuracy compare`` (Qt-free).

- ``dump-config --model-json FILE (--all | --ops A,B,…) [--mode M] [--path DIR] [--data tensor|stats]
  [--stats A,B] [--out acl.json]`` edits the acl.json in place keeping every other key; prints the
  warnings. ``--stats`` needs ``--data stats`` (or a file whose dump_data already is "stats").
- ``dump convert PATH… --out DIR`` writes .npy files; damaged files are listed and the rest convert.
- ``accuracy compare --npu DIR --golden DIR [--fusion-rule FILE] [--alg NAMES] [--threshold 0.99]
  --out result.csv [--json]``.
Exit codes: 0 ok, 1 some files failed (convert), 2 bad input (message on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys

from workbench.core import fsutil
from workbench.core.dump import aclconfig
from workbench.core.tasks import run_inline
from workbench.core.verbs import register_verb

# ``metrics.DEFAULT_ALGORITHMS`` for the --help text: metrics imports numpy, which `<verb> --help` must
# not wait for (tests/core/shell/test_cli_verbs.py keeps the two equal).
DEFAULT_ALGORITHMS = (
    "CosineSimilarity",
    "MaxAbsoluteError",
    "AccumulatedRelativeError",
    "RelativeEuclideanDistance",
    "MeanAbsoluteError",
    "RootMeanSquareError",
    "MaxRelativeError",
    "MeanRelativeError",
)


def _err(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


# ----- dump-config
def _config_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model-json", required=True, metavar="FILE", help="the model's atc --mode=1 JSON (op tree)")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--all", action="store_true", help="dump every op of the model")
    which.add_argument("--ops", metavar="A,B,…", help="dump only these ops (Dump Option: Several)")
    which.add_argument("--none", action="store_true", help="remove this model from the dump list")
    p.add_argument("--mode", choices=aclconfig.DUMP_MODES, help="dump inputs, outputs (default) or all")
    p.add_argument("--path", metavar="DIR", help="dump_path (kept from the file when not given)")
    p.add_argument("--data", choices=aclconfig.DUMP_DATA, help="tensor (default) or stats")
    p.add_argument("--stats", metavar="A,B", help=f"dump_stats with --data stats ({','.join(aclconfig.DUMP_STATS)})")
    p.add_argument("--op-switch", choices=aclconfig.SWITCH, help="dump_op_switch (single-operator dump)")
    p.add_argument("--level", choices=aclconfig.DUMP_LEVELS, help="dump_level")
    p.add_argument(
        "--out", default="acl.json", metavar="FILE", help="the acl.json to edit or create (default ./acl.json)"
    )
    p.add_argument("--force", action="store_true", help="replace a read-only --out (it stays read-only)")
    p.add_argument("--json", action="store_true", help="print {path, acl, issues} as JSON")


def _config(args: argparse.Namespace) -> int:
    from workbench.core.dump.omjson import OmJsonError, read_om_json

    try:
        model = read_om_json(args.model_json)
        cfg = aclconfig.AclConfig.load(args.out)
    except (OmJsonError, aclconfig.AclConfigError) as exc:
        return _err(str(exc))
    s = cfg.dump_settings(model.name)
    s.model_name = model.name
    s.option = "all" if args.all else "none" if args.none else "several"
    if args.ops:
        s.layers = [o.strip() for o in args.ops.split(",") if o.strip()]
        unknown = [o for o in s.layers if model.op(o) is None]
        if unknown:
            return _err(f"{args.model_json}: not ops of model {model.name!r}: {', '.join(unknown)}")
    for attr, value in (
        ("dump_mode", args.mode),
        ("dump_path", args.path),
        ("dump_data", args.data),
        ("dump_op_switch", args.op_switch),
        ("dump_level", args.level),
    ):
        if value is not None:
            setattr(s, attr, value)
    if args.stats is not None:
        if s.dump_data != "stats":
            # dump_stats is read only with dump_data "stats" (docs/cann-formats.md §5); turning a tensor
            # dump into a statistics dump is not implied by naming statistics.
            known = args.data is None and "dump_data" in (cfg.dump or {})
            where = f" ({args.out} has dump_data {s.dump_data!r})" if known else ""
            return _err(f"--stats needs --data stats: dump_stats is only used by a statistics dump{where}")
        s.dump_stats = [x.strip() for x in args.stats.split(",") if x.strip()]
    if not s.dump_path and s.option != "none":
        return _err(f"{args.out}: no dump_path in the file: give --path DIR")
    cfg.apply_dump(s)
    issues = cfg.validate(model)
    errors = [i for i in issues if i.level == "error"]
    if errors:
        return _err("\n".join(f"{args.out}: {i.field}: {i.message}" for i in errors) + "\n(file not written)")
    try:
        path = cfg.save(args.out, replace_read_only=args.force)
    except fsutil.ReadOnlyFile as exc:
        return _err(f"{exc} (or pass --force to replace it)")
    except OSError as exc:
        return _err(f"{args.out}: not written: {exc.strerror or exc}")
    if args.json:
        print(
            json.dumps({"path": str(path), "acl": cfg.data, "issues": [i.__dict__ for i in issues]}, ensure_ascii=False)
        )
    else:
        for i in issues:
            print(f"warning: {path}: {i.field}: {i.message}", file=sys.stderr)
        print(path)
    return 0


register_verb(
    "dump-config",
    "write the dump section of an acl.json for an offline model (keeps other keys)",
    _config_args,
    _config,
)


# ----- dump convert
def _dump_args(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    c = sub.add_parser("convert", help="dump files (or folders of them) to .npy")
    c.add_argument("paths", nargs="+", metavar="PATH")
    c.add_argument("--out", required=True, metavar="DIR")
    c.add_argument("--no-format", action="store_true", help="do not also write the original-layout .npy")
    c.add_argument("--json", action="store_true", help="print {written, errors} as JSON")


def _dump(args: argparse.Namespace) -> int:
    from workbench.core.dump.convert import convert_paths

    try:
        report = run_inline(convert_paths, args.paths, args.out, with_formats=not args.no_format)
    except OSError as exc:
        return _err(f"{args.out}: {exc}")
    if args.json:
        print(
            json.dumps(
                {
                    "written": [str(p) for p in report.written],
                    "errors": report.errors,
                    "files_ok": report.files_ok,
                    "files_failed": report.files_failed,
                }
            )
        )
    else:
        for e in report.errors:
            print(f"error: {e}", file=sys.stderr)
        print(
            f"{report.files_ok} file(s) converted, {report.files_failed} failed, "
            f"{len(report.written)} file(s) written to {args.out}"
        )
    if not report.written and not report.errors:
        return _err(f"no dump files found in {', '.join(args.paths)}")
    return 1 if report.errors else 0


register_verb("dump", "read dump files without CANN: convert them to .npy", _dump_args, _dump)


# ----- accuracy compare
def _acc_args(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    c = sub.add_parser("compare", help="compare an NPU dump folder with ground-truth .npy files")
    c.add_argument("--npu", required=True, metavar="DIR", help="the NPU dump folder")
    c.add_argument("--golden", required=True, metavar="DIR", help="ground truth {op}.{index}.{timestamp}.npy files")
    c.add_argument("--fusion-rule", metavar="FILE", help="the offline model's om JSON (maps fused ops)")
    c.add_argument(
        "--alg",
        metavar="NAMES",
        help=f"'all', or comma-separated names/indexes (default: {','.join(DEFAULT_ALGORITHMS)})",
    )
    c.add_argument("--threshold", type=float, default=0.99, help="cosine similarity threshold (default 0.99)")
    c.add_argument("--out", required=True, metavar="FILE", help="result CSV (msaccucmp layout); .xlsx also works")
    c.add_argument("--force", action="store_true", help="replace --out if it exists (never an input)")
    c.add_argument("--json", action="store_true", help="print {rows, first_below_threshold} as JSON")


def _accuracy(args: argparse.Namespace) -> int:
    from pathlib import Path

    from workbench.core.dump import metrics
    from workbench.core.dump.compare import compare_dirs, write_result_csv, write_result_xlsx
    from workbench.core.dump.omjson import OmJsonError

    for flag, path in (("--npu", args.npu), ("--golden", args.golden)):
        if not Path(path).is_dir():
            return _err(f"{flag} {path}: not a folder")
    inputs = [p for p in (args.npu, args.golden, args.fusion_rule) if p]
    try:
        fsutil.refuse_inputs(args.out, inputs)
        fsutil.refuse_existing(args.out, args.force)
    except fsutil.OutputRefused as exc:
        return _err(str(exc))
    try:
        algs = metrics.parse_algorithms(args.alg)
        report = run_inline(
            compare_dirs, args.npu, args.golden, fusion_rule=args.fusion_rule, algorithms=algs, threshold=args.threshold
        )
    except (ValueError, OmJsonError) as exc:
        return _err(str(exc))
    (write_result_xlsx if args.out.lower().endswith(".xlsx") else write_result_csv)(report, args.out, inputs)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        for w in report.warnings:
            print(f"{'error' if w in report.unreadable else 'warning'}: {w}", file=sys.stderr)
        first = report.first_below_threshold
        print(f"{len(report.rows)} tensor(s) compared, result in {args.out}")
        if first:
            print(
                f"first op below cosine {args.threshold}: {first.npu_op} ({first.tensor_index}) "
                f"cosine {first.values.get('CosineSimilarity')}"
            )
    # the other tensors are compared and written, but a ground-truth file that could not be read is
    # bad input: the run is not a clean pass (exit 2, as for any bad input)
    return 2 if report.unreadable else 0


register_verb(
    "accuracy", "vector comparison of NPU dump data with ground truth (msaccucmp compare)", _acc_args, _accuracy
)
