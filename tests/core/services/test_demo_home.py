"""The simulated demo host works in the workbench's own data folder, never in the user's home."""

from __future__ import annotations

from pathlib import Path

from workbench.core import paths
from workbench.core.services.hosts import Host
from workbench.core.services.ssh import LOCAL_HOSTNAME, transport_for
from workbench.core.services.transport import LocalTransport


def test_demo_host_home_is_inside_the_workbench_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "real-home"))
    demo = transport_for(Host(name="demo", hostname=LOCAL_HOSTNAME, simulated=True))
    home = Path(demo.home())
    assert home.is_dir() and home == paths.data_dir() / "demo-host"
    assert not (tmp_path / "real-home").exists()
    # a real local host (run mode "Local") is this machine as it is: the user's home
    assert LocalTransport().home() == str(Path.home())
    real_local = transport_for(Host(name="here", hostname=LOCAL_HOSTNAME, simulated=False))
    assert real_local.home() == str(tmp_path / "real-home")


def test_relative_paths_on_the_demo_host_are_in_its_home(tmp_path, monkeypatch):
    """As on an SSH host, a relative path (a deployment's default ``ascend-workbench/<project>``)
    and a command without ``cwd`` are in the login folder, never in this process's folder."""
    monkeypatch.chdir(tmp_path)
    demo = transport_for(Host(name="demo", hostname=LOCAL_HOSTNAME, simulated=True))
    home = Path(demo.home())
    (tmp_path / "f.txt").write_text("x")
    demo.put(str(tmp_path / "f.txt"), "inbox/f.txt")
    assert (home / "inbox" / "f.txt").read_text() == "x" and not (tmp_path / "inbox").exists()
    assert demo.exists("inbox/f.txt") and demo.is_dir("inbox") and demo.listdir("inbox") == ["f.txt"]
    assert set(demo.list_tree("inbox")) == {"f.txt"} and demo.stat("inbox/f.txt").size == 1
    demo.write_text("inbox/g.txt", "y")
    assert demo.read_text("inbox/g.txt") == "y" and (home / "inbox" / "g.txt").exists()
    assert demo.run(["pwd"]).stdout.strip() == str(home)
    assert demo.run(["pwd"], cwd="inbox").stdout.strip() == str(home / "inbox")
    demo.get("inbox/g.txt", str(tmp_path / "g.txt"))
    assert (tmp_path / "g.txt").read_text() == "y"
    demo.remove("inbox/g.txt")
    assert not (home / "inbox" / "g.txt").exists()
    # "Local" run mode is this machine as it is: relative to the current folder
    assert LocalTransport().run(["pwd"]).stdout.strip() == str(tmp_path)
