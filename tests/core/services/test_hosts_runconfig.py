"""Hosts store, ~/.ssh/config import, and run configurations (validation, Local and Remote runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.project import create_project, open_project
from workbench.core.services.hosts import Host, HostError, HostStore
from workbench.core.services.runconfig import (
    LOCAL,
    REMOTE,
    RunConfigError,
    RunConfiguration,
    load_run_configurations,
    run_configuration,
    save_run_configurations,
)
from workbench.core.services.runner import parse_devices, parse_env
from workbench.core.services.sshconfig import import_ssh_config
from workbench.core.services.transport import iter_lines
from workbench.core.tasks import Cancelled, CancelToken, RecordingProgress


def test_hosts_add_edit_remove_and_never_store_secrets():
    store = HostStore()
    store.add(Host(name="a910", hostname="10.0.0.5", user="ma", key_file="~/.ssh/id_ed25519"))
    with pytest.raises(HostError):
        store.add(Host(name="a910", hostname="other"))
    edited = store.get("a910")
    edited.port = 2222
    store.update(edited)
    assert store.get("a910").port == 2222
    raw = json.loads(store.path.read_text())
    raw["hosts"][0]["password"] = "hunter2"
    store.path.write_text(json.dumps(raw))
    store.save(store.load())
    assert "hunter2" not in store.path.read_text() and "password" not in store.path.read_text()
    store.remove("a910")
    assert store.load() == []
    with pytest.raises(HostError):
        store.remove("a910")


@pytest.mark.parametrize("field,value", [("name", "bad name"), ("hostname", ""), ("port", 70000), ("auth", "magic")])
def test_host_validation_names_the_field(field, value):
    host = Host(name="ok", hostname="h")
    setattr(host, field, value)
    with pytest.raises(HostError) as err:
        host.validate()
    assert field in str(err.value)


def test_damaged_hosts_file_names_file_and_line():
    store = HostStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text('{"schema_version": 1,\n "hosts": [\n  {"name": "x",, }]}')
    with pytest.raises(HostError) as err:
        store.load()
    assert str(store.path) in str(err.value) and "line 3" in str(err.value)
    store.path.write_text('{"schema_version": 1, "hosts": [{"name": "x", "hostname": "h", "port": "22"}]}')
    with pytest.raises(HostError) as err:
        store.load()
    assert "hosts[0]" in str(err.value) and "'port'" in str(err.value)


def test_import_from_ssh_config(tmp_path):
    cfg = tmp_path / "config"
    # As in OpenSSH, the first value obtained wins: the catch-all block goes last.
    cfg.write_text("""
Host bastion
    HostName bastion.example.com
    Port 2200

Host a910 train-*
    HostName 192.168.1.10
    User ma
    IdentityFile ~/.ssh/ascend_key
    ProxyJump bastion

Host direct
    HostName 10.1.1.1

Host *
    User defaultuser
    ServerAliveInterval 30
