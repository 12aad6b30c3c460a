"""Toolkit detection on hand-made real-looking installs (no simulator involved)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from workbench.core.services.hosts import Host, HostStore
from workbench.core.services.toolkit import (
    ToolkitNotFound,
    check_host,
    detect_toolkit,
    parse_install_info,
    toolkit_for_host,
    version_from_info,
)
from workbench.core.services.transport import LocalTransport


def _real_like(base, version, info_lines, arch="aarch64", cann85=False):
    """A toolkit with the files real installs have: set_env.sh, bin/atc, <arch>-linux/…info."""
    if cann85:
        root = base / "cann"
        root.mkdir(parents=True)
        (root / "set_env.sh").write_text("export ASCEND_HOME_PATH=" + str(root) + "\n")
    else:
        (base / "ascend-toolkit" / version).mkdir(parents=True)
        os.symlink(version, base / "ascend-toolkit" / "latest")
        (base / "ascend-toolkit" / "set_env.sh").write_text("export ASCEND_TOOLKIT_HOME=x\n")
        root = base / "ascend-toolkit" / "latest"
    (root / f"{arch}-linux").mkdir()
    (root / f"{arch}-linux" / "ascend_toolkit_install.info").write_text("\n".join(info_lines) + "\n")
    (root / "bin").mkdir()
    (root / "bin" / "atc").write_text("#!/bin/sh\n")
    return root


def test_info_with_component_versions_only(tmp_path):
    root = _real_like(
        tmp_path, "6.0.1", ["package_name=Ascend-cann-toolkit", "runtime_installed_version=[1.84.15.1.310:6.0.1]"]
    )
    info = detect_toolkit(LocalTransport(), str(tmp_path))
    assert info.root == str(root) and info.version == "6.0.1" and info.arch == "aarch64"
    assert not info.simulated
    assert info.tools["atc"] == f"{root}/bin/atc" and info.tools["msprof"] is None


def test_cann_85_layout(tmp_path):
    root = _real_like(tmp_path, "8.5.0", ["version=8.5.0", "arch=x86_64"], arch="x86_64", cann85=True)
    info = detect_toolkit(LocalTransport(), str(tmp_path))
    assert info.root == str(root) and info.set_env == f"{root}/set_env.sh" and info.version == "8.5.0"


def test_version_from_symlink_when_no_info_file(tmp_path):
    root = _real_like(tmp_path, "7.0.RC1", ["package_name=Ascend-cann-toolkit"])
    info = detect_toolkit(LocalTransport(), str(root))
    assert info.version == "7.0.RC1"


def test_not_found_lists_places(tmp_path):
    with pytest.raises(ToolkitNotFound) as err:
        detect_toolkit(LocalTransport(), str(tmp_path / "nowhere"))
    assert str(tmp_path / "nowhere") in str(err.value) and "set_env.sh" in str(err.value)
    out = check_host(LocalTransport(), str(tmp_path / "nowhere"))
    assert out["toolkit_path"] is None and out["devices"] == [] and out["errors"]


def test_parse_install_info_errors_name_file_and_line():
    assert parse_install_info("# c\nversion=7.0.0\n\narch=x86_64\n", "f.info") == {"version": "7.0.0", "arch": "x86_64"}
    with pytest.raises(ValueError, match=r"f.info: line 2: expected 'key=value'"):
        parse_install_info("version=1\ngarbage\n", "f.info")
    assert version_from_info({"Version": "5.1.RC2"}) == "5.1.RC2"
    assert version_from_info({"toolkit_installed_version": "[1.82.22.2.220:5.1.RC2]"}) == "5.1.RC2"
    assert version_from_info({"arch": "x86_64"}) is None


def test_toolkit_for_host_detects_once_caches_and_forgets_a_moved_one(tmp_path, monkeypatch):
    if Path("/usr/local/Ascend").exists():
        pytest.skip("/usr/local/Ascend exists here: detection would find it first")
    home = tmp_path / "home"
    root = _real_like(home / "Ascend", "7.0.0", ["version=7.0.0"])
    monkeypatch.setenv("HOME", str(home))  # LocalTransport's home: detection's $HOME/Ascend
    store = HostStore()
    store.add(Host(name="here", hostname="h"))
    t = LocalTransport()
    assert toolkit_for_host(t, store.get("here"), store=store) == str(root)
    assert store.get("here").detected_toolkit == str(root) and store.get("here").toolkit == ""
    # the cache is what is used while it exists (detection would find the one in $HOME)
    elsewhere = _real_like(tmp_path / "opt", "8.0.0", ["version=8.0.0"])
    host = store.get("here")
    host.detected_toolkit = str(elsewhere)
    store.update(host)
    assert toolkit_for_host(t, store.get("here"), store=store) == str(elsewhere)
    # the user's setting wins over both; nothing is cached for it
    assert toolkit_for_host(t, Host(name="set", hostname="h", toolkit="/opt/mine")) == "/opt/mine"
    # gone: detected again; none at all: ToolkitNotFound, and the stale cache is forgotten
    shutil.rmtree(tmp_path / "opt")
    assert toolkit_for_host(t, store.get("here"), store=store) == str(root)
    shutil.rmtree(home / "Ascend")
    with pytest.raises(ToolkitNotFound) as err:
        toolkit_for_host(t, store.get("here"), store=store)
    assert f"{home}/Ascend/ascend-toolkit/latest" in err.value.looked
    assert store.get("here").detected_toolkit == ""


def test_detection_is_cached_only_in_the_host_it_was_made_for():
    store = HostStore()
    store.add(Host(name="a", hostname="old-address"))
    assert store.remember_detected_toolkit(Host(name="a", hostname="old-address"), "/x/latest") is True
    assert store.get("a").detected_toolkit == "/x/latest"
    # the user redefined the host meanwhile: a result for the old definition is not kept
    store.update(Host(name="a", hostname="new-address"))
    assert store.remember_detected_toolkit(Host(name="a", hostname="old-address"), "/y/latest") is False
    assert store.get("a").detected_toolkit == ""
    assert store.remember_detected_toolkit(Host(name="unknown", hostname="h"), "/z") is False
