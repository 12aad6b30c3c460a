"""Profiling data engine: readers for msprof / torch_npu output, the Report model, statistics."""
