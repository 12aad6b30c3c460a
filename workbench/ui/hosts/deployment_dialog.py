"""Ascend ▸ Deployment (per project): folder mappings with excluded globs, a sync plan, sync, pull.

The plan lists new, changed and remote-only files, and conflicts: files edited on the host since
the last sync (core ``deploy`` explains how they are found). Only new and changed files are sent.
A remote-only file is deleted **only** if the user ticks it in the plan (unticked by default, and
the Sync button says how many will be deleted); a conflict is sent, replacing the host's copy,
**only** if the user ticks it (its row has a checkbox; the Sync button says how many).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.services import deploy
from workbench.ui.context import AppContext
from workbench.ui.hosts.combo import default_host, fill_host_combo
from workbench.ui.hosts.widgets import MessageArea, task_error


class DeploymentDialog(QDialog):
    COLS = 3

    def __init__(self, context: AppContext, project, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Deployment — {0}").format(project.name))
        self.context = context
        self.project = project
        self.plan: deploy.Plan | None = None
        self.host = QComboBox(self)
        fill_host_combo(self.host, default_host(project))
        self.mappings = QTableWidget(0, self.COLS, self)
        self.mappings.setHorizontalHeaderLabels(
            [self.tr("Local folder"), self.tr("Remote folder"), self.tr("Excluded (globs, comma-separated)")]
        )
        self.mappings.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        try:
            stored = deploy.project_mappings(project) if project.extra.get("deployment") else []
        except deploy.DeployError as exc:
            stored, damaged = [], str(exc)
        else:
            damaged = ""
        for m in stored:
            self._add_row(m)
        if self.mappings.rowCount() == 0:
            self._add_row(deploy.Mapping(local=".", remote=f"ascend-workbench/{project.name}"))
        add = QPushButton(self.tr("Add Mapping"), self)
        add.clicked.connect(lambda: self._add_row(deploy.Mapping(local=".", remote="")))
        remove = QPushButton(self.tr("Remove Mapping"), self)
        remove.clicked.connect(lambda: self.mappings.removeRow(self.mappings.currentRow()))
        save = QPushButton(self.tr("Save Mappings"), self)
        save.clicked.connect(self.save_mappings)
        self.plan_button = QPushButton(self.tr("Compute Plan"), self)
        self.plan_button.clicked.connect(self.compute_plan)
        self.sync_button = QPushButton(self.tr("Sync"), self)
        self.sync_button.setEnabled(False)
        self.sync_button.clicked.connect(self.sync)
        pull = QPushButton(self.tr("Pull Back…"), self)
        pull.setToolTip(self.tr("Bring a remote file or folder (relative to the first mapping) into the project"))
        pull.clicked.connect(self._pull_dialog)
        self.summary = MessageArea(self, lines=3)  # fixed height: the plan below never moves
        if damaged:
            self.summary.setText(damaged)
        self.items = QTableWidget(0, 4, self)
        self.items.setHorizontalHeaderLabels(
            [self.tr("Action"), self.tr("Path"), self.tr("Local size"), self.tr("Remote size")]
        )
        self.items.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.items.verticalHeader().setVisible(False)
        self.items.itemChanged.connect(lambda _i: self._update_sync_label())
        form = QFormLayout()
        form.addRow(self.tr("CANN machine:"), self.host)
        row1 = QHBoxLayout()
        for b in (add, remove, save):
            row1.addWidget(b)
        row1.addStretch(1)
        row2 = QHBoxLayout()
        for b in (self.plan_button, self.sync_button, pull):
            row2.addWidget(b)
        row2.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.mappings)
        layout.addLayout(row1)
        layout.addLayout(row2)
        layout.addWidget(self.summary)
        layout.addWidget(self.items, 1)
        layout.addWidget(buttons)
        self.resize(900, 620)

    # --- mappings -----------------------------------------------------------------------------------
    def _add_row(self, m: deploy.Mapping) -> None:
        r = self.mappings.rowCount()
        self.mappings.insertRow(r)
        for c, text in enumerate((m.local, m.remote, ", ".join(m.excludes))):
            self.mappings.setItem(r, c, QTableWidgetItem(text))

    def current_mappings(self) -> list[deploy.Mapping]:
        out = []
        for r in range(self.mappings.rowCount()):
            cells = [(self.mappings.item(r, c).text() if self.mappings.item(r, c) else "").strip() for c in range(3)]
            excludes = [g.strip() for g in cells[2].split(",") if g.strip()]
            out.append(
                deploy.Mapping.from_dict(
                    {"local": cells[0], "remote": cells[1], "excludes": excludes}, self.tr("mapping {0}").format(r + 1)
                )
            )
        return out

    def save_mappings(self) -> bool:
        try:
            deploy.set_project_mappings(self.project, self.current_mappings())
            self.project.remote.host = self.host.currentData() or ""
            self.project.save()
        except (deploy.DeployError, OSError, ValueError) as exc:
            self.summary.setText(str(exc))
            return False
        self.summary.setText(self.tr("Mappings saved in the project."))
        return True

    # --- plan and sync ------------------------------------------------------------------------------
    def compute_plan(self):
        if not self.save_mappings():
            return None
        transport = self.context.host_transport(self.host.currentData())
        self.plan_button.setEnabled(False)
        task = self.context.bridge.start(
            deploy.compute_plan,
            transport,
            self.current_mappings(),
            self.project.root,
            title=self.tr("Deployment plan for {0}").format(self.project.name),
            kind="deploy",
        )
        task.succeeded.connect(self._show_plan)
        task.failed.connect(self._failed)
        task.finished.connect(self._plan_finished)
        return task

    # Bound methods (not lambdas): Qt drops the connection when the dialog is deleted.
    def _failed(self, message: str, exc: object) -> None:
        partial = getattr(exc, "result", None)  # SyncFailed: the other files were sent
        if isinstance(exc, deploy.SyncFailed) and partial is not None:
            self.summary.setText(self.sync_summary(partial))
            return
        self.summary.setText(task_error(message, exc))

    def _plan_finished(self) -> None:
        self.plan_button.setEnabled(True)

    def _synced(self, result: object) -> None:
        self.summary.setText(self.sync_summary(result))

    def sync_summary(self, result: object) -> str:
        """One translated line for what core ``sync`` did (``SyncResult.counts()``; a plain dict of
        path lists from an older core): files sent and their bytes, folders created, files deleted
        on the host, remote-only files kept."""
        if callable(getattr(result, "counts", None)):
            c = dict(result.counts())  # type: ignore[attr-defined]
            size = getattr(result, "bytes_sent", 0)
        else:
            raw = result if isinstance(result, dict) else {}
            keys = {"sent": "sent", "folders_created": "folders_created", "deleted": "deleted"}
            more = {"kept": "kept_remote_only", "conflicts": "conflicts_not_sent", "failed": "failed"}
            c = {k: len(raw.get(f, [])) for k, f in {**keys, **more}.items()}
            size = raw.get("bytes_sent", 0)
        text = self.tr(
            "Synced to {0}. Files sent: {1} ({2} bytes); folders created: {3}; deleted on the host: {4}; "
            "kept, only on the host: {5}."
        ).format(
            self.host.currentData() or "?",
            c.get("sent", 0),
            f"{size:,}",
            c.get("folders_created", 0),
            c.get("deleted", 0),
            c.get("kept", 0),
        )
        if c.get("conflicts"):
            text += " " + self.tr("Conflicts not sent (the host's copy was kept): {0}.").format(c["conflicts"])
        if c.get("failed"):
            text += " " + self.tr("Not sent: {0}.").format(c["failed"])
        return text

    def _sync_finished(self) -> None:
        self.plan = None
        self.items.setRowCount(0)

    def _pulled(self, path: object) -> None:
        self.summary.setText(self.tr("Pulled to {0}").format(path))

    def _show_plan(self, plan: deploy.Plan) -> None:
        self.plan = plan
        shown = [i for i in plan.items if i.action != deploy.UNCHANGED] + list(plan.folders) + list(plan.links)
        self.items.blockSignals(True)
        self.items.setRowCount(len(shown))
        labels = {
            deploy.NEW: self.tr("new"),
            deploy.CHANGED: self.tr("changed"),
            deploy.REMOTE_ONLY: self.tr("remote only — delete?"),
            deploy.NEW_FOLDER: self.tr("new folder"),
            deploy.SKIPPED_LINK: self.tr("symbolic link — not sent"),
            deploy.CONFLICT: self.tr("conflict: edited here and on the host — overwrite the host's copy?"),
            deploy.CHANGED_ON_HOST: self.tr("changed on the host — overwrite with the local copy?"),
        }
        for r, item in enumerate(shown):
            action = QTableWidgetItem(labels[item.action])
            action.setData(Qt.ItemDataRole.UserRole, item)
            if item.action == deploy.REMOTE_ONLY or item.action in deploy.HELD_BACK:
                action.setFlags(action.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                action.setCheckState(Qt.CheckState.Unchecked)
            self.items.setItem(r, 0, action)
            self.items.setItem(r, 1, QTableWidgetItem(f"{plan.mappings[item.mapping].remote}/{item.rel}"))
            for c, size in ((2, item.local_size), (3, item.remote_size)):
                self.items.setItem(r, c, QTableWidgetItem("" if size is None else f"{size:,}"))
        self.items.blockSignals(False)
        self.items.resizeColumnToContents(0)
        kinds = (deploy.NEW, deploy.CHANGED, deploy.REMOTE_ONLY, deploy.UNCHANGED, deploy.NEW_FOLDER)
        counts = {a: len(plan.of(a)) for a in kinds}
        text = self.tr(
            "{0} new, {1} changed, {2} unchanged, {4} folders to create; {3} only on the host (kept unless ticked)."
        ).format(
            counts[deploy.NEW],
            counts[deploy.CHANGED],
            counts[deploy.UNCHANGED],
            counts[deploy.REMOTE_ONLY],
            counts[deploy.NEW_FOLDER],
        )
        if plan.held_back:
            text += " " + self.tr(
                "{0} conflicts: changed on the host since the last sync, not sent unless ticked."
            ).format(len(plan.held_back))
        self.summary.setText(text)
        self.sync_button.setEnabled(True)
        self._update_sync_label()

    def _ticked(self, actions: tuple[str, ...]) -> list[deploy.PlanItem]:
        out = []
        for r in range(self.items.rowCount()):
            cell = self.items.item(r, 0)
            item = cell.data(Qt.ItemDataRole.UserRole)
            if item.action in actions and cell.checkState() == Qt.CheckState.Checked:
                out.append(item)
        return out

    def ticked_for_deletion(self) -> list[deploy.PlanItem]:
        return self._ticked((deploy.REMOTE_ONLY,))

    def ticked_for_overwrite(self) -> list[deploy.PlanItem]:
        """Conflict rows the user ticked: their local copy replaces the host's."""
        return self._ticked(deploy.HELD_BACK)

    def _update_sync_label(self) -> None:
        n = len(self.ticked_for_deletion()) if self.plan else 0
        k = len(self.ticked_for_overwrite()) if self.plan else 0
        if n and k:
            text = self.tr("Sync, overwrite {0} host edits and delete {1} remote files").format(k, n)
        elif k:
            text = self.tr("Sync and overwrite {0} host edits").format(k)
        elif n:
            text = self.tr("Sync and delete {0} remote files").format(n)
        else:
            text = self.tr("Sync")
        self.sync_button.setText(text)

    def sync(self):
        if self.plan is None:
            return None
        delete = self.ticked_for_deletion()
        if delete:
            answer = QMessageBox.question(
                self,
                self.tr("Delete Remote Files"),
                self.tr("Delete {0} files that exist only on the host? This cannot be undone.").format(len(delete)),
            )
            if answer != QMessageBox.StandardButton.Yes:
                return None
        transport = self.context.host_transport(self.host.currentData())
        self.sync_button.setEnabled(False)
        task = self.context.bridge.start(
            deploy.sync,
            transport,
            self.plan,
            delete=delete,
            overwrite=self.ticked_for_overwrite(),
            title=self.tr("Sync {0}").format(self.project.name),
            kind="deploy",
        )
        task.succeeded.connect(self._synced)
        task.failed.connect(self._failed)
        task.finished.connect(self._sync_finished)
        return task

    def _pull_dialog(self) -> None:
        rel, ok = QInputDialog.getText(
            self,
            self.tr("Pull Back"),
            self.tr("Remote path relative to {0}:").format(
                self.current_mappings()[0].remote if self.mappings.rowCount() else "?"
            ),
        )
        if ok and rel.strip():
            self.pull(rel.strip())

    def pull(self, rel: str):
        transport = self.context.host_transport(self.host.currentData())
        task = self.context.bridge.start(
            deploy.pull,
            transport,
            self.current_mappings()[0],
            rel,
            self.project.root,
            title=self.tr("Pull {0}").format(rel),
            kind="deploy",
        )
        task.succeeded.connect(self._pulled)
        task.failed.connect(self._failed)
        return task
