"""Lay out a simulated CANN toolkit the way a real ≤8.3 install looks (docs/cann-formats.md §8.2).

``install(prefix, ...)`` with ``prefix`` playing ``/usr/local/Ascend`` creates::

    prefix/ascend-toolkit/set_env.sh                      sourced by every run (bash only)
    prefix/ascend-toolkit/latest -> <version>             the toolkit root detection returns
    prefix/ascend-toolkit/<version>/<arch>-linux/ascend_toolkit_install.info
    prefix/ascend-toolkit/<version>/bin/atc               launcher
    prefix/ascend-toolkit/<version>/bin/msprof -> ../tools/profiler/bin/msprof
    prefix/ascend-toolkit/<version>/tools/profiler/bin/msprof
    prefix/ascend-toolkit/<version>/tools/operator_cmp/compare/msaccucmp.py
    prefix/ascend-toolkit/<version>/python/site-packages/acl/__init__.py   simulated pyACL (:mod:`pyacl`)
    prefix/ascend-toolkit/<version>/python/site-packages/torch/__init__.py, torch_npu/__init__.py
                                                          simulated torch + torch_npu (:mod:`torchsim`)
    prefix/ascend-toolkit/<version>/simulated_toolkit.json  the simulator's own settings
    prefix/ascend-toolkit/<version>/tools/ms_fmk_transplt/pytorch_gpu2npu.sh   PyTorch GPU2Ascend (:mod:`migration.gpu2npu`)
    prefix/tfplugin/latest/python/site-packages/npu_bridge/convert_tf2npu/main.py   TF 1.15 GPU2Ascend
    prefix/tfplugin/latest/python/site-packages/npu_device/convert_tf2npu/main.py   TF 2.6 GPU2Ascend
    prefix/driver/version.info                            ``Version=<driver>``
    prefix/driver/tools/npu-smi                           on the PATH set_env.sh sets

The tools are launchers that run ``<python> -m workbench.simtoolkit.<tool>`` with the
interpreter that installed them (``sys.executable``) and the directory holding the
``workbench`` package on ``PYTHONPATH``, so they work from any shell, including ``ssh host bash
-c 'source set_env.sh && atc …'``. The caller's own ``PYTHONPATH`` is saved and given back to
applications msprof starts.
"""

from __future__ import annotations

import os
import platform as _pyplatform
import shlex
import shutil
import sys
from pathlib import Path

import workbench
from workbench.core.fsutil import atomic_write_text
from workbench.simtoolkit import platform, pyacl, torchsim
from workbench.simtoolkit.config import CONFIG_NAME, ENV_CONFIG, SimConfig

ENV_SAVED_PYTHONPATH = "ASCEND_SIM_SAVED_PYTHONPATH"  # "unset" or "set:<value>"
TOOLS = {  # relative path in the version dir -> module
    "bin/atc": "atc",
    "tools/profiler/bin/msprof": "msprof",
    "tools/ms_fmk_transplt/pytorch_gpu2npu.sh": "migration.gpu2npu",
}
# The TF Adapter's migration tools, run as ``python3 main.py`` (under prefix/tfplugin/latest/python/site-packages)
TF_TOOLS = {
    "npu_bridge/convert_tf2npu/main.py": "migration.tf1",
    "npu_device/convert_tf2npu/main.py": "migration.tf2",
}
TFPLUGIN_SITE = "tfplugin/latest/python/site-packages"


def _arch() -> str:
    machine = _pyplatform.machine().lower()
    return "aarch64" if machine in ("aarch64", "arm64") else "x86_64"


def _package_parent() -> str:
    return str(Path(workbench.__file__).resolve().parent.parent)


def _launcher(module: str, config_path: Path, python: str) -> str:
    q = shlex.quote
    return f"""#!/bin/bash
# Simulated CANN toolkit (Ascend Workbench): this is NOT Huawei's {module}; it imitates it.
if [ -n "${{PYTHONPATH+x}}" ]; then export {ENV_SAVED_PYTHONPATH}="set:$PYTHONPATH"; else export {ENV_SAVED_PYTHONPATH}=unset; fi
export {ENV_CONFIG}={q(str(config_path))}
export PYTHONPATH={q(_package_parent())}"${{PYTHONPATH:+:$PYTHONPATH}}"
exec {q(python)} -m workbench.simtoolkit.{module} "$@"
"""


