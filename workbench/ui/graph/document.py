"""The model graph document (issue #23): an ONNX model, an om JSON (or an .om through ``atc
--mode=1``), a Caffe prototxt or a TensorFlow pb as a navigable graph.

A :class:`GraphPane` reads and lays out its model as a task (progress and Cancel on the pane; a
cancelled first load closes the document: no half document stays), then shows the canvas with its
minimap, a search bar (Ctrl+F; Enter / Next / Previous; "k of n"), the selection's properties in
the Properties dock (with "Go to producer/consumer" rows), a context menu (follow an input or an
output, path to a node, collapse/expand a group). Shift+click highlights the shortest path from the
selection. Graphs of more than :data:`~workbench.ui.graph.work.LARGE_GRAPH` nodes open with their
top-level scopes collapsed; double-click a group to expand it (laid out again as a task, the group
staying where it was on screen).

:class:`GraphDocument` holds one pane, or two side by side (*Compare with…*): selecting an op in
one selects what it maps to in the other (an om op's fused ONNX originals and back). Other parts of
the UI call :meth:`GraphDocument.reveal` to centre and select an op by name.
"""

from __future__ import annotations

import html
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QCoreApplication, QPoint, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.graph.model import Graph
from workbench.ui.bridge import QtTask
from workbench.ui.context import AppContext
from workbench.ui.graph.canvas import GraphCanvas, Minimap, item_edges, path_edges
from workbench.ui.graph.scene import Highlight, SceneData, shape_text
from workbench.ui.graph.style import CATEGORIES
from workbench.ui.graph.work import EXPORT_SUFFIXES, export_graph, map_models, open_graph, relayout

MODEL_FILTER = "*.onnx *.json *.om *.prototxt *.pb *.pbtxt"
MAX_ROWS = 60  # attribute / consumer rows shown in the Properties dock
READABLE_PX = 8.0  # a graph whose fit leaves boxes narrower than this opens at READABLE_SCALE at its top
READABLE_SCALE = 0.8  # pixels per layout unit: the labels are drawn


def _tensor_text(t) -> str:
    parts = [t.name, shape_text(t.shape)]
    parts += [p for p in (t.dtype, t.format) if p]
    return " ".join(parts)


