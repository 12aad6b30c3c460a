"""The computing half of the simulated ``msaccucmp.py``: ``convert`` and ``compare`` on real-format files.

Called by :mod:`workbench.simtoolkit.msaccucmp` once the command line passed the real tool's checks;
returns the real CompareError code. ``convert`` writes ``{dumpfile}.{input|output}.{index}.npy``
(with ``-f FORMAT``: ``{dumpfile}.{input|output}.{index}.{FORMAT}.npy``, only for the tensors
``-i``/``-o`` select); ``compare`` writes ``result_{YYYYMMDDhhmmss}.csv`` into ``-out`` (default: the
current folder) with msaccucmp's header, the algorithms of ``-alg`` (default all).
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from pathlib import Path

from workbench.core.dump import formats, metrics
from workbench.core.dump.compare import compare_dirs, write_result_csv
from workbench.core.dump.convert import convert_tensor, iter_dump_files, save_npy
from workbench.core.dump.dtypes import DataTypeError
from workbench.core.dump.dumpfile import DumpFileError, read_dump
from workbench.core.dump.omjson import OmJsonError

NONE, INVALID_PATH, INVALID_PARAM, INVALID_DUMP_DATA, INVALID_FORMAT, UNSUPPORTED, INVALID_ALGORITHM = (
    0,
    3,
    6,
    11,
    22,
    30,
    31,
)
TARGET_FORMATS = ("NCHW", "ND", "NCDHW")


def _out_dir(args: argparse.Namespace, log: logging.Logger) -> Path | None:
    out = Path(args.output_path or os.getcwd())
    if not out.is_dir():
        log.error('The -out parameter: "%r" is invalid!', str(out))
        return None
    return out


def _convert(args: argparse.Namespace, log: logging.Logger) -> int:
    if args.output_file_type != "npy" or args.custom_script_path:
        log.error("[simulated CANN toolkit] only the npy output type without a custom script is simulated.")
        return UNSUPPORTED
    if args.format is not None and args.format not in TARGET_FORMATS:
        log.error(
            "The format(%s) is not supported by the simulated toolkit: one of %s.",
            args.format,
            ", ".join(TARGET_FORMATS),
        )
        return INVALID_FORMAT
    out = _out_dir(args, log)
    if out is None:
        return INVALID_PATH
    ret = NONE
    for f in iter_dump_files(args.dump_path.split(",")):
        try:
            dump = read_dump(f)
        except DumpFileError as err:
            log.error("Failed to parse dump file %r. %s", str(f), err)
            ret = INVALID_DUMP_DATA
            continue
        for t in dump.tensors():
            if args.format is not None and (
                (args.input is not None and (t.kind, str(t.index)) != ("input", args.input))
                or (args.output is not None and (t.kind, str(t.index)) != ("output", args.output))
            ):
                continue
            try:
                if args.format is None:
                    written = convert_tensor(t, f.name, out, with_formats=False)[0]
                else:
                    shape = tuple(int(x) for x in args.shape.split(",")) if args.shape else t.original_shape
                    conv = formats.to_original(t.array(), t.format, shape)
                    if conv is None or conv[1] != args.format:
                        log.error('Failed to convert format for %s:%d of "%r"', t.kind, t.index, str(f))
                        ret = INVALID_FORMAT
                        continue
                    written = out / f"{f.name}.{t.kind}.{t.index}.{args.format}.npy"
                    save_npy(written, conv[0])
            except (DataTypeError, ValueError) as err:
                log.error('Failed to convert %s:%d of "%r" to numpy file. %s', t.kind, t.index, str(f), err)
                ret = INVALID_DUMP_DATA
                continue
            log.info('The data of %s:%d has been saved to "%r".', t.kind, t.index, str(written))
    return ret


def _compare(args: argparse.Namespace, log: logging.Logger) -> int:
    if args.op_name or args.custom_script_path or args.quant_fusion_rule_file or args.close_fusion_rule_file:
        log.error("[simulated CANN toolkit] only network comparison (-m, -g, -f, -alg, -out) is simulated.")
        return UNSUPPORTED
    try:
        algs = metrics.parse_algorithms(args.algorithm or "all")
    except ValueError as err:
        log.error("%s", err)
        return INVALID_ALGORITHM
    out = _out_dir(args, log)
    if out is None:
        return INVALID_PATH
    try:
        report = compare_dirs(
            args.my_dump_path, args.golden_dump_path, fusion_rule=args.fusion_rule_file or None, algorithms=algs
        )
    except OmJsonError as err:
        log.error("%s", err)
        return 13  # MSACCUCMP_PARSER_JSON_FILE_ERROR
    for w in report.warnings:
        log.warning("%s", w)
    for row, cells in zip(report.rows, report.csv_rows()):
        log.info("[%s] Result: %s", row.npu_op, " ".join(cells))
    path = out / f"result_{time.strftime('%Y%m%d%H%M%S')}.csv"
    write_result_csv(report, path)
    log.info('The result file "%s" has been written.', path)
    return NONE if report.rows else 2  # MSACCUCMP_NO_DUMP_FILE_ERROR


def run(args: argparse.Namespace, log: logging.Logger) -> int:
    if args.command == "convert":
        return _convert(args, log)
    if args.command == "compare":
        return _compare(args, log)
    log.error("[simulated CANN toolkit] msaccucmp %s: not simulated (convert and compare are).", args.command)
    return UNSUPPORTED
