"""Communication rows: both sides' communication operators (communication.json, read by
:func:`workbench.core.profiling.comm.communication_view`) grouped by op type, as msprof-analyze's
CommunicationCompare groups them, and diffed like the OP rows.

The op type of an operator is msprof-analyze's ``comm_name``: its name (``hcom_allReduce__586_0_1``;
the ``@group`` suffix of communication.json's keys dropped) in lower case, split at ``_``: the
second piece after a leading ``hcom``, else the first (``hcom_allReduce__586_0_1`` -> ``allreduce``,
``hcom_send__12_0`` -> ``send``). A name without ``_`` is its own type. Durations are the operators'
Elapse Time (ms in the file, µs in the rows); a row has calls, total / avg / max / min, the diff of
the totals, msprof-analyze's Diff Ratio (current / base) and the status by the OP rows' rule (per
step when both sides record steps, else the average per call; a tolerance; regressions first).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from workbench.core.compare.opdiff import op_rows
from workbench.core.compare.rows import COMM_COLUMNS, ratio

# communication.json's per-step summary entry, not an operator
TOTAL_OP_INFO = "Total Op Info"


def comm_type(name: str) -> str:
    """msprof-analyze's op type of a communication operator name (see the module docstring)."""
    pieces = str(name).partition("@")[0].strip().lower().split("_")
    if len(pieces) < 2:
        return pieces[0]
    return pieces[1] if pieces[0] == "hcom" else pieces[0]


def comm_ops(ops: pd.DataFrame | None) -> pd.DataFrame:
    """A CommView's ``ops`` as the OP frame :func:`op_rows` groups: type (the op type), name,
    duration_us (the elapse), start_ns."""
    if ops is None or not len(ops) or "name" not in ops.columns or "elapse_ms" not in ops.columns:
        return pd.DataFrame({"name": [], "type": [], "duration_us": [], "start_ns": []})
    names = ops["name"].astype(object).to_numpy()
    keep = np.array([str(n) != TOTAL_OP_INFO for n in names], dtype=bool)
    ops = ops[keep]
    names = names[keep]
    frame = pd.DataFrame(
        {
            "name": pd.Categorical([str(n) for n in names]),
            "type": pd.Categorical([comm_type(n) for n in names]),
            "duration_us": np.asarray(pd.to_numeric(ops["elapse_ms"], errors="coerce"), dtype=np.float64) * 1000.0,
        }
    )
    if "start_ns" in ops.columns:
        frame["start_ns"] = pd.array(pd.to_numeric(ops["start_ns"], errors="coerce"), dtype="Int64")
    return frame


def communication_rows(
    base: pd.DataFrame,
    current: pd.DataFrame,
    tolerance_pct: float,
    steps: tuple[int | None, int | None] = (None, None),
) -> pd.DataFrame:
    """Rows of :data:`COMM_COLUMNS` from two :func:`comm_ops` frames, sorted regressions first."""
    rows = op_rows(base, current, "type", tolerance_pct, steps)
    rows = rows.rename(columns={"key": "comm_op", "base_count": "base_calls", "current_count": "current_calls"})
    rows["diff_ratio"] = ratio(rows["base_total_us"].to_numpy(), rows["current_total_us"].to_numpy())
    return rows[COMM_COLUMNS]