def _py_launcher(module: str, config_path: Path, python: str) -> str:
    """msaccucmp.py (and convert_tf2npu's main.py) run as ``python3 <file>``: a Python file that re-execs
    the simulator."""
    return f'''#!/usr/bin/env python3
"""Simulated CANN toolkit (Ascend Workbench): NOT Huawei's {module}; it imitates it."""
import os
import sys

_old = os.environ.get("PYTHONPATH")
os.environ["{ENV_SAVED_PYTHONPATH}"] = "unset" if _old is None else "set:" + _old
os.environ["{ENV_CONFIG}"] = {str(config_path)!r}
os.environ["PYTHONPATH"] = {_package_parent()!r} + (":" + _old if _old else "")
os.execv({python!r}, [{python!r}, "-m", "workbench.simtoolkit.{module}", *sys.argv[1:]])
'''


def _set_env_sh(toolkit_home: Path, driver: Path) -> str:
    # The lines follow the real ascend-toolkit set_env.sh (paths written out at install time, as the
    # older real scripts did); the driver tools line is the simulator's way to put npu-smi on PATH.
    # PYTHONPATH: the real line ends in ":$PYTHONPATH"; here an unset PYTHONPATH adds no empty entry (the cwd).
    return f"""# Simulated CANN toolkit (Ascend Workbench) environment. Source it from bash:
#   source {toolkit_home.parent}/set_env.sh
export LD_LIBRARY_PATH={driver}/lib64:{driver}/lib64/common:{driver}/lib64/driver${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}
export ASCEND_TOOLKIT_HOME={toolkit_home}
export LD_LIBRARY_PATH=${{ASCEND_TOOLKIT_HOME}}/lib64:${{ASCEND_TOOLKIT_HOME}}/lib64/plugin/opskernel:${{ASCEND_TOOLKIT_HOME}}/lib64/plugin/nnengine:$LD_LIBRARY_PATH
export PATH=${{ASCEND_TOOLKIT_HOME}}/bin:${{ASCEND_TOOLKIT_HOME}}/compiler/ccec_compiler/bin:{driver}/tools${{PATH:+:$PATH}}
export ASCEND_AICPU_PATH=${{ASCEND_TOOLKIT_HOME}}
export ASCEND_OPP_PATH=${{ASCEND_TOOLKIT_HOME}}/opp
export PYTHONPATH=${{ASCEND_TOOLKIT_HOME}}/python/site-packages:${{ASCEND_TOOLKIT_HOME}}/opp/built-in/op_impl/ai_core/tbe${{PYTHONPATH:+:$PYTHONPATH}}
export TOOLCHAIN_HOME=${{ASCEND_TOOLKIT_HOME}}/toolkit
export ASCEND_HOME_PATH=${{ASCEND_TOOLKIT_HOME}}
export ASCEND_SIMULATED_TOOLKIT=1
"""


def _install_info(cfg: SimConfig, version_dir: Path) -> str:
    rel = cfg.release
    comp = f"[{rel.component}:{rel.version}]"
    lines = [
        "package_name=Ascend-cann-toolkit",
        f"version={rel.version}",
        f"innerversion={rel.inner_version}",
        f"arch={cfg.arch}",
        "os=linux",
        f"path={version_dir}/{cfg.arch}-linux",
        f"runtime_installed_version={comp}",
        f"compiler_installed_version={comp}",
        f"opp_installed_version={comp}",
        f"toolkit_installed_version={comp}",
    ]
    return "\n".join(lines) + "\n"


def _write_exec(path: Path, text: str) -> None:
    atomic_write_text(path, text)
    path.chmod(0o755)


