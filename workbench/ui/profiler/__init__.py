"""System Profiler UI: the New Profiling wizard, the project's profiling runs, Import
Result and Merge Reports, over ``workbench.core.profiler``.

Entry points (the main window's menus call them with the application context and a parent,
see :mod:`workbench.ui.context`):

- :func:`open_new_profiling` — Ascend ▸ System Profiler ▸ New Profiling…
- :func:`open_import_result` — Ascend ▸ System Profiler ▸ Import Result…
- :func:`open_merge_reports` — Ascend ▸ System Profiler ▸ Merge Reports…
- :func:`open_profiling_runs` — Ascend ▸ System Profiler ▸ Profiling Runs…
  (``ProfilingRunsPanel`` is a widget the window can also dock)
"""

from __future__ import annotations

from workbench.ui.profiler.dialogs import open_import_result, open_merge_reports
from workbench.ui.profiler.runs import ProfilingRunsPanel, open_profiling_runs
from workbench.ui.profiler.wizard import open_new_profiling

__all__ = [
    "open_new_profiling",
    "open_import_result",
    "open_merge_reports",
    "open_profiling_runs",
    "ProfilingRunsPanel",
]
