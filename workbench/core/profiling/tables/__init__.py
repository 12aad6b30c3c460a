"""Summary tables read from the CANN tools' files, whatever the version's column spelling.

This is where a reader for a new summary file goes. A file kind is a *schema* in
:mod:`.schemas` (canonical column keys, the header aliases each CANN / torch_npu era writes, a unit
scale) read by :func:`read_table`; :mod:`.csvread` reads CSV exactly (``N/A`` = missing, exact
int64 ns timestamps, the tools' quoting quirks), holding the columns no schema knows (PMU
metrics) as exact scaled integers where they fit (:mod:`.decimals`); :mod:`.commread` reads the JSON summaries of the
communication analysis (``communication.json``, ``communication_matrix.json``) by key with every
alias. Which files of a layout are read as which table is decided in
:mod:`workbench.core.profiling.detect`; the Report is assembled in :mod:`workbench.core.profiling.build`.

May use: :mod:`workbench.core.profiling.errors`, numpy, pandas, pyarrow (the CSV parser). Nothing else of
the engine.
"""

from __future__ import annotations

from .commread import COMMUNICATION_TABLES, MATRIX_TABLE, CommTables, read_communication, read_communication_matrix
from .csvread import CsvTable
from .schemas import (
    API_CALLS,
    API_STATISTIC,
    OP_STATISTIC,
    OPS,
    Col,
    aggregate_api_calls,
    read_api_statistic,
    read_ops,
    read_table,
)

__all__ = [
    "API_CALLS",
    "API_STATISTIC",
    "COMMUNICATION_TABLES",
    "MATRIX_TABLE",
    "OPS",
    "OP_STATISTIC",
    "Col",
    "CommTables",
    "CsvTable",
    "aggregate_api_calls",
    "read_api_statistic",
    "read_communication",
    "read_communication_matrix",
    "read_ops",
    "read_table",
]
