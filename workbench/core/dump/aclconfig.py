"""The acl.json document: read, edit the dump section, validate, show as JSON text, write atomically.

Schema (docs/cann-formats.md §5): ``{"dump": {"dump_list": [{"model_name": m, "layer": [...]}, …],
"dump_path": dir, "dump_mode": "input"|"output"|"all", "dump_op_switch": "on"|"off",
"dump_data": "tensor"|"stats", "dump_stats": [...], "dump_level": "op"|"kernel"|"all", …}}``
beside other sections (``profiler``, …). The editor changes only the keys it manages; every other
key (other sections, other ``dump_list`` entries, keys it does not know inside ``dump`` or inside
the model's entry) is kept as it was, in its order. Indentation style (tabs / n spaces) is kept.

:meth:`AclConfig.apply_dump` with the settings read from the file (``base``) writes only what changed,
so saving what was read leaves the document JSON-equal; turning a model's dump on writes the full
schema (dump_path, dump_mode, dump_op_switch, dump_data). ``dump_path`` is read by the runtime on
the machine the application runs on, relative to the application's working folder: the default
:data:`DEFAULT_DUMP_PATH` is relative (the deployed project's ``dump/`` folder on a CANN machine).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.fsutil import atomic_write_text

DUMP_MODES = ("input", "output", "all")
DUMP_DATA = ("tensor", "stats")
DUMP_STATS = ("Max", "Min", "Avg", "L2norm", "Nan", "Negative Inf", "Positive Inf")
DUMP_LEVELS = ("op", "kernel", "all")
SWITCH = ("on", "off")
OPTIONS = ("all", "several", "none")
MAX_NESTING = 10
DUMP_SCENES = ("lite_exception", "normal", "aic_err_brief_dump", "aic_err_norm_dump", "aic_err_detail_dump")
# Keys written by the editor, in the order new ones are added.
MANAGED_ORDER = (
    "dump_list",
    "dump_path",
    "dump_mode",
    "dump_op_switch",
    "dump_data",
    "dump_stats",
    "dump_level",
    "dump_step",
    "dump_debug",
    "dump_scene",
)
# The runtime resolves a relative dump_path against the application's working folder on the machine
# it runs on (docs/cann-formats.md §5): the deployed project folder, where deploy creates dump/.
DEFAULT_DUMP_PATH = "dump"


class _Duplicate(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json object hook: a key twice in one object is an error, not a silent "last one wins"."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


class AclConfigError(ValueError):
    """An acl.json that cannot be read; ``line``/``column`` are set for JSON syntax errors."""

    def __init__(self, message: str, path: str = "", line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.path, self.line, self.column = path, line, column


@dataclass
class DumpSettings:
    """What the Dump Configuration editor shows for one model."""

    option: str = "all"  # "all" | "several" | "none"
    model_name: str = ""
    layers: list[str] = field(default_factory=list)
    dump_path: str = ""
    dump_mode: str = "output"
    dump_data: str = "tensor"
    dump_stats: list[str] = field(default_factory=lambda: list(DUMP_STATS))
    dump_op_switch: str = "off"
    dump_level: str | None = None  # None: leave the key as it is (absent means the runtime's "all")
    dump_step: str | None = None  # None: no key (every iteration)
    dump_debug: str | None = None  # None: no key ("off")
    dump_scene: str | None = None  # None: no key


# The DumpSettings fields apply_dump compares with the file's (everything but model_name).
SETTING_FIELDS = (
    "option",
    "layers",
    "dump_path",
    "dump_mode",
    "dump_data",
    "dump_stats",
    "dump_op_switch",
    "dump_level",
    "dump_step",
    "dump_debug",
    "dump_scene",
)


@dataclass(frozen=True)
class Issue:
    level: str  # "error" | "warning"
    field: str  # e.g. "dump.dump_mode"
    message: str


def _depth(value: Any, limit: int = MAX_NESTING + 1) -> int:
    """Nesting depth of ``value``, counted up to ``limit`` (level by level: no recursion, so any
    depth json.loads accepted is measured)."""
    depth, level = 0, [value]
    while depth < limit:
        containers = [v for v in level if isinstance(v, (dict, list))]
        if not containers:
            break
        depth += 1
        level = [c for v in containers for c in (v.values() if isinstance(v, dict) else v)]
    return depth


def _detect_indent(text: str) -> str | int:
    m = re.search(r"\n([ \t]+)\S", text)
    if not m:
        return 4
    ws = m.group(1)
    return "\t" if ws.startswith("\t") else len(ws)


class AclConfig:
    """An acl.json held as an ordered dict; edits go through :meth:`apply_dump`."""

    def __init__(
        self, data: dict[str, Any] | None = None, path: str | os.PathLike[str] | None = None, indent: str | int = 4
    ) -> None:
        self.data: dict[str, Any] = data if data is not None else {}
        self.path = Path(path) if path is not None else None
        self.indent = indent

    # ----- reading
    @classmethod
    def from_text(cls, text: str, source: str = "acl.json") -> AclConfig:
        if not text.strip():
            return cls({}, source, 4)
        text = text.removeprefix("\ufeff")  # a BOM (Windows editors write one; the runtime skips it)
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicates)
        except _Duplicate as dup:
            raise AclConfigError(
                f"{source}: key {dup.key!r} appears twice in one object; the runtime would keep only one of "
                "them: remove the other (the file was left unchanged)",
                source,
            ) from None
        except RecursionError:
            raise AclConfigError(f"{source}: nested too deeply to be an acl.json", source) from None
        except json.JSONDecodeError as err:
            raise AclConfigError(
                f"{source}: line {err.lineno}, column {err.colno}: not valid JSON ({err.msg}); "
                "the file was left unchanged",
                source,
                err.lineno,
                err.colno,
            ) from None
        if not isinstance(data, dict):
            raise AclConfigError(
                f"{source}: expected a JSON object at the top level, got {type(data).__name__}", source, 1, 1
            )
        return cls(data, source, _detect_indent(text))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> AclConfig:
        """Read ``path``; a missing file is an empty document (saved on the first :meth:`save`)."""
        p = Path(path)
        if not p.exists():
            return cls({}, p, 4)
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise AclConfigError(f"{p}: cannot read the file ({err})", str(p)) from None
        cfg = cls.from_text(text, str(p))
        cfg.path = p
        return cfg

    # ----- state
    @property
    def dump(self) -> dict[str, Any] | None:
        d = self.data.get("dump")
        return d if isinstance(d, dict) else None

    @property
    def dump_enabled(self) -> bool:
        d = self.dump
        if not d:
            return False
        return (
            bool(d.get("dump_list"))
            or d.get("dump_op_switch") == "on"
            or d.get("dump_debug") == "on"
            or bool(d.get("dump_scene"))
        )

    @property
    def profiler_enabled(self) -> bool:
        p = self.data.get("profiler")
        return isinstance(p, dict) and p.get("switch") == "on"

    def _entry(self, model_name: str | None) -> dict[str, Any] | None:
        d = self.dump or {}
        entries = [e for e in d.get("dump_list") or [] if isinstance(e, dict)]
        if model_name:
            return next((e for e in entries if e.get("model_name") == model_name), None)
        return next((e for e in entries if "model_name" in e), None)

    def model_dump(self, model_name: str, om_stem: str = "") -> DumpSettings | None:
        """What the runtime dumps of a model it loads: the settings of its dump_list entry (named by
        the om JSON's ``name``, else by the .om file's stem), or None when the model is not dumped."""
        if not self.dump or not self.dump.get("dump_list"):
            return None
        settings = self.dump_settings(model_name)
        if settings.option == "none" and om_stem:
            settings = self.dump_settings(om_stem)
        return None if settings.option == "none" else settings

    def dump_settings(self, model_name: str | None = None) -> DumpSettings:
        """The editor's view of the dump section for ``model_name`` (or the first model listed)."""
        d = self.dump or {}
        entry = self._entry(model_name)
        layers = entry.get("layer") if entry else None
        s = DumpSettings(model_name=model_name or (entry or {}).get("model_name", ""))
        s.option = "none" if entry is None else ("several" if isinstance(layers, list) and layers else "all")
        s.layers = [str(x) for x in layers] if isinstance(layers, list) else []
        s.dump_path = str(d.get("dump_path", ""))
        s.dump_mode = d.get("dump_mode", "output")
        s.dump_data = d.get("dump_data", "tensor")
        if isinstance(d.get("dump_stats"), list):
            s.dump_stats = [str(x) for x in d["dump_stats"]]
        s.dump_op_switch = d.get("dump_op_switch", "off")
        s.dump_level = d.get("dump_level")
        s.dump_step = d.get("dump_step")
        s.dump_debug = d.get("dump_debug")
        s.dump_scene = d.get("dump_scene")
        return s

    def unshown(self, model_name: str | None = None) -> list[tuple[str, Any]]:
        """(JSON path, value) of what the editor keeps but has no field for: other top-level sections,
        unknown keys of ``dump``, other ``dump_list`` entries and unknown keys of the model's entry."""
        out: list[tuple[str, Any]] = [(k, v) for k, v in self.data.items() if k != "dump"]
        d = self.data.get("dump")
        if d is None:
            return out
        if not isinstance(d, dict):
            return [*out, ("dump", d)]
        out += [(f"dump.{k}", v) for k, v in d.items() if k not in MANAGED_ORDER]
        entries = d.get("dump_list")
        if not isinstance(entries, list):
            return out
        entry = self._entry(model_name)
        for i, e in enumerate(entries):
            if entry is not None and e is entry:
                out += [(f"dump.dump_list[{i}].{k}", v) for k, v in entry.items() if k not in ("model_name", "layer")]
            else:
                out.append((f"dump.dump_list[{i}]", e))
        return out

    # ----- editing
    def apply_dump(self, s: DumpSettings, base: DumpSettings | None = None) -> None:
        """Write ``s`` into the dump section, touching only the keys the editor manages.

        With ``base`` (the settings :meth:`dump_settings` read from this document) only the fields
        where ``s`` differs are written: saving unchanged settings leaves the document as it was.
        Without it every managed key is written from ``s`` (the ``dump-config`` verb).
        """
        if s.option not in OPTIONS:
            raise ValueError(f"dump option {s.option!r}: expected one of {', '.join(OPTIONS)}")
        if base is not None:
            self._apply_changes(s, base)
            return
        dump = self.dump
        if dump is None:
            if s.option == "none" and s.dump_op_switch != "on":
                return
            dump = self.data["dump"] = {}
        new_entries = self._entries_with(dump, s)
        values: dict[str, Any] = {
            "dump_list": new_entries,
            "dump_path": s.dump_path,
            "dump_mode": s.dump_mode,
            "dump_op_switch": s.dump_op_switch,
            "dump_data": s.dump_data,
        }
        if s.dump_data == "stats":
            values["dump_stats"] = list(s.dump_stats)
        else:
            dump.pop("dump_stats", None)
        for key in ("dump_level", "dump_step", "dump_debug", "dump_scene"):
            if getattr(s, key) is not None:
                values[key] = getattr(s, key)
        for key in MANAGED_ORDER:
            if key in values:
                dump[key] = values[key]
        if (
            s.option == "none"
            and not new_entries
            and s.dump_op_switch != "on"
            and not any(k in dump for k in ("dump_debug", "dump_scene"))
        ):
            del self.data["dump"]

    def _apply_changes(self, s: DumpSettings, base: DumpSettings) -> None:
        changed = {f for f in SETTING_FIELDS if getattr(s, f) != getattr(base, f)}
        if not changed:
            return
        if "dump" in self.data and not isinstance(self.data["dump"], dict):
            return  # validate() reports it; what cannot be read is not replaced
        created = "dump" not in self.data
        dump: dict[str, Any] = self.data.setdefault("dump", {})
        # a model's dump or the single-operator dump turned on
        enabling = (base.option == "none" and s.option != "none" and bool(s.model_name)) or (
            base.dump_op_switch != "on" and s.dump_op_switch == "on"
        )
        values: dict[str, Any] = {}
        removed: set[str] = set()

        def put(key: str, value: Any) -> None:
            if value is None or value == "":
                removed.add(key)
            else:
                values[key] = value

        if changed & {"option", "layers"} and s.model_name:
            values["dump_list"] = self._entries_with(dump, s)
        if enabling:
            # the full schema, as MindStudio writes it
            if "dump_list" not in values and not isinstance(dump.get("dump_list"), list):
                values["dump_list"] = []
            values["dump_path"] = s.dump_path or dump.get("dump_path") or DEFAULT_DUMP_PATH
            values["dump_mode"], values["dump_op_switch"] = s.dump_mode, s.dump_op_switch
            values["dump_data"] = s.dump_data
        for key in ("dump_path", "dump_mode", "dump_op_switch", "dump_data", "dump_level", "dump_step"):
            if key in changed and key not in values:
                put(key, getattr(s, key))
        for key in ("dump_debug", "dump_scene"):
            if key in changed:
                put(key, getattr(s, key))
        if s.dump_data == "stats":
            if "dump_data" in values or "dump_stats" in changed:
                values["dump_stats"] = list(s.dump_stats)
        elif "dump_data" in changed:
            removed.add("dump_stats")
        for key in MANAGED_ORDER:
            if key in values:
                dump[key] = values[key]
        for key in removed:
            dump.pop(key, None)
        if created and not dump:
            del self.data["dump"]

    def _entries_with(self, dump: dict[str, Any], s: DumpSettings) -> list[Any]:
        """``dump_list`` with the entry of ``s.model_name`` made as ``s`` says (added, changed, removed)."""
        entries = dump.get("dump_list") if isinstance(dump.get("dump_list"), list) else []
        new_entries, placed = [], False
        for e in entries or []:
            if isinstance(e, dict) and e.get("model_name") == s.model_name:
                if s.option != "none" and not placed:
                    new_entries.append(self._model_entry(e, s))
                    placed = True
                continue
            new_entries.append(e)
        if s.option != "none" and not placed:
            new_entries.append(self._model_entry({}, s))
        return new_entries

    @staticmethod
    def _model_entry(old: dict[str, Any], s: DumpSettings) -> dict[str, Any]:
        entry = dict(old)
        entry["model_name"] = s.model_name
        if s.option == "several":
            entry["layer"] = list(s.layers)
        else:
            entry.pop("layer", None)
        return entry

    # ----- checking
    def validate(self, model=None) -> list[Issue]:
        """Errors and warnings; ``model`` (an ``omjson.OmModel``) also checks model_name and layers."""
        issues: list[Issue] = []
        if _depth(self.data) > MAX_NESTING:
            issues.append(Issue("error", "", f"JSON nesting deeper than {MAX_NESTING} levels (aclInit rejects it)"))
        d = self.data.get("dump")
        if d is None:
            return issues
        if not isinstance(d, dict):
            return [*issues, Issue("error", "dump", "expected an object")]

        def check(key: str, allowed: tuple[str, ...]) -> None:
            if key in d and d[key] not in allowed:
                issues.append(Issue("error", f"dump.{key}", f"{d[key]!r}: expected one of {', '.join(allowed)}"))

        for key, allowed in (
            ("dump_mode", DUMP_MODES),
            ("dump_data", DUMP_DATA),
            ("dump_op_switch", SWITCH),
            ("dump_level", DUMP_LEVELS),
            ("dump_debug", SWITCH),
        ):
            check(key, allowed)
        scene_only = "dump_scene" in d or d.get("dump_debug") == "on"
        if "dump_list" not in d and not scene_only:
            issues.append(Issue("error", "dump.dump_list", "required ([] for single-operator dump)"))
        elif "dump_list" in d and not isinstance(d["dump_list"], list):
            issues.append(Issue("error", "dump.dump_list", "expected a list of {model_name, layer} objects"))
        if not d.get("dump_path") and (
            "dump_list" in d or d.get("dump_op_switch") == "on" or d.get("dump_debug") == "on"
        ):
            issues.append(Issue("error", "dump.dump_path", "required: an existing, writable directory"))
        for i, e in enumerate(d.get("dump_list") if isinstance(d.get("dump_list"), list) else []):
            where = f"dump.dump_list[{i}]"
            if not isinstance(e, dict):
                issues.append(Issue("error", where, "expected an object"))
                continue
            layer = e.get("layer")
            if layer is not None and not (isinstance(layer, list) and all(isinstance(x, str) for x in layer)):
                issues.append(Issue("error", f"{where}.layer", "expected a list of op names"))
            if model is not None and e.get("model_name") not in (None, model.name):
                issues.append(
                    Issue(
                        "warning",
                        f"{where}.model_name",
                        f"{e['model_name']!r} is not this model's name {model.name!r} "
                        "(the om JSON's top-level name): nothing of it will be dumped",
                    )
                )
            if model is not None and isinstance(layer, list) and e.get("model_name") == model.name:
                unknown = [x for x in layer if isinstance(x, str) and model.op(x) is None]
                if unknown:
                    issues.append(Issue("warning", f"{where}.layer", f"not ops of {model.name}: {', '.join(unknown)}"))
        stats = d.get("dump_stats")
        if stats is not None:
            if not isinstance(stats, list) or any(x not in DUMP_STATS for x in stats):
                issues.append(Issue("error", "dump.dump_stats", f"expected a list of {', '.join(DUMP_STATS)}"))
            if d.get("dump_data") != "stats":
                issues.append(Issue("warning", "dump.dump_stats", 'only used when dump_data is "stats"'))
        if self.dump_enabled and self.profiler_enabled:
            issues.append(
                Issue(
                    "warning",
                    "profiler",
                    "dump and profiling are both on: dumping distorts the profiled timings, switch one of them off",
                )
            )
        return issues

    # ----- writing
    def to_text(self) -> str:
        """The document as it will be written (the editor's live JSON view)."""
        return json.dumps(self.data, indent=self.indent, ensure_ascii=False) + "\n"

    def save(self, path: str | os.PathLike[str] | None = None, *, replace_read_only: bool = False) -> Path:
        """Write the document atomically (through a symlink, keeping hard links and the mode); a
        read-only file raises :class:`~workbench.core.fsutil.ReadOnlyFile` unless ``replace_read_only``."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no path to save the acl.json to")
        atomic_write_text(target, self.to_text(), replace_read_only=replace_read_only)
        self.path = target
        return target
