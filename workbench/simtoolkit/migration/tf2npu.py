"""Simulated ``convert_tf2npu/main.py`` (TF Adapter's TensorFlow GPU2Ascend tool), NOT Huawei's.

``python3 <site-packages>/npu_bridge/convert_tf2npu/main.py -i <input> [-l <list>] [-o <output>]
[-r <report>] [-m <main>] [-d horovod|tf_strategy]`` (TF 1.15; ``npu_device/…`` is the TF 2.6 tool,
which adds ``-c/--compat``). Behaviour of Ascend/tensorflow ``convert_tf2npu/main.py`` and
``conver.py`` (docs/cann-formats.md §9 and "Migration tools"): getopt errors print ``Parameter
error, please check.`` and the usage and exit 2; output or report inside the input prints
``<output> or <report> could not be the subdirectory of <input>, please try another option.`` and
exits 2; a missing ``-i`` raises ``ValueError: Please check -i or --input.`` (traceback, exit 1).
The migrated copy goes to ``<output>/<input name>_npu_<YYYYmmddHHMMSS>/`` and the reports to
``<report>/report_npu_<YYYYmmddHHMMSS>/``.
"""

from __future__ import annotations

import datetime as _dt
import getopt
import os
import shutil
import sys
from collections.abc import Sequence

from workbench.simtoolkit.migration import rules

SUPPORT_COLUMNS = {
    1: ("序号", "脚本文件名", "代码行", "模块名", "API名", "支持度", "迁移建议"),
    2: ("序号", "脚本文件名", "代码行", "模块名", "API名", "工具迁移API支持度", "说明"),
}
BRIEF_KEYS = (
    ("Support", rules.SUPPORT),
    ("Support after migrated by tool", rules.SUPPORT_TOOL),
    ("Support after migrated manually", rules.SUPPORT_MANUAL),
    ("Analysing", "分析中"),
    ("Unsupport", rules.UNSUPPORTED),
    ("Deprecated", rules.DEPRECATED),
    ("NA", "NA"),
)


def _usage(version: int) -> str:
    tf = "tf-1.15" if version == 1 else "tf-2.6"
    return (
        f"    this tool just support to convert {tf} scripts.\n"
        "    main.py -i <input> -l <list> -o <output> -r <report> -m <main>\n"
        "or: main.py --input=<input> --list=<list> --output=<output> --report=<report> --main=<main>\n"
        "-i or --input:  The source script to be converted.\n"
        "-l or --list:  The list of supported api, Default value: tf1.15_api_support_list.xlsx\n"
        "-o or --output: The destination script after converted, Default value: output_npu_***/\n"
        "-r or --report: Conversion report, Default value: report_npu_***/\n"
        "-m or --main: The executed entry *.py file, default:None\n"
        "-d or --distributed_mode: The distribute mode to choose, including horovod distributed and tensorflow "
        "distributed strategy. the value should be one of [horovod, tf_strategy]\n"
        + ("-c or --compat: Use tf.compat.v1 behaviour (TensorFlow 1.x API in a 2.x script)\n" if version == 2 else "")
    )


def _traceback(exc: str) -> int:
    print("Traceback (most recent call last):", file=sys.stderr)
    print('  File "main.py", line 1, in <module>', file=sys.stderr)
    print(exc, file=sys.stderr)
    return 1


def _write_xlsx(path: str, version: int, rows: list[tuple[str, int, str, str, str, str]]) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    ws.append(list(SUPPORT_COLUMNS[version]))
    for i, row in enumerate(rows, start=1):
        ws.append([i, *row])
    wb.save(path)


def _brief(rows: list[tuple[str, int, str, str, str, str]]) -> str:
    def line(items: list[str]) -> str:
        counts = ", ".join(f"{key}: {sum(1 for s in items if s == value)}" for key, value in BRIEF_KEYS)
        return f"Total API: {len(items)}, in which {counts}"

    all_support = [r[4] for r in rows]
    unique: dict[str, str] = {}
    for r in rows:
        unique.setdefault(r[3], r[4])
    return f"1.In brief: {line(all_support)}\n2.After eliminate duplicate: {line(list(unique.values()))}\n"


