"""The profiling engine (Qt-free): msprof, torch_npu and MindSpore output read into one Report.

Where things go (each folder's docstring says more):

- ``detect.py``   what a path holds: which layout (PROF_*, *_ascend_pt, a single file, a cluster
                  folder), which files, devices and ranks. A new input layout starts here.
- ``tables/``     readers of the tools' summary tables, by header with every alias (CSV; the
                  communication JSONs by key in ``commread``). A reader for a new summary file goes
                  here: a schema plus, if needed, a reader.
- ``timeline/``   the Chrome-trace loader (exact ns, compiled fast path) and the Timeline model.
- ``report.py``   the Report model: timeline + tables + facts, derived statistics on ``finish``.
- ``stats.py``    statistics tables (OPs by type or name, APIs, AI Core PMU metrics). A new
                  statistics table goes here.
- ``storage/``    the columnar cache and the single-file saved report (``.wbreport``).
- ``build.py``    :func:`~workbench.core.profiling.build.open_report`: a path to a ready Report.
- ``discover.py`` the reports below any folder (bounded, cancellable) for the folder picker.
- ``steps.py``    the steps of a report (ids, spans, source): comparison per step, step markers; the
                  per-step breakdown (``step_breakdown``: step_trace_time, or the Overlap Analysis lanes).
- ``memory.py``   the Memory view's data (``memory_view``: curves, peaks, operators, modules;
                  ``downsample``). ``comm.py`` the Communication view's (``communication_view``).
- ``lod.py``, ``timeline_ops.py``, ``views.py``   what the views draw and list (level of detail,
                  selection, search, Event View rows, Statistics framing, Summary facts).
- ``merge.py``, ``export.py``, ``tableio.py``   jobs over reports: merge, export, write one table.
- ``cli.py``      the ``report`` verb; ``errors.py`` the engine's one error type.

Layers (an import-linter contract in pyproject.toml keeps them): cli > views, merge, tableio >
build, export, steps, memory, comm, discover > storage > report > stats, detect, lod, timeline_ops > tables,
timeline > errors.
"""
