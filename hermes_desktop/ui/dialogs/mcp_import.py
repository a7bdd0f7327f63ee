"""“Import servers…”: pick another client (or a file), see what would change in mcp.json, then import.

The preview lists every server of the source: added, changed (with the fields that differ and a “Replace”
box, unticked: the user's own server stays unless they tick it), identical (skipped) or invalid (skipped, with
the reason); secrets found in the file are named with where they go (the keyring). Each added or changed server
shows everything it will run or send (command, arguments, env with secrets masked, working folder, URL, headers)
and warnings for variables such as LD_PRELOAD or NODE_OPTIONS; one that would send the app's environment
variables to a remote address (`${env:…}` in its URL or headers) has its own box, unticked, and is imported only
when ticked (core/mcp/import_review.py). The reading and merging
are core/mcp/importing.py; this dialog only shows a plan and collects which changes are accepted. Reading a
source runs in a worker thread (a keyring read can block).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.mcp.importing import (
    CLIENT_NAMES,
    CLIENTS,
    Change,
    ImportError_,
    ImportPlan,
    find_client_files,
    plan_from_client,
    plan_import,
    preview_text,
)
from hermes_desktop.core.mcp.import_review import review_entry
from hermes_desktop.core.secrets import SecretStore
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.tasks import spawn

FILE = "file"


class McpImportDialog(QDialog):
    def __init__(self, parent: QWidget | None, config_path: Path, secrets: SecretStore | None, *,
                 keyring_secure: bool, keyring_reason: str) -> None:
        super().__init__(parent)
        self.setObjectName("mcpImportDialog")
        self.setWindowTitle(self.tr("Import MCP servers"))
        self.config_path = config_path
        self.secrets = secrets
        self.keyring_secure = keyring_secure
        self.keyring_reason = keyring_reason
        self.plan: ImportPlan | None = None
        self._sends_env: set[str] = set()  # servers that would send the app's environment variables out
        self.loading: asyncio.Task[Any] | None = None  # the source being read (tests await it)
        self.file: Path | None = None

        self.source = QComboBox()
        self.source.setObjectName("mcpImportSource")
        self.source.setAccessibleName(self.tr("Import from"))
        for client in CLIENTS:
            found = bool(find_client_files(client))
            label = CLIENT_NAMES[client] if found else self.tr("{0} (not found)").format(CLIENT_NAMES[client])
            self.source.addItem(label, client)
        self.source.addItem(self.tr("A file…"), FILE)
        self.choose_file = QPushButton(self.tr("Choose file…"))
        self.choose_file.setObjectName("mcpImportChooseFile")
        self.choose_file.clicked.connect(lambda _checked=False: self._pick_file())
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Import from")))
        row.addWidget(self.source, 1)
        row.addWidget(self.choose_file)

        self.where = QLabel()
        self.where.setObjectName("mcpImportWhere")
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = QTreeWidget()
        self.preview.setObjectName("mcpImportPreview")
        self.preview.setAccessibleName(self.tr("Servers in the source and what happens to each"))
        self.preview.setHeaderLabels([self.tr("Server"), self.tr("What happens"), self.tr("Details")])
        self.preview.setRootIsDecorated(False)
        self.preview.setWordWrap(True)
        self.preview.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.preview.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.preview.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.preview.header().setStretchLastSection(True)
        self.preview.itemChanged.connect(lambda _item, _column: self._update_button())
        self.secrets_note = QLabel()
        self.secrets_note.setObjectName("mcpImportSecrets")
        self.secrets_note.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setObjectName("mcpImportProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {themes.current().risk_destructive}")
        self.summary = QLabel()
        self.summary.setObjectName("mcpImportSummary")

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = self.buttons.addButton(self.tr("Import"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setObjectName("mcpImportButton")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.where)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.secrets_note)
        layout.addWidget(self.problem)
        layout.addWidget(self.summary)
        layout.addWidget(self.buttons)
        self.setMinimumSize(860, 460)
        self.source.currentIndexChanged.connect(lambda _index: self._source_changed())
        first_found = next((i for i, client in enumerate(CLIENTS) if find_client_files(client)), None)
        # No other client here: open on "A file…" rather than on a red "no Claude Desktop configuration found".
        self.source.setCurrentIndex(first_found if first_found is not None else self.source.findData(FILE))
        self._source_changed()

    # ------------------------------------------------------------------ reading a source
    def _source_changed(self) -> None:
        choice = self.source.currentData()
        self.choose_file.setVisible(choice == FILE)
        if choice == FILE:
            if self.file is None:  # a hint, not a problem: in the plain line, not in red
                self._show(None, "")
                self.where.setText(self.tr("Choose a file in the mcpServers or VS Code servers shape."))
            else:
                self.load_file(self.file)
        else:
            self.load(choice)

    def _pick_file(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, self.tr("Import MCP servers from"), str(Path.home()),
                                                    self.tr("JSON files (*.json);;All files (*)"))
        if path:
            self.load_file(Path(path))

    def load(self, client: str) -> None:
        self._start(lambda: plan_from_client(self.config_path, client, self.secrets))

    def load_file(self, path: Path) -> None:
        self.file = path
        index = self.source.findData(FILE)
        if self.source.currentIndex() != index:
            self.source.blockSignals(True)
            self.source.setCurrentIndex(index)
            self.source.blockSignals(False)
            self.choose_file.setVisible(True)
        self._start(lambda: plan_import(self.config_path, [path], self.secrets))

    def _start(self, make_plan: Any) -> None:
        if self.loading is not None and not self.loading.done():
            self.loading.cancel()
        self._show(None, self.tr("Reading…"))
        self.loading = spawn(self._read(make_plan))

    async def _read(self, make_plan: Any) -> None:
        try:
            plan = await asyncio.to_thread(make_plan)
        except ImportError_ as exc:
            self._show(None, self.tr("Cannot import: {0}. Nothing was changed.").format(str(exc)))
            return
        self._show(plan, "")

    # ------------------------------------------------------------------ the preview
    def _show(self, plan: ImportPlan | None, problem: str) -> None:
        self.plan = plan
        self.problem.setText(problem)
        self.problem.setVisible(bool(problem))
        self.preview.blockSignals(True)
        self.preview.clear()
        theme = themes.current()
        colours = {Change.ADD: theme.risk_read, Change.CHANGE: theme.risk_write, Change.SAME: theme.muted,
                   Change.INVALID: theme.risk_destructive}
        words = {Change.ADD: self.tr("Add"), Change.CHANGE: self.tr("Replace (changed)"),
                 Change.SAME: self.tr("Identical: skipped"), Change.INVALID: self.tr("Invalid: skipped")}
        secret_count = 0
        self._sends_env: set[str] = set()
        for entry in (plan.items if plan else ()):
            details: list[str] = []
            review = review_entry(entry.entry, entry.secrets) if entry.change in (Change.ADD, Change.CHANGE) else None
            target = entry.entry.get("url") or " ".join(
                str(x) for x in [entry.entry.get("command", ""), *entry.entry.get("args", [])]).strip()
            if target:
                details.append(preview_text(target))  # a line break or bidi override shown, not obeyed
            if review is not None:  # everything it runs or sends (core/mcp/import_review.py), then what to look at twice
                details += [f"{preview_text(shown.what)}: {preview_text(shown.value)}" for shown in review.shown]
                details += [self.tr("Warning: {0}").format(preview_text(warning)) for warning in review.warnings]
                if review.env_reads:
                    self._sends_env.add(entry.name)
                    details.append(self.tr("Sends your environment variables {0}: imported only if you tick it").format(
                        preview_text(", ".join(f"{r.variable} ({r.where})" for r in review.env_reads))))
            if entry.change is Change.CHANGE:
                details.append(self.tr("Differs in: {0}").format(", ".join(entry.differences)))
            for secret in entry.secrets:
                details.append(self.tr("Secret in {0} goes to the keyring as ${{secret:{1}}}").format(
                    secret.where, secret.name))
            if entry.change in (Change.ADD, Change.CHANGE):
                secret_count += len(entry.secrets)
            details.extend(preview_text(note) for note in entry.notes)
            item = QTreeWidgetItem([preview_text(entry.name), words[entry.change], "\n".join(details)])
            item.setData(0, Qt.ItemDataRole.UserRole, entry.name)
            item.setToolTip(2, "\n".join(details))
            item.setForeground(1, QColor(colours[entry.change]))
            if entry.change is Change.CHANGE or entry.name in self._sends_env:  # unticked: nothing happens to it
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(0, Qt.CheckState.Unchecked)
                item.setToolTip(0, self.tr("Tick to replace the server mcp.json has under this name")
                                if entry.name not in self._sends_env else
                                self.tr("Tick to import it and let it send the environment variables named in "
                                        "Details"))
            self.preview.addTopLevelItem(item)
        self.preview.blockSignals(False)
        if plan is not None:
            self.where.setText(self.tr("From: {0}").format(", ".join(str(p) for p in plan.sources))
                               + "".join(f"\n{preview_text(p)}" for p in plan.problems))
        else:
            self.where.setText("")
        if secret_count:
            self.secrets_note.setText(
                self.tr("{0} secret(s) found in the file move to the system keyring; mcp.json only gets "
                        "${{secret:…}} references.").format(secret_count) if self.keyring_secure else
                self.tr("{0} secret(s) found in the file are NOT copied: there is no secure keyring ({1}). mcp.json "
                        "gets ${{secret:…}} references; set each value with “Set secret…”.").format(
                    secret_count, self.keyring_reason))
        self.secrets_note.setVisible(bool(secret_count))
        self._update_button()

    def _ticked(self) -> set[str]:
        chosen = set()
        for index in range(self.preview.topLevelItemCount()):
            item = self.preview.topLevelItem(index)
            if item.flags() & Qt.ItemFlag.ItemIsUserCheckable and item.checkState(0) == Qt.CheckState.Checked:
                chosen.add(item.data(0, Qt.ItemDataRole.UserRole))
        return chosen

    def accepted_changes(self) -> set[str]:
        """The changed servers whose “Replace” box is ticked."""
        changed = {item.name for item in self.plan.of(Change.CHANGE)} if self.plan else set()
        return self._ticked() & changed

    def accepted_env(self) -> set[str]:
        """The servers that send the app's environment variables and whose box the user ticked (apply_import's
        `allowed_env`)."""
        return self._ticked() & getattr(self, "_sends_env", set())

    def _update_button(self) -> None:
        plan = self.plan
        adds = len([i for i in plan.of(Change.ADD) if i.name not in self._sends_env or i.name in self.accepted_env()]) \
            if plan else 0
        replaced = len(self.accepted_changes())
        same = len(plan.of(Change.SAME)) if plan else 0
        skipped = len(plan.of(Change.INVALID)) if plan else 0
        self.import_button.setEnabled(bool(adds or replaced))
        self.summary.setText(self.tr("{0} to add, {1} to replace, {2} identical, {3} invalid").format(
            adds, replaced, same, skipped) if plan else "")


async def import_servers(actions: Any) -> None:
    """The MCP tab's “Import servers…”: the dialog, then the merge (core/mcp/importing.py) in a worker thread,
    then mcp.json is reloaded. A failure is shown and leaves mcp.json as it was."""
    from hermes_desktop.core.mcp.importing import apply_import
    from hermes_desktop.ui.async_dialog import run_dialog

    window, controller = actions.window, actions.controller
    runtime = controller.runtime
    if runtime is None:
        return
    report = runtime.secrets_report
    dialog = actions.import_dialog = McpImportDialog(window, runtime.paths.mcp_config_file, runtime.secrets,
                                                     keyring_secure=report.secure, keyring_reason=report.reason)
    try:
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted or dialog.plan is None:
            return
        try:
            result = await asyncio.to_thread(apply_import, runtime.paths.mcp_config_file, dialog.plan,
                                             dialog.accepted_changes(), runtime.secrets,
                                             keyring_secure=report.secure, allowed_env=dialog.accepted_env())
        except (ImportError_, OSError) as exc:
            window.errors.show_message(QCoreApplication.translate(
                "McpImportDialog", "The servers could not be imported: {0}. mcp.json was not changed.").format(str(exc)))
            return
        window.statusBar().showMessage(_imported_text(len(result.added), len(result.replaced)), 8000)
        await controller.reload_mcp()
    finally:
        dialog.loading = None


def _imported_text(added: int, replaced: int) -> str:
    """One whole sentence per case (no "server(s)"): what the import wrote."""
    if replaced == 0:
        return QCoreApplication.translate("McpImportDialog", "Imported 1 new MCP server.") if added == 1 else \
            QCoreApplication.translate("McpImportDialog", "Imported {0} new MCP servers.").format(added)
    if added == 0:
        return QCoreApplication.translate("McpImportDialog", "Replaced 1 MCP server.") if replaced == 1 else \
            QCoreApplication.translate("McpImportDialog", "Replaced {0} MCP servers.").format(replaced)
    return QCoreApplication.translate("McpImportDialog", "Imported MCP servers: {0} new, {1} replaced.").format(
        added, replaced)

