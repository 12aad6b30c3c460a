"""Several jobs on one host at once (a device probe while a conversion starts, a deploy while the
runs panel refreshes) share one SSH connection; their file operations must not wait for each
other forever (paramiko's SFTP client is not shared between threads)."""

from __future__ import annotations

import threading


def test_two_threads_use_the_same_host_at_once(ssh_transport, tmp_path):
    tmp_path = tmp_path / "files"
    tmp_path.mkdir()
    for i in range(40):
        (tmp_path / f"f{i}.txt").write_text(str(i))
    results: dict[str, object] = {}

    def worker(name: str) -> None:
        try:
            for _ in range(60):
                assert ssh_transport.exists(str(tmp_path / "f3.txt"))
                assert len(ssh_transport.listdir(str(tmp_path))) == 40
                assert ssh_transport.read_text(str(tmp_path / "f7.txt")) == "7"
            results[name] = "done"
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            results[name] = exc

    threads = [threading.Thread(target=worker, args=(f"t{k}",), daemon=True) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a thread is still waiting for an SFTP reply"
    assert results == {"t0": "done", "t1": "done", "t2": "done"}
    # each thread had a session of its own; the ones of finished threads are closed on the next use
    ssh_transport.exists(str(tmp_path))
    assert len(ssh_transport._sftps) == 1
