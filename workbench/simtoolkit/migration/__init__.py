"""Simulated GPU → Ascend migration tools (Qt-free), always "simulated" (docs/cann-formats.md "Migration tools").

- :mod:`tf2npu` — ``python3 …/npu_bridge/convert_tf2npu/main.py`` (TF 1.15) and
  ``…/npu_device/convert_tf2npu/main.py`` (TF 2.6): getopt command line, refusals, console lines,
  ``success_report.txt``, ``failed_report.txt``, ``api_analysis_report.xlsx`` (Chinese columns),
  ``api_brief_report.txt``, ``need_migration_doc.txt``.
- :mod:`gpu2npu` — ``tools/ms_fmk_transplt/pytorch_gpu2npu.sh`` (msFmkTransplt "PyTorch GPU2Ascend"):
  argparse command line, ``<input name>_msft[_multi]`` output with ``msFmkTranspltlog.txt``,
  ``change_list.csv``, ``unsupported_api.csv``, ``unknown_api.csv``, the advice CSVs.
- :mod:`rules` — the small real rule table both apply line by line.
"""
