"""The raw args of a big trace reach the cache and saved reports without being joined in memory:
``BlobView`` writes the same ``.npy`` bytes np.save would, from every kind of args store."""

from __future__ import annotations

import io
import os
import zipfile

import numpy as np
import pytest

from workbench.core.profiling.storage.columnar import DirStore, ZipStore
from workbench.core.profiling.timeline import store as _trace_store
from workbench.core.profiling.timeline.store import ArgsStore, BlobView, ChainStore


def _stores(monkeypatch):
    monkeypatch.setattr(_trace_store, "SPILL_BYTES", 1000)
    monkeypatch.setattr(_trace_store, "CHUNK", 777)  # several pieces, one of them short
    pieces = [os.urandom(n) for n in (10, 2500, 1, 4000)]
    small = ArgsStore()
    small.append(b'{"a":1}')
    small.append(b'{"b":2}')
    small.finish()
    spilled = ArgsStore()
    for p in pieces:
        spilled.append(p)
    spilled.finish()
    assert spilled._file is not None  # really spilled to a temp file
    arr = ArgsStore.from_array(np.frombuffer(os.urandom(3000), dtype=np.uint8))
    chain = ChainStore([small, spilled, arr, ArgsStore()])
    return {"small": small, "spilled": spilled, "array": arr, "chain": chain, "empty": ArgsStore()}


@pytest.mark.parametrize("which", ["small", "spilled", "array", "chain", "empty"])
def test_blob_view_writes_what_np_save_writes(tmp_path, monkeypatch, which):
    store = _stores(monkeypatch)[which]
    whole = store.as_array()
    expect = io.BytesIO()
    np.save(expect, np.ascontiguousarray(whole), allow_pickle=False)
    DirStore(tmp_path).put("blob", BlobView(store))
    assert (tmp_path / "blob.npy").read_bytes() == expect.getvalue()
    assert np.array_equal(DirStore(tmp_path).get("blob"), whole)
    with zipfile.ZipFile(tmp_path / "r.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        ZipStore(zf, "r.zip").put("timeline/args_blob", BlobView(store))
    with zipfile.ZipFile(tmp_path / "r.zip") as zf:
        assert zf.read("timeline/args_blob.npy") == expect.getvalue()
    assert np.array_equal(np.asarray(BlobView(store)), whole)
