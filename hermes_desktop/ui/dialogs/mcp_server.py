"""Add or edit one MCP server: a form over one `mcpServers` entry, for users who would rather not edit JSON.

Arguments are one line split like a shell would (quotes keep spaces); environment variables and headers are
one `NAME=value` (or `Name: value`) per line. A value may be `${secret:NAME}`, stored with “Set secret…”.
"""

from __future__ import annotations

import shlex
from typing import Any, Mapping

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QWidget,
)

from hermes_desktop.core.mcp.config import MCPConfigError, ServerConfig, parse_server
from hermes_desktop.ui import theme as themes


def _pairs(text: str, separator: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        key, found, value = line.partition(separator)
        if not found or not key.strip():
            raise MCPConfigError(f"line {number} should look like NAME{separator}value")
        pairs[key.strip()] = value.strip()
    return pairs


def _line(text: str, object_name: str, placeholder: str = "") -> QLineEdit:
    edit = QLineEdit(text)
    edit.setObjectName(object_name)
    edit.setPlaceholderText(placeholder)
    return edit


def _pairs_edit(values: Mapping[str, str], separator: str, object_name: str, placeholder: str) -> QPlainTextEdit:
    """One `NAME<separator>value` per line; read back with `_pairs`."""
    edit = QPlainTextEdit("\n".join(f"{k}{separator}{v}" for k, v in values.items()))
    edit.setObjectName(object_name)
    edit.setPlaceholderText(placeholder)
    edit.setFixedHeight(64)
    return edit


class McpServerDialog(QDialog):
    def __init__(self, parent: QWidget | None, existing: ServerConfig | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mcpServerDialog")
        self.setWindowTitle(self.tr("Edit MCP server") if existing else self.tr("Add MCP server"))
        self.setMinimumWidth(560)
        shown = existing or ServerConfig("")  # a new server starts from the defaults
        self.name = _line(shown.name, "mcpNameEdit", self.tr("e.g. files"))
        self.kind = QComboBox()
        self.kind.setObjectName("mcpKindCombo")
        self.kind.addItem(self.tr("Program on this computer (stdio)"), "stdio")
        self.kind.addItem(self.tr("Web address (Streamable HTTP)"), "http")
        self.command = _line(shown.command, "mcpCommandEdit", "npx")
        self.args = _line(shlex.join(shown.args), "mcpArgsEdit", "-y @modelcontextprotocol/server-filesystem ~/Documents")
        self.env = _pairs_edit(shown.env, "=", "mcpEnvEdit", "API_TOKEN=${secret:token}")
        self.cwd = _line(shown.cwd or "", "mcpCwdEdit")
        self.url = _line(shown.url, "mcpUrlEdit", "https://example.com/mcp")
        self.headers = _pairs_edit(shown.headers, ": ", "mcpHeadersEdit", "Authorization: Bearer ${secret:token}")
        self.timeout = QSpinBox()
        self.timeout.setObjectName("mcpTimeoutSpin")
        self.timeout.setRange(1, 3600)
        self.timeout.setSuffix(self.tr(" s"))
        self.timeout.setValue(int(shown.timeout_s))
        self.disabled = QCheckBox(self.tr("Disabled (keep it here, but do not start it)"))
        self.disabled.setObjectName("mcpDisabledCheck")
        self.disabled.setChecked(shown.disabled)
        self.problem = QLabel()
        self.problem.setObjectName("mcpProblemLabel")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {themes.current().risk_destructive}")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.setObjectName("mcpServerButtons")
        buttons.accepted.connect(self._accept_if_valid)
        buttons.rejected.connect(self.reject)
        self.form = QFormLayout(self)
        self.form.addRow(self.tr("Name"), self.name)
        self.form.addRow(self.tr("Kind"), self.kind)
        self.form.addRow(self.tr("Command"), self.command)
        self.form.addRow(self.tr("Arguments"), self.args)
        self.form.addRow(self.tr("Environment"), self.env)
        self.form.addRow(self.tr("Working folder"), self.cwd)
        self.form.addRow(self.tr("URL"), self.url)
        self.form.addRow(self.tr("Headers"), self.headers)
        self.form.addRow(self.tr("Timeout per call"), self.timeout)
        self.form.addRow("", self.disabled)
        self.form.addRow(self.problem)
        self.form.addRow(buttons)
        self.kind.currentIndexChanged.connect(lambda _i: self._show_fields())
        self.kind.setCurrentIndex(1 if shown.url else 0)
        self._show_fields()

    def _show_fields(self) -> None:
        stdio = self.kind.currentData() == "stdio"
        for widget, visible in ((self.command, stdio), (self.args, stdio), (self.env, stdio), (self.cwd, stdio),
                                (self.url, not stdio), (self.headers, not stdio)):
            self.form.setRowVisible(widget, visible)

    def entry(self) -> dict[str, Any]:
        """The mcp.json entry the form describes. Raises MCPConfigError when a field cannot be read."""
        entry: dict[str, Any] = {"timeout": self.timeout.value()}
        if self.disabled.isChecked():
            entry["disabled"] = True
        if self.kind.currentData() == "stdio":
            try:
                args = shlex.split(self.args.text())
            except ValueError as exc:
                raise MCPConfigError(f"arguments: {exc}") from exc
            entry.update(command=self.command.text().strip(), args=args,
                         env=_pairs(self.env.toPlainText(), "="), cwd=self.cwd.text().strip())
        else:
            entry.update(url=self.url.text().strip(), headers=_pairs(self.headers.toPlainText(), ":"))
        return entry

    def server_name(self) -> str:
        return self.name.text().strip()

    def _accept_if_valid(self) -> None:
        try:
            parse_server(self.server_name(), self.entry())
        except MCPConfigError as exc:
            self.problem.setText(str(exc))
            return
        self.accept()
