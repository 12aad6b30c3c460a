"""The merge of every rank's reduction into the cluster tables msprof-analyze ``cluster`` writes.

The rules (facts of msprof-analyze 26.2's text path, so the files and numbers are its own):

- **Groups**: an operator ``name@G`` of a rank's communication.json / communication_matrix.json puts
  the rank into group ``G`` (``collective`` or ``p2p`` by the section it is in; names starting with
  ``Total`` are skipped). ``parallel_group_info`` of the ranks' ``profiler_metadata.json`` names them:
  its key ``group_id`` hashes to ``G`` by :func:`double_hash`; its ``group_name`` is the ``pg_name``
  (tp, pp, dp, ...) and its ``global_ranks`` replace the found ranks when they differ.
- **Stages** (pipeline parallel): p2p groups whose ``pg_name`` starts with ``pp`` are joined while they
  share a rank; collective groups holding at most one rank of each such joined set, joined while they
  share a rank, are the stages, ordered by their first rank.
- **cluster_step_trace_time**: every rank's rows ``[Step, "rank", rank, values...]``, then per
  (Step, stage) a row ``[Step, "stage", "(r, ...)", column-wise max]``; with ``distributed_args`` in the
  metadata, the DP / PP / TP index of each rank (Megatron's partition) in three more columns.
- **cluster_communication**: per group (the tuple of its ranks) → step → operator → rank → the rank's
  info; per (group, step) a ``Total Op Info@G`` per rank: time fields summed (not the start time, not
  the ratios), Wait/Synchronization ratios ``x / (x + transit)``, per transport the summed transit
  time and size, their size distribution and bandwidth ``size / time`` (4 decimals; 0 when time is 0).
- **cluster_communication_matrix**: per group → step → operator → ``src-dst`` in *global* ranks: the
  ranks' links summed (transport and op name of the last), local ranks mapped to global through each
  rank's own ``r-r`` link; ``Total Op Info@G`` sums the operators but the top/middle/bottom rows.

Where msprof-analyze drops a link whose local rank no ``r-r`` link maps, this module uses the sorted
``global_ranks`` of the group's ``parallel_group_info`` (and says so in :attr:`ClusterTables.warnings`).
"""

from __future__ import annotations

import copy
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from workbench.core.cluster.reduce import RankReduction

EPS = 1e-15
TOTAL_OP = "Total Op Info"
TIME_INFO = "Communication Time Info"
BW_INFO = "Communication Bandwidth Info"
RATIOS = ("Wait Time Ratio", "Synchronization Time Ratio")
START = "Start Timestamp(us)"
PARALLEL_HEADERS = ["DP Index", "PP Index", "TP Index"]
COMPLEMENT = ["Step", "Type", "Index"]
MAX_WORLD = 1 << 20  # distributed_args beyond this are not a job (a damaged file)


def double_hash(text: str) -> int:
    """The 64-bit group hash msprof-analyze and torch_npu give a group id (two 32-bit polynomials)."""
    a = b = 0
    for ch in text:
        a = (a * 29 + ord(ch)) & 0xFFFFFFFF
        b = (b * 131 + ord(ch)) & 0xFFFFFFFF
    return (a << 32) | b


def digits(text: str) -> bool:
    """``text`` is a plain decimal number (ASCII digits only: ``int()`` takes what ``isdigit`` says)."""
    return text.isascii() and text.isdigit()


