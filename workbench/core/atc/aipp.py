"""AIPP (``--insert_op_conf``) configuration: a model of the file, its reader, its writer and the
documented constraints (docs/cann-formats.md §6.4; the checks MindStudio's AIPP page makes).

The file is protobuf text: one ``aipp_op { … }`` block per model input it preprocesses
(``related_input_rank``), e.g. the real sample ``aipp_op{ aipp_mode:static input_format :
RGB888_U8 src_image_size_w : 32 … var_reci_chn_2 : 0.0174291938997821 }``. :func:`write_aipp`
writes the same form, fields in the documented order; keys this model does not know are kept
and written back unchanged.

Values of a static AIPP: output = (input − mean_chn − min_chn) × var_reci_chn per channel, after
the optional crop, colour-space conversion (``csc_switch`` with the 3×3 ``matrix_rXcY`` and
biases), resize and padding. A dynamic AIPP sets only ``related_input_rank``,
``max_src_image_size`` (mandatory) and ``support_rotation``; the rest is given at run time.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.atc.prototxt import Entry, PrototxtError, parse_entries

MODES = ("static", "dynamic")
# input_format values (the list beyond the sample's RGB888_U8 is UNVERIFIED: accept all known ones).
INPUT_FORMATS = (
    "YUV420SP_U8",
    "XRGB8888_U8",
    "RGB888_U8",
    "YUV400_U8",
    "ARGB8888_U8",
    "YUYV_U8",
    "YUV422SP_U8",
    "AYUV444_U8",
    "RAW10",
    "RAW12",
    "RAW16",
    "RAW24",
    "NC1HWC0DI_FP16",
    "NC1HWC0DI_S8",
)
EVEN_FORMATS = ("YUV420SP_U8", "YUV422SP_U8", "YUYV_U8")  # chroma subsampled: even widths (and 420: heights)
MAX_IMAGE_SIDE = 4096
FP16_MAX = 65504.0
CHANNELS = 4
MATRIX_KEYS = tuple(f"matrix_r{r}c{c}" for r in range(3) for c in range(3))
# Scalar fields in the order they are written; kind: int, bool, mode, format.
SCALARS: tuple[tuple[str, str], ...] = (
    ("aipp_mode", "mode"),
    ("related_input_rank", "int"),
    ("max_src_image_size", "int"),
    ("support_rotation", "bool"),
    ("input_format", "format"),
    ("src_image_size_w", "int"),
    ("src_image_size_h", "int"),
    ("crop", "bool"),
    ("load_start_pos_w", "int"),
    ("load_start_pos_h", "int"),
    ("crop_size_w", "int"),
    ("crop_size_h", "int"),
    ("resize", "bool"),
    ("resize_output_w", "int"),
    ("resize_output_h", "int"),
    ("padding", "bool"),
    ("left_padding_size", "int"),
    ("right_padding_size", "int"),
    ("top_padding_size", "int"),
    ("bottom_padding_size", "int"),
    ("csc_switch", "bool"),
    ("rbuv_swap_switch", "bool"),
    ("ax_swap_switch", "bool"),
)
# List fields: attribute -> (key prefix, length, kind), written after the scalars in this order.
LISTS: dict[str, tuple[str, int, str]] = {
    "matrix": ("matrix_", 9, "int"),
    "output_bias": ("output_bias_", 3, "int"),
    "input_bias": ("input_bias_", 3, "int"),
    "mean_chn": ("mean_chn_", CHANNELS, "int"),
    "min_chn": ("min_chn_", CHANNELS, "float"),
    "var_reci_chn": ("var_reci_chn_", CHANNELS, "float"),
}
DYNAMIC_KEYS = ("aipp_mode", "related_input_rank", "max_src_image_size", "support_rotation")
# Fields that only mean something while their switch is true (ATC's default for each switch is false).
SWITCHED: dict[str, tuple[str, ...]] = {
    "crop": ("load_start_pos_w", "load_start_pos_h", "crop_size_w", "crop_size_h"),
    "resize": ("resize_output_w", "resize_output_h"),
    "padding": ("left_padding_size", "right_padding_size", "top_padding_size", "bottom_padding_size"),
}


class AippError(ValueError):
    """An AIPP file that cannot be read: names the file, the line and what was expected."""


def _none_list(n: int) -> list:
    return [None] * n


@dataclass
class AippOp:
    """One ``aipp_op`` block; ``None`` = not in the file (ATC's default applies)."""

    aipp_mode: str | None = "static"
    related_input_rank: int | None = None
    max_src_image_size: int | None = None
    support_rotation: bool | None = None
    input_format: str | None = None
    src_image_size_w: int | None = None
    src_image_size_h: int | None = None
    crop: bool | None = None
    load_start_pos_w: int | None = None
    load_start_pos_h: int | None = None
    crop_size_w: int | None = None
    crop_size_h: int | None = None
    resize: bool | None = None
    resize_output_w: int | None = None
    resize_output_h: int | None = None
    padding: bool | None = None
    left_padding_size: int | None = None
    right_padding_size: int | None = None
    top_padding_size: int | None = None
    bottom_padding_size: int | None = None
    csc_switch: bool | None = None
    rbuv_swap_switch: bool | None = None
    ax_swap_switch: bool | None = None
    matrix: list[int | None] = field(default_factory=lambda: _none_list(9))  # r0c0, r0c1, … r2c2
    output_bias: list[int | None] = field(default_factory=lambda: _none_list(3))
    input_bias: list[int | None] = field(default_factory=lambda: _none_list(3))
    mean_chn: list[int | None] = field(default_factory=lambda: _none_list(CHANNELS))
    min_chn: list[float | None] = field(default_factory=lambda: _none_list(CHANNELS))
    var_reci_chn: list[float | None] = field(default_factory=lambda: _none_list(CHANNELS))
    extra: list[tuple[str, str]] = field(default_factory=list)  # unknown keys, kept verbatim

    def items(self) -> list[tuple[str, object]]:
        """(key, value) of every set field, in the written order."""
        out: list[tuple[str, object]] = [(k, getattr(self, k)) for k, _ in SCALARS if getattr(self, k) is not None]
        for attr, (prefix, n, _) in LISTS.items():
            values = getattr(self, attr)
            keys = MATRIX_KEYS if attr == "matrix" else tuple(f"{prefix}{i}" for i in range(n))
            out += [(k, v) for k, v in zip(keys, values) if v is not None]
        return out + list(self.extra)


@dataclass
class AippConfig:
    ops: list[AippOp] = field(default_factory=lambda: [AippOp()])


# --- reading ------------------------------------------------------------------------------------


def _convert(kind: str, text: str, where: str, key: str):  # noqa: ANN202 - int | float | bool | str
    if kind == "bool":
        low = text.lower()
        if low in ("true", "t", "1"):
            return True
        if low in ("false", "f", "0"):
            return False
        raise AippError(f"{where}: {key}: expected true or false, got {text!r}")
    if kind == "int":
        try:
            return int(text, 0)
        except ValueError:
            raise AippError(f"{where}: {key}: expected a whole number, got {text!r}") from None
    if kind == "float":
        try:
            return float(text)
        except ValueError:
            raise AippError(f"{where}: {key}: expected a number, got {text!r}") from None
    return text  # mode / format: checked by check_aipp so the editor can show the bad value


_LIST_KEYS: dict[str, tuple[str, int, str]] = {}
for _attr, (_prefix, _n, _kind) in LISTS.items():
    _keys = MATRIX_KEYS if _attr == "matrix" else tuple(f"{_prefix}{i}" for i in range(_n))
    for _i, _k in enumerate(_keys):
        _LIST_KEYS[_k] = (_attr, _i, _kind)
_SCALAR_KIND = dict(SCALARS)


def _op_from(entry: Entry, source: str) -> AippOp:
    op = AippOp(aipp_mode=None)
    for e in entry.children:
        where = f"{source} (line {e.line})"
        if e.is_message:
            raise AippError(f"{where}: {e.key} {{ }}: expected only 'name: value' fields inside aipp_op")
        if e.key in _SCALAR_KIND:
            setattr(op, e.key, _convert(_SCALAR_KIND[e.key], e.value or "", where, e.key))
        elif e.key in _LIST_KEYS:
            attr, index, kind = _LIST_KEYS[e.key]
            getattr(op, attr)[index] = _convert(kind, e.value or "", where, e.key)
        else:
            op.extra.append((e.key, f'"{e.value}"' if e.quoted else e.value or ""))
    return op


def parse_aipp(text: str, source: str = "<aipp config>") -> AippConfig:
    """Read AIPP protobuf text; AippError names ``source``, the line and what was expected."""
    try:
        entries = parse_entries(text, source)
    except PrototxtError as exc:
        raise AippError(f"{exc.where}: not protobuf text: {exc.reason}") from None
    ops = []
    for e in entries:
        if e.key != "aipp_op" or not e.is_message:
            raise AippError(f"{source} (line {e.line}): expected only 'aipp_op {{ … }}' blocks, got {e.key!r}")
        ops.append(_op_from(e, source))
    if not ops:
        raise AippError(f"{source}: no 'aipp_op {{ … }}' block")
    return AippConfig(ops)


def read_aipp(path: str | os.PathLike[str]) -> AippConfig:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AippError(f"{p}: cannot read the AIPP config ({exc})") from None
    return parse_aipp(text, str(p))


# --- writing ------------------------------------------------------------------------------------


def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def effective_op(op: AippOp) -> AippOp:
    """``op`` without the fields of a switched-off (or unset) crop, resize or padding: a file that
    says ``crop: false`` carries no ``load_start_pos_*`` / ``crop_size_*`` (ATC ignores them at best)."""
    out = copy.deepcopy(op)
    for switch, keys in SWITCHED.items():
        if getattr(out, switch) is not True:
            for key in keys:
                setattr(out, key, None)
    return out


def write_aipp(config: AippConfig) -> str:
    """The protobuf-text file ATC reads (``aipp_op { key : value … }`` per op); the fields of a
    crop, resize or padding that is off are not written (:func:`effective_op`)."""
    blocks = []
    for op in config.ops:
        lines = [f"    {key} : {_fmt(value)}" for key, value in effective_op(op).items()]
        blocks.append("aipp_op {\n" + "\n".join(lines) + ("\n" if lines else "") + "}\n")
    return "\n".join(blocks)


def save_aipp(config: AippConfig, path: str | os.PathLike[str]) -> None:
    from workbench.core.fsutil import atomic_write_text

    atomic_write_text(path, write_aipp(config))


# --- constraints --------------------------------------------------------------------------------


def check_aipp(
    config: AippConfig, *, model_inputs: int | None = None, dynamic_image_size: bool = False
) -> list[tuple[str, str]]:
    """The documented constraints as ``(field, reason)`` pairs (empty: fine). ``model_inputs`` is
    the model's input count when known; ``dynamic_image_size`` whether the job uses it."""
    problems: list[tuple[str, str]] = []
    ranks: dict[int, int] = {}
    for i, op in enumerate(config.ops):
        pre = f"aipp_op[{i}]." if len(config.ops) > 1 else "aipp_op."

        def bad(key: str, reason: str, pre: str = pre) -> None:
            problems.append((pre + key, reason))

        rank = op.related_input_rank or 0
        if rank < 0:
            bad("related_input_rank", f"related_input_rank must be 0 or more, got {rank}")
        elif model_inputs is not None and rank >= model_inputs:
            bad(
                "related_input_rank",
                f"related_input_rank {rank} is out of range: the model has {model_inputs} input(s)",
            )
        if rank in ranks:
            bad("related_input_rank", f"aipp_op[{ranks[rank]}] and aipp_op[{i}] both preprocess input {rank}")
        ranks.setdefault(rank, i)
        if op.aipp_mode not in MODES:
            bad("aipp_mode", f"aipp_mode must be static or dynamic, got {op.aipp_mode or 'nothing'}")
            continue
        if op.aipp_mode == "dynamic":
            if not op.max_src_image_size or op.max_src_image_size <= 0:
                bad("max_src_image_size", "dynamic AIPP requires max_src_image_size (the largest input image in bytes)")
            static_keys = [k for k, _ in op.items() if k not in DYNAMIC_KEYS and k not in dict(op.extra)]
            if static_keys:
                bad(
                    static_keys[0],
                    "in dynamic mode only related_input_rank, max_src_image_size and support_rotation "
                    f"may be set (found {', '.join(static_keys)})",
                )
            continue
        _check_static(op, bad, dynamic_image_size)
    return problems


def _check_static(op: AippOp, bad, dynamic_image_size: bool) -> None:  # noqa: ANN001 - bad(key, reason)
    fmt = op.input_format
    if not fmt:
        bad("input_format", "static AIPP requires input_format")
    elif fmt not in INPUT_FORMATS:
        bad("input_format", f"input_format must be one of {', '.join(INPUT_FORMATS)}, got {fmt}")
    w, h = op.src_image_size_w or 0, op.src_image_size_h or 0
    for key, v in (("src_image_size_w", w), ("src_image_size_h", h)):
        if not 0 <= v <= MAX_IMAGE_SIDE:
            bad(key, f"{key} must be from 0 (the model input size) to {MAX_IMAGE_SIDE}, got {v}")
    if fmt in EVEN_FORMATS and w % 2:
        bad("src_image_size_w", f"{fmt} images need an even src_image_size_w, got {w}")
    if fmt == "YUV420SP_U8" and h % 2:
        bad("src_image_size_h", f"YUV420SP_U8 images need an even src_image_size_h, got {h}")
    if op.crop:
        for axis, src in (("w", w), ("h", h)):
            start, size = op.__dict__[f"load_start_pos_{axis}"] or 0, op.__dict__[f"crop_size_{axis}"] or 0
            if start < 0 or size < 0:
                bad(f"crop_size_{axis}", f"load_start_pos_{axis} and crop_size_{axis} must be 0 or more")
            elif src and start + size > src:
                bad(
                    f"crop_size_{axis}",
                    f"load_start_pos_{axis} ({start}) + crop_size_{axis} ({size}) exceeds "
                    f"src_image_size_{axis} ({src})",
                )
            if fmt in EVEN_FORMATS and start % 2:
                bad(f"load_start_pos_{axis}", f"{fmt} crops must start at an even position, got {start}")
    if op.resize:
        for key in ("resize_output_w", "resize_output_h"):
            v = getattr(op, key) or 0
            if not 0 < v <= MAX_IMAGE_SIDE:
                bad(key, f"resize is on: {key} must be from 1 to {MAX_IMAGE_SIDE}, got {v}")
    for side in ("left", "right", "top", "bottom"):
        v = getattr(op, f"{side}_padding_size")
        if v is not None and v < 0:
            bad(f"{side}_padding_size", f"{side}_padding_size must be 0 or more, got {v}")
    if op.csc_switch:
        missing = [k for k, v in zip(MATRIX_KEYS, op.matrix) if v is None]
        if missing:
            bad(missing[0], f"csc_switch is true but {', '.join(missing)} not set")
    for k, v in zip(MATRIX_KEYS, op.matrix):
        if v is not None and not -32768 <= v <= 32767:
            bad(k, f"{k} must be from -32768 to 32767, got {v}")
    for attr, (prefix, _, _) in LISTS.items():
        if attr in ("input_bias", "output_bias", "mean_chn", "min_chn"):
            for i, v in enumerate(getattr(op, attr)):
                if v is not None and not 0 <= v <= 255:
                    bad(f"{prefix}{i}", f"{prefix}{i} must be from 0 to 255, got {v}")
    for i, v in enumerate(op.var_reci_chn):
        if v is not None and not -FP16_MAX <= v <= FP16_MAX:
            bad(f"var_reci_chn_{i}", f"var_reci_chn_{i} must be within the float16 range ±{FP16_MAX:g}, got {v}")
    if dynamic_image_size:
        if op.crop or op.padding:
            bad("crop" if op.crop else "padding", "with --dynamic_image_size a static AIPP must not crop or pad")
        if w or h:
            bad(
                "src_image_size_w" if w else "src_image_size_h",
                "with --dynamic_image_size a static AIPP needs src_image_size_w and src_image_size_h set to 0",
            )
