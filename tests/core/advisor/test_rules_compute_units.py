"""Small pieces of the compute rules, checked on their own."""

from __future__ import annotations

import numpy as np
import pandas as pd

from workbench.core.advisor.rules.compute import _joint_codes


def _by_strings(*columns: np.ndarray) -> np.ndarray:
    return pd.factorize(pd.Series(["\x1f".join(map(str, row)) for row in zip(*columns)], dtype=object))[0]


def test_joint_codes_number_the_combinations_as_joined_strings_would():
    rng = np.random.default_rng(3)
    columns = [
        np.array([f"{p}{i}" for i in rng.integers(0, k, 5000)], dtype=object)
        for p, k in (("n", 40), ("s", 6), ("o", 3))
    ]
    assert np.array_equal(_joint_codes(*columns), _by_strings(*columns))


def test_joint_codes_stay_exact_when_the_combinations_pass_64_bits():
    # a first column of 2 values, then four of 2**16 each: 2 * 2**64 combinations. Multiplied out in one
    # int64 the first column would vanish (its factor is 2**64): rows differing only there would merge.
    rng = np.random.default_rng(5)
    n = 1 << 16
    rest = [np.tile(rng.permutation(n), 2).astype(object) for _ in range(4)]
    first = np.repeat(np.array(["fwd", "bwd"], dtype=object), n)
    codes = _joint_codes(first, *rest)
    assert np.array_equal(codes, _by_strings(first, *rest))
    assert len(np.unique(codes)) == 2 * n