def num(value: Any) -> float:
    """A JSON value as a number: ints and floats as they are, anything else (a string, null, a bool) 0."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def ratio(dividend: float, divisor: float) -> float:
    return 0 if abs(divisor) < EPS else round(dividend / divisor, 4)


@dataclass
class ClusterTables:
    """The merged cluster: what the msprof-analyze files hold, plus what the merge had to say."""

    ranks: list[int] = field(default_factory=list)
    step_header: list[str] = field(default_factory=list)  # the CSV's header
    step_rows: list[list[Any]] = field(default_factory=list)  # the CSV's rows (Index: int or "(r, ...)")
    groups: dict[str, Any] = field(default_factory=dict)  # communication_group.json
    stages: list[list[int]] = field(default_factory=list)
    communication: dict[str, Any] = field(default_factory=dict)  # cluster_communication.json
    matrix: dict[str, Any] = field(default_factory=dict)  # cluster_communication_matrix.json
    warnings: list[str] = field(default_factory=list)


# ---- groups ------------------------------------------------------------------------------------


def _group_of(name: str) -> str:
    return name.split("@")[-1]


def _collect_groups(reds: list[RankReduction]) -> tuple[dict[str, set[int]], dict[str, set[int]]]:
    collective: dict[str, set[int]] = defaultdict(set)
    p2p: dict[str, set[int]] = defaultdict(set)
    for red in reds:
        for doc in (red.communication, red.matrix):
            for by_type in doc.values():
                for name in by_type.get("collective", {}):
                    collective[_group_of(name)].add(red.rank)
                for name in by_type.get("p2p", {}):
                    p2p[_group_of(name)].add(red.rank)
    return collective, p2p


def _parallel_info(reds: list[RankReduction]) -> dict[str, dict[str, Any]]:
    info: dict[str, dict[str, Any]] = {}
    for red in reds:
        for group_id, group in red.parallel_group_info.items():
            if group_id not in info and isinstance(group, dict):
                info[group_id] = group
    return info


def _group_records(
    collective: dict[str, set[int]], p2p: dict[str, set[int]], info: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    by_hash: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for group_id, group in info.items():
        by_hash[str(double_hash(group_id))].append((group_id, group))
    records: list[dict[str, Any]] = []
    for kind, groups in (("collective", collective), ("p2p", p2p)):
        for name, ranks in groups.items():
            rank_set = sorted(ranks)
            matches = by_hash.get(name) or [("", {})]
            for group_id, group in matches:  # a pandas left merge: one row per matching parallel group
                global_ranks = group.get("global_ranks")
                chosen = rank_set
                if (
                    isinstance(global_ranks, list)
                    and global_ranks
                    and all(isinstance(r, int) and not isinstance(r, bool) for r in global_ranks)
                    and sorted(global_ranks) != rank_set
                ):
                    chosen = sorted(global_ranks)
                records.append(
                    {
                        "type": kind,
                        "rank_set": chosen,
                        "group_name": name,
                        "group_id": group_id,
                        "pg_name": group.get("group_name", "") if group_id else "",
                    }
                )
    return records


def _stages(records: list[dict[str, Any]]) -> list[list[int]]:
    collective = {r["group_name"]: set(r["rank_set"]) for r in records if r["type"] == "collective"}
    links = [set(r["rank_set"]) for r in records if r["type"] == "p2p" and str(r["pg_name"]).lower().startswith("pp")]
    if not links:
        return []
    links.sort(key=min)
    unions: list[set[int]] = []
    while links:
        linked = set(links[0])
        removed = [links[0]]
        for other in links[1:]:
            if other & linked:
                linked |= other
                removed.append(other)
        unions.append(linked)
        links = [x for x in links if x not in removed]
    stages: dict[int, set[int]] = {}
    for rank_set in collective.values():
        if any(len(rank_set & u) > 1 for u in unions):
            continue
        joined: set[int] = set()
        gone = []
        for first, stage in stages.items():
            if rank_set & stage:  # (the same order of unions, so the same set order when printed)
                union: set[int] = set()
                for part in (rank_set, stage, joined):
                    union |= part
                joined = union
                gone.append(first)
        if joined:
            for first in gone:
                del stages[first]
            stages[min(joined)] = joined
        else:
            stages[min(rank_set)] = rank_set
    return [list(stages[first]) for first in sorted(stages)]


# ---- step trace time ----------------------------------------------------------------------------


def megatron_indices(args: dict[str, Any]) -> list[tuple[int, int, int] | None] | None:
    """Each rank's (DP, PP, TP) index in Megatron's partition of ``distributed_args``; None when the
    arguments do not describe one (not ints, or the sizes do not multiply to the world size)."""
    keys = (
        "world_size",
        "tensor_model_parallel_size",
        "pipeline_model_parallel_size",
        "data_parallel_size",
        "context_parallel_size",
        "expert_model_parallel_size",
    )
    sizes = {k: args.get(k, 1) for k in keys}
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in sizes.values()):
        return None
    world = sizes["world_size"]
    tp, pp, dp, cp, ep = (max(1, sizes[k]) for k in keys[1:])
    if not 0 < world <= MAX_WORLD or world != tp * pp * dp or dp % ep or (dp * cp) % ep or cp > world:
        return None
    per_stage = world // pp
    dp_groups = [
        list(range(i * per_stage + k, (i + 1) * per_stage, tp * cp)) for i in range(pp) for k in range(tp * cp)
    ]
    out: list[tuple[int, int, int] | None] = [None] * world
    for d in range(dp):
        model = [g[d] for g in dp_groups if d < len(g)]
        for p, j in enumerate(range(0, len(model), tp)):
            for t, rank in enumerate(model[j : j + tp]):
                if 0 <= rank < world:
                    out[rank] = (d, p, t)
    return out


def _step_rows(reds: list[RankReduction], stages: list[list[int]], tables: ClusterTables) -> None:
    rows: list[list[Any]] = []
    for red in reds:
        for step, values in red.steps:
            rows.append([step, "rank", red.rank, *values])
    header: list[str] = next((COMPLEMENT + r.step_header for r in reds if r.steps), [])
    if stages:
        grouped: dict[tuple[str, tuple[int, ...]], list[list[Any]]] = {}
        for row in rows:
            stage = next((tuple(s) for s in stages if row[2] in s), ())
            grouped.setdefault((row[0], stage), []).append(row[3:])
        for (step, stage), cols in grouped.items():
            rows.append([step, "stage", str(stage), *[max(col) for col in zip(*cols)]])
    args = next((r.distributed_args for r in reds if r.distributed_args), None)
    if args is not None and rows:
        indices = megatron_indices(args)
        if indices is None:
            tables.warnings.append(
                "profiler_metadata.json: distributed_args do not describe a Megatron partition "
                "(world_size = tp x pp x dp, integer sizes); no DP/PP/TP Index columns"
            )
        elif len(indices) < len(reds):
            tables.warnings.append(
                f"profiler_metadata.json: distributed_args describe {len(indices)} ranks but {len(reds)} "
                "ranks have data; no DP/PP/TP Index columns"
            )
        else:
            if len(indices) > len(reds):
                missing = sorted(set(range(len(indices))) - {r.rank for r in reds})
                tables.warnings.append(f"ranks {missing} of the {len(indices)}-rank job have no step data")
            for row in rows:
                where = indices[row[2]] if row[1] == "rank" and 0 <= row[2] < len(indices) else None
                row.extend(list(where) if where else ["NA"] * 3)
            header = header + PARALLEL_HEADERS
    tables.step_header = header
    tables.step_rows = rows


# ---- communication --------------------------------------------------------------------------------


def _split_by_group(
    reds: list[RankReduction],
    which: str,
    collective: dict[str, set[int]],
    p2p: dict[str, set[int]],
) -> dict[tuple[int, ...], dict[str, dict[str, dict[int, Any]]]]:
    out: dict[tuple[int, ...], dict[str, dict[str, dict[int, Any]]]] = {}
    for red in reds:
        doc = red.communication if which == "communication" else red.matrix
        for step, by_type in doc.items():
            for op_type, ops in by_type.items():
                if which == "matrix" and op_type not in ("collective", "p2p"):
                    continue
                groups = p2p if op_type == "p2p" else collective
                for name, info in ops.items():
                    key = tuple(groups.get(_group_of(name), ()))
                    out.setdefault(key, {}).setdefault(step, {}).setdefault(name, {}).setdefault(red.rank, info)
    return out


def _op_totals(ops: dict[str, dict[int, Any]]) -> None:
    totals: dict[str, dict[int, dict[str, Any]]] = {}
    for name, by_rank in ops.items():
        group = _group_of(name)
        for rank, info in by_rank.items():
            if not isinstance(info, dict):
                continue
            total = totals.setdefault(group, {}).setdefault(rank, {TIME_INFO: defaultdict(float), BW_INFO: {}})
            times = info.get(TIME_INFO)
            if isinstance(times, dict):
                for key, value in times.items():
                    if key not in RATIOS and key != START:
                        total[TIME_INFO][key] += num(value)
            bands = info.get(BW_INFO)
            if isinstance(bands, dict):
                for transport, part in bands.items():
                    if not isinstance(part, dict):
                        continue
                    acc = total[BW_INFO].setdefault(
                        transport,
                        {
                            "Transit Time(ms)": 0,
                            "Transit Size(MB)": 0,
                            "Size Distribution": defaultdict(lambda: [0, 0]),
                        },
                    )
                    for key, value in part.items():
                        if key in ("Transit Time(ms)", "Transit Size(MB)"):
                            acc[key] += num(value)
                        elif key == "Size Distribution" and isinstance(value, dict):
                            for size, pair in value.items():
                                if isinstance(pair, list) and len(pair) == 2:
                                    acc[key][size][0] += num(pair[0])
                                    acc[key][size][1] += num(pair[1])
    for group, by_rank in totals.items():
        for total in by_rank.values():
            t = total[TIME_INFO]
            transit = t.get("Transit Time(ms)", 0)
            t["Wait Time Ratio"] = ratio(t.get("Wait Time(ms)", 0), t.get("Wait Time(ms)", 0) + transit)
            t["Synchronization Time Ratio"] = ratio(
                t.get("Synchronization Time(ms)", 0), t.get("Synchronization Time(ms)", 0) + transit
            )
            for band in total[BW_INFO].values():
                band["Bandwidth(GB/s)"] = ratio(band.get("Transit Size(MB)", 0), band.get("Transit Time(ms)", 0))
        ops[f"{TOTAL_OP}@{group}"] = by_rank


def _adds_to_total(name: str) -> bool:
    """msprof-analyze's two matrix layouts: per-op rows, or top/middle/bottom/total statistics rows of
    which only ``total`` adds up."""
    return not any(stat in name for stat in ("middle", "top", "bottom"))


def _link_base() -> dict[str, Any]:
    return {"Transport Type": "", "Transit Time(ms)": 0, "Transit Size(MB)": 0, "Op Name": ""}


def _add_link(acc: dict[str, Any], link: dict[str, Any]) -> None:
    if not isinstance(link, dict):
        return
    acc["Transport Type"] = link.get("Transport Type")
    acc["Op Name"] = link.get("Op Name", "")
    acc["Transit Time(ms)"] += num(link.get("Transit Time(ms)", 0))
    acc["Transit Size(MB)"] += num(link.get("Transit Size(MB)", 0))


def _local_maps(reds: list[RankReduction]) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    """Per group: local rank (str) -> global rank from each rank's own ``r-r`` link, and the fallback
    from ``parallel_group_info``'s sorted ``global_ranks``."""
    own: dict[str, dict[str, int]] = {}
    for red in reds:
        for by_type in red.matrix.values():
            for ops in by_type.values():
                for name, links in ops.items():
                    if not isinstance(links, dict):
                        continue
                    group = _group_of(name)
                    for key in links:
                        src, sep, dst = key.partition("-")
                        if sep and src == dst:
                            own.setdefault(group, {}).setdefault(src, red.rank)
    fallback: dict[str, dict[str, int]] = {}
    for group_id, info in _parallel_info(reds).items():
        ranks = info.get("global_ranks")
        if isinstance(ranks, list) and ranks and all(isinstance(r, int) and not isinstance(r, bool) for r in ranks):
            fallback[str(double_hash(group_id))] = {str(i): r for i, r in enumerate(sorted(ranks))}
    return own, fallback


