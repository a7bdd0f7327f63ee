"""The approval dialog: the tool, its source, the risk, the model's reason, every argument, and the impact.

Deny is the default button, so a stray Enter denies; closing the dialog any other way is
a denial too. "Always allow" is not offered when a destructive call is bigger than the
threshold. File paths in the arguments are shown resolved inside the workspace.

A folder delete names what goes (issue 24: "will delete 12 files in reports" said how much, not what): the first
files by name (the impact's `names`, core/tools/builtin/files.first_files), then "and N more".
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from hermes_desktop.core.tools.approval import ApprovalRequest, Decision
from hermes_desktop.ui import design
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui import words

_PATH_KEYS = ("path", "src", "dst")
_TEXT_SHOWN = 4000  # characters of a file's new text shown as text in the dialog (the JSON above has it all)


def source_words(source: str, detail: str = "") -> str:
    """Where the tool comes from, as a whole translated sentence (ui/words.py)."""
    return words.source_sentence(source, detail)


class ApprovalDialog(QDialog):
    def __init__(self, request: ApprovalRequest, parent: QWidget | None = None, *, workspace: Any = None,
                 session_title: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("approvalDialog")
        self.setWindowTitle(self.tr("Allow this action?"))
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.request = request
        self.decision = Decision.DENY
        theme = themes.current()
        risk_colour = theme.risk_colour(request.risk.value)

        heading = QLabel(self.tr("Hermes wants to run:"))
        self.tool_label = QLabel(request.tool_name)
        self.tool_label.setObjectName("toolNameLabel")
        self.tool_label.setTextFormat(Qt.TextFormat.PlainText)
        self.tool_label.setFont(design.title(self.font()))  # the type scale's title step (ui/design.py)
        source = QLabel(source_words(request.source, request.source_detail))
        source.setObjectName("sourceLabel")
        source.setTextFormat(Qt.TextFormat.PlainText)
        level = f"<span style='color:{risk_colour}; font-weight:bold'>{escape(words.risk_name(request.risk.value).upper())}</span>"
        risk = QLabel(self.tr("{level} — {explanation}").format(
            level=level, explanation=escape(words.risk_explanation(request.risk.value))))
        risk.setObjectName("riskLabel")
        risk.setTextFormat(Qt.TextFormat.RichText)
        impact = words.impact_text(request.impact_code, request.impact_params, request.impact,
                                   tool=request.tool_name, source=request.source)
        self.impact_label = QLabel(impact or words.no_impact_text())
        self.impact_label.setTextFormat(Qt.TextFormat.PlainText)
        self.impact_label.setObjectName("impactLabel")
        self.impact_label.setWordWrap(True)
        font = self.impact_label.font()
        font.setBold(True)
        self.impact_label.setFont(font)
        if request.asked_before is not None:  # the disk changed after it was allowed (core/tool_calls.py)
            before = request.asked_before
            was = words.impact_text(before.impact_code, before.impact_params, before.impact, tool=before.tool_name,
                                    source=before.source) or words.no_impact_text()
            self.impact_label.setText(self.impact_label.text() + "\n" + self.tr(
                "Asked again: this changed on disk after it was allowed. Before, it was: {0}").format(was))
        if request.over_threshold:
            self.impact_label.setText(self.impact_label.text() + "\n" + self.tr(
                "This is a large change, so Hermes asks even if you allowed this tool before."))
        self.files_label = QLabel(self.files_text())
        self.files_label.setObjectName("deleteFilesLabel")
        self.files_label.setTextFormat(Qt.TextFormat.PlainText)  # file names are shown, never rendered
        self.files_label.setWordWrap(True)
        self.files_label.setVisible(bool(self.files_label.text()))
        reason = QLabel(self.tr("The model said: “{0}”").format(request.reason) if request.reason else "")
        reason.setObjectName("reasonLabel")
        reason.setTextFormat(Qt.TextFormat.PlainText)
        reason.setWordWrap(True)
        reason.setVisible(bool(request.reason))
        where = QLabel(self.tr("Session: {0}").format(session_title) if session_title else "")
        where.setTextFormat(Qt.TextFormat.PlainText)
        where.setVisible(bool(session_title))
        self.args_view = QPlainTextEdit(self.arguments_text(workspace))
        self.args_view.setObjectName("argsView")
        self.args_view.setAccessibleName(self.tr("The tool call's arguments"))
        self.args_view.setReadOnly(True)
        self.args_view.setFont(QFont("monospace"))
        self.args_view.setMinimumHeight(140)

        self.deny_button = self._button(self.tr("Deny"), "denyButton", Decision.DENY)
        self.allow_once_button = self._button(self.tr("Allow once"), "allowOnceButton", Decision.ALLOW_ONCE)
        self.allow_session_button = self._button(self.tr("Allow for this session"), "allowSessionButton",
                                                 Decision.ALLOW_SESSION)
        # A session grant covers only this kind of change (core/tools/grants.py): said where the choice is made.
        self.allow_session_button.setToolTip(self.tr(
            "Allow this tool for the rest of this conversation, for this kind of change only: allowing it to create "
            "a file does not allow it to overwrite one, and allowing it to delete some files does not allow it to "
            "delete more."))
        self.always_button = self._button(self.tr("Always allow this tool"), "alwaysAllowButton", Decision.ALLOW_ALWAYS)
        self.always_button.setVisible(not request.over_threshold)
        self.deny_button.setDefault(True)
        self.deny_button.setAutoDefault(True)
        for other in (self.allow_once_button, self.allow_session_button, self.always_button):
            other.setAutoDefault(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.always_button)
        buttons.addStretch(1)
        buttons.addWidget(self.allow_session_button)
        buttons.addWidget(self.allow_once_button)
        buttons.addWidget(self.deny_button)
        layout = QVBoxLayout(self)
        for widget in (heading, self.tool_label, source, risk, where, reason, self.impact_label, self.files_label):
            layout.addWidget(widget)
        layout.addWidget(QLabel(self.tr("Arguments:")))
        layout.addWidget(self.args_view, 1)
        layout.addLayout(buttons)
        self.resize(620, 460)
        self.deny_button.setFocus()

    def _button(self, text: str, name: str, decision: Decision) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.clicked.connect(lambda: self.choose(decision))
        return button

    def choose(self, decision: Decision) -> None:
        self.decision = decision
        if decision is Decision.DENY:
            self.reject()
        else:
            self.accept()

    def reject(self) -> None:
        self.decision = Decision.DENY  # Esc, the close button, a cancelled turn: all deny
        super().reject()

    def files_text(self) -> str:
        """The files a folder delete removes: the first few by name, then how many more ("" for other calls)."""
        from hermes_desktop.core.terminal_text import visible_controls

        params = self.request.impact_params or {}
        names = params.get("names") if self.request.impact_code == "delete_folder" else None
        if not isinstance(names, list) or not names:
            return ""
        lines = [self.tr("Files to be deleted:")] + [f"  • {visible_controls(str(name))}" for name in names]
        try:
            more = int(params.get("files") or 0) - len(names)
        except (TypeError, ValueError):
            more = 0
        if more > 0:
            lines.append("  " + self.tr("… and {0} more").format(f"{more:,}"))
        return "\n".join(lines)

    def _text_to_write(self, arguments: dict[str, Any]) -> str:
        """A file's or note's new text as it will read, under the JSON (where it is one string with \\n in it:
        issue 24 found a write approval unreadable). Shown as text, controls made visible, at most 4,000 chars."""
        from hermes_desktop.core.terminal_text import visible_controls

        content = arguments.get("content")
        if not isinstance(content, str) or "\n" not in content.strip():
            return ""
        shown = content if len(content) <= _TEXT_SHOWN else content[:_TEXT_SHOWN] + "\n" + self.tr(
            "… and {0} more characters").format(f"{len(content) - _TEXT_SHOWN:,}")
        lines = [visible_controls(line) for line in shown.split("\n")]
        return "\n\n" + self.tr("Text to be written:") + "\n" + "\n".join(f"  │ {line}" for line in lines)

    def arguments_text(self, workspace: Any) -> str:
        """The arguments exactly as the model sent them, then where each path lands on disk, on lines of their own
        (written into the JSON, the resolved path read as if the model had sent it)."""
        from hermes_desktop.core.terminal_text import terminal_safe_json, visible_controls

        arguments = dict(self.request.arguments)
        # Bidi overrides, line separators and C1 controls as \u escapes (the same JSON): they cannot reorder or
        # hide what the user is judging.
        text = terminal_safe_json(arguments, indent=2) + self._text_to_write(arguments)
        if workspace is None or self.request.source.startswith("mcp:"):
            # An MCP server works in its own folders, not in Hermes' workspace: the built-in file tools' verdict
            # ("refused: outside the workspace") said nothing true about its call (issue 24).
            return text
        lines = []
        for key in _PATH_KEYS:
            value = arguments.get(key)
            if isinstance(value, str):
                shown = visible_controls(value)
                try:
                    lines.append(self.tr("{key}: {path}  →  {resolved}").format(
                        key=key, path=shown, resolved=visible_controls(str(workspace.resolve_entry(value)))))
                except Exception as exc:  # refused paths are shown as refused
                    lines.append(self.tr("{key}: {path}  →  refused: {reason}").format(
                        key=key, path=shown, reason=visible_controls(str(exc))))
        if not lines:
            return text
        return text + "\n\n" + self.tr("On disk:") + "\n" + "\n".join(lines)
