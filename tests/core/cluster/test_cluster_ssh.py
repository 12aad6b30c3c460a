"""``ascend-workbench cluster analyze JOB --hosts A,B``: the ranks are found and reduced by Dask workers
started over SSH on the configured hosts (the test suite's real sshd on 127.0.0.1, twice), with a
remote Python that cannot import workbench — and the files are the in-process run's, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.cli import main
from workbench.core.cluster import files, report
from workbench.core.services.hosts import HostStore


def test_analyze_over_ssh_started_dask_workers_gives_the_in_process_files(
    sshd_server, ssh_home, tmp_path: Path, no_workbench_python: str, capsys
) -> None:
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    job = tmp_path / "job"
    write_cluster_job(job, 8, tp=2, pp=2, slow_rank=5, slow_link=(2, 3))
    HostStore().save([sshd_server.host("cann-a"), sshd_server.host("cann-b")])
    here = tmp_path / "here"
    assert main(["cluster", "analyze", str(job), "--out", str(here), "--workers", "1"]) == 0
    capsys.readouterr()
    remote = tmp_path / "remote"
    code = main(
        ["cluster", "analyze", str(job), "--out", str(remote), "--hosts", "cann-a,cann-b",
         "--remote-python", no_workbench_python, "--json"]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    doc = json.loads(out)
    assert doc["engine"] == "ssh cann-a,cann-b" and doc["ranks"] == list(range(8))
    assert [s["rank"] for s in doc["slow_ranks"]] == [5]
    for name in files.NAMES:
        assert (remote / name).read_bytes() == (here / name).read_bytes(), name
    saved = report.load(remote / report.REPORT_NAME)
    assert {r.host for r in saved.ranks} == {"cann-a"}  # both hosts see the same disk: the first one's ranks
    assert all(r.worker.startswith("tcp://127.0.0.1:") for r in saved.ranks)
    assert (
        "8 ranks (0, 1, 2, 3, 4, 5, 6, 7) are on both cann-a and cann-b (one shared disk?); cann-a's are taken"
        in (doc["warnings"])
    )


def test_remote_python_without_hosts_is_one_line(tmp_path: Path, capsys) -> None:
    assert main(["cluster", "analyze", str(tmp_path), "--remote-python", "python3"]) == 2
    assert "--remote-python: only with --hosts" in capsys.readouterr().err
