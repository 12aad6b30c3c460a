"""``ascend-workbench sim …``: install the simulated CANN toolkit (Qt-free).

``sim install --prefix DIR [--cann-version V] [--soc S] [--devices N] [--driver-version D] [--json]``
prints the toolkit root (or JSON) and exits 0; bad options exit 2 with the reason on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from workbench.core.verbs import register_verb
from workbench.simtoolkit import platform


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    inst = sub.add_parser("install", help="lay out a simulated CANN toolkit under a prefix (like /usr/local/Ascend)")
    inst.add_argument("--prefix", required=True, help="folder playing /usr/local/Ascend")
    inst.add_argument("--cann-version", default=platform.DEFAULT_CANN, choices=list(platform.RELEASES))
    inst.add_argument(
        "--soc",
        default=platform.DEFAULT_SOC,
        help=f"chip model (default {platform.DEFAULT_SOC}); one of "
        + ", ".join([*platform.SOCS, *platform.SOC_ALIASES]),
    )
    inst.add_argument("--devices", type=int, default=8, help="number of NPUs npu-smi shows (default 8)")
    inst.add_argument(
        "--driver-version", help="driver / npu-smi version (default: the one paired with the CANN version)"
    )
    inst.add_argument("--json", action="store_true", help="print the result as JSON")
    sub.add_parser("demo", help="install (or refresh) the demo host's simulated toolkit and print its root")


def _handle(args: argparse.Namespace) -> int:
    if args.action == "demo":
        from workbench.simtoolkit.demo import ensure_demo_toolkit

        print(ensure_demo_toolkit())
        return 0
    from workbench.simtoolkit.install import install

    try:
        root = install(
            args.prefix,
            cann_version=args.cann_version,
            soc_version=args.soc,
            devices=args.devices,
            driver_version=args.driver_version,
        )
    except ValueError as exc:
        print(f"sim install: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"sim install: cannot write under {args.prefix}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(
            json.dumps(
                {
                    "toolkit_path": str(root),
                    "set_env": str(root.parent / "set_env.sh"),
                    "cann_version": args.cann_version,
                    "soc_version": platform.soc(args.soc).soc_version,
                    "devices": args.devices,
                    "simulated": True,
                }
            )
        )
    else:
        print(root)
    return 0


register_verb(
    "sim",
    "The simulated CANN toolkit (atc, msprof, npu-smi, msaccucmp) for hosts without Ascend hardware.",
    _add_arguments,
    _handle,
)
