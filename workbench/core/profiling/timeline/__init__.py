"""The Chrome-trace timeline loader: msprof ``msprof_*.json``, torch_npu ``trace_view.json`` as columns.

Use the names exported here; the modules are the loader's parts:

- :mod:`.model`: :class:`Timeline` and its lanes, flows, instants, counters (what a loaded trace is);
- :mod:`.loader`: :func:`load_timeline`, reading files in chunks (progress, cancel, previews);
- :mod:`.scan`: the msgspec path: chunked decoding of the event array, exact error positions;
- :mod:`.fast`: the compiled path over the C extension ``_fastscan`` (identical results);
- :mod:`.part`: decoded chunks of one file (or file range) turned into part-local columns;
- :mod:`.assemble`: parts merged into the timeline's columns (sorting, nesting, flows, counters);
- :mod:`.lanes`: lanes from process/thread metadata and device ids;
- :mod:`.num`: exact decimal µs text to int64 ns; :mod:`.store`: where the raw args live;
- :mod:`.parallel`: several processes on one big file (pure-Python path);
- :mod:`.combine`: several loaded timelines as one; :mod:`.args`: picking keys out of raw args.

May use: :mod:`workbench.core.tasks`, numpy, msgspec. Nothing else of the profiling engine.
"""

from __future__ import annotations

from .args import pick as pick_args
from .combine import merge_timelines
from .loader import load_timeline
from .model import (
    BytesColumn,
    CodeColumn,
    Counter,
    Flows,
    Instants,
    Lane,
    TextTable,
    Timeline,
    TimelineError,
)

__all__ = [
    "BytesColumn",
    "CodeColumn",
    "Counter",
    "Flows",
    "Instants",
    "Lane",
    "TextTable",
    "Timeline",
    "TimelineError",
    "load_timeline",
    "merge_timelines",
    "pick_args",
]
