"""``ascend-workbench convert`` and ``ascend-workbench model`` (Qt-free).

``convert --host NAME --model FILE [--weight FILE] [--framework N] --soc-version S [--input-shape
SPEC] [--dynamic-batch-size LIST | --dynamic-image-size LIST | --dynamic-dims LIST]
[--insert-op-conf FILE] [--output-type T] [--out-nodes SPEC] [--precision-mode M] [--extra
FLAG=VALUE]... [--out DIR] [--dry-run] [--json]``: exit 0 success, 1 atc (or the connection)
failed, 2 validation failed before running. ``--json`` prints ``{ok, command, om_path, warnings,
errors: [{code, message, explanation, fix}]}``; the atc log then streams to stderr. When ``--out``
lies in a project, the conversion is recorded in its history.

``model inspect FILE [--host NAME] [--json]``: inputs (name, dtype, shape), outputs and op count
of an ONNX, Caffe or TensorFlow model, of an om JSON (``atc --mode=1`` output, known by its
content whatever its name) or of an .om (``atc --mode=1`` on the host first: the same lines as for
its om JSON). ``model structure FILE [--host NAME] [--search TEXT] [--save-json PATH] [--json]``:
the op list of an .om (atc --mode=1 on the host), om JSON or ONNX model. Without ``--host`` an
.om is read on the CANN machine of the project holding it (as the Model Structure view picks:
the project's host, else its converter's last one), else on the demo host. ``model graph FILE
[--layout-json OUT] [--svg OUT] [--png OUT] [--force] [--host NAME] [--json]``: the model (ONNX, om
JSON, .om, Caffe .prototxt, TensorFlow .pb/.pbtxt) as a laid-out graph (workbench.core.graph): node,
edge and group counts and the layout's size; --png through the GUI's renderer (registered by the
composition root; Qt is imported only then).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from workbench.core.verbs import register_verb

VALID, FAILED, INVALID = 0, 1, 2


def _emit(data: Any, as_json: bool, text: str) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False) if as_json else text)


def _fail(msg: str, code: int) -> int:
    print(f"ascend-workbench: {msg}", file=sys.stderr)
    return code


class _LogProgress:
    """Streams atc's output lines (to stderr when stdout carries JSON) and status lines to stderr."""

    def __init__(self, to_stderr: bool) -> None:
        self.out = sys.stderr if to_stderr else sys.stdout

    def status(self, text: str) -> None:
        print(f"[{text}]", file=sys.stderr, flush=True)

    def fraction(self, value: float | None) -> None:
        pass

    def partial(self, item: Any) -> None:
        if isinstance(item, tuple) and len(item) == 2 and item[0] in ("stdout", "stderr"):
            (sys.stderr if item[0] == "stderr" else self.out).write(item[1])
            (sys.stderr if item[0] == "stderr" else self.out).flush()


# --- convert ----------------------------------------------------------------------------------


def _convert_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", required=True, help="a configured CANN machine, or 'demo' (simulated toolkit)")
    p.add_argument("--model", required=True, help="the model file (.onnx, .pb, .prototxt, .air)")
    p.add_argument("--weight", help="Caffe weights (.caffemodel)")
    p.add_argument("--framework", help="0 Caffe, 1 MindSpore, 3 TensorFlow, 5 ONNX (default: from the file name)")
    p.add_argument("--soc-version", help="e.g. Ascend310P3 (npu-smi info name with 'Ascend' in front)")
    p.add_argument("--input-shape", metavar="SPEC", help='"name:1,3,224,224;name2:…" (-1 for dynamic axes)')
    p.add_argument("--dynamic-batch-size", metavar="LIST", help='"1,2,4,8"')
    p.add_argument("--dynamic-image-size", metavar="LIST", help='"224,224;448,448" (height,width)')
    p.add_argument("--dynamic-dims", metavar="LIST", help='"1,224;2,448" (one value per -1 axis)')
    p.add_argument("--insert-op-conf", metavar="FILE", help="AIPP configuration file")
    p.add_argument("--output-type", metavar="T", help='FP16, or per output "node:0:FP16;node:1:FP32"')
    p.add_argument("--out-nodes", metavar="SPEC", help='"node:0;node2:0"')
    p.add_argument("--precision-mode", metavar="M")
    p.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="FLAG=VALUE",
        help="any other documented atc flag, e.g. --extra log=info (repeatable)",
    )
    p.add_argument("--out", metavar="DIR", help="local folder for the .om (default: the current folder)")
    p.add_argument("--dry-run", action="store_true", help="print the exact atc command line; run nothing")
    p.add_argument("--json", action="store_true")
    p.add_argument("--accept-new-host-key", action="store_true", help="trust an unknown SSH host key (printed)")


