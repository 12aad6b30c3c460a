"""Run the accuracy comparison with the host's ``msaccucmp.py compare`` (the Model Accuracy Analyzer's
remote mode, as MindStudio does it).

Local folders are uploaded to ``~/ascend-workbench/accuracy/<stamp>/`` (``npu``, ``golden`` and the
fusion rule); folders already on the host are used in place. The tool writes
``result_{YYYYMMDDhhmmss}.csv`` into the output folder, which is downloaded and read back with
:func:`compare.read_result_csv`, so the table shows exactly what the host computed.
"""

from __future__ import annotations

import posixpath
import tempfile
import time
from pathlib import Path

from workbench.core.dump.compare import DEFAULT_THRESHOLD, CompareReport, read_result_csv
from workbench.core.services.toolkit import ToolkitInfo, detect_toolkit
from workbench.core.services.transport import Transport, TransportError
from workbench.core.tasks import CancelToken, NullProgress, Progress


def msaccucmp_command(
    tool: str, npu: str, golden: str, out: str, *, fusion_rule: str = "", algorithms: list[str] | None = None
) -> list[str]:
    """``python3 msaccucmp.py compare -m NPU -g GOLDEN [-f RULE] -alg A,B -out OUT``."""
    argv = ["python3", tool, "compare", "-m", npu, "-g", golden]
    if fusion_rule:
        argv += ["-f", fusion_rule]
    if algorithms:
        argv += ["-alg", ",".join(algorithms)]
    return [*argv, "-out", out]


def remote_compare(
    transport: Transport,
    npu_dir: str,
    golden_dir: str,
    *,
    fusion_rule: str = "",
    algorithms: list[str] | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    on_host: bool = False,
    toolkit: ToolkitInfo | str | None = None,
    remote_dir: str | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> CompareReport:
    """Work function: compare on the host with msaccucmp; ``on_host`` means the paths are the host's.

    ``remote_dir`` is the working folder on the host (default ``~/ascend-workbench/accuracy/<stamp>``);
    uploaded copies of the folders and the fusion rule are removed afterwards, the result CSV stays there.
    """
    progress = progress or NullProgress()
    cancel = cancel or CancelToken()
    if not isinstance(toolkit, ToolkitInfo):
        progress.status(f"Looking for the CANN toolkit on {transport.label}")
        toolkit = detect_toolkit(transport, toolkit or None, cancel=cancel)
    tool = toolkit.tools.get("msaccucmp")
    if not tool:
        raise TransportError(
            f"{transport.label}: the toolkit at {toolkit.root} has no "
            "tools/operator_cmp/compare/msaccucmp.py; compare locally instead"
        )
    work = remote_dir or posixpath.join(transport.home(), "ascend-workbench", "accuracy", time.strftime("%Y%m%d%H%M%S"))
    out = posixpath.join(work, "result")
    transport.mkdir(out)
    npu, golden, rule = npu_dir, golden_dir, fusion_rule
    if not on_host:
        for label, local, remote in (("NPU dump", npu_dir, "npu"), ("ground truth", golden_dir, "golden")):
            cancel.raise_if_cancelled()
            progress.status(f"Uploading the {label} folder to {transport.label}")
            transport.put(local, posixpath.join(work, remote), progress=progress, cancel=cancel)
        npu, golden = posixpath.join(work, "npu"), posixpath.join(work, "golden")
        if fusion_rule:
            rule = posixpath.join(work, Path(fusion_rule).name)
            transport.put(fusion_rule, rule, cancel=cancel)
    progress.status(f"Running msaccucmp.py compare on {transport.label}")
    try:
        run = transport.run(
            msaccucmp_command(tool, npu, golden, out, fusion_rule=rule, algorithms=algorithms),
            cwd=work,
            toolkit=toolkit.set_env,
            progress=progress,
            cancel=cancel,
        )
    finally:
        if not on_host:  # the uploaded copies can be large: do not leave them on the host
            copies = [posixpath.join(work, "npu"), posixpath.join(work, "golden"), *([rule] if rule else [])]
            transport.run(["rm", "-rf", "--", *copies])
    results = sorted(n for n in transport.listdir(out) if n.startswith("result_") and n.endswith(".csv"))
    if not results:
        tail = " / ".join(run.stderr.strip().splitlines()[-3:])
        raise TransportError(
            f"{transport.label}: msaccucmp.py compare exited with status {run.exit_status} "
            f"and wrote no result file in {out}" + (f": {tail}" if tail else "")
        )
    with tempfile.TemporaryDirectory(prefix="wb-accuracy-") as tmp:
        local = Path(tmp) / results[-1]
        transport.get(posixpath.join(out, results[-1]), str(local), cancel=cancel)
        report = read_result_csv(local, threshold)
    report.warnings.append(f"computed on {transport.label} by {tool}; result {posixpath.join(out, results[-1])}")
    return report
