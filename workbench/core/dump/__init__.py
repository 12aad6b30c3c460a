"""Dump configuration and accuracy comparison, Qt-free.

- :mod:`aclconfig` — the acl.json document model (read, edit the dump section, validate, write).
- :mod:`omjson` — the offline model's op tree from ``atc --mode=1`` JSON (also the fusion rule).
- :mod:`dumpfile` / :mod:`dtypes` / :mod:`formats` — dump files read without CANN.
- :mod:`convert` — dump files to .npy, tensor stats, histogram, .txt export.
- :mod:`metrics` / :mod:`compare` — msaccucmp's vector comparison and its result CSV.
"""