def _build_job(args: argparse.Namespace) -> tuple[Any, list[Any]]:
    from workbench.core.atc.flags import AtcCheck
    from workbench.core.atc.job import ConversionJob, apply_flag
    from workbench.core.atc.validate import Issue

    job = ConversionJob(host=args.host, model=args.model)
    problems: list[Issue] = []
    given: list[tuple[str, str]] = [
        (flag, value)
        for flag, value in (
            ("weight", args.weight),
            ("framework", args.framework),
            ("soc_version", args.soc_version),
            ("input_shape", args.input_shape),
            ("dynamic_batch_size", args.dynamic_batch_size),
            ("dynamic_image_size", args.dynamic_image_size),
            ("dynamic_dims", args.dynamic_dims),
            ("insert_op_conf", args.insert_op_conf),
            ("output_type", args.output_type),
            ("out_nodes", args.out_nodes),
            ("precision_mode", args.precision_mode),
        )
        if value is not None
    ]
    for item in args.extra:
        name, eq, value = item.partition("=")
        name = name.strip().lstrip("-")
        if not eq or not name:
            raise ValueError(f"--extra {item!r}: expected FLAG=VALUE, e.g. --extra log=info")
        given.append((name, value))
    seen: set[str] = set()
    for flag, value in given:
        if flag in seen:
            problems.append(Issue("WB-DUPLICATE-FLAG", flag, f"--{flag} is given twice"))
        seen.add(flag)
        if flag in ("model", "mode", "om", "json"):
            problems.append(Issue("WB-DUPLICATE-FLAG", flag, f"--{flag} cannot be set with --extra"))
            continue
        try:
            apply_flag(job, flag, value)
        except AtcCheck as exc:
            problems.append(Issue(exc.code, exc.field, exc.text))
    if args.out:
        job.out_dir = str(Path(args.out).expanduser().resolve())
    return job, problems


def _find_project(folder: Path) -> Any:
    from workbench.core.project import PROJECT_DIR, PROJECT_FILE, ProjectError, open_project

    for cand in (folder, *folder.parents):
        if (cand / PROJECT_DIR / PROJECT_FILE).is_file():
            try:
                return open_project(cand)
            except ProjectError as exc:
                print(f"ascend-workbench: not recording the conversion: {exc}", file=sys.stderr)
                return None
    return None


def _report(
    args: argparse.Namespace, ok: bool, command: str, om_path: str | None, warnings: list[dict], errors: list[dict]
) -> None:
    data = {"ok": ok, "command": command, "om_path": om_path, "warnings": warnings, "errors": errors}
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for w in warnings:
        print(f"warning {w['code']}: {w['message']}", file=sys.stderr)
    for e in errors:
        print(f"error {e['code']}: {e['message']}\n  why: {e['explanation']}\n  fix: {e['fix']}", file=sys.stderr)
    if ok and om_path:
        print(f"converted: {om_path}")


