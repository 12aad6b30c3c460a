"""The Dask engine of the cluster analysis: the synchronous path, a LocalCluster of 2 workers (results,
progress, a failing item, cancel, a lost worker re-run elsewhere) and a Dask cluster started over SSH
against the test suite's real sshd (two hosts on 127.0.0.1, affinity, nothing left running after)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import psutil
import pytest

from workbench.core.cluster import engine
from workbench.core.cluster.engine import EngineError, EngineSpec, Outcome, Session, map_items
from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress

BLOCK_S = 60.0  # an item that waits for the test gives up after this (the test never waits that long)


# --- what the workers run (module level: picklable; the standard library only: shipped by value) ------
def square_or_fail(x: int) -> int:
    if x == 3:
        raise ValueError(f"value {x} is not wanted here")
    return x * x


@dataclass(frozen=True)
class Probe:
    """An item of a class from this module (shipped by value to the SSH workers, like RankSource)."""

    path: str
    host: str


def size_where(item: Probe) -> tuple[int, str]:
    """The file's size on the worker's host and the name of the worker that read it."""
    from distributed import get_worker

    return os.path.getsize(item.path), str(get_worker().name)


def wait_for_release(item: tuple[str, int]) -> int:
    """Say "started" (with this process's pid), then wait until the test releases (never, here)."""
    folder, i = item
    Path(folder, f"started-{i}").write_text(str(os.getpid()))
    deadline = time.monotonic() + BLOCK_S
    while not Path(folder, "release").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return i


def block_first_run(item: tuple[str, int]) -> tuple[int, int, str]:
    """Item 0's first run blocks until its worker is killed; any other run returns at once."""
    from distributed import get_worker

    folder, i = item
    marker = Path(folder, "first-run")
    if i == 0 and not marker.exists():
        marker.write_text(f"{os.getpid()} {get_worker().address}")
        deadline = time.monotonic() + BLOCK_S
        while time.monotonic() < deadline:
            time.sleep(0.02)
    return i, os.getpid(), str(get_worker().address)


# --- helpers -------------------------------------------------------------------------------------------
def wait_until(condition: Callable[[], object], timeout: float = 30.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def _dask_processes(pids: list[int]) -> dict[int, str]:
    """pid -> command line of the given processes that are Dask's (a scheduler, nanny or spawned worker)."""
    found = {}
    for pid in pids:
        try:
            cmd = " ".join(psutil.Process(pid).cmdline())
        except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
            continue
        if "distributed" in cmd or "spawn_main" in cmd:
            found[pid] = cmd[:160]
    return found


def our_dask_children() -> dict[int, str]:
    return _dask_processes([p.pid for p in psutil.Process().children(recursive=True)])


def alive(pids) -> list[int]:
    """The pids that still run (a zombie has ended: a reparented orphan may wait for its reaping)."""
    running = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                running.append(pid)
        except psutil.NoSuchProcess:
            continue
    return running


def in_thread(target: Callable[[], None]) -> threading.Thread:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            target()
        except BaseException as exc:  # noqa: BLE001 - handed to the test below
            errors.append(exc)

    thread = threading.Thread(target=run, name="test-helper")
    thread.errors = errors  # type: ignore[attr-defined]
    thread.start()
    return thread


def statuses(progress: RecordingProgress) -> list[str]:
    return [v for k, v in progress.events if k == "status"]


def partials(progress: RecordingProgress) -> list[Outcome]:
    return [v for k, v in progress.events if k == "partial"]


# --- sync ---------------------------------------------------------------------------------------------
def test_sync_runs_in_this_thread_in_order_and_a_failure_is_one_line():
    progress = RecordingProgress()
    outcomes = map_items(
        square_or_fail, [4, 3, 2], EngineSpec("sync"), progress=progress, cancel=CancelToken(), label="x={}".format
    )
    assert [o.index for o in outcomes] == [0, 1, 2]
    assert [o.result for o in outcomes] == [16, None, 4]
    assert outcomes[1].error == "x=3: value 3 is not wanted here"
    assert {o.worker for o in outcomes} == {engine.IN_PROCESS}
    assert statuses(progress) == ["x=4 done (1/3)", "x=3: value 3 is not wanted here (2/3)", "x=2 done (3/3)"]
    assert partials(progress) == outcomes
    # "auto" with up to 2 items is the synchronous path: no cluster
    auto = map_items(square_or_fail, [5, 6], EngineSpec(), progress=RecordingProgress(), cancel=CancelToken())
    assert [(o.result, o.worker) for o in auto] == [(25, engine.IN_PROCESS), (36, engine.IN_PROCESS)]


def test_a_bad_spec_is_one_line():
    with pytest.raises(EngineError, match=r"^engine kind 'cloud': expected one of auto, sync, local, ssh, address$"):
        map_items(square_or_fail, [1], EngineSpec("cloud"), progress=RecordingProgress(), cancel=CancelToken())
    with pytest.raises(EngineError, match=r"^scheduler address 'h:1': expected tcp://host:port$"):
        map_items(
            square_or_fail,
            [1],
            EngineSpec("address", address="h:1"),
            progress=RecordingProgress(),
            cancel=CancelToken(),
        )


# --- a LocalCluster of 2 workers ----------------------------------------------------------------------
def test_local_cluster_maps_items_reports_each_and_keeps_going_after_a_failure():
    progress = RecordingProgress()
    outcomes = map_items(
        square_or_fail,
        list(range(6)),
        EngineSpec("local", workers=2),
        progress=progress,
        cancel=CancelToken(),
        label=lambda x: f"rank {x}",
    )
    assert [o.index for o in outcomes] == list(range(6))
    assert [o.result for o in outcomes] == [0, 1, 4, None, 16, 25]
    assert outcomes[3].error == "rank 3: value 3 is not wanted here"
    assert all(o.worker.startswith("tcp://127.0.0.1:") for o in outcomes if o.ok)
    assert not any(o.retried for o in outcomes)
    done = [s for s in statuses(progress) if s.endswith("/6)")]
    assert [s.rsplit("(", 1)[1] for s in done] == [f"{n}/6)" for n in range(1, 7)]
    assert sorted(s.rsplit(" (", 1)[0] for s in done) == sorted(
        [f"rank {i} done" for i in (0, 1, 2, 4, 5)] + ["rank 3: value 3 is not wanted here"]
    )
    assert sorted(o.index for o in partials(progress)) == list(range(6))
    assert [v for k, v in progress.events if k == "fraction"][-1] == 1.0
    wait_until(lambda: not our_dask_children(), what="the local cluster's processes to end")


def test_a_session_runs_several_maps_on_one_cluster_started_and_closed_once(monkeypatch):
    starts: list[str] = []
    closes: list[object] = []
    start, close = engine._start_cluster, engine._close_cluster
    monkeypatch.setattr(engine, "_start_cluster", lambda *a: (starts.append(a[0]), start(*a))[1])
    monkeypatch.setattr(engine, "_close_cluster", lambda c: (closes.append(c), close(c))[1])
    progress, cancel = RecordingProgress(), CancelToken()
    with Session(EngineSpec("local", workers=2), progress=progress, cancel=cancel) as session:
        first = session.map(square_or_fail, [1, 2, 4], label="x={}".format)
        second = session.map(square_or_fail, [5, 3], label="y={}".format)
        assert starts == ["local"] and closes == []  # the second map ran on the first one's cluster
    assert [o.result for o in first] == [1, 4, 16]
    assert [o.result for o in second] == [25, None] and second[1].error == "y=3: value 3 is not wanted here"
    assert {o.worker for o in first + second if o.ok} <= {o.worker for o in first}
    assert starts == ["local"] and len(closes) == 1
    said = statuses(progress)
    assert said.count("Starting a local Dask cluster (2 workers)") == 1
    assert sorted(s.rsplit(" (", 1)[0] for s in said if s.endswith("/2)")) == [
        "y=3: value 3 is not wanted here",
        "y=5 done",
    ]
    with pytest.raises(EngineError, match="already closed"):
        session.map(square_or_fail, [1])
    wait_until(lambda: not our_dask_children(), what="the local cluster's processes to end")
    # a cancel between two maps: the next one ends at once, and the session still closes its cluster
    with Session(EngineSpec("local", workers=1), progress=RecordingProgress(), cancel=cancel) as session:
        assert [o.result for o in session.map(square_or_fail, [2])] == [4]
        cancel.cancel()
        with pytest.raises(Cancelled):
            session.map(square_or_fail, [5, 6])
    assert starts == ["local", "local"] and len(closes) == 2
    wait_until(lambda: not our_dask_children(), what="the second cluster's processes to end")


def test_cancel_stops_the_running_items_and_the_worker_processes(tmp_path):
    cancel = CancelToken()
    items = [(str(tmp_path), i) for i in range(4)]

    def cancel_when_two_run() -> None:
        wait_until(lambda: len(list(tmp_path.glob("started-*"))) >= 2, what="two items to run")
        cancel.cancel()

    helper = in_thread(cancel_when_two_run)
    try:
        with pytest.raises(Cancelled):
            map_items(
                wait_for_release, items, EngineSpec("local", workers=2), progress=RecordingProgress(), cancel=cancel
            )
    finally:
        helper.join(timeout=60)
    assert not helper.errors  # type: ignore[attr-defined]
    running = [int(p.read_text()) for p in tmp_path.glob("started-*")]
    assert len(running) == 2 and not (tmp_path / "release").exists()
    wait_until(lambda: not alive(running), what="the running workers to end")
    wait_until(lambda: not our_dask_children(), what="every Dask process to end")


def test_a_lost_worker_item_is_run_again_elsewhere_and_reported(tmp_path):
    killed: dict[str, str] = {}
    progress = RecordingProgress()

    def kill_the_first_run() -> None:
        marker = tmp_path / "first-run"
        wait_until(lambda: marker.exists() and marker.read_text(), what="item 0 to start")
        wait_until(lambda: [o.index for o in partials(progress)] == [1], what="item 1 to finish on the other worker")
        pid, address = marker.read_text().split()
        killed.update(pid=pid, address=address)
        os.kill(int(pid), signal.SIGKILL)

    helper = in_thread(kill_the_first_run)
    try:
        outcomes = map_items(
            block_first_run,
            [(str(tmp_path), i) for i in range(2)],
            EngineSpec("local", workers=2),
            progress=progress,
            cancel=CancelToken(),
            label=lambda item: f"rank {item[1]}",
        )
    finally:
        helper.join(timeout=60)
    assert not helper.errors  # type: ignore[attr-defined]
    first = outcomes[0]
    assert first.ok and first.retried
    index, pid, address = first.result
    assert index == 0 and str(pid) != killed["pid"] and address != killed["address"]
    assert first.worker == address
    assert outcomes[1].ok and not outcomes[1].retried and outcomes[1].result[2] != killed["address"]
    said = statuses(progress)
    assert f"rank 0: its worker {killed['address']} was lost; Dask runs it again on another worker" in said
    assert any(s.startswith(f"rank 0 done on {address} after its first worker was lost (") for s in said)
    wait_until(lambda: not our_dask_children(), what="the local cluster's processes to end")


# --- a Dask cluster over SSH (the real sshd on 127.0.0.1) ---------------------------------------------
def remote_dask(sshd_server) -> dict[int, str]:
    """The Dask processes the sshd started (an orphan that outlived its session is no longer below the
    sshd: the tests take these while the cluster runs and check the pids after)."""
    return _dask_processes(sshd_server.session_pids())


class SnapshotProgress(RecordingProgress):
    """Takes ``snapshot()`` at the first finished item, while the cluster runs."""

    def __init__(self, snapshot: Callable[[], dict[int, str]]) -> None:
        super().__init__()
        self.snapshot, self.seen = snapshot, {}

    def partial(self, item) -> None:
        if not self.seen:
            self.seen = self.snapshot()
        super().partial(item)


def test_ssh_cluster_runs_items_on_the_hosts_they_belong_to(sshd_server, ssh_home, tmp_path, no_workbench_python):
    hosts = (sshd_server.host("cann-a"), sshd_server.host("cann-b"))
    probes = []
    for i in range(4):
        path = tmp_path / f"rank{i}.bin"
        path.write_bytes(b"x" * (100 + i))
        probes.append(Probe(str(path), hosts[i % 2].name))
    probes.append(Probe(str(tmp_path / "rank0.bin"), "elsewhere"))  # a host that is not in the cluster
    progress = SnapshotProgress(lambda: remote_dask(sshd_server))
    outcomes = map_items(
        size_where,
        probes,
        EngineSpec("ssh", hosts=hosts, remote_python=no_workbench_python),
        progress=progress,
        cancel=CancelToken(),
        label=lambda p: Path(p.path).name,
        affinity=lambda p: p.host,
    )
    assert [o.error for o in outcomes] == [None] * 4 + [
        "rank0.bin: no worker runs on host elsewhere (the cluster's hosts: cann-a, cann-b)"
    ]
    assert [o.result for o in outcomes[:4]] == [(100 + i, probes[i].host) for i in range(4)]
    assert len({o.worker for o in outcomes[:4]}) == 2 and not any(o.retried for o in outcomes)
    assert sorted(s.rsplit(" (", 1)[1] for s in statuses(progress) if s.endswith("/5)")) == [
        f"{n}/5)" for n in range(1, 6)
    ]
    assert len(progress.seen) == 5, progress.seen  # the scheduler, and a nanny and its worker per host
    wait_until(lambda: not alive(progress.seen), what=f"the remote scheduler and workers to end: {progress.seen}")


def test_ssh_cancel_ends_the_remote_workers(sshd_server, ssh_home, tmp_path):
    hosts = (sshd_server.host("cann-a"), sshd_server.host("cann-b"))
    assert engine.remote_python(EngineSpec("ssh", hosts=hosts), hosts[0]) == sys.executable
    cancel = CancelToken()
    seen: dict[int, str] = {}

    def cancel_when_two_run() -> None:
        wait_until(lambda: len(list(tmp_path.glob("started-*"))) >= 2, timeout=60, what="two items to run")
        seen.update(remote_dask(sshd_server))
        cancel.cancel()

    helper = in_thread(cancel_when_two_run)
    try:
        with pytest.raises(Cancelled):
            map_items(
                wait_for_release,
                [(str(tmp_path), i) for i in range(4)],
                EngineSpec("ssh", hosts=hosts),
                progress=RecordingProgress(),
                cancel=cancel,
            )
    finally:
        helper.join(timeout=90)
    assert not helper.errors  # type: ignore[attr-defined]
    running = [int(p.read_text()) for p in tmp_path.glob("started-*")]
    assert len(seen) == 5 and set(running) <= set(seen), seen  # scheduler; nanny and worker per host
    wait_until(lambda: not alive(running), what="the running remote items to end")
    wait_until(lambda: not alive(seen), what=f"the remote scheduler and workers to end: {seen}")


def test_ssh_cancel_while_the_cluster_starts_returns_at_once(sshd_server, ssh_home, tmp_path):
    """A remote scheduler that never says it is up (the start would wait for ever): cancel still ends
    the run, and the cluster's start is given up."""
    marker = tmp_path / "hung-pid"
    wrapper = tmp_path / "python-that-hangs"
    wrapper.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "-c" ]; then exec {sys.executable} "$@"; fi\n'  # the engine's check passes
        f"echo $$ > {marker}\n"
        "exec sleep 600\n"  # the scheduler never starts
    )
    wrapper.chmod(0o755)
    cancel = CancelToken()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            map_items(
                size_where,
                [1, 2, 3],
                EngineSpec("ssh", hosts=(sshd_server.host("cann-a"),), remote_python=str(wrapper)),
                progress=RecordingProgress(),
                cancel=cancel,
            )
        except BaseException as exc:  # noqa: BLE001 - checked below
            failures.append(exc)

    runner = threading.Thread(target=run, name="test-run")
    runner.start()
    try:
        wait_until(lambda: marker.exists() and marker.read_text().strip(), what="the remote scheduler to be spawned")
        cancel.cancel()
        wait_until(lambda: not runner.is_alive(), timeout=20, what="map_items to return after the cancel")
        assert len(failures) == 1 and isinstance(failures[0], Cancelled)
    finally:
        if marker.exists() and marker.read_text().strip():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(marker.read_text()), signal.SIGKILL)  # ends the given-up start too
        runner.join(timeout=60)


