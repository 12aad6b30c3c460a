"""Simulated ``tools/ms_fmk_transplt/pytorch_gpu2npu.sh`` (msFmkTransplt, "PyTorch GPU2Ascend"), NOT Huawei's.

``pytorch_gpu2npu.sh -i <input dir> -o <output dir> -v <torch version> [-s] [-m] [distributed -m
<main.py> [-t <model variable>]]``. Behaviour of ``ms_fmk_transplt.py`` (Ascend/msprobe
src/ms_fmk_transplt, docs/cann-formats.md "Migration tools"): messages go to stderr through
``logging`` as ``YYYY-mm-dd HH:MM:SS [LEVEL]   message``; a refused argument logs its reason,
then ``MsFmkTransplt run fail!`` and exits 1 (argparse errors exit 2); the output folder must exist
and not lie inside the input; the result is ``<output>/<input name>_msft`` (``_msft_multi`` with
``distributed``) holding the migrated copy, ``msFmkTranspltlog.txt``, ``change_list.csv``
(``File,Start Line,End Line,Operation Type,Message``), ``unsupported_api.csv``, ``unknown_api.csv``,
``api_precision_advice.csv``, ``api_performance_advice.csv`` (``File,Start Line,End Line,OP,Tips``)
and, with ``distributed``, ``run_distributed_npu.sh``. A run ends in ``MsFmkTransplt run success,
welcome to the next use.``
"""

from __future__ import annotations

import argparse
import csv
import logging
import os
import shutil
import sys
import time
from collections.abc import Sequence

from workbench.simtoolkit.migration import rules

VERSIONS = ("1.11.0", "2.1.0", "2.2.0", "2.3.1", "2.4.0")
CHANGE_HEADER = ("File", "Start Line", "End Line", "Operation Type", "Message")
API_HEADER = ("File", "Start Line", "End Line", "OP", "Tips")
LOG_NAME = "msFmkTranspltlog.txt"
ENV_DELAY = "ASCEND_SIM_MIGRATION_SECONDS"  # simulator only: seconds spent per file (tests of Cancel)
_log = logging.getLogger("msFmkTransplt")
_progress = ""


def _fmt(sep: int, msg: object) -> str:
    return " " * sep + (f"{_progress:20s}" if _progress else "") + str(msg)


def info(msg: object) -> None:
    _log.info(_fmt(3, msg))


def error(msg: object) -> None:
    _log.error(_fmt(2, msg))


def _setup_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] %(message)s", "%Y-%m-%d %H:%M:%S"))
    _log.handlers[:] = [handler]
    _log.setLevel(logging.INFO)
    _log.propagate = False


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ms_fmk_transplt.py")
    p.add_argument("-i", "--input", required=True, metavar="(DIR, FILE)", help="Input path or file")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="Output path")
    p.add_argument("-v", "--version", required=True, help="Original pytorch version of the script")
    p.add_argument("-r", "--rule", default="", metavar="FILE", help="Custom rules file path")
    p.add_argument("-s", "--specify-device", dest="specify_device", action="store_true")
    p.add_argument("-m", "--modelarts", action="store_true", help="Transplant the script to run on ModelArts")
    sub = p.add_subparsers(help="commands")
    d = sub.add_parser("distributed", help="transplant a single GPU script to a distributed NPU script")
    d.add_argument("-m", "--main", default="", metavar="FILE", required=True)
    d.add_argument("-t", "--target_model", metavar="model", default="model")
    return p


def _inside(parent: str, child: str) -> bool:
    parent, child = os.path.realpath(parent), os.path.realpath(child)
    return os.path.commonpath([parent, child]) == parent


def _check(args: argparse.Namespace) -> None:
    if not os.path.exists(os.path.realpath(args.input)):
        raise ValueError(f"Input {args.input} does not exist!")
    if not os.path.isdir(os.path.realpath(args.output)):
        raise ValueError(f"Output {args.output} is not a valid directory!")
    if _inside(args.input, args.output):
        raise ValueError(f"Output {args.output} should not be a subdirectory of Input {args.input}")
    if args.version not in VERSIONS:
        raise ValueError(f"Pytorch version only support {', '.join(VERSIONS[:-1])} and {VERSIONS[-1]} currently.")
    main = getattr(args, "main", None)
    if main is not None:
        if not main.endswith(".py"):
            raise ValueError(f"Main file {main} should be a python file!")
        if not os.path.exists(main):
            raise ValueError(f"Main file {main} does not exist!")
        if not _inside(args.input, main):
            raise ValueError(f"Main file {main} is not in Input {args.input}")


