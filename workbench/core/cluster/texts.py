"""The templates of the warning lines the cluster analysis writes (ranks, reduce, merge, analyze), so the
UI can show them in its language (``ui/labels.tr_template`` with ``ClusterWarning``; the UI marks the
same strings for translation and a test keeps both lists equal, and checks that real warnings match).

A template's ``{N}`` are the line's variable parts in order; the modules build their lines with the same
fixed text (they are stdlib-only and shipped to Dask workers, so they keep their own f-strings).
"""

from __future__ import annotations

WARNING_TEMPLATES = (
    # ranks.py
    "{0}: not a folder",
    "{0}: cannot be read ({1})",
    "{0}: {1} does not name a rank number (profiler_info_<rank>.json)",
    "{0}: no profiler_info_<rank>.json, so its rank is unknown; skipped",
    "{0}: no ASCEND_PROFILER_OUTPUT folder (the profiling was not parsed); skipped",
    "rank {0}: {1} folders; the newest, {2}, is taken (not {3})",
    # reduce.py
    "{0}: not valid JSON ({1})",
    "rank {0}: no step_trace_time.csv in {1}",
    "{0}: not a readable CSV ({1}); its steps are left out",
    "{0}: empty (expected a header row starting with Step)",
    "{0}: line 1 has no Step column (found {1}, ...)",
    "{0}: line {1}, {2}: {3} is not a number; taken as 0",
    "{0}: expected an object of steps, found {1}",
    "{0}: step {1} is not an object; skipped",
    "{0}: {1}/{2} is not an object; skipped",
    "rank {0}: no communication.json or communication_matrix.json in {1}",
    # merge.py
    "profiler_metadata.json: distributed_args do not describe a Megatron partition (world_size = tp x pp x dp, "
    "integer sizes); no DP/PP/TP Index columns",
    "profiler_metadata.json: distributed_args describe {0} ranks but {1} ranks have data; no DP/PP/TP Index columns",
    "ranks {0} of the {1}-rank job have no step data",
    "{0}: link {1} is not src-dst; skipped",
    "{0}: local rank {1} maps to no global rank",
    "{0}: link {1} mapped through parallel_group_info (no r-r link of its ranks); msprof-analyze drops it",
    # analyze.py
    "{0} ranks ({1}) are on both {2} and {3} (one shared disk?); {4}'s are taken",
    "rank {0}: its worker was lost; reduced again on {1}",
)
