"""The `host`, `remote` and `deploy` verbs, run as real processes against the test sshd."""

from __future__ import annotations

import json
import os

import pytest

from workbench.core.services.knownhosts import app_known_hosts

# the `cli` and `added` fixtures are in conftest.py


def test_host_add_list_remove(cli, added):
    hosts = json.loads(cli("host", "list", "--json").stdout)
    assert [h["name"] for h in hosts] == ["lb"] and "password" not in json.dumps(hosts)
    assert cli("host", "add", "lb", "--hostname", "x", check=2).stderr.decode().count("already exists") == 1
    assert cli("host", "add", "bad name", "--hostname", "x", check=2).returncode == 2
    cli("host", "remove", "lb")
    assert json.loads(cli("host", "list", "--json").stdout) == []
    assert b"no host named" in cli("host", "remove", "lb", check=2).stderr


def test_unknown_host_key_refused_without_the_flag(cli, sshd_server):
    cli(
        "host",
        "add",
        "lb",
        "--hostname",
        "127.0.0.1",
        "--port",
        str(sshd_server.port),
        "--user",
        sshd_server.user,
        "--key",
        str(sshd_server.client_key),
    )
    app_known_hosts().unlink()
    out = cli("host", "check", "lb", "--json", check=1)
    data = json.loads(out.stdout)
    assert data["reachable"] is False and "unknown" in data["errors"][0] and "SHA256:" in data["errors"][0]


def test_remote_run_returns_arguments_byte_for_byte(cli, added):
    args = ["a b", "it's", 'q"q', ";", "$(id)", "`id`", "x\ny", "中文", "*", "", "-n"]
    out = cli("remote", "run", added, "--", "printf", "%s\\0", *args)
    assert out.stdout == "".join(a + "\0" for a in args).encode()
    status = cli(
        "remote",
        "run",
        added,
        "--env",
        "A=1 2",
        "--cwd",
        "/tmp",
        "--",
        "bash",
        "-c",
        'echo "$A $PWD"; echo oops >&2; exit 7',
        check=7,
    )
    assert status.stdout == b"1 2 /tmp\n" and status.stderr == b"oops\n"
    assert cli("remote", "run", added, "--env", "bad", "--", "true", check=2).returncode == 2
    assert cli("remote", "run", added, check=2).returncode == 2


def test_remote_put_get_round_trip(cli, added, tmp_path):
    data = os.urandom(700_001)
    (tmp_path / "src.bin").write_bytes(data)
    up = json.loads(
        cli("remote", "put", added, str(tmp_path / "src.bin"), str(tmp_path / "remote.bin"), "--json").stdout
    )
    assert up["bytes"] == len(data)
    cli("remote", "get", added, str(tmp_path / "remote.bin"), str(tmp_path / "back.bin"))
    assert (tmp_path / "back.bin").read_bytes() == data
    assert cli("remote", "put", added, str(tmp_path / "missing"), "/tmp/x", check=2).returncode == 2
    assert cli("remote", "get", added, str(tmp_path / "missing"), str(tmp_path / "y"), check=2).returncode == 2


def test_deploy_keeps_remote_only_files(cli, added, tmp_path):
    from workbench.core.project import create_project
    from workbench.core.services.deploy import Mapping, set_project_mappings

    project = create_project(tmp_path / "proj", name="proj")
    (project.root / "main.py").write_text("print(1)\n")
    remote = tmp_path / "remote"
    (remote / "data").mkdir(parents=True)
    (remote / "data" / "set.bin").write_bytes(b"remote only")
    set_project_mappings(project, [Mapping(".", str(remote))])
    project.save()
    dry = json.loads(cli("deploy", added, "--project", str(project.root), "--dry-run", "--json").stdout)
    assert dry["plan"]["counts"]["new"] == 1 and dry["plan"]["counts"]["remote-only"] == 1
    assert not (remote / "main.py").exists()
    done = json.loads(cli("deploy", added, "--project", str(project.root), "--json").stdout)
    assert done["result"]["sent"] == ["main.py"] and done["result"]["kept_remote_only"] == ["data/set.bin"]
    assert (remote / "main.py").read_text() == "print(1)\n"
    assert (remote / "data" / "set.bin").read_bytes() == b"remote only"
    assert cli("deploy", added, "--project", str(tmp_path / "nope"), check=2).returncode == 2


def test_host_check_reports_the_simulated_toolkit(cli, sshd_server, tmp_path):
    install = pytest.importorskip("workbench.simtoolkit.install")
    root = install.install(tmp_path / "Ascend", cann_version="7.0.0", soc_version="Ascend310P3", devices=2)
    cli(
        "host",
        "add",
        "sim",
        "--hostname",
        "127.0.0.1",
        "--port",
        str(sshd_server.port),
        "--user",
        sshd_server.user,
        "--key",
        str(sshd_server.client_key),
        "--toolkit",
        str(root),
    )
    data = json.loads(cli("host", "check", "sim", "--json").stdout)
    assert data["reachable"] is True and data["cann_version"] == "7.0.0"
    assert data["toolkit_path"] == str(root) and data["tools"]["atc"] is True
    assert [d["id"] for d in data["devices"]] == [0, 1]
    # The same host run through the toolkit environment: the tools are on PATH.
    out = cli("remote", "run", "sim", "--", "bash", "-c", "command -v npu-smi")
    assert out.stdout.decode().strip().endswith("npu-smi")
