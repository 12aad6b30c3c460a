"""Where a parsed report is kept on disk: the columnar cache and the single-file saved report.

- :mod:`.columnar`: DataFrames and numpy arrays as ``.npy`` members of a folder or a zip;
- :mod:`.saved`: the ``*.wbreport`` file (docs/report-format.md), a Report and its timeline;
- :mod:`.cache`: the cache beside a source (or in the user cache folder), keyed by its files.

May use: the Report model (:mod:`workbench.core.profiling.report`), the timeline model
(:mod:`workbench.core.profiling.timeline`), :mod:`workbench.core.profiling.detect` (for the
layout a cache belongs to) and the errors module. Opening a report from a path is one level up
(:mod:`workbench.core.profiling.build`), which consults the cache.
"""