def main(argv: Sequence[str], version: int) -> int:
    stamp = "_npu_" + _dt.datetime.now().strftime("%Y%m%d%H%M%S")
    input_dir = "npu_input"
    output = os.path.abspath("output" + stamp)
    report_base = os.path.abspath(".")
    main_file = ""
    short = "hi:l:o:r:m:d:" + ("c" if version == 2 else "")
    long = ["help", "input=", "list=", "output=", "report=", "main=", "distributed_mode="]
    if version == 2:
        long.append("compat")
    try:
        opts, _ = getopt.getopt(list(argv), short, long)
    except getopt.GetoptError:
        print("Parameter error, please check.")
        print(_usage(version), end="")
        return 2
    for opt, arg in opts:
        if opt in ("-h", "--help"):
            print(_usage(version), end="")
            return 0
        if opt in ("-i", "--input"):
            input_dir = os.path.abspath(arg).replace("\\", "/").rstrip("/")
        elif opt in ("-o", "--output"):
            output = os.path.abspath(arg).replace("\\", "/").rstrip("/")
        elif opt in ("-r", "--report"):
            report_base = os.path.abspath(arg).replace("\\", "/").rstrip("/")
        elif opt in ("-m", "--main"):
            if not os.path.isfile(arg):
                return _traceback("ValueError: --main args must be existing files")
            main_file = os.path.abspath(arg)
        elif opt in ("-d", "--distributed_mode") and arg not in ("horovod", "tf_strategy"):
            return _traceback("ValueError: --distributed_mode or -d must be one of ['horovod', 'tf_strategy']")
    report = os.path.join(report_base, "report" + stamp)
    if input_dir == "npu_input":
        return _traceback("ValueError: Please check -i or --input.")
    if (input_dir + "/") in (output + "/") or (input_dir + "/") in (report + "/"):
        print("<output> or <report> could not be the subdirectory of <input>, please try another option.")
        return 2
    if not os.path.isdir(input_dir):
        return _traceback(f"FileNotFoundError: [Errno 2] No such file or directory: '{input_dir}'")
    os.makedirs(output, exist_ok=True)
    return _convert(input_dir, output, report, main_file, stamp, version)


def _convert(input_dir: str, output: str, report: str, main_file: str, stamp: str, version: int) -> int:
    print("Begin conver, input file: " + input_dir + "\n")
    dst_root = os.path.join(output, os.path.basename(input_dir) + stamp)
    os.makedirs(report, exist_ok=True)
    success: list[str] = []
    failed: list[str] = []
    manual: list[str] = []
    rows: list[tuple[str, int, str, str, str, str]] = []
    for path, dirs, files in os.walk(input_dir):
        dirs.sort()
        rel_dir = os.path.relpath(path, input_dir)
        out_dir = os.path.normpath(os.path.join(dst_root, rel_dir))
        os.makedirs(out_dir, exist_ok=True)
        for name in sorted(files):
            file_path = os.path.join(path, name).replace("\\", "/")
            print("Begin conver file: " + file_path)
            if not name.endswith(".py"):
                shutil.copyfile(file_path, os.path.join(out_dir, name))
                continue
            with open(file_path, encoding="utf-8") as fh:
                text = fh.read()
            lines = text.splitlines()
            new_lines, edits, apis = rules.migrate_tf(lines, version)
            with open(os.path.join(out_dir, name), "w", encoding="utf-8") as fh:
                fh.write("\n".join(new_lines) + ("\n" if text.endswith("\n") or not text else ""))
            for e in edits:
                success.append(f"{file_path}:{e.line} {e.text}")
            unsupported = [a for a in apis if a.support in (rules.UNSUPPORTED, rules.DEPRECATED)]
            for a in apis:
                rows.append((file_path, a.line, a.module, a.api, a.support, a.advice))
                if a.support == rules.SUPPORT_MANUAL:
                    manual.append(f"{file_path}:{a.line} {a.api}: {a.advice}")
            word = "Unsupported" if version == 1 else "Unsupport"
            for a in unsupported:
                failed.append(f"{file_path}:{a.line}, NPU {word} API: {a.api}")
            if edits or unsupported:
                content = "Finish conver file: " + file_path + "\n"
                print(content)
                failed.append(content.rstrip("\n"))
    with open(os.path.join(report, "success_report.txt"), "w", encoding="utf-8") as fh:
        fh.write("".join(s + "\n" for s in success))
    with open(os.path.join(report, "failed_report.txt"), "w", encoding="utf-8") as fh:
        fh.write("".join(s + "\n" for s in failed))
    if version == 2:
        with open(os.path.join(report, "need_migration_doc.txt"), "w", encoding="utf-8") as fh:
            fh.write("".join(s + "\n" for s in manual))
    if not rows:
        print("No api data in the report")
    else:
        _write_xlsx(os.path.join(report, "api_analysis_report.xlsx"), version, rows)
        brief = _brief(rows)
        with open(os.path.join(report, "api_brief_report.txt"), "w", encoding="utf-8") as fh:
            fh.write(brief)
        print(brief, end="")
    print("Finish conver, output file: " + output + "; report file: " + report)
    return 0


def run(version: int) -> None:
    print("[simulated convert_tf2npu: Ascend Workbench simulated toolkit]", file=sys.stderr)
    sys.exit(main(sys.argv[1:], version))
