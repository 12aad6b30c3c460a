"""Core does not know the simulated toolkit: ``workbench.wiring`` (run by the CLI, the GUI start and
tests/conftest.py) gives the demo host its toolkit and lists the ``sim`` verb."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from workbench import wiring
from workbench.core import paths, verbs
from workbench.core.services import demohost
from workbench.core.services.hosts import HostError

ROOT = Path(__file__).resolve().parents[3]


def test_without_the_wiring_the_demo_host_says_why_it_is_missing(monkeypatch):
    monkeypatch.setattr(demohost, "_demo_toolkit_provider", None)
    with pytest.raises(HostError, match="demo host is not available"):
        demohost.demo_host()
    # listing hosts installs nothing, so it still shows the demo host
    assert demohost.all_hosts()[0].name == demohost.DEMO_NAME


def test_the_wiring_gives_the_demo_host_its_simulated_toolkit():
    assert demohost.demo_toolkit_provider() is wiring.demo_toolkit
    host = demohost.demo_host()
    assert host.simulated and host.name == "demo" and host.hostname == "local"
    assert Path(host.toolkit).is_dir() and Path(host.toolkit).is_relative_to(paths.data_dir())


def test_the_wiring_is_idempotent_and_lists_sim_once():
    wiring.install()
    wiring.install()
    assert verbs.VERB_MODULES.count(wiring.SIM_VERB_MODULE) == 1
    assert verbs.VERB_HOMES["sim"] == wiring.SIM_VERB_MODULE
    assert not any(m.startswith("workbench.simtoolkit") for m in verbs.VERB_MODULES if m != wiring.SIM_VERB_MODULE)


def test_core_alone_lists_no_simulated_toolkit_verb():
    code = (
        "from workbench.core import verbs; import sys; "
        "print(sorted(verbs.VERB_HOMES) , any('simtoolkit' in m for m in verbs.VERB_MODULES), "
        "[m for m in sys.modules if m.startswith('workbench.simtoolkit')])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "'sim'" not in out and out.strip().endswith("False []")


def test_the_cli_wires_the_sim_verb_before_running_verbs():
    proc = subprocess.run([sys.executable, "-m", "workbench.cli", "sim", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "workbench.cli", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "sim" in proc.stdout


def test_import_linter_keeps_core_off_the_simulated_toolkit():
    exe = shutil.which("lint-imports")
    assert exe, "import-linter is a test dependency (pip install -e .[test])"
    out = subprocess.run(
        [exe, "--config", str(ROOT / "pyproject.toml")], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert "core does not import the simulated toolkit KEPT" in out.stdout, out.stdout + out.stderr
