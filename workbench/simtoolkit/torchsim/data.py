"""``torch.utils.data`` of the simulated torch: Dataset, TensorDataset, DataLoader (in process), samplers."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from workbench.simtoolkit.torchsim.tensor import Tensor, int64, rng, stack, tensor


class Dataset:
    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError


class TensorDataset(Dataset):
    def __init__(self, *tensors: Tensor) -> None:
        if len({len(t) for t in tensors}) > 1:
            raise ValueError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple[Tensor, ...]:
        return tuple(Tensor(t.data[index], t.dtype, t.device) for t in self.tensors)

    def __len__(self) -> int:
        return len(self.tensors[0])


class Sampler:
    def __init__(self, data_source: Any = None) -> None:
        self.data_source = data_source


class DistributedSampler(Sampler):
    """One process (rank 0 of 1): every index, shuffled per epoch."""

    def __init__(
        self,
        dataset: Dataset,
        num_replicas: int | None = None,
        rank: int | None = None,
        shuffle: bool = True,
        seed: int = 0,
        **_: Any,
    ):
        super().__init__(dataset)
        self.shuffle, self.seed, self.epoch = shuffle, seed, 0

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        order = np.random.default_rng(self.seed + self.epoch).permutation(n) if self.shuffle else np.arange(n)
        return iter(int(i) for i in order)

    def __len__(self) -> int:
        return len(self.data_source)


def default_collate(batch: Sequence[Any]) -> Any:
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(list(batch))
    if isinstance(first, (int, np.integer)):
        return tensor(np.asarray(batch, dtype=np.int64), dtype=int64)
    if isinstance(first, (float, np.floating)):
        return tensor(np.asarray(batch, dtype=np.float32))
    if isinstance(first, (tuple, list)):
        return [default_collate([b[i] for b in batch]) for i in range(len(first))]
    if isinstance(first, dict):
        return {k: default_collate([b[k] for b in batch]) for k in first}
    return list(batch)


class DataLoader:
    def __init__(
        self,
        dataset: Dataset,
        batch_size: int = 1,
        shuffle: bool = False,
        sampler: Any = None,
        drop_last: bool = False,
        collate_fn: Any = None,
        **_: Any,
    ):
        self.dataset, self.batch_size, self.shuffle, self.sampler = dataset, batch_size, shuffle, sampler
        self.drop_last, self.collate_fn = drop_last, collate_fn or default_collate

    def _indices(self) -> list[int]:
        if self.sampler is not None:
            return list(self.sampler)
        n = len(self.dataset)
        return [int(i) for i in (rng().permutation(n) if self.shuffle else range(n))]

    def __iter__(self) -> Iterator[Any]:
        order = self._indices()
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            if self.drop_last and len(chunk) < self.batch_size:
                return
            yield self.collate_fn([self.dataset[i] for i in chunk])

    def __len__(self) -> int:
        n = len(self.dataset)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
