"""Cluster analysis of multi-rank jobs: rank discovery, per-rank reductions, their merge into cluster
tables (msprof-analyze's numbers and files), slow rank / slow link findings, and the Dask engine the
reductions run on."""
