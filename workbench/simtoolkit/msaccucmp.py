"""Simulated ``msaccucmp.py`` (``tools/operator_cmp/compare``): the real command line, checks,
log format and exit codes, over the workbench's own dump reader and msaccucmp-exact metrics.

Real behaviour imitated (msaccucmp as shipped in mindstudio-probe 26.2.0, docs/cann-formats.md §7):
sub-commands ``compare``, ``convert``, ``overflow``, ``file_compare`` with the same flags; messages
go to stderr through ``logging`` as ``YYYY-MM-DD hh:mm:ss (pid) - [LEVEL] message``; the exit
status is the CompareError code (0 ok, 3 invalid path, 6 invalid parameter, 24 invalid type,
30 unsupported compare); argparse errors exit 2; a run ends with "The command was completed and
took N seconds." ``convert`` (to .npy) and ``compare`` (NPU dump folder vs ground truth, result
``result_{YYYYMMDDhhmmss}.csv``) compute with :mod:`workbench.core.dump` as the real tool does;
``overflow``, ``file_compare``, single-op ``compare -op`` and other output types end with error 30.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from collections.abc import Sequence

from workbench.simtoolkit import config as simconfig

LOGO = "[Powered by MindStudio]"
NONE_ERROR, INVALID_PATH, INVALID_PARAM, INVALID_TYPE, UNSUPPORTED = 0, 3, 6, 24, 30
_log = logging.getLogger("msaccucmp")


class CompareError(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _setup_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter(f"%(asctime)s ({os.getpid()}) - [%(levelname)s] %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
    )
    _log.handlers[:] = [handler]
    _log.setLevel(logging.INFO)
    _log.propagate = False


def _opt(p: argparse.ArgumentParser, *flags: str, **kw) -> None:
    p.add_argument(*flags, **kw)


def _version_arg(p: argparse.ArgumentParser) -> None:
    _opt(
        p,
        "-v",
        "--version",
        dest="dump_version",
        choices=[1, 2],
        type=int,
        default=2,
        help="<Optional> the version of the dump file, 1 means the protobuf dump file, 2 means the binary "
        "dump file, the default value is 2",
    )


def _compare_args(p: argparse.ArgumentParser) -> None:
    _opt(
        p,
        "-m",
        "--my_dump_path",
        dest="my_dump_path",
        required=True,
        help="<Required> my dump path, the data compared with golden data",
    )
    _opt(p, "-g", "--golden_dump_path", dest="golden_dump_path", required=True, help="<Required> the golden dump path")
    _opt(
        p, "-f", "--fusion_rule_file", dest="fusion_rule_file", default="", help="<Optional> the fusion rule file path"
    )
    _opt(
        p,
        "-q",
        "--quant_fusion_rule_file",
        dest="quant_fusion_rule_file",
        default="",
        help="<Optional> the quant fusion rule file path",
    )
    _opt(
        p,
        "-cf",
        "--close_fusion_rule_file",
        dest="close_fusion_rule_file",
        default="",
        help="<Optional> the rule file path without fusion",
    )
    _opt(p, "-out", "--output", dest="output_path", default="", help="<Optional> the output path")
    _opt(
        p,
        "-c",
        "--custom_script_path",
        dest="custom_script_path",
        default="",
        help="<Optional> the user-defined script path, including format conversion and algorithm",
    )
    _opt(
        p,
        "-a",
        "--algorithm_options",
        dest="algorithm_options",
        default="",
        help='<Optional> the arguments for each algorithm, e.g. "CosineSimilarity:max=1,min=0"',
    )
    _opt(p, "-alg", "--algorithm", dest="algorithm", default="all", help="<Optional> the algorithms to run")
    _opt(
        p,
        "-map",
        "--mapping",
        dest="mapping",
        action="store_true",
        help="<Optional> create mappings between my output operators and ground truth one",
    )
    _opt(
        p,
        "-overflow_detection",
        dest="overflow_detection",
        action="store_true",
        help="<Optional> Operator overflow detection, only operators of the fp16 type are supported",
    )
    _opt(p, "-r", "--range", dest="range", default=None, help='<Optional> compare with the range "start,end,step"')
    _opt(p, "-s", "--select", dest="select", default=None, help='<Optional> compare the indexes "index_1,index_2,..."')
    _opt(
        p,
        "-p",
        "--post_process",
        dest="post_process",
        choices=[0, 1],
        type=int,
        default=None,
        help="<Optional> whether to extract the compare result, only pytorch is supported",
    )
    _opt(
        p,
        "-max",
        "--max_cmp_size",
        dest="max_cmp_size",
        type=int,
        default=0,
        help="<Optional> max size of tensor array to compare",
    )
    _opt(p, "-advisor", dest="advisor", action="store_true", help="<optional> Enable advisor after compare")
    _version_arg(p)
    _opt(p, "-op", "--op_name", dest="op_name", default=None, help="<Optional> operator name")
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "-o",
        "--output_tensor",
        dest="output",
        default=None,
        help='<Optional> the index of output, takes effect only when the "-op" exists',
    )
    group.add_argument(
        "-i",
        "--input_tensor",
        dest="input",
        default=None,
        help='<Optional> the index for input, takes effect only when the "-op" exists',
    )
    _opt(
        p,
        "--ignore_single_op_result",
        dest="ignore_single_op_result",
        action="store_true",
        help='<Optional> ignore the single operator detail result, takes effect only when the "-op" exists',
    )
    _opt(
        p, "-n", "--topn", dest="topn", type=int, default=20, help="<Optional> the TopN for the single operator result"
    )
    _opt(
        p,
        "-ml",
        "--max_line",
        dest="max_line",
        type=int,
        default=None,
        help="<Optional> the max line count for the single operator detail result",
    )
    _opt(p, "-ffts", dest="ffts", action="store_true", help="<optional> Enable the comparison between ffts+ and ffts+")


def _convert_args(p: argparse.ArgumentParser) -> None:
    _opt(
        p,
        "-d",
        "--dump_file",
        dest="dump_path",
        required=True,
        help='<Required> the dump file path, supports one file, file list(splits by ",") and directory',
    )
    _opt(p, "-f", "--format", dest="format", default=None, help="<Optional> the format to transfer")
    _opt(p, "-s", "--shape", dest="shape", default=None, help="<Optional> the shape for format transfer")
    group = p.add_mutually_exclusive_group()
    group.add_argument("-o", "--output_tensor", dest="output", default=None, help="<Optional> the index for output")
    group.add_argument("-i", "--input_tensor", dest="input", default=None, help="<Optional> the index for input")
    _opt(
        p,
        "-c",
        "--custom_script_path",
        dest="custom_script_path",
        default=None,
        help="<Optional> the user-defined script path, including format conversion",
    )
    _opt(p, "-out", "--output", dest="output_path", default="", help="<Optional> the output path")
    _version_arg(p)
    _opt(
        p,
        "-t",
        "--type",
        dest="output_file_type",
        choices=["npy", "bin", "msnpy", "pt"],
        default="npy",
        help="<Optional> the type of the output file, the default value is npy",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="msaccucmp.py", description=LOGO)
    sub = parser.add_subparsers(help="commands", dest="command")
    _compare_args(sub.add_parser("compare", help="Compare network or single op.", description=LOGO))
    _convert_args(sub.add_parser("convert", help="Convert my dump data to numpy data or bin data.", description=LOGO))
    ov = sub.add_parser("overflow", help="Analyze the information of the overflow operators.", description=LOGO)
    _opt(ov, "-d", "--dump_path", dest="dump_path", required=True, help="<Required> the dump file path")
    _opt(ov, "-out", "--output", dest="output_path", required=True, help="<Optional> the output path")
    _opt(
        ov,
        "-n",
        "--top_n",
        dest="top_num",
        choices=[1, 2, 3, 4, 5],
        type=int,
        default=1,
        help="<Optional> the number of overflow ops, first n will be analyzed. the default value is 1",
    )
    fc = sub.add_parser("file_compare", help="Compare two single .npy file.", description=LOGO)
    _opt(fc, "-m", "--my_dump_path", dest="my_dump_path", required=True, help="<Required> my dump path")
    _opt(fc, "-g", "--golden_dump_path", dest="golden_dump_path", required=True, help="<Required> the golden dump path")
    _opt(fc, "-out", "--output", dest="output_path", required=True, help="<Required> the output path")
    return parser


def _fail(message: str, code: int = INVALID_PARAM) -> None:
    _log.error(message)
    raise CompareError(code)


def _needs(required: object, optional: object, optional_name: str, required_name: str) -> None:
    if required is None and optional is not None:
        _fail(f'The argument {optional_name!r} takes effect only when the "{required_name!r}" exists.')


def _check_exists(*paths: str) -> None:
    for path in paths:
        if not os.path.exists(path):
            _fail(f'The path "{path!r}" does not exist.', INVALID_PATH)


def _check(args: argparse.Namespace, argv: Sequence[str]) -> None:
    """The real tool's argument checks, in its order."""
    if args.command == "compare":
        if not args.fusion_rule_file and args.range is not None:
            _fail('The argument "-r" or "--range" takes effect only when the "-f" exists.')
        if not args.fusion_rule_file and args.select is not None:
            _fail('The argument "-s" or "--select" takes effect only when the "-f" exists.')
        if args.range and args.select is not None:
            _fail('The argument "-r" and "-s" can not be used at the same time')
        if args.max_cmp_size < 0:
            _fail(
                "Please enter a valid number for max_cmp_size, the max_cmp_size should be in [0, ∞), "
                f"now is {args.max_cmp_size}."
            )
        if args.dump_version == 1:
            _log.warning("The -v argument will be deprecated. when the -v value is 1, it will be processed as 2.")
        _needs(args.op_name, args.output, '"-o" or "--output_tensor"', "-op")
        _needs(args.op_name, args.input, '"-i" or "--input_tensor"', "-op")
        _check_exists(args.my_dump_path, args.golden_dump_path)
    elif args.command == "convert":
        _needs(args.format, args.output, '"-o" or "--output_tensor"', "-f")
        _needs(args.format, args.input, '"-i" or "--input_tensor"', "-f")
        _needs(args.format, args.shape, '"-s" or "--shape"', "-f")
        for path in args.dump_path.split(","):
            _check_exists(path)
        if os.path.isdir(args.dump_path) and not os.listdir(args.dump_path):
            _fail("The dump path is empty.")
    elif args.command == "file_compare":
        for path in (args.my_dump_path, args.golden_dump_path):
            if not path.endswith(".npy"):
                _fail(f"[file_compare] The file {path!r} is invalid.Only support .npy file.", INVALID_TYPE)
            _check_exists(path)
        if not os.path.isdir(args.output_path):
            _fail(f'[file_compare] The -out parameter: "{args.output_path!r}" is invalid!', INVALID_PATH)
    elif args.command == "overflow":
        _check_exists(args.dump_path)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    simconfig.banner()
    _setup_logging()
    start = time.time()
    parser = build_parser()
    args = parser.parse_args(argv)  # argparse: usage + error, exit 2, as the real tool
    try:
        if not argv or args.command is None:
            parser.print_help()
            raise CompareError(INVALID_PARAM)
        _check(args, argv)
        from workbench.simtoolkit import msaccucmp_run

        ret = msaccucmp_run.run(args, _log)
    except CompareError as err:
        ret = err.code
    _log.info("The command was completed and took %d seconds." % (time.time() - start))
    return ret


if __name__ == "__main__":
    sys.exit(main())
