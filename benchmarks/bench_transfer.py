"""Transfer throughput: our SFTP upload/download vs OpenSSH ``scp`` on loopback.

Starts the test sshd (tests/sshd.py), writes a random file of ``--size-mb`` MiB, and times
``scp`` (OpenSSH's defaults) and our ``SshTransport.put`` / ``.get`` on it in ``--repeat``
interleaved rounds; reports the best throughput of each and the ratios (best-to-best and the
median of side-by-side rounds). Goal: ours >= 0.8x scp.

    python benchmarks/bench_transfer.py [--size-mb 256] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from sshd import SshServer  # noqa: E402

from workbench.core.services.hosts import Host  # noqa: E402
from workbench.core.services.knownhosts import HostKeyChecker  # noqa: E402
from workbench.core.services.ssh import SshTransport  # noqa: E402


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        (tmp / "sshd").mkdir()
        server = SshServer(tmp / "sshd")
        server.start()
        try:
            src = tmp / "payload.bin"
            with open(src, "wb") as fh:
                for _ in range(args.size_mb):
                    fh.write(os.urandom(1 << 20))
            size = src.stat().st_size
            known = tmp / "known_hosts"
            known.write_text(server.host_key_line + "\n")
            scp_base = [
                "scp",
                "-q",
                "-P",
                str(server.port),
                "-i",
                str(server.client_key),
                "-o",
                f"UserKnownHostsFile={known}",
                "-o",
                "StrictHostKeyChecking=yes",
                "-o",
                "BatchMode=yes",
            ]
            remote_dir = tmp / "remote"
            remote_dir.mkdir()
            target = f"{server.user}@127.0.0.1:{remote_dir / 'scp.bin'}"
            host = Host(
                name="bench",
                hostname="127.0.0.1",
                port=server.port,
                user=server.user,
                auth="key",
                key_file=str(server.client_key),
            )
            ops = {
                "scp_up": lambda: subprocess.run(scp_base + [str(src), target], check=True),
                "scp_down": lambda: subprocess.run(scp_base + [target, str(tmp / "scp_back.bin")], check=True),
                "ours_up": lambda: tr.put(src, str(remote_dir / "ours.bin")),
                "ours_down": lambda: tr.get(str(remote_dir / "ours.bin"), tmp / "ours_back.bin"),
            }
            times: dict[str, list[float]] = {k: [] for k in ops}
            with SshTransport(host, checker=HostKeyChecker(files=[known], app_file=known)) as tr:
                tr.connect()
                # Interleaved rounds: the machine is shared, so compare runs made side by side.
                for _ in range(args.repeat):
                    for name, op in ops.items():
                        times[name].append(_timed(op))
            assert (tmp / "ours_back.bin").read_bytes() == src.read_bytes()
        finally:
            server.kill()
    mb = size / (1 << 20)
    best = {k: min(v) for k, v in times.items()}
    result = {
        "size_mib": mb,
        "rounds": args.repeat,
        **{f"{k}_best_mib_s": round(mb / v, 1) for k, v in best.items()},
        "upload_ratio_best": round(best["scp_up"] / best["ours_up"], 2),
        "download_ratio_best": round(best["scp_down"] / best["ours_down"], 2),
        # per-round ratios (side by side), median: robust against a noisy shared machine
        "upload_ratio_median": round(statistics.median(a / b for a, b in zip(times["scp_up"], times["ours_up"])), 2),
        "download_ratio_median": round(
            statistics.median(a / b for a, b in zip(times["scp_down"], times["ours_down"])), 2
        ),
    }
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:22} {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
