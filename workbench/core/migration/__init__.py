"""GPU → Ascend migration (issue #22), Qt-free: what ``ascend-workbench migrate`` (and the next step's
wizard and Migration Report document) are built on.

- :mod:`job` — :class:`MigrationJob` (framework tf1 / tf2 / pytorch, input, main script, output and
  report folders), its checks and the exact command line of each tool
  (``convert_tf2npu/main.py`` of the TF Adapter, ``tools/ms_fmk_transplt/pytorch_gpu2npu.sh``)
- :mod:`reports` — readers for every report file (by header / key, Chinese headers, all support
  values) and the result model :class:`MigrationReport` (per file and line: the change made, or the
  API left unsupported with its advice; the brief counts)
- :mod:`run` — ``run_migration(job, transport, toolkit, progress=, cancel=)``: upload, run on the
  host (progress, cancel kills the remote group), fetch of the migrated copy and the reports
- :mod:`cli` — the ``migrate`` verb

Formats: docs/cann-formats.md, "Migration tools".
"""
