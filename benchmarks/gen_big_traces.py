"""Write msprof-form and torch_npu-form timelines of 1 M and 5 M events for the loader benchmark.

    python benchmarks/gen_big_traces.py OUT_DIR [--sizes 1000000,5000000] [--forms msprof,torch_npu]

Files: OUT_DIR/{form}_{n}.json (≈0.2 GB per million events), plus OUT_DIR/manifest.json with what a
loader must find (events, complete X events, s/f flow pairs, bytes). Streaming writes: memory stays
flat whatever the size. Existing files of the same name are reused when the manifest matches.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workbench.simtoolkit.profdata import write_big_timeline  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--sizes", default="1000000,5000000")
    p.add_argument("--forms", default="msprof,torch_npu")
    p.add_argument("--force", action="store_true", help="rewrite files even if the manifest lists them")
    a = p.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    for form in a.forms.split(","):
        for n in (int(x) for x in a.sizes.split(",")):
            path = out / f"{form}_{n}.json"
            known = manifest.get(path.name)
            if not a.force and known and path.exists() and path.stat().st_size == known["bytes"]:
                print(f"{path}: up to date")
                continue
            t0 = time.perf_counter()
            info = write_big_timeline(path, form, n)
            dt = time.perf_counter() - t0
            manifest[path.name] = {"form": form, **info}
            print(
                f"{path}: {info['events']} events, {info['bytes'] / 1e9:.3f} GB in {dt:.1f} s "
                f"({info['bytes'] / 1e6 / dt:.0f} MB/s)"
            )
            manifest_path.write_text(json.dumps(manifest, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
