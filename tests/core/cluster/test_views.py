"""What the Cluster document's Matrix tab draws (core ``views.link_matrix``): the src × dst cells of one
transport or of all of them, a cell's bandwidth the sum of its links' sizes over the sum of their times,
every rank a row and a column, the slow links of the transport shown."""

from __future__ import annotations

from workbench.core.cluster import views
from workbench.core.cluster.findings import SlowLink
from workbench.core.cluster.merge import TOTAL_OP, ClusterTables


def _link(transport: str, size: float, time: float) -> dict:
    return {"Transport Type": transport, "Transit Size(MB)": size, "Transit Time(ms)": time, "Op Name": "op"}


def _tables() -> ClusterTables:
    """Ranks 0..3; 0 → 1 over HCCS (two steps) and RDMA (another group), 2 → 3 over an unnamed transport,
    1 → 5 to a rank that has no data of its own."""
    return ClusterTables(
        ranks=[0, 1, 2, 3],
        matrix={
            "(0, 1)": {
                "1": {f"{TOTAL_OP}@g1": {"0-1": _link("HCCS", 10.0, 2.0), "0-0": _link("LOCAL", 99.0, 1.0)}},
                "2": {
                    f"{TOTAL_OP}@g1": {"0-1": _link("HCCS", 5.0, 1.0)},
                    "allreduce@g1": {"0-1": _link("HCCS", 1e6, 1)},
                },
            },
            "(0, 1, 5)": {"1": {f"{TOTAL_OP}@g2": {"0-1": _link("RDMA", 30.0, 10.0), "1-5": _link("RDMA", 4.0, 2.0)}}},
            "(2, 3)": {"1": {f"{TOTAL_OP}@g3": {"2-3": _link("", 8.0, 4.0)}}},
        },
    )


def test_all_transports_sums_each_pairs_sizes_over_its_times():
    tables = _tables()
    every = views.link_matrix(tables)
    assert every.transport is None and every.ranks == [0, 1, 2, 3, 5]
    cell = every.cells[(0, 1)]
    assert (cell.src, cell.dst) == (0, 1)
    assert sorted(link.transport for link in cell.links) == ["HCCS", "RDMA"]
    assert (cell.size_mb, cell.time_ms, cell.bandwidth) == (45.0, 13.0, round(45.0 / 13.0, 4))
    assert every.cells[(1, 4)].bandwidth == 2.0  # 1 → 5: rank 5 is a column although it has no data
    assert every.cells[(2, 3)].bandwidth == 2.0
    assert set(every.cells) == {(0, 1), (1, 4), (2, 3)}  # no self link, only Total Op Info entries


def test_one_transport_keeps_its_own_links_and_the_unnamed_one_is_not_all():
    tables = _tables()
    hccs = views.link_matrix(tables, "HCCS")
    assert set(hccs.cells) == {(0, 1)} and hccs.cells[(0, 1)].bandwidth == 5.0  # 15 MB over 3 ms
    assert hccs.ranks == [0, 1, 2, 3, 5]  # the same grid whatever the transport
    rdma = views.link_matrix(tables, "RDMA")
    assert {at: c.bandwidth for at, c in rdma.cells.items()} == {(0, 1): 3.0, (1, 4): 2.0}
    unnamed = views.link_matrix(tables, "")
    assert set(unnamed.cells) == {(2, 3)}
    assert views.matrix_transports(views.link_rows(tables)) == ["", "HCCS", "RDMA"]


def test_the_slow_links_are_those_of_the_transport_shown():
    slow = [SlowLink(0, 1, "RDMA", 3.0, 30.0, 30.0, 10.0), SlowLink(2, 3, "HCCS", 1.0, 20.0, 1.0, 1.0)]
    tables = _tables()
    assert views.link_matrix(tables, None, slow).slow == slow
    assert views.link_matrix(tables, "RDMA", slow).slow == slow[:1]
    assert views.link_matrix(tables, "SIO", slow).slow == []
    assert views.link_matrix(ClusterTables(), None, slow).slow == []  # ranks not on the grid
    assert views.link_matrix(ClusterTables()) == views.LinkMatrix(None, [], {}, [])
