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
