"""The advisor's rules, one module per subject; importing this package registers them all.

- ``compute``: AI CPU work that has an AI Core implementation, AI CPU dominating a stream, dtype
  fallbacks, memory-bound operators, low AI Core utilisation, dynamic-shape operators, cube shape
  affinity and room for optimisation, fusion and vector bottlenecks;
- ``schedule``: the host as the bottleneck (device idle, launch gaps), data loading (GetNext),
  operator recompilation, environment and profiler settings, affinity APIs;
- ``communication``: communication not overlapped, small packets, unaligned sizes, slow links of one
  rank's report;
- ``cluster``: slow ranks, slow links and pipeline bubbles of a cluster.
"""

from workbench.core.advisor.rules import cluster, communication, compute, schedule  # noqa: F401