def _value_text(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 300 else text[:297] + "…"


class GraphPane(QWidget):
    """One model's graph: loading row, search bar, canvas and minimap."""

    loaded = Signal()
    selection_changed = Signal(object)  # list of node indices the user selected
    closed_by_cancel = Signal()

    def __init__(
        self,
        context: AppContext,
        path: str | Path,
        *,
        transport: Any = None,
        toolkit: Any = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("graphPane")
        self.context = context
        self.path = Path(path)
        self._transport, self._toolkit = transport, toolkit
        self.data: SceneData | None = None
        self.task: QtTask | None = None
        self.selected: list[int] = []  # node indices, the first is the one shown in Properties
        self.path_nodes: list[int] = []
        self.hits: list[int] = []
        self.hit_index = -1
        self._pending: list[int] | None = None  # nodes to select once a re-layout is done
        self._anchor: tuple[int, QPoint] | None = None  # (group, where it was on screen)
        self._producers: dict[str, int] | None = None

        # loading / re-layout row
        self.status = QLabel(self)
        self.status.setObjectName("graphStatus")
        self.status.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(240)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setObjectName("graphCancel")
        self.cancel_button.clicked.connect(lambda: self.cancel())
        busy = QHBoxLayout()
        busy.addWidget(self.status, 1)
        busy.addWidget(self.progress)
        busy.addWidget(self.cancel_button)

        self.canvas = GraphCanvas(self)
        self.minimap = Minimap(self.canvas, self.canvas)

        # search bar
        self.search = QLineEdit(self)
        self.search.setObjectName("graphSearch")
        self.search.setPlaceholderText(self.tr("Find op by name or type (Ctrl+F)"))
        self.search.setClearButtonEnabled(True)
        self.search.returnPressed.connect(lambda: self.find_next(1))
        self.search.textChanged.connect(lambda _t: self._search_changed())
        self.prev_button = QToolButton(self)
        self.prev_button.setObjectName("graphPrevious")
        self.prev_button.setText(self.tr("Previous"))
        self.prev_button.setToolTip(self.tr("Previous match (Shift+Enter)"))
        self.prev_button.clicked.connect(lambda: self.find_next(-1))
        self.next_button = QToolButton(self)
        self.next_button.setObjectName("graphNext")
        self.next_button.setText(self.tr("Next"))
        self.next_button.setToolTip(self.tr("Next match (Enter)"))
        self.next_button.clicked.connect(lambda: self.find_next(1))
        self.count_label = QLabel(self)
        self.count_label.setObjectName("graphMatches")
        self.fit_button = QToolButton(self)
        self.fit_button.setObjectName("graphFit")
        self.fit_button.setText(self.tr("Fit"))
        self.fit_button.setToolTip(self.tr("Show the whole graph"))
        self.fit_button.clicked.connect(lambda: self.canvas.fit())
        self.summary = QLabel(self)
        self.summary.setObjectName("graphSummary")
        bar = QHBoxLayout()
        bar.addWidget(self.search, 1)
        bar.addWidget(self.prev_button)
        bar.addWidget(self.next_button)
        bar.addWidget(self.count_label)
        bar.addWidget(self.fit_button)
        bar.addWidget(self.summary)

        self.canvas.item_clicked.connect(self._clicked)
        self.canvas.item_double_clicked.connect(self._double_clicked)
        self.canvas.item_menu.connect(self._menu)
        self.canvas.view_changed.connect(self._place_minimap)

        self.legend = QLabel(self)
        self.legend.setObjectName("graphLegend")
        self.legend.setWordWrap(True)
        self.legend.setText(
            "&nbsp; ".join(
                f'<span style="background-color:{fill}; color:{outline}">&nbsp;■&nbsp;</span>&nbsp;'
                + html.escape(QCoreApplication.translate("GraphLegend", str(name)))
                for name, fill, outline in CATEGORIES
            )
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(busy)
        layout.addLayout(bar)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.legend)
        for w in (self.search, self.prev_button, self.next_button, self.fit_button, self.canvas):
            w.setEnabled(False)
        self._set_busy(False)

    # --- loading ------------------------------------------------------------------------------------
    @property
    def graph(self) -> Graph | None:
        return self.data.graph if self.data is not None else None

    def start(self) -> None:
        """Read and lay out the model as a task."""
        self.status.setText(self.tr("Reading and laying out {0}…").format(self.path.name))
        self._run(
            self.context.bridge.start(
                open_graph,
                str(self.path),
                self._transport,
                self._toolkit,
                title=self.tr("Model graph of {0}").format(self.path.name),
                kind="graph",
            )
        )

    def _run(self, task: QtTask) -> None:
        self.task = task
        self._set_busy(True)
        self.progress.setValue(0)
        task.progress_changed.connect(self._progress)
        task.succeeded.connect(self._shown)
        task.failed.connect(self._failed)
        task.cancelled.connect(self._cancelled)

    def _set_busy(self, busy: bool) -> None:
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.status.setVisible(busy or bool(self.status.text()))

    def _progress(self, value: object) -> None:
        if isinstance(value, (int, float)):
            self.progress.setValue(int(float(value) * 1000))

    def cancel(self) -> None:
        if self.task is not None and not self.task.state.finished:
            self.task.cancel()

    def _cancelled(self) -> None:
        self.task = None
        self._set_busy(False)
        if self.data is None:
            self.closed_by_cancel.emit()
        else:
            self._pending = None
            self._anchor = None
            self.status.setText("")
            self._set_busy(False)

    def _failed(self, message: str, _exc: object) -> None:
        self.task = None
        self._set_busy(False)
        line = self.tr("Model graph of {0}: {1}").format(self.path.name, message)
        self.status.setText(line)
        self.status.setVisible(True)
        self.context.show_status(line)

    def _shown(self, data: SceneData) -> None:
        self.task = None
        first = self.data is None
        self.data = data
        self._producers = None
        self.status.setText("")
        self._set_busy(False)
        self.canvas.set_data(data)
        for w in (self.search, self.prev_button, self.next_button, self.fit_button, self.canvas):
            w.setEnabled(True)
        g = data.graph
        self.summary.setText(self.tr("{0} ops, {1} shown").format(len(g.nodes), data.n))
        if g.warnings:
            self.status.setText("\n".join(g.warnings[:3]))
            self.status.setVisible(True)
        if first:
            self.canvas.fit()
            if self.canvas.scale_now() * data.box_w < READABLE_PX:  # a long graph: its top, readable
                self.canvas.set_scale(READABLE_SCALE)
                top = data.bounds.top() + self.canvas.visible_rect().height() / 2
                self.canvas.centerOn(data.bounds.center().x(), top)
        elif self._anchor is not None:
            self._restore_anchor(*self._anchor)
        self._anchor = None
        pending, self._pending = self._pending, None
        if pending:
            self.select_nodes(pending, centre=True)
        else:
            self._update_highlight()
        self._place_minimap()
        self.loaded.emit()

    def _place_minimap(self) -> None:
        vp = self.canvas.viewport().geometry()
        m = self.minimap
        m.move(vp.right() - m.width() - 6, vp.bottom() - m.height() - 6)
        m.raise_()
        m.update()

    # --- selection ------------------------------------------------------------------------------------
    def item_of(self, node: int) -> int | None:
        assert self.data is not None
        return self.data.layout.item_of_node(self.data.graph, node)

    def _hidden(self, nodes: list[int]) -> set[int]:
        """The collapsed groups that hide any of ``nodes``."""
        assert self.data is not None
        graph, collapsed = self.data.graph, self.data.layout.collapsed
        out: set[int] = set()
        for i in nodes:
            out |= {g for g in graph.group_path(graph.nodes[i].group) if g in collapsed}
        return out

    def select_nodes(self, nodes: list[int], *, centre: bool = True, emit: bool = False) -> None:
        """Select ``nodes`` (the first one's properties shown); a node inside a collapsed group
        expands it first (a re-layout)."""
        if self.data is None:
            return
        hidden = self._hidden(nodes)
        if hidden:
            self._pending = list(nodes)
            self.expand(hidden)
            return
        self.selected = list(nodes)
        self.path_nodes = []
        self._update_highlight()
        if nodes:
            k = self.item_of(nodes[0])
            if centre and k is not None:
                self.canvas.centre_on_item(k)
            self.show_properties(nodes[0])
        if emit:
            self.selection_changed.emit(list(nodes))

    def _items(self, nodes: list[int]) -> np.ndarray:
        ks = [self.item_of(i) for i in nodes]
        return np.array([k for k in ks if k is not None], dtype=np.int64)

    def _update_highlight(self) -> None:
        data = self.data
        if data is None:
            return
        sel = self._items(self.selected)
        path_items = [int(k) for k in self._items(self.path_nodes)]
        self.canvas.set_highlight(
            Highlight(
                selected=sel,
                edges=item_edges(data, sel[:1]),
                path=np.array(path_items, dtype=np.int64),
                path_edges=path_edges(data, path_items),
                hits=self._items(self.hits[:5000]),
            )
        )

    def _clicked(self, k: int, modifiers: int) -> None:
        data = self.data
        if data is None:
            return
        if k < 0:
            return
        v = int(data.items[k])
        shift = bool(modifiers & Qt.KeyboardModifier.ShiftModifier.value)
        if v < 0:
            self.show_group(-v - 1)
            return
        if shift and self.selected and self.selected[0] != v:
            self.path_to(v)
            return
        self.select_nodes([v], centre=False, emit=True)

    def path_to(self, target: int) -> bool:
        """Highlight the shortest path between the selected node and ``target``."""
        if self.data is None or not self.selected:
            return False
        found = self.data.graph.path(self.selected[0], target)
        if found is None:
            self.context.show_status(
                self.tr("No path between {0} and {1}").format(
                    self.data.graph.nodes[self.selected[0]].name, self.data.graph.nodes[target].name
                )
            )
            return False
        self.path_nodes = found
        self._update_highlight()
        self.summary.setText(self.tr("Path: {0} ops").format(len(found)))
        return True

    # --- properties -------------------------------------------------------------------------------------
    def producer_of(self, tensor: str) -> int | None:
        graph = self.graph
        if graph is None:
            return None
        if self._producers is None:
            self._producers = {}
            for i, n in enumerate(graph.nodes):
                for t in n.outputs:
                    self._producers.setdefault(t.name, i)
        return self._producers.get(tensor)

    def show_properties(self, i: int) -> None:
        graph = self.graph
        assert graph is not None
        node = graph.nodes[i]
        rows: list[Any] = [(self.tr("Name"), node.name), (self.tr("Type"), node.op_type)]
        if node.group >= 0:
            rows.append(
                (self.tr("Group"), " / ".join(graph.groups[g].name for g in reversed(graph.group_path(node.group))))
            )
        if node.original_names:
            rows.append((self.tr("Original ops"), ", ".join(node.original_names)))
        for n, t in enumerate(node.inputs):
            row: tuple = (
                self.tr("Input {0}").format(n),
                _tensor_text(t) + (self.tr(" (weight)") if t.initializer else ""),
            )
            p = self.producer_of(t.name)
            if p is not None and p != i:
                row = (*row, (self.tr("Go to producer {0}").format(graph.nodes[p].name), lambda p=p: self.go_to(p)))
            rows.append(row)
        for n, t in enumerate(node.outputs):
            rows.append((self.tr("Output {0}").format(n), _tensor_text(t)))
        for c in graph.successors(i)[:MAX_ROWS]:
            rows.append(
                (self.tr("Consumer"), graph.nodes[c].name, (self.tr("Go to consumer"), lambda c=c: self.go_to(c)))
            )
        for key, value in list(node.attrs.items())[:MAX_ROWS]:
            rows.append((self.tr("Attribute {0}").format(key), _value_text(value)))
        self.context.show_properties(node.name, rows)

    def show_group(self, g: int) -> None:
        graph = self.graph
        assert graph is not None
        group = graph.groups[g]
        members = sum(1 for n in graph.nodes if g in graph.group_path(n.group))
        rows: list[Any] = [
            (self.tr("Group"), group.name),
            (self.tr("Kind"), group.kind),
            (self.tr("Ops"), str(members), (self.tr("Expand"), lambda: self.expand({g}))),
        ]
        self.context.show_properties(group.name, rows)

    def go_to(self, i: int) -> None:
        self.select_nodes([i], centre=True, emit=True)

    # --- search -------------------------------------------------------------------------------------------
    def _search_changed(self) -> None:
        graph = self.graph
        self.hits = graph.find(self.search.text()) if graph is not None else []
        self.hit_index = -1
        self._count_text()
        self._update_highlight()

    def _count_text(self) -> None:
        if not self.search.text().strip():
            self.count_label.setText("")
        elif not self.hits:
            self.count_label.setText(self.tr("no match"))
        else:
            self.count_label.setText(
                self.tr("{0} of {1}").format(self.hit_index + 1 if self.hit_index >= 0 else 0, len(self.hits))
            )

    def find_next(self, step: int) -> None:
        """The next (``step`` 1) or previous (-1) match centred and selected."""
        if not self.hits:
            self._count_text()
            return
        if self.hit_index >= 0:
            self.hit_index = (self.hit_index + step) % len(self.hits)
        else:
            self.hit_index = 0 if step > 0 else len(self.hits) - 1
        self._count_text()
        self.select_nodes([self.hits[self.hit_index]], centre=True, emit=True)

    # --- groups ---------------------------------------------------------------------------------------------
    def expand(self, groups: set[int], anchor: QPoint | None = None) -> None:
        data = self.data
        if data is None or self.task is not None:
            return
        collapsed = frozenset(data.layout.collapsed - set(groups))
        g0 = min(groups)
        if anchor is None:
            first = next((i for i, n in enumerate(data.graph.nodes) if g0 in data.graph.group_path(n.group)), 0)
            k = data.layout.item_of_node(data.graph, first)
            anchor = self.canvas.view_pos_of(k) if k is not None else self.canvas.viewport().rect().center()
        self._anchor = (g0, anchor)
        self._relayout(collapsed, self.tr("Expanding {0}…").format(data.graph.groups[g0].name))

    def collapse(self, g: int) -> None:
        data = self.data
        if data is None or self.task is not None:
            return
        first = next(i for i, n in enumerate(data.graph.nodes) if g in data.graph.group_path(n.group))
        k = self.item_of(first)
        self._anchor = (g, self.canvas.view_pos_of(k) if k is not None else self.canvas.viewport().rect().center())
        self.selected = []
        self._relayout(
            frozenset(data.layout.collapsed | {g}), self.tr("Collapsing {0}…").format(data.graph.groups[g].name)
        )

    def _relayout(self, collapsed: frozenset[int], text: str) -> None:
        assert self.data is not None
        self.status.setText(text)
        self._run(
            self.context.bridge.start(
                relayout,
                self.data.graph,
                collapsed,
                title=self.tr("Layout of {0}").format(self.path.name),
                kind="graph",
                announce=False,
            )
        )

    def _restore_anchor(self, g: int, pos: QPoint) -> None:
        """Put group ``g`` (its box, or the top of its expanded ops) where it was on screen."""
        data = self.data
        assert data is not None
        graph = data.graph
        members = [i for i, n in enumerate(graph.nodes) if g in graph.group_path(n.group)]
        ks = sorted({k for k in (data.layout.item_of_node(graph, i) for i in members) if k is not None})
        if not ks:
            return
        arr = np.array(ks)
        from PySide6.QtCore import QPointF

        if len(ks) == 1:
            target = data.centre(ks[0])
        else:
            target = QPointF(float(data.layout.x[arr].mean()), float(data.y0[arr].min() + data.box_h / 2))
        scale = self.canvas.scale_now()
        centre = self.canvas.viewport().rect().center()
        self.canvas.centerOn(
            QPointF(target.x() + (centre.x() - pos.x()) / scale, target.y() + (centre.y() - pos.y()) / scale)
        )
        self.canvas.view_changed.emit()

    def _double_clicked(self, k: int) -> None:
        data = self.data
        if data is None:
            return
        v = int(data.items[k])
        if v < 0:
            self.expand({-v - 1}, self.canvas.view_pos_of(k))

    # --- context menu ----------------------------------------------------------------------------------
    def node_menu(self, k: int) -> QMenu:
        """The context menu of item ``k`` (-1: the background)."""
        menu = QMenu(self)
        data = self.data
        if data is None:
            return menu
        graph = data.graph
        if k >= 0 and int(data.items[k]) < 0:
            g = -int(data.items[k]) - 1
            menu.addAction(self.tr("Expand Group"), lambda: self.expand({g}, self.canvas.view_pos_of(k)))
            return menu
        if k >= 0:
            i = int(data.items[k])
            preds, succs = graph.predecessors(i), graph.successors(i)
            inputs = menu.addMenu(self.tr("Go to Producer"))
            inputs.setEnabled(bool(preds))
            for p in preds[:MAX_ROWS]:
                inputs.addAction(graph.nodes[p].name, partial(self.go_to, p))
            outputs = menu.addMenu(self.tr("Go to Consumer"))
            outputs.setEnabled(bool(succs))
            for c in succs[:MAX_ROWS]:
                outputs.addAction(graph.nodes[c].name, partial(self.go_to, c))
            path = menu.addAction(self.tr("Path to Here"), lambda: self.path_to(i))
            path.setEnabled(bool(self.selected) and self.selected[0] != i)
            if graph.nodes[i].group >= 0:
                g = graph.nodes[i].group
                menu.addAction(self.tr("Collapse Group “{0}”").format(graph.groups[g].name), lambda: self.collapse(g))
            menu.addAction(self.tr("Copy Name"), lambda: QGuiApplication.clipboard().setText(graph.nodes[i].name))
            menu.addSeparator()
        menu.addAction(self.tr("Fit to Window"), lambda: self.canvas.fit())
        return menu

    def _menu(self, k: int, pos: QPoint) -> None:
        menu = self.node_menu(k)
        menu.popup(pos)


class GraphDocument(QWidget):
    """The graph document: one :class:`GraphPane`, or two side by side (Compare with…)."""

    def __init__(
        self,
        context: AppContext,
        path: str | Path,
        *,
        transport: Any = None,
        toolkit: Any = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("graphDocument")
        self.context = context
        self.path = Path(path)
        self.compare_button = QPushButton(self.tr("Compare with…"), self)
        self.compare_button.setObjectName("graphCompare")
        self.compare_button.setToolTip(self.tr("Show another model beside this one (e.g. the ONNX model of this om)"))
        self.compare_button.clicked.connect(lambda: self.choose_compare())
        self.export_button = QPushButton(self.tr("Export…"), self)
        self.export_button.setObjectName("graphExport")
        self.export_button.setToolTip(self.tr("Save the graph as shown as SVG, PNG or layout JSON"))
        self.export_button.setEnabled(False)  # once the graph shows
        self.export_button.clicked.connect(lambda: self.choose_export())
        top = QHBoxLayout()
        top.addStretch(1)
        top.addWidget(self.export_button)
        top.addWidget(self.compare_button)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.pane = GraphPane(context, path, transport=transport, toolkit=toolkit, parent=self.splitter)
        self.splitter.addWidget(self.pane)
        self.other: GraphPane | None = None
        self.mapping: dict[int, list[int]] = {}  # pane's node -> other's nodes
        self.reverse: dict[int, list[int]] = {}
        self._reveal: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)
        self.pane.closed_by_cancel.connect(self._close)
        self.pane.loaded.connect(self._loaded)
        self.pane.selection_changed.connect(self._pane_selected)
        find = QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self)
        find.activated.connect(self._focus_search)

    def start(self) -> None:
        self.pane.start()

    def closing(self) -> None:
        """The tab is closing: stop what still runs."""
        for pane in (self.pane, self.other):
            if pane is not None:
                pane.cancel()

    def _close(self) -> None:
        """A cancelled first load: the tab goes (nothing half-built stays)."""
        tabs = self.parent()
        while tabs is not None and not isinstance(tabs, QTabWidget):
            tabs = tabs.parent()
        if isinstance(tabs, QTabWidget) and tabs.indexOf(self) >= 0:
            tabs.removeTab(tabs.indexOf(self))
        self.context.show_status(self.tr("Opening {0} cancelled").format(self.path.name))
        self.deleteLater()

    def _focus_search(self) -> None:
        focus = QGuiApplication.focusObject()
        other = self.other
        pane = other if other is not None and isinstance(focus, QWidget) and other.isAncestorOf(focus) else self.pane
        pane.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        pane.search.selectAll()

    def _loaded(self) -> None:
        self.export_button.setEnabled(True)
        if self._reveal is not None:
            name, self._reveal = self._reveal, None
            if not self.reveal(name):
                self.context.show_status(self.tr("{0}: no op named {1}").format(self.path.name, name))
        self._map()

    # --- cross-links -------------------------------------------------------------------------------------
    def publish_properties(self) -> None:
        """The document became current again: its selected op back in the Properties dock."""
        if self.pane.graph and self.pane.selected:
            self.pane.show_properties(self.pane.selected[0])

    def reveal(self, name: str) -> bool:
        """Centre and select the op named ``name`` (exact; else the om ops whose fused originals
        include it, :meth:`Graph.by_original_name`) in the (first) graph; False if there is none.
        Called before the graph has loaded, it is remembered and done once it has (True)."""
        graph = self.pane.graph
        if graph is None:
            self._reveal = name
            return True
        i = graph.index(name)
        nodes = [i] if i is not None else graph.by_original_name(name)
        if not nodes:
            return False
        self.pane.select_nodes(nodes, centre=True, emit=True)
        return True

    # --- side by side ------------------------------------------------------------------------------------
    def choose_export(self) -> None:
        """Export…: Qt's own save dialog (it asks before replacing a file), then the file written as a task."""
        data = self.pane.data
        if data is None:
            return
        path, chosen = QFileDialog.getSaveFileName(
            self,
            self.tr("Export Graph"),
            str(self.path.with_suffix(".svg")),
            ";;".join([self.tr("SVG image (*.svg)"), self.tr("PNG image (*.png)"), self.tr("Layout JSON (*.json)")]),
            options=QFileDialog.Option.DontUseNativeDialog,
        )
        if not path:
            return
        if Path(path).suffix.lower() not in EXPORT_SUFFIXES:  # typed without a suffix: the chosen filter's
            path += next((s for s in EXPORT_SUFFIXES if s[1:] in chosen.lower()), ".svg")
        task = self.context.bridge.start(
            export_graph,
            data.graph,
            data.layout,
            path,
            title=self.tr("Export the graph of {0}").format(self.path.name),
            kind="graph",
        )
        task.succeeded.connect(self._exported)
        task.failed.connect(self._export_failed)

    def _exported(self, path: Path) -> None:
        self.context.show_status(self.tr("Graph saved to {0}").format(path))

    def _export_failed(self, message: str, _exc: object) -> None:
        self.context.warn(self.tr("Export Graph"), message)

    def choose_compare(self) -> None:
        start = str(self.path.parent)
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Compare with Model"),
            start,
            self.tr("Models ({0});;All files (*)").format(MODEL_FILTER),
            options=QFileDialog.Option.DontUseNativeDialog,
        )
        if path:
            self.compare_with(path)

    def compare_with(self, path: str | Path) -> GraphPane:
        """Open ``path`` in a second pane beside the first (replacing an earlier second one)."""
        if self.other is not None:
            self.other.cancel()
            self.other.setParent(None)
            self.other.deleteLater()
        self.mapping, self.reverse = {}, {}
        self.other = GraphPane(self.context, path, parent=self.splitter)
        self.splitter.addWidget(self.other)
        self.other.closed_by_cancel.connect(self._drop_other)
        self.other.loaded.connect(self._map)
        self.other.selection_changed.connect(self._other_selected)
        self.other.start()
        return self.other

    def _drop_other(self) -> None:
        if self.other is not None:
            self.other.setParent(None)
            self.other.deleteLater()
            self.other = None

    def _map(self) -> None:
        a, b = self.pane.graph, self.other.graph if self.other is not None else None
        if a is None or b is None or self.mapping:
            return
        task = self.context.bridge.start(
            map_models, a, b, title=self.tr("Map the ops of {0}").format(self.path.name), kind="graph", announce=False
        )
        task.succeeded.connect(self._mapped)
        task.failed.connect(lambda message, _e: self.context.show_status(message))

    def _mapped(self, mapping: dict[int, list[int]]) -> None:
        self.mapping = mapping
        self.reverse = {}
        for k, vs in mapping.items():
            for v in vs:
                self.reverse.setdefault(v, []).append(k)

    def _pane_selected(self, nodes: list[int]) -> None:
        self._sync(self.pane, nodes)

    def _other_selected(self, nodes: list[int]) -> None:
        self._sync(self.other, nodes)

    def _sync(self, source: GraphPane | None, nodes: list[int]) -> None:
        if self.other is None or source is None or not self.mapping:
            return
        table, target = (self.mapping, self.other) if source is self.pane else (self.reverse, self.pane)
        mapped = sorted({j for i in nodes for j in table.get(i, [])})
        if mapped:
            target.select_nodes(mapped, centre=True, emit=False)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


