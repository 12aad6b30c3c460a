"""The offline model's op tree from ``atc --mode=1`` JSON (docs/cann-formats.md §6.5).

Top level: ``name`` (what acl.json ``model_name`` must equal), ``graph`` (a list; ``graph[i].op``
in model order), ``attr`` (typed ``{"key", "value": {"s"|"i"|"b"|"list": …}}``). Each op has
``name``, ``type``, ``input`` ("src:index"; ":-1" marks a control edge, not a tensor),
``input_desc``/``output_desc`` (``dtype``, ``layout``,
``shape.dim`` plus attrs ``origin_shape``, ``origin_format`` and, for dumps, ``_datadump_origin_name``
/ ``_datadump_origin_output_index``) and the op attr ``_datadump_original_op_names`` (the framework
ops fused into it). The same file is msaccucmp's fusion rule (``-f``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Op types that have no kernel and are not dumped by the runtime (shown greyed in the op tree).
NOT_DUMPED_TYPES = frozenset({"Data", "Const", "Constant", "NetOutput", "Variable", "AippData", "RefData"})


class OmJsonError(ValueError):
    """An om JSON file that cannot be read: names the file, the field and what was expected."""


def attr_value(value: dict) -> Any:
    """Python value of a typed attr value: {"s": x} -> x, {"list": {"i": [...]}} -> [...], {} -> None."""
    if not isinstance(value, dict):
        return value
    for key in ("s", "i", "b", "f"):
        if key in value:
            return value[key]
    if "list" in value:
        lst = value["list"] or {}
        for key in ("s", "i", "b", "f"):
            if key in lst:
                return list(lst[key])
        return []
    return None


def attrs_dict(attrs: Any) -> dict[str, Any]:
    """``[{"key": k, "value": {...}}, …]`` -> {k: python value}; tolerates a plain dict too."""
    if isinstance(attrs, dict):
        return {k: attr_value(v) for k, v in attrs.items()}
    out: dict[str, Any] = {}
    for item in attrs or []:
        if isinstance(item, dict) and "key" in item:
            out[item["key"]] = attr_value(item.get("value", {}))
    return out


@dataclass
class TensorDesc:
    dtype: str = ""
    layout: str = ""
    shape: tuple[int, ...] = ()
    origin_shape: tuple[int, ...] | None = None
    origin_format: str | None = None
    origin_name: str | None = None  # _datadump_origin_name: the framework op this output comes from
    origin_output_index: int | None = None


@dataclass
class OmOp:
    name: str
    type: str
    index: int  # position in model order (across graphs)
    graph: str
    inputs: list[str] = field(default_factory=list)
    input_descs: list[TensorDesc] = field(default_factory=list)
    output_descs: list[TensorDesc] = field(default_factory=list)
    original_op_names: list[str] = field(default_factory=list)

    @property
    def dumped(self) -> bool:
        return self.type not in NOT_DUMPED_TYPES


@dataclass
class OmModel:
    name: str
    source: str
    ops: list[OmOp]
    attrs: dict[str, Any] = field(default_factory=dict)
    graphs: list[str] = field(default_factory=list)

    def op(self, name: str) -> OmOp | None:
        return self._by_name().get(name)

    def _by_name(self) -> dict[str, OmOp]:
        cache = self.__dict__.get("_name_index")
        if cache is None:
            cache = self.__dict__["_name_index"] = {op.name: op for op in self.ops}
        return cache

    def op_types(self) -> list[str]:
        return sorted({op.type for op in self.ops})


def _desc(d: Any) -> TensorDesc:
    if not isinstance(d, dict):
        return TensorDesc()
    a = attrs_dict(d.get("attr"))
    shape = d.get("shape") or {}
    dims = shape.get("dim", []) if isinstance(shape, dict) else shape
    origin = a.get("origin_shape")
    index = a.get("_datadump_origin_output_index")
    return TensorDesc(
        dtype=str(d.get("dtype", "")),
        layout=str(d.get("layout", "")),
        shape=tuple(int(x) for x in dims or []),
        origin_shape=tuple(int(x) for x in origin) if isinstance(origin, list) else None,
        origin_format=a.get("origin_format"),
        origin_name=a.get("_datadump_origin_name"),
        origin_output_index=int(index) if index is not None else None,
    )


def parse_om_json(doc: Any, source: str = "<om json>") -> OmModel:
    """Build the model from a parsed om JSON document; errors name ``source`` and the field."""
    if not isinstance(doc, dict):
        raise OmJsonError(f"{source}: expected a JSON object with 'name' and 'graph' (atc --mode=1 output)")
    graphs = doc.get("graph")
    if not isinstance(graphs, list):
        raise OmJsonError(f"{source}: field 'graph': expected a list of graphs, got {type(graphs).__name__}")
    ops: list[OmOp] = []
    names: list[str] = []
    where = f"{source}: field 'graph'"
    try:  # a field of the wrong shape (a list where a key is expected, a number where a list is ...)
        for gi, graph in enumerate(graphs):
            where = f"{source}: graph[{gi}]"
            if not isinstance(graph, dict):
                raise OmJsonError(f"{where}: expected an object")
            gname = str(graph.get("name", f"graph_{gi}"))
            names.append(gname)
            for oi, op in enumerate(graph.get("op") or []):
                where = f"{source}: graph[{gi}].op[{oi}]"
                if not isinstance(op, dict) or not isinstance(op.get("name"), str):
                    raise OmJsonError(f"{where}: field 'name': expected a string")
                attrs = attrs_dict(op.get("attr"))
                original = attrs.get("_datadump_original_op_names") or []
                ops.append(
                    OmOp(
                        name=op["name"],
                        type=str(op.get("type", "")),
                        index=len(ops),
                        graph=gname,
                        inputs=[str(i) for i in op.get("input") or [] if i and not str(i).endswith(":-1")],
                        input_descs=[_desc(d) for d in op.get("input_desc") or []],
                        output_descs=[_desc(d) for d in op.get("output_desc") or []],
                        original_op_names=[str(n) for n in original] if isinstance(original, list) else [],
                    )
                )
        where = f"{source}: field 'attr'"
        attrs = attrs_dict(doc.get("attr"))
    except (TypeError, ValueError, AttributeError, OverflowError) as exc:
        if isinstance(exc, OmJsonError):
            raise
        raise OmJsonError(f"{where}: not what atc --mode=1 writes ({exc})") from None
    name = doc.get("name")
    if not isinstance(name, str):
        raise OmJsonError(f"{source}: field 'name': expected the model name string")
    return OmModel(name=name, source=source, ops=ops, attrs=attrs, graphs=names)


def read_om_json(path: str | os.PathLike[str]) -> OmModel:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")  # a BOM is no error
    except (OSError, UnicodeDecodeError) as err:
        raise OmJsonError(f"{p}: cannot read the file ({err})") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as err:
        raise OmJsonError(f"{p}: line {err.lineno}, column {err.colno}: not valid JSON ({err.msg})") from None
    except RecursionError:
        raise OmJsonError(f"{p}: nested too deeply to be an om JSON (atc --mode=1 output)") from None
    return parse_om_json(doc, str(p))
