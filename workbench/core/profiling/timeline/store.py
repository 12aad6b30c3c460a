"""Where the raw ``args`` JSON of every slice lives: a list of blobs, spilled to disk when big.

Args are decoded only when asked for (``Timeline.args(i)``), so the loader keeps their raw bytes:
in memory for small traces, in an unlinked temporary file (memory-mapped, so it costs page
cache, not process memory) for big ones, or as a numpy array when reopened from a cache.
"""

from __future__ import annotations

import io
import mmap
import os
import tempfile
from typing import IO

import numpy as np

SPILL_BYTES = 8 << 20  # spill once this much args text has been collected
CHUNK = 8 << 20  # piece size when a store is copied through this process


class ArgsStore:
    """Append-only byte store addressed by global offsets."""

    def __init__(self, spill: bool = True, named: bool = False) -> None:
        self._named = named  # spill to a named file, so the store can be handed to another process
        self._blobs: list[bytes] = []
        self._size = 0
        self._spill_ok = spill
        self._file: IO[bytes] | None = None
        self._map: mmap.mmap | None = None
        self._array: np.ndarray | None = None

    @classmethod
    def from_array(cls, array: np.ndarray) -> ArgsStore:
        store = cls(spill=False)
        store._array = array
        store._size = len(array)
        return store

    @property
    def size(self) -> int:
        return self._size

    def append(self, blob: bytes) -> int:
        """Store ``blob``; return its starting offset."""
        at = self._size
        if self._file is not None:
            self._file.write(blob)
        else:
            self._blobs.append(blob)
            if self._spill_ok and at + len(blob) > SPILL_BYTES:
                # the spill file lives as long as the store (closed by finish / close)
                if self._named:
                    self._file = tempfile.NamedTemporaryFile(prefix="wb-trace-args-", delete=False)  # noqa: SIM115
                else:
                    self._file = tempfile.TemporaryFile(prefix="wb-trace-args-")  # noqa: SIM115
                for b in self._blobs:
                    self._file.write(b)
                self._blobs = []
        self._size += len(blob)
        return at

    def finish(self) -> None:
        """No more appends: join small stores, map spilled ones."""
        if self._file is not None:
            self._file.flush()
            if self._size:
                self._map = mmap.mmap(self._file.fileno(), self._size, access=mmap.ACCESS_READ)
        elif len(self._blobs) > 1:
            self._blobs = [b"".join(self._blobs)]

    def __getstate__(self) -> dict:
        """Pickle for a worker process: blobs travel; a spilled file travels by name."""
        if self._file is not None:
            self._file.flush()
            return {"path": self._file.name, "size": self._size}
        return {"blobs": self._blobs, "size": self._size}

    def __setstate__(self, state: dict) -> None:
        type(self).__init__(self, spill=False)
        self._size = state["size"]
        if "path" in state:
            self._file = open(state["path"], "rb")  # noqa: SIM115 - kept open for the map
            os.unlink(state["path"])  # the open file (and its map) stay valid
            if self._size:
                self._map = mmap.mmap(self._file.fileno(), self._size, access=mmap.ACCESS_READ)
        else:
            self._blobs = state["blobs"]

    def finish_for_transfer(self) -> None:
        """Like :meth:`finish`, for a store about to be pickled to another process."""
        if self._file is None and len(self._blobs) > 1:
            self._blobs = [b"".join(self._blobs)]
        elif self._file is not None:
            self._file.flush()

    def get(self, offset: int, length: int) -> bytes:
        if length <= 0:
            return b""
        if self._array is not None:
            return self._array[offset : offset + length].tobytes()
        if self._map is not None:
            return self._map[offset : offset + length]
        if self._file is not None:  # not finished yet
            self._file.flush()
            self._file.seek(offset)
            return self._file.read(length)
        return (
            self._blobs[0][offset : offset + length]
            if len(self._blobs) == 1
            else b"".join(self._blobs)[offset : offset + length]
        )

    def buffers(self) -> list[tuple[int, object]]:
        """[(global offset, buffer)] covering the store, without copying: the map of a spilled
        store, the array of a cached one, the blob of a small one (joined once if several)."""
        if self._size == 0:
            return []
        if self._array is not None:
            return [(0, self._array)]
        if self._map is not None:
            return [(0, self._map)]
        if self._file is not None:  # not finished: read it back once
            return [(0, self.get(0, self._size))]
        if len(self._blobs) > 1:
            self._blobs = [b"".join(self._blobs)]
        return [(0, self._blobs[0])]

    def write_to(self, fh) -> int:
        """Write the whole store to the binary file ``fh``; returns the bytes written. A spilled
        store is copied file to file by the kernel where it can be (its pages never become this
        process's memory), else in 8 MB pieces."""
        if self._size == 0:
            return 0
        if self._file is not None:
            self._file.flush()
            fh.flush()
            src = self._file.fileno()
            try:
                dst = fh.fileno()
            except (AttributeError, OSError, io.UnsupportedOperation):
                dst = None
            done = 0
            if dst is not None and hasattr(os, "sendfile"):
                try:
                    while done < self._size:
                        sent = os.sendfile(dst, src, done, self._size - done)
                        if sent <= 0:
                            break
                        done += sent
                except OSError:
                    pass
                if done == self._size:
                    return done
            while done < self._size:
                piece = os.pread(src, min(CHUNK, self._size - done), done)
                if not piece:
                    raise OSError(f"the trace's args store ended at byte {done} of {self._size}")
                fh.write(piece)
                done += len(piece)
            return done
        if self._array is not None:
            for a in range(0, self._size, CHUNK):
                fh.write(self._array[a : a + CHUNK].data)
            return self._size
        for blob in self._blobs:
            fh.write(blob)
        return self._size

    def as_array(self) -> np.ndarray:
        """The whole store as a uint8 array (a copy unless already an array)."""
        if self._array is not None:
            return self._array
        if self._map is not None:
            return np.frombuffer(self._map, dtype=np.uint8)  # read-only view: no copy of a big blob
        return np.frombuffer(b"".join(self._blobs), dtype=np.uint8).copy()