def _write_csv(path: str, header: Sequence[str], rows: list[list[object]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


def transplant(args: argparse.Namespace) -> None:
    global _progress
    _check(args)
    src = os.path.realpath(args.input)
    distributed = getattr(args, "main", None) is not None
    out = os.path.join(args.output, os.path.basename(src) + ("_msft_multi" if distributed else "_msft"))
    if os.path.exists(out):
        answer = input(
            "The output directory already exists. Do you want to overwrite? "
            "Enter 'continue' or 'c' to continue or enter 'exit' to exit: "
        )
        if answer not in ("c", "continue"):
            raise RuntimeError("User canceled.")
        shutil.rmtree(out)
    info("Start to check input path...")
    py_files = sorted(
        os.path.relpath(os.path.join(r, f), src) for r, _, fs in os.walk(src) for f in fs if f.endswith(".py")
    )
    if not py_files:
        raise ValueError("There are no valid python files in the folder.")
    info("Start to copy files...")
    shutil.copytree(src, out, symlinks=True)
    if distributed:
        with open(os.path.join(out, "run_distributed_npu.sh"), "w", encoding="utf-8") as fh:
            fh.write(
                "export MASTER_ADDR=127.0.0.1\nexport MASTER_PORT=29688\nexport HCCL_WHITELIST_DISABLE=1\n\n"
                "NPUS=($(seq 0 7))\nexport RANK_SIZE=${#NPUS[@]}\nrank=0\nfor i in ${NPUS[@]}\ndo\n"
                "    export DEVICE_ID=${i}\n    export RANK_ID=${rank}\n    echo run process ${rank}\n"
                "    please input your shell script here > output_npu_${i}.log 2>&1 &\n    let rank++\ndone"
            )
    file_handler = logging.FileHandler(os.path.join(out, LOG_NAME), encoding="utf-8")
    file_handler.setFormatter(logging.Formatter("%(asctime)s [%(levelname)s] %(message)s", "%Y-%m-%d %H:%M:%S"))
    _log.addHandler(file_handler)
    info("Initialing rules...")
    info("MsFmkTransplt start working now, please wait for a moment.")
    changes: list[list[object]] = []
    unsupported: list[list[object]] = []
    for n, rel in enumerate(py_files):
        _progress = f"[Progress:{n / len(py_files) * 100:6.2f}%]"
        info(f"Start analysis {rel}.")
        time.sleep(float(os.environ.get(ENV_DELAY, "0") or 0))
        path = os.path.join(out, rel)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        new_lines, edits, apis = rules.migrate_pytorch(text.splitlines())
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(new_lines) + ("\n" if text.endswith("\n") else ""))
        for e in edits:
            changes.append([rel, e.line, e.line, "insert" if e.kind == "insert" else "modify", e.message])
        for a in apis:
            unsupported.append([rel, a.line, a.line, a.api, a.advice])
        info(f"Analysis {rel} complete.")
    _progress = f"[Progress:{100:6.2f}%]"
    _write_csv(os.path.join(out, "change_list.csv"), CHANGE_HEADER, changes)
    _write_csv(os.path.join(out, "unsupported_api.csv"), API_HEADER, unsupported)
    for name in ("unknown_api.csv", "api_precision_advice.csv", "api_performance_advice.csv"):
        _write_csv(os.path.join(out, name), API_HEADER, [])
    _progress = ""


def main(argv: Sequence[str]) -> int:
    _setup_logging()
    args = _parser().parse_args(list(argv))
    try:
        transplant(args)
    except EOFError:
        error("EOF when reading a line")
        return 1
    except (ValueError, OSError, RuntimeError) as exc:
        error(exc)
        return 1
    return 0


if __name__ == "__main__":
    print("[simulated msFmkTransplt: Ascend Workbench simulated toolkit]", file=sys.stderr)
    ret = main(sys.argv[1:])
    if ret != 0:
        error("MsFmkTransplt run fail!")
        sys.exit(ret)
    info("MsFmkTransplt run success, welcome to the next use.")
