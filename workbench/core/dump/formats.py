"""Device layouts back to framework layouts (the conversions msaccucmp's format manager does).

- NC1HWC0 ``(N, C1, H, W, C0)`` -> NCHW ``(N, C1*C0, H, W)``, channels cropped to the original C.
- NDC1HWC0 ``(N, D, C1, H, W, C0)`` -> NCDHW, channels cropped.
- FRACTAL_Z ``(C1*H*W, No, Ni, C0)`` -> NCHW when the original shape is 4-D (N, C, H, W); -> ND
  ``(K, N)`` when it is 2-D (a matmul weight: K plays C, N plays N, H = W = 1).
- FRACTAL_NZ ``(..., N1, M1, M0, N0)`` -> ND ``(..., M, N)``, padding cropped.
A conversion is only done when the original shape fits the device shape; otherwise
:func:`to_original` returns None and the caller keeps the device layout.
"""

from __future__ import annotations

import math

import numpy as np

from workbench.core.dump.dtypes import FORMAT_FRACTAL_NZ, FORMAT_FRACTAL_Z, FORMAT_NC1HWC0, FORMAT_NDC1HWC0


def nc1hwc0_to_nchw(a: np.ndarray, channels: int | None = None) -> np.ndarray:
    n, c1, h, w, c0 = a.shape
    out = a.transpose(0, 1, 4, 2, 3).reshape(n, c1 * c0, h, w)
    return out[:, :channels] if channels is not None else out


def ndc1hwc0_to_ncdhw(a: np.ndarray, channels: int | None = None) -> np.ndarray:
    n, d, c1, h, w, c0 = a.shape
    out = a.transpose(0, 2, 5, 1, 3, 4).reshape(n, c1 * c0, d, h, w)
    return out[:, :channels] if channels is not None else out


def fractal_z_to_nchw(a: np.ndarray, nchw: tuple[int, int, int, int]) -> np.ndarray:
    n, c, h, w = nchw
    c1hw, no, ni, c0 = a.shape
    c1 = c1hw // (h * w)
    out = a.reshape(c1, h, w, no, ni, c0).transpose(3, 4, 0, 5, 1, 2).reshape(no * ni, c1 * c0, h, w)
    return out[:n, :c]


def fractal_nz_to_nd(a: np.ndarray, nd: tuple[int, ...]) -> np.ndarray:
    *batch, n1, m1, m0, n0 = a.shape
    rows, cols = (1, nd[0]) if len(nd) == 1 else (nd[-2], nd[-1])
    lead = math.prod(batch)
    out = a.reshape(lead, n1, m1, m0, n0).transpose(0, 2, 3, 1, 4).reshape(lead, m1 * m0, n1 * n0)
    return out[:, :rows, :cols].reshape(nd)


def to_original(a: np.ndarray, fmt: int, original_shape: tuple[int, ...]) -> tuple[np.ndarray, str] | None:
    """(array in the framework layout, its format name) or None when no conversion applies."""
    orig = tuple(original_shape)
    shp = a.shape
    if fmt == FORMAT_NC1HWC0 and len(shp) == 5:
        if not orig:
            return nc1hwc0_to_nchw(a), "NCHW"
        if len(orig) == 4 and orig[0] == shp[0] and orig[2:] == shp[2:4] and orig[1] <= shp[1] * shp[4]:
            return nc1hwc0_to_nchw(a, orig[1]), "NCHW"
    elif fmt == FORMAT_NDC1HWC0 and len(shp) == 6:
        if not orig:
            return ndc1hwc0_to_ncdhw(a), "NCDHW"
        if (
            len(orig) == 5
            and orig[0] == shp[0]
            and orig[2] == shp[1]
            and orig[3:] == shp[3:5]
            and orig[1] <= shp[2] * shp[5]
        ):
            return ndc1hwc0_to_ncdhw(a, orig[1]), "NCDHW"
    elif fmt == FORMAT_FRACTAL_Z and len(shp) == 4 and len(orig) in (2, 4):
        n, c, h, w = orig if len(orig) == 4 else (orig[1], orig[0], 1, 1)
        c1 = shp[0] // (h * w) if h * w else 0
        if c1 * h * w == shp[0] and c <= c1 * shp[3] and n <= shp[1] * shp[2]:
            nchw = fractal_z_to_nchw(a, (n, c, h, w))
            return (nchw, "NCHW") if len(orig) == 4 else (nchw.reshape(n, c).T, "ND")
    elif fmt == FORMAT_FRACTAL_NZ and len(shp) >= 4 and orig:
        rows, cols = (1, orig[0]) if len(orig) == 1 else (orig[-2], orig[-1])
        lead = math.prod(orig[:-2]) if len(orig) > 2 else 1
        if lead == math.prod(shp[:-4]) and rows <= shp[-3] * shp[-2] and cols <= shp[-4] * shp[-1]:
            return fractal_nz_to_nd(a, orig), "ND"
    return None
