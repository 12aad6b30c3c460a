"""The installed simulated toolkit: layout, set_env.sh under bash, launchers, CLI verb, demo host."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from workbench.cli import main as cli_main
from workbench.core.services.npusmi import parse_npu_smi_info
from workbench.simtoolkit import config as simconfig
from workbench.simtoolkit.demo import demo_prefix, ensure_demo_toolkit


def _bash(prefix, script, **env):
    full_env = {k: v for k, v in os.environ.items() if k not in ("ASCEND_SIM_CONFIG", "PYTHONPATH")}
    full_env.update(env)
    return subprocess.run(
        ["bash", "-c", f"source {prefix}/ascend-toolkit/set_env.sh && {script}"],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=60,
        cwd="/",
    )


def test_layout_is_the_real_one(sim_prefixes):
    for version, prefix in sim_prefixes.items():
        tk = prefix / "ascend-toolkit"
        assert (tk / "latest").is_symlink() and os.readlink(tk / "latest") == version
        assert (tk / "set_env.sh").is_file()
        arch_dirs = [p for p in (tk / version).iterdir() if p.name.endswith("-linux")]
        assert len(arch_dirs) == 1
        info = (arch_dirs[0] / "ascend_toolkit_install.info").read_text().splitlines()
        assert f"version={version}" in info
        assert f"path={tk / version}/{arch_dirs[0].name}" in info
        for rel in ("bin/atc", "tools/profiler/bin/msprof", "tools/operator_cmp/compare/msaccucmp.py"):
            assert os.access(tk / "latest" / rel, os.X_OK), rel
        assert (prefix / "driver" / "tools" / "npu-smi").is_file()


def test_set_env_puts_every_tool_on_path_and_npu_smi_prints_the_table(sim_prefixes):
    prefix = sim_prefixes["8.0.RC1"]
    r = _bash(prefix, "command -v atc msprof npu-smi && echo $ASCEND_TOOLKIT_HOME && npu-smi info")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == str(prefix / "ascend-toolkit/latest/bin/atc")
    assert lines[2] == str(prefix / "driver/tools/npu-smi")
    assert lines[3] == str(prefix / "ascend-toolkit/latest")
    info = parse_npu_smi_info("\n".join(lines[4:]))
    assert [d.soc_version for d in info.devices] == ["Ascend910B2", "Ascend910B2"]
    assert info.driver_version == "24.1.rc1"
    assert r.stderr.splitlines()[0] == simconfig.BANNER  # simulated, said on stderr only


def test_launchers_keep_the_callers_pythonpath_away_from_the_tool(sim_prefixes, tmp_path):
    prefix = sim_prefixes["7.0.0"]
    r = _bash(prefix, "npu-smi info", PYTHONPATH=str(tmp_path))
    assert r.returncode == 0 and "310P3" in r.stdout


def test_msaccucmp_is_a_python_script(sim_prefixes):
    prefix = sim_prefixes["6.0.1"]
    script = prefix / "ascend-toolkit/latest/tools/operator_cmp/compare/msaccucmp.py"
    r = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "usage" in r.stdout.lower()
    assert r.stderr.splitlines()[0] == simconfig.BANNER


def test_cli_install_json_and_bad_soc(tmp_path, capsys):
    assert (
        cli_main(
            [
                "sim",
                "install",
                "--prefix",
                str(tmp_path / "A"),
                "--cann-version",
                "5.1.RC2",
                "--soc",
                "Ascend310",
                "--devices",
                "3",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["toolkit_path"] == str(tmp_path / "A/ascend-toolkit/latest")
    assert (out["cann_version"], out["soc_version"], out["devices"], out["simulated"]) == (
        "5.1.RC2",
        "Ascend310",
        3,
        True,
    )
    assert cli_main(["sim", "install", "--prefix", str(tmp_path / "B"), "--soc", "Ascend999"]) == 2
    assert "Ascend999" in capsys.readouterr().err
    assert not (tmp_path / "B").exists()


def test_reinstall_switches_version(tmp_path):
    from workbench.simtoolkit.install import install

    install(tmp_path, cann_version="7.0.0", soc_version="Ascend310", devices=1)
    root = install(tmp_path, cann_version="8.0.RC1", soc_version="Ascend310", devices=1)
    assert os.readlink(root) == "8.0.RC1"
    assert simconfig.SimConfig.from_file(root / simconfig.CONFIG_NAME).cann_version == "8.0.RC1"


def test_demo_toolkit_installed_once_and_refreshed_when_outdated():
    root = ensure_demo_toolkit()
    assert root == demo_prefix() / "ascend-toolkit" / "latest" and root.is_dir()
    cfg_path = root / simconfig.CONFIG_NAME
    stamp = cfg_path.stat().st_mtime_ns
    assert ensure_demo_toolkit() == root and cfg_path.stat().st_mtime_ns == stamp  # nothing redone
    data = json.loads(cfg_path.read_text())
    data["layout_stamp"] = 0
    cfg_path.write_text(json.dumps(data))
    ensure_demo_toolkit()
    assert json.loads(cfg_path.read_text())["layout_stamp"] == simconfig.LAYOUT_STAMP


def test_bad_settings_file_names_it(tmp_path):
    bad = tmp_path / simconfig.CONFIG_NAME
    bad.write_text("{not json")
    with pytest.raises(ValueError, match=str(bad)):
        simconfig.SimConfig.from_file(bad)