def _convert(args: argparse.Namespace) -> int:
    from workbench.core.atc.job import command_line
    from workbench.core.atc.run import JobInvalid, run_conversion
    from workbench.core.atc.validate import ERROR, validate
    from workbench.core.services.demohost import resolve_host
    from workbench.core.services.hosts import HostError
    from workbench.core.services.transport import TransportError
    from workbench.core.tasks import Cancelled, CancelToken

    try:
        job, problems = _build_job(args)
    except ValueError as exc:
        return _fail(str(exc), INVALID)
    issues = problems + validate(job)
    errs = [i.to_json() for i in issues if i.severity == ERROR]
    warns = [i.to_json() for i in issues if i.severity != ERROR]
    line = command_line(job)
    if args.dry_run or errs:
        if args.dry_run and not args.json:
            print(line)
        _report(args, not errs, line, None, warns, errs)
        return INVALID if errs else VALID
    try:
        from workbench.core.services.cli import open_transport

        host = resolve_host(args.host)
        transport = open_transport(host, accept_new=args.accept_new_host_key)
    except (HostError, ValueError) as exc:
        return _fail(str(exc), INVALID)
    out = Path(job.out_dir or Path.cwd())
    project = _find_project(out)
    if project is not None:
        job.out_dir = str(out)
    cancel = CancelToken()
    try:
        result = run_conversion(
            job, transport, host.toolkit or None, project=project, progress=_LogProgress(args.json), cancel=cancel
        )
    except JobInvalid as exc:  # pragma: no cover - validated above
        _report(args, False, line, None, warns, [i.to_json() for i in exc.issues])
        return INVALID
    except KeyboardInterrupt:
        cancel.cancel()
        return _fail("cancelled", FAILED)
    except (TransportError, OSError, Cancelled) as exc:
        return _fail(str(exc) or "cancelled", FAILED)
    finally:
        transport.close()
    data = result.to_json()
    _report(args, result.ok, result.command, result.om_path, warns + data["warnings"], data["errors"])
    return VALID if result.ok else FAILED


# --- model ------------------------------------------------------------------------------------


