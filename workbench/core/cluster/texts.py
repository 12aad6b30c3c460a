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
    # ranks.py, msprof PROF_* folders
    "{0}: no device_<id>/info.json.<id>, so its rank is unknown; skipped",
    "{0}: not parsed (no mindstudio_profiler_output and analyze folders: run {1}); skipped",
    "{0}: expected an object with rank_id, found {1}; skipped",
    "{0}: rank_id {1} is not a rank number; skipped",
    "{0}: {1} devices in one PROF folder; read as one rank, as msprof-analyze reads it (the rank of {2})",
    "{0} PROF folders have no rank_id ({1}, ...) while others have one; they are left out",
    "rank {0}: {1} folders of device {2} without a rank_id; the oldest, {3}, is taken (not {4})",
    "{0} PROF folders ({1}, ...) are left out: the torch_npu / MindSpore ranks are analysed",
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
    # reduce.py, msprof PROF_* folders
    "rank {0}: no msprof_<timestamp>.json in {1}; its steps are left out",
    "{0}: event {1}, dur: {2} is not a number; taken as 0",
    "{0}: expected a list of trace events, found {1}; no steps",
    "{0}: expected an object of operators, found {1}",
    "{0}: operator {1} is not an object; skipped",
    # reduce_db.py, MindSpore / msprof db ranks
    "rank {0}: no {1} in {2}; no steps or parallel_group_info",
    "rank {0}: no {1} in {2}; no communication",
    "{0}: no table {1}; the rank's steps are left out",
    "{0}, column {1}: {2} is not a number; taken as 0",
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
    # files_db.py (HostInfo / RankDeviceMap of db jobs)
    "rank {0}: no {1} in {2}; the rank is left out of HostInfo and RankDeviceMap",
    "{0}: not a readable SQLite database ({1}); the rank is left out of HostInfo and RankDeviceMap",
    "{0}: no {1} rows; the rank is left out of HostInfo and RankDeviceMap",
    "{0}: no PROF_* folder; the rank is left out of HostInfo and RankDeviceMap",
    "{0}: no device_<id> folder; the rank is left out of HostInfo and RankDeviceMap",
)