def ssh_error(*hosts, remote_python: str | None = None) -> str:
    with pytest.raises(EngineError) as caught:
        spec = EngineSpec("ssh", hosts=hosts, remote_python=remote_python)
        map_items(size_where, [1, 2, 3], spec, progress=RecordingProgress(), cancel=CancelToken())
    return str(caught.value)


def test_ssh_host_problems_are_one_line_naming_the_host(sshd_server, ssh_home, tmp_path):
    from workbench.core.services.knownhosts import app_known_hosts

    host = sshd_server.host("cann-a")
    where = f"host cann-a ({host.label})"
    assert ssh_error(replace(host, port=1)).startswith(
        "host cann-a ([127.0.0.1]:1): its host key is not known yet; connect to it once (ascend-workbench host "
        "check cann-a --accept-new-host-key, or the Hosts panel)"
    )
    down = replace(host, port=free_port())
    with app_known_hosts().open("a") as known:  # a known host that does not answer
        known.write(sshd_server.host_key_line.replace(f":{sshd_server.port} ", f":{down.port} ") + "\n")
    assert ssh_error(down) == f"host cann-a ({down.label}): cannot connect (Connection refused)"
    assert ssh_error(replace(host, key_file=str(sshd_server.other_key))) == (
        f"{where}: the SSH login was refused; the Dask start-up logs in with the host's key file or an SSH "
        "agent: configure one of them for this host"
    )
    locked = tmp_path / "locked_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "secret", "-f", str(locked)], check=True)
    assert ssh_error(replace(host, key_file=str(locked))).startswith(
        f"{where}: its key file cannot be read without a passphrase ("
    )
    assert ssh_error(replace(host, key_file=str(tmp_path / "gone"))) == (
        f"host cann-a: key file {tmp_path / 'gone'}: not found; expected the private key to log in with"
    )
    assert ssh_error(host, remote_python="/no/such/python").startswith(f"{where}: /no/such/python cannot run Dask (")
    assert ssh_error(replace(host, auth="password", key_file="")) == (
        f"{where}: the Dask SSH start-up cannot log in with a password; configure a key file for this host "
        "or load its key into an SSH agent"
    )
    assert ssh_error(replace(host, proxy_jump="bastion")).startswith(
        f"{where}: the Dask SSH start-up cannot go through ProxyJump bastion; "
    )
    assert not remote_dask(sshd_server)  # nothing was started on a host that failed its check


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- a scheduler the user's cluster already runs --------------------------------------------------------
def test_address_cluster_runs_items_where_asked_and_keeps_running(tmp_path):
    from distributed import Client, LocalCluster

    path = tmp_path / "rank0.bin"
    path.write_bytes(b"x" * 42)
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        address = cluster.scheduler_address
        outcomes = map_items(
            size_where,
            [Probe(str(path), "127.0.0.1"), Probe(str(path), "10.255.255.1")],
            EngineSpec("address", address=address),
            progress=RecordingProgress(),
            cancel=CancelToken(),
            label=lambda p: f"rank on {p.host}",
            affinity=lambda p: p.host,
        )
        assert outcomes[0].ok and outcomes[0].result[0] == 42
        assert outcomes[1].error == f"rank on 10.255.255.1: no worker of scheduler {address} runs on host 10.255.255.1"
        with Client(address, set_as_default=False) as client:  # the user's cluster is left as it was
            assert len(client.scheduler_info(n_workers=-1)["workers"]) == 1
