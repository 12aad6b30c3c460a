"""Benchmark the Chrome-trace timeline loader (workbench.core.profiling.timeline).

    python benchmarks/bench_timeline.py [--events 1000000,5000000] [--forms msprof,torch_npu]
                                        [--dir /tmp/wb-bench-timeline]
                                        [--cases loader,loader1,python,msgspec,report,reopen]

Files come from the realistic generator (workbench.simtoolkit.profdata.write_big_timeline) and
are reused while their size matches. Every case runs in a fresh subprocess so its peak RSS
(ru_maxrss; worker processes' peak added for the parallel loader) is its own:

- ``loader``  : load_timeline(path) — the default: compiled scanner (_fastscan), 2 threads
- ``loader1`` : load_timeline(path, workers=1) — compiled scanner, one thread
- ``python``  : load_timeline(path) with ASCEND_WORKBENCH_TRACE_FASTSCAN=0 — the msgspec fallback
- ``loader2`` : the msgspec fallback with workers=2 (two processes)
- ``msgspec`` : reference: the whole file decoded at once by msgspec into typed structs
- ``report``  : open_report(path, use_cache=False) — to a ready Report (timeline + tables)
- ``reopen``  : ``ascend-workbench report info PATH --json`` twice (the cache beside the file is
  removed first): the first run writes the cache, the second reads it. Wall time of each CLI
  process, interpreter start included; "s" is the second run, "cpu s" column shows the first.
- ``reopen-in``: open_report(path) in a running process (imports done) while the cache exists
  (run after ``reopen``, or it writes the cache first, untimed): what re-opening costs in the GUI.

Targets: load >= 265 MB/s on the 0.25 GB and 1 GB files, peak RSS <= 1.0x file size;
re-open <= 0.5 s for the 1 GB source.
The loader's counts are checked against the generator's (complete X events, s/f flow pairs).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _case(kind: str, path: str) -> dict:
    """Run one measurement in this (fresh) process; returns numbers as a dict."""
    size = os.path.getsize(path)
    if kind in ("python", "loader2"):
        os.environ["ASCEND_WORKBENCH_TRACE_FASTSCAN"] = "0"
    # imports first: the time is that of the load, as in a running workbench
    import msgspec

    from workbench.core.profiling.timeline import load_timeline

    if kind in ("report", "reopen-in"):
        from workbench.core.profiling.build import open_report  # noqa: F401 - imported before timing

    t0 = time.perf_counter()
    c0 = time.process_time()
    out: dict = {}
    if kind in ("loader", "loader1", "python", "loader2"):
        workers = {"loader1": 1, "loader2": 2, "python": 1}.get(kind)
        tl = load_timeline(path, workers=workers)
        out.update(events=tl.event_count, flows=tl.flow_count, lanes=len(tl.lanes), warnings=tl.warnings[:3])
    elif kind == "report":
        rep = open_report(path, use_cache=False)
        out.update(events=rep.timeline.event_count, flows=rep.timeline.flow_count)
    elif kind == "reopen":
        import shutil

        p = Path(path)
        shutil.rmtree(p.parent / f".{p.name}.wbcache", ignore_errors=True)
        runs = []
        for _ in range(2):
            w0 = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "workbench.cli", "report", "info", path, "--json"],
                capture_output=True,
                text=True,
                cwd=ROOT,
            )
            runs.append(time.perf_counter() - w0)
            if proc.returncode:
                raise SystemExit(proc.stderr.strip().splitlines()[-1:] or "report info failed")
            info = json.loads(proc.stdout)
        out.update(events=info["event_count"], flows=info["flow_count"], first_s=runs[0], second_s=runs[1])
    elif kind == "reopen-in":
        from workbench.core.profiling.build import open_report as _open

        _open(path, use_cache=True)  # make sure the cache exists (untimed)
        t0 = time.perf_counter()
        c0 = time.process_time()
        rep = _open(path, use_cache=True)
        if "cache" not in rep.info:
            raise SystemExit("the cache was not used")
        out.update(events=rep.timeline.event_count, flows=rep.timeline.flow_count)
    elif kind == "msgspec":

        class Event(msgspec.Struct, gc=False):
            ph: str
            name: str = ""
            cat: str = ""
            pid: int | str = 0
            tid: int | str = 0
            ts: str | float = 0.0
            dur: float = 0.0
            id: int | str = ""
            bp: str = ""
            args: dict | None = None

        with open(path, "rb") as f:
            data = f.read()
        events = msgspec.json.Decoder(list[Event]).decode(data)
        out.update(events=sum(1 for e in events if e.ph == "X"))
    else:
        raise SystemExit(f"unknown case {kind}")
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    if kind == "reopen":
        wall, cpu = out["second_s"], out["first_s"]
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    out.update(
        kind=kind,
        bytes=size,
        seconds=wall,
        cpu_seconds=cpu,
        mb_s=size / wall / 1e6,
        rss=me,
        child_rss=kids,
        rss_ratio=(me + kids) / size,
    )
    return out


def _run(kind: str, path: Path) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", kind, str(path)], capture_output=True, text=True)
    if proc.returncode:
        return {"kind": kind, "error": proc.stderr.strip().splitlines()[-1:] or ["failed"]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _ensure(dirpath: Path, form: str, n: int) -> tuple[Path, dict]:
    from workbench.simtoolkit.profdata import write_big_timeline

    path = dirpath / f"{form}_{n}.json"
    manifest_path = dirpath / f"{form}_{n}.manifest.json"
    if path.exists() and manifest_path.exists():
        known = json.loads(manifest_path.read_text())
        if known.get("bytes") == path.stat().st_size:
            return path, known
    t0 = time.perf_counter()
    known = write_big_timeline(path, form, n)
    manifest_path.write_text(json.dumps(known))
    print(f"  generated {path.name}: {known['bytes'] / 1e6:.0f} MB in {time.perf_counter() - t0:.0f} s", flush=True)
    return path, known


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(_case(sys.argv[2], sys.argv[3])))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", default="1000000,5000000")
    ap.add_argument("--forms", default="msprof,torch_npu")
    ap.add_argument("--dir", default="/tmp/wb-bench-timeline")
    ap.add_argument("--cases", default="loader,loader1,python,msgspec,report,reopen,reopen-in")
    a = ap.parse_args()
    out_dir = Path(a.dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    print(f"{'file':<24}{'case':<10}{'MB':>7}{'s':>8}{'MB/s':>8}{'cpu s':>8}{'RSS MB':>9}{'RSS/size':>10}  check")
    ok = True
    for n in (int(x) for x in a.events.split(",")):
        for form in a.forms.split(","):
            path, known = _ensure(out_dir, form, n)
            for kind in a.cases.split(","):
                r = _run(kind, path)
                if "error" in r:
                    print(f"{path.name:<24}{kind:<10} FAILED: {r['error']}")
                    ok = False
                    continue
                check = ""
                if kind != "msgspec":
                    good = r["events"] == known["x_events"] and r["flows"] == known["flows"]
                    check = (
                        "counts ok"
                        if good
                        else f"COUNTS DIFFER {r['events']}/{known['x_events']} {r['flows']}/{known['flows']}"
                    )
                    ok &= good
                print(
                    f"{path.name:<24}{kind:<10}{r['bytes'] / 1e6:7.0f}{r['seconds']:8.2f}{r['mb_s']:8.0f}"
                    f"{r['cpu_seconds']:8.2f}{(r['rss'] + r['child_rss']) / 1e6:9.0f}{r['rss_ratio']:10.2f}  {check}",
                    flush=True,
                )
    print(f"load: {os.getloadavg()[0]:.1f} (1-min load average; other jobs on the box slow every number)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
