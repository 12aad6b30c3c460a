"""An installed simulated toolkit per CANN version (installed once per test session)."""

from __future__ import annotations

import pytest

from workbench.simtoolkit.install import install


@pytest.fixture(scope="session")
def sim_prefixes(tmp_path_factory):
    """CANN version -> prefix (a /usr/local/Ascend look-alike) of an installed simulated toolkit."""
    socs = {"8.0.RC1": "Ascend910B2", "7.0.0": "Ascend310P3", "6.0.1": "Ascend910", "5.1.RC2": "Ascend310"}
    out = {}
    for version, soc in socs.items():
        prefix = tmp_path_factory.mktemp(f"sim-{version}") / "Ascend"
        install(prefix, cann_version=version, soc_version=soc, devices=2)
        out[version] = prefix
    return out