class ChainStore(ArgsStore):
    """Several stores seen as one: store ``k``'s offsets are shifted by ``bases[k]``."""

    def __init__(self, stores: list[ArgsStore]) -> None:
        super().__init__(spill=False)
        self._stores = stores
        self.bases = []
        at = 0
        for s in stores:
            self.bases.append(at)
            at += s.size
        self._size = at

    def get(self, offset: int, length: int) -> bytes:
        if length <= 0:
            return b""
        k = int(np.searchsorted(self.bases, offset, side="right")) - 1
        return self._stores[k].get(offset - self.bases[k], length)

    def buffers(self) -> list[tuple[int, object]]:
        return [(base + at, buf) for base, s in zip(self.bases, self._stores) for at, buf in s.buffers()]

    def write_to(self, fh) -> int:
        return sum(s.write_to(fh) for s in self._stores)

    def as_array(self) -> np.ndarray:
        return np.concatenate([s.as_array() for s in self._stores]) if self._stores else np.zeros(0, np.uint8)

    def finish(self) -> None:
        pass


class BlobView:
    """A store seen as one uint8 array for writing (cache, saved report) without building it:
    writers call :meth:`write_to`; ``np.asarray`` still gives the array where one is needed."""

    dtype = np.dtype(np.uint8)

    def __init__(self, store: ArgsStore) -> None:
        self.store = store
        self.shape = (store.size,)
        self.nbytes = store.size

    def __len__(self) -> int:
        return self.store.size

    def __array__(self, dtype=None, copy=None) -> np.ndarray:  # noqa: ARG002 - numpy protocol
        arr = self.store.as_array()
        return arr if dtype is None else arr.astype(dtype)

    def write_to(self, fh) -> int:
        return self.store.write_to(fh)