def open_model_graph(
    context: AppContext, path: str | Path, host: str | None = None, reveal: str | None = None
) -> GraphDocument | None:
    """Open ``path`` as a graph document (an .om through ``atc --mode=1`` on ``host``, default the
    project's CANN machine); ``reveal``: an op to centre and select once it shows. A document of
    the same file already open is made the current tab (and reveals) instead of a second one."""
    path = Path(path).expanduser().absolute()
    open_docs = context.documents() if context.documents is not None else []
    same = next((w for w in open_docs if isinstance(w, GraphDocument) and _same_file(w.path, path)), None)
    if same is not None:
        if context.show_document is not None:
            context.show_document(same)
        if reveal and not same.reveal(reveal):
            context.show_status(
                QCoreApplication.translate("GraphDocument", "{0}: no op named {1}").format(path.name, reveal)
            )
        return same
    transport = toolkit = None
    if path.suffix.lower() == ".om":
        from workbench.core.atc.run import default_host  # the project's CANN machine, else the last, else demo
        from workbench.core.services.demohost import resolve_host

        host = host or default_host(context.project)
        try:
            transport = context.host_transport(host)
            toolkit = resolve_host(host).toolkit or None
        except Exception as exc:  # noqa: BLE001 - HostError / ValueError: shown, not raised
            context.show_status(str(exc))
            return None
    doc = GraphDocument(context, path, transport=transport, toolkit=toolkit)
    context.add_document(doc, QCoreApplication.translate("GraphDocument", "{0} — Graph").format(path.name), str(path))
    if reveal:
        doc.reveal(reveal)
    doc.start()
    return doc
