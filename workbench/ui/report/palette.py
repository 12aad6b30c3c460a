"""Slice colours: stable by name (a fixed palette indexed by a name hash), or the Timeline Color
rule's green / yellow / red for API lanes."""

from __future__ import annotations

import numpy as np

# 20 distinguishable, not-too-saturated colours (RGB)
PALETTE = [
    (0x4E, 0x79, 0xA7),
    (0xF2, 0x8E, 0x2B),
    (0x59, 0xA1, 0x4F),
    (0xB0, 0x7A, 0xA1),
    (0x76, 0xB7, 0xB2),
    (0xED, 0xC9, 0x48),
    (0xFF, 0x9D, 0xA7),
    (0x9C, 0x75, 0x5F),
    (0x86, 0xBC, 0xB6),
    (0xD3, 0x72, 0x95),
    (0x8C, 0xD1, 0x7D),
    (0xA0, 0xCB, 0xE8),
    (0xFF, 0xBE, 0x7D),
    (0xB6, 0x99, 0x2D),
    (0x49, 0x98, 0x94),
    (0xF1, 0xCE, 0x63),
    (0xD4, 0xA6, 0xC8),
    (0x79, 0x70, 0x6E),
    (0xBA, 0xB0, 0xAC),
    (0x6A, 0x9F, 0x58),
]
RULE_COLORS = {"green": (0x3C, 0xB3, 0x71), "yellow": (0xF1, 0xC4, 0x0F), "red": (0xE7, 0x4C, 0x3C)}
MERGED = (0x8A, 0x93, 0xA0)


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
