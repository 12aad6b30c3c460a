"""Regenerate the shipped sample report (resources/samples) byte-identically.

    python benchmarks/make_sample_report.py [OUT_DIR]     (default: resources/samples)

Same as ``python -m workbench.simtoolkit.profdata samples OUT_DIR``; a test checks the shipped
folders are current.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench.simtoolkit.profdata.samples import write_samples  # noqa: E402

if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "resources" / "samples"
    for path in write_samples(out):
        print(path)