def _model_args(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    host_help = (
        "the CANN machine running atc --mode=1 (for an .om; 'demo' works); default: the host of the "
        "project holding the file, else demo"
    )
    q = sub.add_parser("inspect", help="inputs (name, dtype, shape), outputs and op count of a model, om JSON or .om")
    q.add_argument("file")
    q.add_argument("--framework", type=int, choices=(0, 1, 3, 5), help="default: from the file name")
    q.add_argument("--host", help=host_help)
    q.add_argument("--accept-new-host-key", action="store_true")
    q.add_argument("--json", action="store_true")
    q = sub.add_parser("structure", help="the op list of an .om (atc --mode=1 on a host), om JSON or ONNX model")
    q.add_argument("file")
    q.add_argument("--host", help=host_help)
    q.add_argument("--search", default="", help="only ops whose name or type contains this text")
    q.add_argument("--save-json", metavar="PATH", help="keep the om JSON here")
    q.add_argument("--accept-new-host-key", action="store_true")
    q.add_argument("--json", action="store_true")
    q = sub.add_parser(
        "graph",
        help="the model as a laid-out graph (ONNX, om JSON, .om, Caffe .prototxt, TensorFlow .pb/.pbtxt): "
        "counts, layout JSON, SVG, PNG",
    )
    q.add_argument("file")
    q.add_argument("--layout-json", metavar="OUT", help="write the layout (boxes, edge routes) as JSON")
    q.add_argument("--svg", metavar="OUT", help="write the drawing as SVG")
    q.add_argument("--png", metavar="OUT", help="write the drawing as PNG (rendered with Qt, offscreen)")
    q.add_argument("--force", action="store_true", help="replace existing output files")
    q.add_argument("--host", help=host_help)
    q.add_argument("--accept-new-host-key", action="store_true")
    q.add_argument("--json", action="store_true", help="print the counts as JSON")


def _fmt_tensor(t: dict) -> str:
    return f"{t['name']}  {t['dtype']}  [{','.join(map(str, t['shape']))}]"


def _model(args: argparse.Namespace) -> int:
    from workbench.core.atc.modelinfo import ModelInfoError
    from workbench.core.dump.omjson import OmJsonError
    from workbench.core.services.transport import TransportError

    if args.action == "graph":
        return _graph(args)
    try:
        if args.action == "inspect":
            info = _inspect(args).to_json()
            text = "\n".join(
                [
                    "inputs:",
                    *("  " + _fmt_tensor(t) for t in info["inputs"]),
                    "outputs:",
                    *("  " + _fmt_tensor(t) for t in info["outputs"]),
                    f"ops: {info['op_count']}",
                ]
            )
            _emit(info, args.json, text)
            return VALID
        structure = _structure(args)
    except (ModelInfoError, OmJsonError, ValueError) as exc:
        return _fail(str(exc), INVALID)
    except (TransportError, OSError) as exc:
        return _fail(str(exc), FAILED)
    ops = structure.search(args.search)
    data = structure.to_json()
    data["ops"] = [op.to_json() for op in ops]
    text = "\n".join(
        f"{op.name}\t{op.type}\t" + " ".join(f"{o.dtype}[{','.join(map(str, o.shape))}]" for o in op.outputs)
        for op in ops
    )
    _emit(data, args.json, text or "no ops")
    return VALID


def _om_host(path: str) -> str:
    """The CANN machine an .om is read on without ``--host``: that of the project holding it (core
    ``default_host``, as the Model Structure view picks), else the demo host."""
    from workbench.core.atc.run import default_host
    from workbench.core.project import PROJECT_DIR, PROJECT_FILE, ProjectError, open_project

    folder = Path(path).expanduser().resolve().parent
    for cand in (folder, *folder.parents):
        if (cand / PROJECT_DIR / PROJECT_FILE).is_file():
            try:
                return default_host(open_project(cand))
            except ProjectError as exc:
                print(f"ascend-workbench: not using the project's host: {exc}", file=sys.stderr)
                break
    return default_host(None)


def _on_host(args: argparse.Namespace, read: Any) -> Any:
    """``read(transport, toolkit)`` on ``--host`` (or the .om's default host), the transport closed after."""
    from workbench.core.services.cli import open_transport
    from workbench.core.services.demohost import resolve_host

    name = args.host or _om_host(args.file)
    host = resolve_host(name)
    print(f"[reading {Path(args.file).name} with atc --mode=1 on {name}]", file=sys.stderr, flush=True)
    transport = open_transport(host, accept_new=args.accept_new_host_key)
    try:
        return read(transport, host.toolkit or None)
    finally:
        transport.close()


def _is_om(path: str) -> bool:
    return Path(path).suffix.lower() == ".om"


def _inspect(args: argparse.Namespace) -> Any:
    """ModelInputs of a framework model (read locally), an om JSON (read locally) or an .om (its om
    JSON from atc --mode=1 on the host): the same lines for an .om and its om JSON."""
    from workbench.core.atc.modelinfo import ModelInfoError, inspect_model
    from workbench.core.atc.structure import om_inputs, read_om
    from workbench.core.dump.omjson import read_om_json

    if _is_om(args.file):
        return om_inputs(_on_host(args, lambda tr, tk: read_om(args.file, tr, tk, progress=_LogProgress(True))))
    if Path(args.file).suffix.lower() == ".json" and args.framework is None:
        from workbench.core.artefacts import looks_like_om_json

        if Path(args.file).is_file() and not looks_like_om_json(Path(args.file)):
            raise ModelInfoError(
                f"{args.file}: not an om JSON (atc --mode=1 output: an object with 'graph' and its 'op' list)"
            )
        return om_inputs(read_om_json(args.file))
    return inspect_model(args.file, args.framework)


def _structure(args: argparse.Namespace) -> Any:
    from workbench.core.atc.structure import model_structure

    if not _is_om(args.file):
        return model_structure(args.file, save_json=args.save_json)
    return _on_host(
        args,
        lambda tr, tk: model_structure(args.file, tr, tk, save_json=args.save_json, progress=_LogProgress(True)),
    )


def _read_graph(args: argparse.Namespace) -> Any:
    """The graph of ``args.file``; an .om is read as its om JSON (atc --mode=1 on the host, as
    ``model structure`` does)."""
    import tempfile

    from workbench.core.atc.structure import read_om
    from workbench.core.graph.load import GraphError, load_graph

    if not _is_om(args.file):
        return load_graph(args.file)
    with tempfile.TemporaryDirectory(prefix="wb-graph-") as tmp:
        local = Path(tmp) / (Path(args.file).stem + ".json")
        _on_host(args, lambda tr, tk: read_om(args.file, tr, tk, save_json=local, progress=_LogProgress(True)))
        try:
            graph = load_graph(local)
        except GraphError as exc:
            raise GraphError(str(exc).replace(str(local), f"{args.file} (its atc --mode=1 JSON)")) from None
    graph.source = str(args.file)
    return graph


def _graph(args: argparse.Namespace) -> int:
    from workbench.core.atc.modelinfo import ModelInfoError
    from workbench.core.fsutil import OutputRefused, refuse_existing, refuse_inputs
    from workbench.core.graph.export import png_renderer, write_layout_json, write_svg
    from workbench.core.graph.layout import layout_graph
    from workbench.core.graph.load import GraphError
    from workbench.core.services.hosts import HostError
    from workbench.core.services.transport import TransportError

    outs = [
        (flag, o) for flag, o in (("--layout-json", args.layout_json), ("--svg", args.svg), ("--png", args.png)) if o
    ]
    try:
        seen: dict[Path, str] = {}
        for flag, out in outs:
            refuse_inputs(out, [args.file], inside=False)
            refuse_existing(out, args.force)
            key = Path(out).expanduser().resolve()
            if key in seen:
                raise OutputRefused(f"{out}: given to both {seen[key]} and {flag}; write them to different files")
            seen[key] = flag
        render = png_renderer() if args.png else None
        if args.png and render is None:
            raise OutputRefused(f"--png {args.png}: PNG needs the workbench's GUI part, not available here; use --svg")
        graph = _read_graph(args)
    except (GraphError, OutputRefused, ModelInfoError, HostError, ValueError) as exc:
        return _fail(str(exc), INVALID)
    except (TransportError, OSError) as exc:
        return _fail(str(exc), FAILED)
    layout = layout_graph(graph)
    written = []
    try:
        if args.layout_json:
            written.append(str(write_layout_json(graph, layout, args.layout_json, force=args.force)))
        if args.svg:
            written.append(str(write_svg(graph, layout, args.svg, force=args.force)))
        if args.png and render is not None:
            render(graph, layout, args.png)
            written.append(str(args.png))
    except (OutputRefused, ValueError) as exc:
        return _fail(str(exc), INVALID)
    except OSError as exc:
        return _fail(f"cannot write: {exc}", FAILED)
    data = {
        "name": graph.name,
        "format": graph.format,
        "source": graph.source,
        "nodes": len(graph.nodes),
        "edges": len(graph.edge_src),
        "groups": len(graph.groups),
        "layout": {"width": round(layout.width, 1), "height": round(layout.height, 1), **layout.figures},
        "warnings": list(graph.warnings),
        "written": written,
    }
    for w in graph.warnings:
        print(f"warning: {w}", file=sys.stderr)
    text = "\n".join(
        [
            f"graph: {graph.name} ({graph.format})",
            f"nodes: {data['nodes']}  edges: {data['edges']}  groups: {data['groups']}",
            f"layout: {layout.width:.0f} x {layout.height:.0f}  ({layout.figures.get('layers', 0)} layers, "
            f"{layout.figures.get('crossings', 0)} crossings)",
            *(f"wrote: {p}" for p in written),
        ]
    )
    _emit(data, args.json, text)
    return VALID


register_verb(
    "convert", "convert a model to an offline model (.om) with ATC on a CANN machine", _convert_args, _convert
)
register_verb(
    "model",
    "inspect a model's inputs, list the ops of an .om / ONNX model, or lay it out as a graph",
    _model_args,
    _model,
)
