"""Connecting to a real sshd: keys, host keys (unknown / accepted / changed), auth errors, ProxyJump."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from workbench.core.services.hosts import Host, HostStore
from workbench.core.services.knownhosts import HostKeyChanged, UnknownHostKey, app_known_hosts
from workbench.core.services.ssh import AuthError, CallbackPrompter, ConnectionPool, SshTransport
from workbench.core.services.transport import TransportError


def _ssh_keygen_fingerprint(pub: Path) -> str:
    out = subprocess.run(
        ["ssh-keygen", "-l", "-E", "sha256", "-f", str(pub)], check=True, capture_output=True, text=True
    ).stdout
    return out.split()[1]


def test_connect_with_key_runs_a_command(ssh_transport, sshd_server):
    result = ssh_transport.run(["id", "-un"])
    assert result.exit_status == 0 and result.stdout.strip() == sshd_server.user
    assert ssh_transport.connected
    assert ssh_transport.connect().get_security_options()  # a live paramiko transport


def test_keepalive_is_on(ssh_transport):
    t = ssh_transport.connect()
    assert t.packetizer._Packetizer__keepalive_interval == ssh_transport.host.keepalive_s > 0


def test_unknown_host_key_is_refused_with_its_fingerprint(ssh_host, sshd_server):
    app_known_hosts().unlink()
    expected = _ssh_keygen_fingerprint(Path(f"{sshd_server.host_key}.pub"))
    seen = []
    with (
        SshTransport(ssh_host, CallbackPrompter(confirm=lambda info: seen.append(info) or False)) as tr,
        pytest.raises(UnknownHostKey) as err,
    ):
        tr.run(["true"])
    assert [i.fingerprint for i in seen] == [expected]
    assert expected in str(err.value) and "loopback" in str(err.value)
    assert not app_known_hosts().exists()


def test_accepted_host_key_is_remembered(ssh_host, sshd_server):
    app_known_hosts().unlink()
    with SshTransport(ssh_host, CallbackPrompter(confirm=lambda info: True)) as tr:
        assert tr.run(["true"]).ok
    assert app_known_hosts().read_text().split() == sshd_server.host_key_line.split()
    # Next time nobody is asked.
    with SshTransport(ssh_host, CallbackPrompter(confirm=lambda info: pytest.fail("asked again"))) as tr:
        assert tr.run(["true"]).ok


@pytest.mark.parametrize("where", ["app", "user"])
def test_changed_host_key_is_refused_naming_file_and_line(ssh_host, sshd_server, ssh_home, where):
    other = Path(f"{sshd_server.other_key}.pub").read_text().split()
    bad_line = f"[127.0.0.1]:{sshd_server.port} {other[0]} {other[1]}"
    target = app_known_hosts() if where == "app" else ssh_home / ".ssh" / "known_hosts"
    if where == "user":
        app_known_hosts().unlink()
    target.write_text(
        "# comment\nsomehost ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n"
        + bad_line
        + "\n"
    )
    with (
        SshTransport(ssh_host, CallbackPrompter(confirm=lambda info: True)) as tr,
        pytest.raises(HostKeyChanged) as err,
    ):
        tr.run(["true"])
    msg = str(err.value)
    assert str(target) in msg and "line 3" in msg
    assert target.read_text().splitlines()[2] == bad_line  # never edited behind the user's back


def test_hashed_known_hosts_entry_is_recognised(ssh_host, sshd_server, ssh_home):
    app_known_hosts().unlink()
    user_file = ssh_home / ".ssh" / "known_hosts"
    user_file.write_text(sshd_server.host_key_line + "\n")
    subprocess.run(["ssh-keygen", "-H", "-f", str(user_file)], check=True, capture_output=True)
    assert user_file.read_text().startswith("|1|")
    with SshTransport(ssh_host) as tr:
        assert tr.run(["true"]).ok


def test_wrong_key_gives_a_clear_error(ssh_host, sshd_server):
    ssh_host.key_file = str(sshd_server.other_key)
    with SshTransport(ssh_host) as tr, pytest.raises(AuthError) as err:
        tr.run(["true"])
    assert str(sshd_server.other_key) in str(err.value) and "refused" in str(err.value)


def test_missing_key_file_is_named(ssh_host, tmp_path):
    ssh_host.key_file = str(tmp_path / "nope")
    with SshTransport(ssh_host) as tr, pytest.raises(AuthError) as err:
        tr.run(["true"])
    assert str(tmp_path / "nope") in str(err.value) and "does not exist" in str(err.value)


def test_wrong_password_gives_a_clear_error(ssh_host):
    ssh_host.auth, ssh_host.key_file = "password", ""
    asked = []
    with (
        SshTransport(ssh_host, CallbackPrompter(password=lambda host: asked.append(host.name) or "wrong")) as tr,
        pytest.raises(AuthError) as err,
    ):
        tr.run(["true"])
    assert asked == ["loopback"]
    assert "wrong password" in str(err.value) or "does not accept passwords" in str(err.value)
    assert "wrong" not in HostStore().path.read_text() if HostStore().path.exists() else True


def test_encrypted_key_asks_passphrase_and_rejects_a_wrong_one(ssh_host, sshd_server, tmp_path):
    key = tmp_path / "enc_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "s3cret pass", "-f", str(key)], check=True)
    auth = sshd_server.root / "authorized_keys"
    auth.write_text(auth.read_text() + Path(f"{key}.pub").read_text())
    ssh_host.key_file = str(key)
    with (
        SshTransport(ssh_host, CallbackPrompter(passphrase=lambda h, f: "nope")) as tr,
        pytest.raises(AuthError) as err,
    ):
        tr.run(["true"])
    assert "wrong passphrase" in str(err.value) and str(key) in str(err.value)
    with SshTransport(ssh_host, CallbackPrompter(passphrase=lambda h, f: None)) as tr, pytest.raises(AuthError):
        tr.run(["true"])
    with SshTransport(ssh_host, CallbackPrompter(passphrase=lambda h, f: "s3cret pass")) as tr:
        assert tr.run(["true"]).ok


def test_connection_refused_is_clear(ssh_home):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    host = Host(name="dead", hostname="127.0.0.1", port=port, user="root")
    with SshTransport(host) as tr, pytest.raises(TransportError) as err:
        tr.run(["true"])
    assert "connection refused" in str(err.value) and "dead" in str(err.value)


def test_proxy_jump_through_a_stored_host(ssh_host, sshd_server):
    store = HostStore()
    store.add(ssh_host)
    target = Host(
        name="behind",
        hostname="127.0.0.1",
        port=sshd_server.port,
        user=sshd_server.user,
        auth="key",
        key_file=str(sshd_server.client_key),
        proxy_jump="loopback",
    )
    with SshTransport(target, store=store) as tr:
        assert tr.run(["echo", "via jump"]).stdout == "via jump\n"
        assert tr._jump is not None and tr._jump.connected
    assert tr._jump is None


def test_pool_shares_one_connection_per_host(ssh_host):
    HostStore().add(ssh_host)
    pool = ConnectionPool()
    try:
        a, b = pool.get("loopback"), pool.get(ssh_host)
        assert a is b
        a.run(["true"])
        t1 = a.connect()
        assert b.connect() is t1
    finally:
        pool.close_all()
    assert not a.connected


def test_agent_authentication(ssh_host, sshd_server, tmp_path, monkeypatch):
    import shutil

    if not shutil.which("ssh-agent") or not shutil.which("ssh-add"):
        pytest.skip("ssh-agent is not installed")
    sock = tmp_path / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(sock)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import time

        deadline = time.monotonic() + 10
        while not sock.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        env = {"SSH_AUTH_SOCK": str(sock), "PATH": "/usr/bin:/bin"}
        subprocess.run(["ssh-add", str(sshd_server.client_key)], env=env, check=True, capture_output=True)
        monkeypatch.setenv("SSH_AUTH_SOCK", str(sock))
        ssh_host.auth, ssh_host.key_file = "agent", ""
        with SshTransport(ssh_host) as tr:
            assert tr.run(["echo", "agent ok"]).stdout == "agent ok\n"
        # Without the agent, "agent" auth says what is missing.
        monkeypatch.delenv("SSH_AUTH_SOCK")
        with SshTransport(ssh_host) as tr, pytest.raises(AuthError) as err:
            tr.run(["true"])
        assert "ssh-agent" in str(err.value)
    finally:
        agent.kill()
        agent.wait()
