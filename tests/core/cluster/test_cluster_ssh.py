"""``ascend-workbench cluster analyze JOB --hosts A,B``: the ranks are found and reduced by Dask workers
started over SSH on the configured hosts (the test suite's real sshd on 127.0.0.1, twice), with a
remote Python that cannot import workbench — and the files are the in-process run's, byte for byte.
The discovery and the reductions share ONE cluster: started once, closed once (also on an error or a
cancel), nothing left running on the hosts."""

from __future__ import annotations

import json
import time
from pathlib import Path

import psutil
import pytest

from workbench.cli import main
from workbench.core.cluster import analyze, engine, files, report
from workbench.core.services.hosts import HostStore
from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress


class ClusterSpy:
    """Counts the clusters the engine starts and closes (its own start and close functions, wrapped)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.starts: list[str] = []
        self.closes = 0
        start, close = engine._start_cluster, engine._close_cluster

        def counted_start(kind, spec, n_items):
            self.starts.append(kind)
            return start(kind, spec, n_items)

        def counted_close(cluster) -> None:
            self.closes += 1
            close(cluster)

        monkeypatch.setattr(engine, "_start_cluster", counted_start)
        monkeypatch.setattr(engine, "_close_cluster", counted_close)


def remote_dask(sshd_server) -> list[int]:
    """The Dask processes (scheduler, nannies, workers) the sshd's sessions run now."""
    found = []
    for pid in sshd_server.session_pids():
        try:
            cmd = " ".join(psutil.Process(pid).cmdline())
            if "distributed" in cmd or "spawn_main" in cmd:  # (a nanny's worker is a spawned process)
                found.append(pid)
        except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
            continue
    return found


def wait_gone(pids: list[int], timeout: float = 30.0) -> None:
    def running() -> list[int]:
        out = []
        for pid in pids:
            try:
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    out.append(pid)
            except psutil.NoSuchProcess:
                continue
        return out

    deadline = time.monotonic() + timeout
    while running():
        assert time.monotonic() < deadline, f"still running: {running()}"
        time.sleep(0.05)


def test_analyze_over_ssh_started_dask_workers_gives_the_in_process_files(
    sshd_server, ssh_home, tmp_path: Path, no_workbench_python: str, capsys, monkeypatch
) -> None:
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    job = tmp_path / "job"
    write_cluster_job(job, 8, tp=2, pp=2, slow_rank=5, slow_link=(2, 3))
    HostStore().save([sshd_server.host("cann-a"), sshd_server.host("cann-b")])
    here = tmp_path / "here"
    assert main(["cluster", "analyze", str(job), "--out", str(here), "--workers", "1"]) == 0
    capsys.readouterr()
    remote = tmp_path / "remote"
    spy = ClusterSpy(monkeypatch)
    code = main(
        ["cluster", "analyze", str(job), "--out", str(remote), "--hosts", "cann-a,cann-b",
         "--remote-python", no_workbench_python, "--json"]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    # the ranks' discovery on each host and their reductions ran on ONE cluster: started once, closed once
    assert spy.starts == ["ssh"] and spy.closes == 1
    assert not remote_dask(sshd_server)
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


@pytest.fixture
def two_hosts(sshd_server, ssh_home, tmp_path: Path):
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    job = tmp_path / "job"
    write_cluster_job(job, 4, tp=2)
    hosts = (sshd_server.host("cann-a"), sshd_server.host("cann-b"))
    return job, engine.EngineSpec("ssh", hosts=hosts)


def test_a_refused_output_after_the_discovery_closes_the_one_cluster(sshd_server, two_hosts, tmp_path, monkeypatch):
    job, spec = two_hosts
    out = tmp_path / "out"
    out.mkdir()
    (out / files.STEP_CSV).write_text("mine\n")
    spy = ClusterSpy(monkeypatch)
    with pytest.raises(files.OutputRefused, match="exists; pass --force to replace it"):
        analyze.analyze(job, out=out, spec=spec)
    assert spy.starts == ["ssh"] and spy.closes == 1
    assert (out / files.STEP_CSV).read_text() == "mine\n"
    assert not remote_dask(sshd_server)


def test_a_cancel_during_the_reductions_closes_the_one_cluster(sshd_server, two_hosts, tmp_path, monkeypatch):
    job, spec = two_hosts
    cancel = CancelToken()
    seen: list[int] = []

    class CancelAtFirstRank(RecordingProgress):
        def status(self, text: str) -> None:
            super().status(text)
            if text.startswith("rank ") and not cancel.cancelled:
                seen.extend(remote_dask(sshd_server))  # while the cluster runs
                cancel.cancel()

    spy = ClusterSpy(monkeypatch)
    progress = CancelAtFirstRank()
    with pytest.raises(Cancelled):
        analyze.analyze(job, out=tmp_path / "out", spec=spec, progress=progress, cancel=cancel)
    assert spy.starts == ["ssh"] and spy.closes == 1
    said = [v for k, v in progress.events if k == "status"]
    assert said[:2] == [f"Finding the ranks under {job}", "Starting a Dask cluster over SSH on cann-a, cann-b"]
    assert len(seen) == 5, seen  # the scheduler, and a nanny and its worker per host
    wait_gone(seen)
    assert not (tmp_path / "out").exists()


def test_a_db_job_over_ssh_writes_the_hosts_facts_the_local_run_writes(
    sshd_server, ssh_home, tmp_path: Path, no_workbench_python: str, capsys, monkeypatch
) -> None:
    """cluster_analysis.db's HostInfo / RankDeviceMap are read by the workers, with each rank's reduction."""
    import sqlite3

    from workbench.core.cluster import files_db
    from workbench.simtoolkit.profdata.clusterjob import write_cluster_job

    job = tmp_path / "job"
    write_cluster_job(job, 4, tp=2, export="db")
    HostStore().save([sshd_server.host("cann-a"), sshd_server.host("cann-b")])
    here, remote = tmp_path / "here", tmp_path / "remote"
    assert main(["cluster", "analyze", str(job), "--out", str(here)]) == 0
    spy = ClusterSpy(monkeypatch)
    args = ["--hosts", "cann-a,cann-b", "--remote-python", no_workbench_python]
    assert main(["cluster", "analyze", str(job), "--out", str(remote), *args]) == 0, capsys.readouterr().err
    assert spy.starts == ["ssh"] and spy.closes == 1

    def rows(folder: Path, table: str) -> list[tuple]:
        con = sqlite3.connect(f"file:{folder / files_db.DB_NAME}?mode=ro", uri=True)
        try:
            return con.execute(f"SELECT * FROM {table}").fetchall()
        finally:
            con.close()

    assert rows(remote, files_db.HOST_TABLE) == rows(here, files_db.HOST_TABLE) == [("0", "localhost")]
    devices = rows(remote, files_db.DEVICE_TABLE)
    assert devices == rows(here, files_db.DEVICE_TABLE) and [d[:3] for d in devices] == [(r, r, "0") for r in range(4)]
    assert not remote_dask(sshd_server)


def test_remote_python_without_hosts_is_one_line(tmp_path: Path, capsys) -> None:
    assert main(["cluster", "analyze", str(tmp_path), "--remote-python", "python3"]) == 2
    assert "--remote-python: only with --hosts" in capsys.readouterr().err