def _matrix_totals(
    steps: dict[str, dict[str, Any]],
    own: dict[str, dict[str, int]],
    fallback: dict[str, dict[str, int]],
    warnings: list[str],
) -> None:
    for step_ops in steps.values():
        for name in list(step_ops):
            group = _group_of(name)
            links: dict[str, dict[str, Any]] = defaultdict(_link_base)
            for rank_links in step_ops[name].values():
                if not isinstance(rank_links, dict):
                    continue
                for key, link in rank_links.items():
                    if "-" not in key:
                        warnings.append(f"{name}: link {key!r} is not src-dst; skipped")
                        break
                    _add_link(links[key], link)
            mapped: dict[str, Any] = {}
            unmapped: dict[str, None] = {}  # each local rank once per operator (every rank's links name it)
            for key, link in links.items():
                src, _, dst = key.partition("-")
                g_src = own.get(group, {}).get(src, fallback.get(group, {}).get(src))
                g_dst = own.get(group, {}).get(dst, fallback.get(group, {}).get(dst))
                if g_src is None or g_dst is None:
                    local = src if g_src is None else dst
                    if local not in unmapped:
                        unmapped[local] = None
                        warnings.append(f"{name}: local rank {local} maps to no global rank")
                    continue
                if src not in own.get(group, {}) or dst not in own.get(group, {}):
                    warnings.append(
                        f"{name}: link {key} mapped through parallel_group_info (no r-r link of its ranks); "
                        "msprof-analyze drops it"
                    )
                link["Bandwidth(GB/s)"] = ratio(link["Transit Size(MB)"], link["Transit Time(ms)"])
                mapped[f"{g_src}-{g_dst}"] = link
            step_ops[name] = mapped
        totals: dict[str, dict[str, dict[str, Any]]] = {}
        for name, links_of in list(step_ops.items()):
            if _adds_to_total(name):
                acc = totals.setdefault(_group_of(name), defaultdict(_link_base))
                for key, link in links_of.items():
                    _add_link(acc[key], link)
        for group, links_total in totals.items():
            for link in links_total.values():
                link["Bandwidth(GB/s)"] = ratio(link["Transit Size(MB)"], link["Transit Time(ms)"])
            step_ops[f"{TOTAL_OP}@{group}"] = dict(links_total)


