"""SFTP uploads and downloads: round trips, folders, progress, cancel, and server death mid-transfer."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from workbench.core.services import transfer
from workbench.core.services.transport import PART_PREFIX, ConnectionLost, LocalTransport
from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress


def _tree_digest(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _parts(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.startswith(PART_PREFIX)]


def _make_tree(root: Path) -> None:
    (root / "sub dir" / "深").mkdir(parents=True)
    (root / "empty").mkdir()
    (root / "a.bin").write_bytes(os.urandom(300_000))
    (root / "sub dir" / "b.txt").write_text("hello\n")
    (root / "sub dir" / "深" / "c d.bin").write_bytes(os.urandom(1_000_003))
    (root / "zero").write_bytes(b"")
    os.chmod(root / "a.bin", 0o750)


@pytest.fixture(params=["ssh", "local"])
def transport(request):
    if request.param == "ssh":
        return request.getfixturevalue("ssh_transport")
    return LocalTransport()


@pytest.mark.parametrize("size", [0, 1, 32 * 1024, 128 * 1024 + 7, 3 * 1024 * 1024 + 5])
def test_file_round_trip_is_identical(ssh_transport, tmp_path, size):
    src = tmp_path / "src.bin"
    src.write_bytes(os.urandom(size))
    progress = RecordingProgress()
    assert ssh_transport.put(src, str(tmp_path / "remote.bin"), progress=progress) == size
    assert ssh_transport.get(str(tmp_path / "remote.bin"), tmp_path / "back.bin") == size
    assert (tmp_path / "back.bin").read_bytes() == src.read_bytes()
    fractions = [v for k, v in progress.events if k == "fraction"]
    assert fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert int((tmp_path / "remote.bin").stat().st_mtime) == int(src.stat().st_mtime)
    assert not _parts(tmp_path)


def test_folder_round_trip_and_scp_like_targets(transport, tmp_path):
    src = tmp_path / "project"
    _make_tree(src)
    remote = tmp_path / "remote"
    transport.put(src, str(remote))  # remote does not exist: becomes the copy
    assert _tree_digest(remote) == _tree_digest(src) and (remote / "empty").is_dir()
    assert (remote / "a.bin").stat().st_mode & 0o777 == 0o750
    transport.put(src, str(remote))  # now it exists: the copy goes inside
    assert _tree_digest(remote / "project") == _tree_digest(src)
    local = tmp_path / "down"
    transport.get(str(remote), local)
    assert _tree_digest(local) == _tree_digest(remote)
    assert not _parts(tmp_path)


def test_overwrites_an_existing_file(ssh_transport, tmp_path):
    (tmp_path / "target").write_bytes(b"old content that is longer")
    (tmp_path / "new").write_bytes(b"new")
    ssh_transport.put(tmp_path / "new", str(tmp_path / "target"))
    assert (tmp_path / "target").read_bytes() == b"new"


def test_missing_sources_are_named(ssh_transport, tmp_path):
    with pytest.raises(FileNotFoundError) as err:
        ssh_transport.put(tmp_path / "nope", str(tmp_path / "x"))
    assert str(tmp_path / "nope") in str(err.value)
    with pytest.raises(FileNotFoundError) as err:
        ssh_transport.get(str(tmp_path / "nope"), tmp_path / "x")
    assert str(tmp_path / "nope") in str(err.value)


@pytest.mark.parametrize("direction", ["put", "get"])
def test_cancel_leaves_no_half_file(transport, tmp_path, direction):
    src = tmp_path / "big.bin"
    src.write_bytes(os.urandom(8 * 1024 * 1024))
    if direction == "get":
        src, target = str(src), tmp_path / "copy.bin"
    else:
        target = str(tmp_path / "copy.bin")
    cancel = CancelToken()
    progress = RecordingProgress()
    original = progress.fraction

    def fraction(value):
        original(value)
        if value and value > 0.2:
            cancel.cancel()

    progress.fraction = fraction
    with pytest.raises(Cancelled):
        getattr(transport, direction)(src, target, progress=progress, cancel=cancel)
    assert not (tmp_path / "copy.bin").exists()
    assert not _parts(tmp_path)


@pytest.mark.parametrize("direction", ["put", "get"])
def test_sshd_killed_mid_transfer_then_reconnect(ssh_transport, sshd_server, tmp_path, direction):
    data = os.urandom(24 * 1024 * 1024)
    (tmp_path / "big.bin").write_bytes(data)
    src, target = (
        (tmp_path / "big.bin", str(tmp_path / "copy.bin"))
        if direction == "put"
        else (str(tmp_path / "big.bin"), tmp_path / "copy.bin")
    )
    progress = RecordingProgress()
    original = progress.fraction

    def fraction(value):
        original(value)
        if value and value > 0.1 and sshd_server.running:
            sshd_server.kill()

    progress.fraction = fraction
    try:
        with pytest.raises(ConnectionLost) as err:
            getattr(ssh_transport, direction)(src, target, progress=progress)
        assert "connection was lost" in str(err.value) and "loopback" in str(err.value)
        assert not (tmp_path / "copy.bin").exists()  # never a half file under the final name
        if direction == "get":
            assert not _parts(tmp_path)  # the local temp file is removed
        else:  # the remote one could not be removed: it is remembered
            assert [Path(p) for p in ssh_transport.orphan_parts] == _parts(tmp_path)
    finally:
        sshd_server.start()
    (tmp_path / ".wbpart-0a1b2c3d-other.bin").write_bytes(b"not ours to remove: not from this connection")
    getattr(ssh_transport, direction)(src, target)
    assert (tmp_path / "copy.bin").read_bytes() == data
    # the next transfer over the connection removed the part the dropped upload left, and only it
    assert _parts(tmp_path) == [tmp_path / ".wbpart-0a1b2c3d-other.bin"] and not ssh_transport.orphan_parts


def test_short_reads_from_a_capped_server_still_assemble(ssh_transport, tmp_path, monkeypatch):
    """A server that caps reads below our request size: the rest is fetched in order."""
    data = os.urandom(1_000_000)
    (tmp_path / "f.bin").write_bytes(data)
    monkeypatch.setattr(transfer, "READ_SIZE", 300 * 1024)  # above OpenSSH's 255 KiB cap
    ssh_transport.get(str(tmp_path / "f.bin"), tmp_path / "g.bin")
    assert (tmp_path / "g.bin").read_bytes() == data
