"""The demo host: "Demo host (simulated CANN)", always available, never stored in hosts.json.

It is this machine (``hostname == "local"``, so ``transport_for`` gives a LocalTransport) with a
simulated toolkit installed under the user data folder. Every command line, wizard and CLI verb
accepts ``demo`` as a host name.

Core does not know the simulated toolkit: the program's composition root (``workbench.wiring``,
run by ``workbench.cli`` and the GUI start) installs the function that puts the demo toolkit in
place with :func:`set_demo_toolkit_provider`.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from workbench.core.services.hosts import LOCAL_HOSTNAME, Host, HostError, HostStore

DEMO_NAME = "demo"
DEMO_LABEL = "Demo host (simulated CANN)"

# Installs (or refreshes) the demo host's toolkit and returns its root; None until wired.
DemoToolkitProvider = Callable[[], str | os.PathLike[str]]
_demo_toolkit_provider: DemoToolkitProvider | None = None


def set_demo_toolkit_provider(provider: DemoToolkitProvider | None) -> None:
    """Install what gives the demo host its toolkit (``workbench.wiring`` does, at program start)."""
    global _demo_toolkit_provider
    _demo_toolkit_provider = provider


def demo_toolkit_provider() -> DemoToolkitProvider | None:
    return _demo_toolkit_provider


def demo_host() -> Host:
    """The demo host, its simulated toolkit installed (or refreshed) on first use."""
    provider = _demo_toolkit_provider
    if provider is None:
        raise HostError(
            f"{DEMO_NAME}: the demo host is not available: this program was started without "
            "the simulated toolkit (workbench.wiring.install() was not called)"
        )
    return Host(name=DEMO_NAME, hostname=LOCAL_HOSTNAME, toolkit=str(provider()), simulated=True)


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
    demo = (
        []
        if any(h.name == DEMO_NAME for h in configured)
        else [Host(name=DEMO_NAME, hostname=LOCAL_HOSTNAME, simulated=True)]
    )
    return demo + configured