def _stringify(struct: dict[tuple[int, ...], Any]) -> dict[str, Any]:
    return {str(key): value for key, value in struct.items()}


def merge(reductions: Iterable[RankReduction]) -> ClusterTables:
    """The cluster tables of the ranks' reductions (ranks in ascending order)."""
    reds = sorted(reductions, key=lambda r: r.rank)
    tables = ClusterTables(ranks=[r.rank for r in reds])
    for red in reds:
        tables.warnings.extend(red.warnings)
    collective, p2p = _collect_groups(reds)
    records = _group_records(collective, p2p, _parallel_info(reds))
    tables.groups = {
        "collective": [list(g) for g in collective.values()],
        "p2p": [list(g) for g in p2p.values()],
        "comm_group_parallel_info": records,
    }
    tables.stages = _stages(records)
    _step_rows(reds, tables.stages, tables)
    comm = _split_by_group(reds, "communication", collective, p2p)
    for steps in comm.values():
        for ops in steps.values():
            _op_totals(ops)
    tables.communication = _stringify(comm)
    matrix = _split_by_group(reds, "matrix", collective, p2p)
    own, fallback = _local_maps(reds)
    for steps in matrix.values():
        _matrix_totals(steps, own, fallback, tables.warnings)
    tables.matrix = _stringify(matrix)
    return tables


def deep_copy(tables: ClusterTables) -> ClusterTables:
    return copy.deepcopy(tables)