def install(
    prefix: str | os.PathLike[str],
    *,
    cann_version: str = platform.DEFAULT_CANN,
    soc_version: str = platform.DEFAULT_SOC,
    devices: int = 8,
    driver_version: str | None = None,
    python: str | None = None,
) -> Path:
    """Install (or reinstall over) a simulated toolkit under ``prefix``; return the toolkit root
    (``prefix/ascend-toolkit/latest``). Raises ValueError naming the bad option."""
    rel = platform.release(cann_version)
    chip = platform.soc(soc_version)
    if not 1 <= int(devices) <= 64:
        raise ValueError(f"--devices {devices}: expected a device count from 1 to 64")
    prefix = Path(prefix).expanduser().absolute()
    toolkit_dir = prefix / "ascend-toolkit"
    version_dir = toolkit_dir / rel.version
    latest = toolkit_dir / "latest"
    driver = prefix / "driver"
    cfg = SimConfig(
        cann_version=rel.version,
        soc_version=chip.soc_version,
        devices=int(devices),
        driver_version=driver_version or rel.driver,
        arch=_arch(),
        python=python or sys.executable,
        toolkit_root=str(latest),
    )
    config_path = version_dir / CONFIG_NAME

    subs = (
        "bin",
        f"{cfg.arch}-linux",
        "tools/profiler/bin",
        "tools/operator_cmp/compare",
        "tools/ms_fmk_transplt",
        "opp",
        "lib64",
    )
    for sub in (*subs, "python/site-packages/acl", *(f"python/site-packages/{p}" for p in torchsim.PACKAGES)):
        (version_dir / sub).mkdir(parents=True, exist_ok=True)
    (driver / "tools").mkdir(parents=True, exist_ok=True)
    # latest -> <version> (replaced atomically when switching versions)
    tmp_link = toolkit_dir / ".latest.tmp"
    if tmp_link.is_symlink() or tmp_link.exists():
        tmp_link.unlink()
    tmp_link.symlink_to(rel.version)
    os.replace(tmp_link, latest)

    atomic_write_text(version_dir / CONFIG_NAME, cfg.to_json())
    atomic_write_text(
        version_dir / f"{cfg.arch}-linux" / "ascend_toolkit_install.info", _install_info(cfg, version_dir)
    )
    atomic_write_text(toolkit_dir / "set_env.sh", _set_env_sh(latest, driver))
    atomic_write_text(driver / "version.info", f"Version={cfg.driver_version}\n")
    for rel_path, module in TOOLS.items():
        _write_exec(version_dir / rel_path, _launcher(module, config_path, cfg.python))
    _write_exec(driver / "tools" / "npu-smi", _launcher("npusmi", config_path, cfg.python))
    _write_exec(
        version_dir / "tools/operator_cmp/compare/msaccucmp.py", _py_launcher("msaccucmp", config_path, cfg.python)
    )
    for rel_path, module in TF_TOOLS.items():
        target = prefix / TFPLUGIN_SITE / rel_path
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_exec(target, _py_launcher(module, config_path, cfg.python))
    atomic_write_text(
        version_dir / "python/site-packages/acl/__init__.py", pyacl.package_text(_package_parent(), str(config_path))
    )
    for name, text in torchsim.package_texts(_package_parent(), str(config_path)).items():
        atomic_write_text(version_dir / "python/site-packages" / name / "__init__.py", text)
    msprof_link = version_dir / "bin" / "msprof"
    if msprof_link.is_symlink() or msprof_link.exists():
        msprof_link.unlink()
    msprof_link.symlink_to("../tools/profiler/bin/msprof")
    return latest


def uninstall(prefix: str | os.PathLike[str]) -> None:
    """Remove a simulated install (only if it is one: it has our settings file)."""
    prefix = Path(prefix)
    if not (prefix / "ascend-toolkit" / "latest" / CONFIG_NAME).exists():
        raise ValueError(f"{prefix}: not a simulated toolkit install (no ascend-toolkit/latest/{CONFIG_NAME})")
    shutil.rmtree(prefix / "ascend-toolkit")
    shutil.rmtree(prefix / "driver", ignore_errors=True)
    shutil.rmtree(prefix / "tfplugin", ignore_errors=True)
