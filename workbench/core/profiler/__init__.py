"""System Profiler, Qt-free: collect profiling data on a host with msprof, bring it back,
open it; Import Result; Merge Reports.

Modules (import them directly; this package imports nothing so the simulated toolkit, which
reads :mod:`.chips`, stays fast to start):

- :mod:`.chips`     metric groups per SoC (pure data, shared with the simulated toolkit)
- :mod:`.options`   :class:`~.options.ProfilingJob`: every wizard field with MindStudio's defaults
- :mod:`.command`   ``msprof_command(job, cann_version)`` and the export step per CANN version
- :mod:`.preflight` ``preflight(job, transport, toolkit) -> list[Issue]``
- :mod:`.fetch`     find PROF_* folders on a host, export them if needed, download what the views need
- :mod:`.run`       ``run_profiling`` / ``profile`` work functions and the :class:`~.run.ProfilingRun` record
- :mod:`.history`   the project's runs: list, re-run, delete
- :mod:`.importer`  Import Result
- :mod:`.mergejob`  Merge Reports
- :mod:`.actions`   the wizard's and the runs panel's work functions over a host name (probe, check, run...)
- :mod:`.cli`       the ``profile`` verb

May use the profiling engine (to open what it fetched), ``services`` (hosts, transports, deploy),
``project``, ``artefacts``, ``tasks`` and ``paths``.
"""
