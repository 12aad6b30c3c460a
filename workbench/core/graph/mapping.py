"""Before and after ATC: which ONNX nodes each op of the om JSON stands for.

ATC records the framework ops it fused into an op in ``_datadump_original_op_names`` and, per
output, ``_datadump_origin_name``; the loader puts both into ``Node.original_names``. An om op
that kept its framework name (``Conv_0`` stays ``Conv_0``) maps to the ONNX node of that name.
"""

from __future__ import annotations

from workbench.core.graph.model import Graph


def map_fused(onnx: Graph, om: Graph) -> dict[int, list[int]]:
    """om node -> the ONNX nodes it came from (in the om's order of names, no repeats); om nodes
    that name no ONNX node are left out."""
    out: dict[int, list[int]] = {}
    for i, node in enumerate(om.nodes):
        hits: list[int] = []
        for name in (node.name, *node.original_names):
            j = onnx.index(name)
            if j is not None and j not in hits:
                hits.append(j)
        if hits:
            out[i] = hits
    return out


def invert(mapping: dict[int, list[int]]) -> dict[int, list[int]]:
    """ONNX node -> the om nodes holding it (a fused op can hold many; an op split by ATC maps to several)."""
    out: dict[int, list[int]] = {}
    for om_node, onnx_nodes in mapping.items():
        for j in onnx_nodes:
            out.setdefault(j, []).append(om_node)
    return out
