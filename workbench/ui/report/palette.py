"""Slice colours: stable by name (a fixed palette indexed by a name hash), or the Timeline Color
rule's green / yellow / red for API lanes."""
from __future__ import annotations

import numpy as np

# 20 distinguishable, not-too-saturated colours (RGB)
PALETTE = [
    (0x4e, 0x79, 0xa7), (0xf2, 0x8e, 0x2b), (0x59, 0xa1, 0x4f), (0xb0, 0x7a, 0xa1), (0x76, 0xb7, 0xb2),
    (0xed, 0xc9, 0x48), (0xff, 0x9d, 0xa7), (0x9c, 0x75, 0x5f), (0x86, 0xbc, 0xb6), (0xd3, 0x72, 0x95),
    (0x8c, 0xd1, 0x7d), (0xa0, 0xcb, 0xe8), (0xff, 0xbe, 0x7d), (0xb6, 0x99, 0x2d), (0x49, 0x98, 0x94),
    (0xf1, 0xce, 0x63), (0xd4, 0xa6, 0xc8), (0x79, 0x70, 0x6e), (0xba, 0xb0, 0xac), (0x6a, 0x9f, 0x58),
]
RULE_COLORS = {"green": (0x3c, 0xb3, 0x71), "yellow": (0xf1, 0xc4, 0x0f), "red": (0xe7, 0x4c, 0x3c)}
MERGED = (0x8a, 0x93, 0xa0)


def name_color_index(names: list[str]) -> np.ndarray:
    """Palette index per name id, stable across runs (crc32 of the name; computed in core)."""
    from workbench.core.profiling.views import name_palette

    return name_palette(names, len(PALETTE))


def argb_table(extra: list[tuple[int, int, int]] | None = None) -> np.ndarray:
    """uint32 ARGB lookup: index 0 = transparent, 1..len(PALETTE) = palette, then extras."""
    colors = [*PALETTE, *(extra or [])]
    table = np.zeros(len(colors) + 1, dtype=np.uint32)
    for i, (r, g, b) in enumerate(colors, start=1):
        table[i] = (0xFF << 24) | (r << 16) | (g << 8) | b
    return table