""")
    hosts = {h.name: h for h in import_ssh_config(cfg)}
    assert set(hosts) == {"bastion", "a910", "direct"}
    assert (hosts["bastion"].hostname, hosts["bastion"].port, hosts["bastion"].user) == (
        "bastion.example.com",
        2200,
        "defaultuser",
    )
    a = hosts["a910"]
    assert (a.hostname, a.user, a.proxy_jump) == ("192.168.1.10", "ma", "bastion")
    assert a.key_file == str(Path("~/.ssh/ascend_key").expanduser())
    assert hosts["direct"].port == 22 and hosts["direct"].proxy_jump == ""
    assert import_ssh_config(tmp_path / "missing") == []


@pytest.mark.parametrize(
    "name,ok",
    [
        ("run1", True),
        ("A-b_c", True),
        ("x" * 64, True),
        ("x" * 65, False),
        ("1run", False),
        ("-run", False),
        ("run 1", False),
        ("运行", False),
        ("", False),
        ("run.1", False),
    ],
)
def test_run_configuration_names(name, ok):
    cfg = RunConfiguration(name=name, executable="python3", mode=LOCAL)
    if ok:
        assert cfg.validate() is cfg
    else:
        with pytest.raises(RunConfigError) as err:
            cfg.validate()
        assert "'name'" in str(err.value)


def test_run_configuration_fields_are_checked():
    with pytest.raises(RunConfigError, match="'host'"):
        RunConfiguration(name="r", executable="x", mode=REMOTE).validate()
    with pytest.raises(RunConfigError, match="'mode'"):
        RunConfiguration(name="r", executable="x", mode="Cloud").validate()
    with pytest.raises(RunConfigError, match="'env'"):
        RunConfiguration(name="r", executable="x", mode=LOCAL, env={"1X": "y"}).validate()
    with pytest.raises(RunConfigError, match="'devices'"):
        RunConfiguration(name="r", executable="x", mode=LOCAL, devices=[-1]).validate()
    with pytest.raises(RunConfigError, match="unknown field"):
        RunConfiguration.from_dict({"name": "r", "executable": "x", "bogus": 1})


def test_run_configurations_saved_in_the_project(tmp_path):
    project = create_project(tmp_path / "p", name="p")
    configs = [
        RunConfiguration(
            name="train",
            executable="python3",
            args=["train.py", "--epochs", "1"],
            env={"A": "1"},
            mode=REMOTE,
            host="a910",
            devices=[0, 1],
        )
    ]
    save_run_configurations(project, configs)
    assert load_run_configurations(open_project(tmp_path / "p")) == configs
    with pytest.raises(RunConfigError, match="duplicate"):
        save_run_configurations(project, configs * 2)


def test_local_mode_runs_in_the_project_with_env_and_devices(tmp_path):
    project = create_project(tmp_path / "p", name="p")
    cfg = RunConfiguration(
        name="show",
        executable="bash",
        args=["-c", 'echo "$PWD|$A|$ASCEND_RT_VISIBLE_DEVICES"'],
        env={"A": "x y"},
        mode=LOCAL,
        devices=[2],
    )
    progress = RecordingProgress()
    result = run_configuration(cfg, project, progress=progress)
    assert result.stdout == f"{project.root}|x y|2\n"
    assert iter_lines(progress.events) == [("stdout", result.stdout)]


def test_local_mode_stop_cancels(tmp_path):
    project = create_project(tmp_path / "p", name="p")
    cfg = RunConfiguration(name="long", executable="bash", args=["-c", "echo started; sleep 300"], mode=LOCAL)
    cancel = CancelToken()
    progress = RecordingProgress()
    progress.partial = lambda item: cancel.cancel()
    with pytest.raises(Cancelled):
        run_configuration(cfg, project, progress=progress, cancel=cancel)


def test_remote_mode_deploys_then_runs(ssh_transport, tmp_path):
    project = create_project(tmp_path / "p", name="p")
    (project.root / "app.sh").write_text('echo "app ran in $PWD with $1"\n')
    from workbench.core.services.deploy import Mapping, set_project_mappings

    remote = tmp_path / "remote dir"
    set_project_mappings(project, [Mapping(".", str(remote))])
    cfg = RunConfiguration(name="app", executable="bash", args=["app.sh", "a;b"], mode=REMOTE, host="loopback")
    result = run_configuration(cfg, project, transport=ssh_transport)
    assert result.stdout == f"app ran in {remote} with a;b\n"
    assert (remote / "app.sh").exists() and not (remote / ".ascend-workbench").exists()


def test_parse_env_and_devices():
    assert parse_env(["A=1", "B=x=y", "C="]) == {"A": "1", "B": "x=y", "C": ""}
    with pytest.raises(ValueError, match="NAME=VALUE"):
        parse_env(["novalue"])
    with pytest.raises(ValueError):
        parse_env(["1A=x"])
    assert parse_devices("0, 3") == [0, 3] and parse_devices("") == []
    with pytest.raises(ValueError):
        parse_devices("0,x")


def test_key_paths_are_made_absolute_without_changing_what_they_name(tmp_path, monkeypatch):
    from workbench.core.services.hosts import absolute_key_path

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert absolute_key_path("~/.ssh/id") == str(tmp_path / "home" / ".ssh" / "id")
    assert absolute_key_path("keys/./id", cwd=tmp_path) == str(tmp_path / "keys" / "id")
    assert absolute_key_path("keys/../id", cwd=tmp_path) == str(tmp_path / "id")
    assert absolute_key_path("/abs/id") == "/abs/id" and absolute_key_path("") == ""
    # through a symlinked folder ".." means the link target's parent: folding it would name another file
    (tmp_path / "real" / "deep").mkdir(parents=True)
    (tmp_path / "real" / "id").write_text("key")
    (tmp_path / "link").symlink_to(tmp_path / "real" / "deep")
    kept = absolute_key_path("link/../id", cwd=tmp_path)
    assert Path(kept).read_text() == "key" and kept == str(tmp_path / "link" / ".." / "id")
    assert absolute_key_path("link", cwd=tmp_path) == str(tmp_path / "link"), "symlinks are not resolved"


def test_hosts_files_with_and_without_the_detected_toolkit_load():
    store = HostStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text(
        json.dumps(
            {
                "schema_version": 1,
                "hosts": [
                    {"name": "old", "hostname": "h", "toolkit": ""},
                    {"name": "new", "hostname": "h", "detected_toolkit": "/x/latest", "future_field": 1},
                ],
            }
        )
    )
    old, new = store.load()
    assert old.detected_toolkit == "" and old.toolkit_path == ""
    assert new.detected_toolkit == "/x/latest" and new.toolkit_path == "/x/latest"
    store.save([old, new])
    assert json.loads(store.path.read_text())["hosts"][1]["future_field"] == 1
    new.toolkit = "/mine"
    assert new.toolkit_path == "/mine"
    store.path.write_text('{"schema_version": 1, "hosts": [{"name": "x", "hostname": "h", "detected_toolkit": 3}]}')
    with pytest.raises(HostError, match="'detected_toolkit'"):
        store.load()


def test_a_newer_hosts_file_is_never_rewritten_and_unknown_keys_stay(tmp_path):
    import json

    from workbench.core.services.hosts import Host, HostError, HostStore

    path = tmp_path / "hosts.json"
    newer = {"schema_version": 99, "hosts": [], "groups": {"lab": ["a"]}, "theme": "dark"}
    path.write_text(json.dumps(newer))
    store = HostStore(path)
    with pytest.raises(HostError, match="schema_version 99 is newer than this workbench writes"):
        store.add(Host(name="a", hostname="10.0.0.1", user="u"))
    assert json.loads(path.read_text()) == newer
    path.write_text("\ufeff" + json.dumps({"schema_version": 1, "hosts": [], "groups": {"lab": ["a"]}}))
    store.add(Host(name="a", hostname="10.0.0.1", user="u"))
    saved = json.loads(path.read_text())
    assert saved["groups"] == {"lab": ["a"]} and [h["name"] for h in saved["hosts"]] == ["a"]


def test_a_deeply_nested_hosts_file_is_one_clear_error(tmp_path):
    from workbench.core.services.hosts import HostError, HostStore

    path = tmp_path / "hosts.json"
    path.write_text('{"schema_version": 1, "hosts": [], "x": ' + "[" * 100000 + "]" * 100000 + "}")
    with pytest.raises(HostError, match="hosts.json"):
        HostStore(path).load()
