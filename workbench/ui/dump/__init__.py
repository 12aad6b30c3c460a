"""Dump configuration, dump data and accuracy comparison views.

Entry points (the main window's menus and ``workbench.ui.openers`` call them with the application
context, see :mod:`workbench.ui.context`):
- :func:`open_dump_configuration` — Ascend ▸ Dump Configuration…, and right-click an .om / om JSON.
- :func:`open_dump_data` — the project explorer opens dump folders and dump files with it.
- :func:`open_accuracy_analyzer` — Ascend ▸ Model Accuracy Analyzer….
"""

from __future__ import annotations


def open_dump_configuration(context, parent, om_path=None, acl_path=None):
    from workbench.ui.dump.config_dialog import open_dump_configuration as _open

    return _open(context, parent, om_path, acl_path)


def open_dump_data(context, path):
    from workbench.ui.dump.data_view import open_dump_data as _open

    return _open(context, path)


def open_accuracy_analyzer(context, npu_dir=None, golden_dir=None, fusion_rule=None):
    from workbench.ui.dump.accuracy import open_accuracy_analyzer as _open

    return _open(context, npu_dir, golden_dir, fusion_rule)
