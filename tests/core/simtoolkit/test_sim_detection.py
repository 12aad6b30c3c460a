"""Toolkit detection on the simulated toolkit of every CANN version, through LocalTransport."""

from __future__ import annotations

import pytest

from workbench.core.services.toolkit import check_host, detect_toolkit, read_npu_smi, run_tool
from workbench.core.services.transport import LocalTransport

SOCS = {"8.0.RC1": "Ascend910B2", "7.0.0": "Ascend310P3", "6.0.1": "Ascend910A", "5.1.RC2": "Ascend310"}


@pytest.mark.parametrize("version", list(SOCS))
def test_detects_version_tools_and_devices(sim_prefixes, version):
    prefix = sim_prefixes[version]
    t = LocalTransport()
    info = detect_toolkit(t, str(prefix))
    assert info.root == f"{prefix}/ascend-toolkit/latest"
    assert info.set_env == f"{prefix}/ascend-toolkit/set_env.sh"
    assert info.version == version and info.simulated
    assert info.tools == {
        "atc": f"{info.root}/bin/atc",
        "msprof": f"{info.root}/tools/profiler/bin/msprof",
        "msaccucmp": f"{info.root}/tools/operator_cmp/compare/msaccucmp.py",
        "msfmktransplt": f"{info.root}/tools/ms_fmk_transplt/pytorch_gpu2npu.sh",
        "convert_tf2npu_tf1": f"{prefix}/tfplugin/latest/python/site-packages/npu_bridge/convert_tf2npu/main.py",
        "convert_tf2npu_tf2": f"{prefix}/tfplugin/latest/python/site-packages/npu_device/convert_tf2npu/main.py",
        "npu_smi": f"{prefix}/driver/tools/npu-smi",
    }
    smi = read_npu_smi(t, info)
    assert [d.soc_version for d in smi.devices] == [SOCS[version]] * 2


@pytest.mark.parametrize(
    "given",
    [
        "{p}",
        "{p}/ascend-toolkit",
        "{p}/ascend-toolkit/latest",
        "{p}/ascend-toolkit/set_env.sh",
        "{p}/ascend-toolkit/latest/",
    ],
)
def test_every_way_of_naming_the_install(sim_prefixes, given):
    prefix = sim_prefixes["7.0.0"]
    info = detect_toolkit(LocalTransport(), given.format(p=prefix))
    assert info.root == f"{prefix}/ascend-toolkit/latest" and info.version == "7.0.0"


def test_default_search_places(sim_prefixes):
    prefix = sim_prefixes["5.1.RC2"]
    info = detect_toolkit(LocalTransport(), search=["/nonexistent/Ascend/cann", f"{prefix}/ascend-toolkit/latest"])
    assert info.version == "5.1.RC2"


def test_run_tool_sources_set_env_under_bash(sim_prefixes):
    prefix = sim_prefixes["8.0.RC1"]
    t = LocalTransport()
    info = detect_toolkit(t, str(prefix))
    r = run_tool(t, info, ["bash", "-c", 'echo "$ASCEND_TOOLKIT_HOME|$ASCEND_RT_VISIBLE_DEVICES"'], devices=[1])
    assert r.stdout == f"{info.root}|1\n"


def test_host_check_json(sim_prefixes):
    prefix = sim_prefixes["6.0.1"]
    out = check_host(LocalTransport(), str(prefix))
    assert out["reachable"] and out["cann_version"] == "6.0.1" and out["simulated"]
    assert out["tools"] == {
        "atc": True,
        "msprof": True,
        "msaccucmp": True,
        "msfmktransplt": True,
        "convert_tf2npu_tf1": True,
        "convert_tf2npu_tf2": True,
        "npu_smi": True,
    }
    assert [(d["id"], d["chip"], d["soc_version"], d["health"]) for d in out["devices"]] == [
        (0, "910A", "Ascend910A", "OK"),
        (1, "910A", "Ascend910A", "OK"),
    ]
    assert out["errors"] == []
