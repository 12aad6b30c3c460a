"""The demo host: "Demo host (simulated CANN)", always available, never stored in hosts.json.

It is this machine (``hostname == "local"``, so ``transport_for`` gives a LocalTransport) with the
simulated toolkit installed under the user data folder by ``workbench.simtoolkit.demo``. Every
command line, wizard and CLI verb accepts ``demo`` as a host name.
"""
from __future__ import annotations

from workbench.core.services.hosts import Host, HostStore
from workbench.core.services.ssh import LOCAL_HOSTNAME

DEMO_NAME = "demo"
DEMO_LABEL = "Demo host (simulated CANN)"


def demo_host() -> Host:
    """The demo host, its simulated toolkit installed (or refreshed) on first use."""
    from workbench.simtoolkit.demo import ensure_demo_toolkit

    return Host(name=DEMO_NAME, hostname=LOCAL_HOSTNAME, toolkit=str(ensure_demo_toolkit()), simulated=True)


def resolve_host(name: str, store: HostStore | None = None) -> Host:
    """A configured host by name, or the demo host for ``demo`` (unless the user stored one so named)."""
    store = store or HostStore()
    if name == DEMO_NAME and not any(h.name == DEMO_NAME for h in store.load()):
        return demo_host()
    return store.get(name)


def all_hosts(store: HostStore | None = None) -> list[Host]:
    """The demo host first (without installing anything), then the configured hosts."""
    store = store or HostStore()
    configured = store.load()
    demo = [] if any(h.name == DEMO_NAME for h in configured) else [
        Host(name=DEMO_NAME, hostname=LOCAL_HOSTNAME, simulated=True)]
    return demo + configured
