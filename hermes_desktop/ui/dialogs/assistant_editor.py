"""Create or edit an assistant (objectName `assistantEditor`): name, emoji, description, instructions, model and
parameters, side-task model, the tools it may use, skills, MCP servers, knowledge bases, memory, starter prompts.

The dialog only gathers values; `assistant()` builds the Assistant and checks it with the same validation a file
gets (core/assistants/model.from_json), so a bad value is reported at its field and nothing is saved. Tools are
ticked one by one: a new assistant starts with the read-only tools; nothing here can grant "all" (only Hermes).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.assistants.model import Assistant, AssistantFormatError, from_json

NAME_ROLE = Qt.ItemDataRole.UserRole + 1
DEFAULT_TOOLS = ("get_current_time", "calculate", "list_directory", "read_file", "search_files")


def _checklist(object_name: str, names: Sequence[tuple[str, str]], ticked: Sequence[str]) -> QListWidget:
    widget = QListWidget()
    widget.setObjectName(object_name)
    for name, label in names:
        item = QListWidgetItem(label)
        item.setData(NAME_ROLE, name)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if name in ticked else Qt.CheckState.Unchecked)
        widget.addItem(item)
    return widget


def _ticked(widget: QListWidget) -> tuple[str, ...]:
    return tuple(widget.item(i).data(NAME_ROLE) for i in range(widget.count())
                 if widget.item(i).checkState() == Qt.CheckState.Checked)


class AssistantEditor(QDialog):
    def __init__(self, assistant: Assistant | None, *, tools: Sequence[tuple[str, str]], skills: Sequence[str],
                 servers: Sequence[str], profiles: Sequence[tuple[str, str]], parent: QWidget | None = None) -> None:
        """`tools`: (name, "name — risk") of the built-in tools; `profiles`: (id, shown name)."""
        super().__init__(parent)
        self.setObjectName("assistantEditor")
        self.original = assistant
        new = assistant is None
        a = assistant or Assistant(id="", name="", tools=DEFAULT_TOOLS)
        self.setWindowTitle(self.tr("New assistant") if new else self.tr("Edit assistant"))
        self.name = QLineEdit(a.name)
        self.name.setObjectName("assistantNameEdit")
        self.emoji = QLineEdit(a.emoji)
        self.emoji.setObjectName("assistantEmojiEdit")
        self.emoji.setMaxLength(8)
        self.emoji.setFixedWidth(64)
        self.description = QLineEdit(a.description)
        self.description.setObjectName("assistantDescriptionEdit")
        self.instructions = QPlainTextEdit(a.instructions)
        self.instructions.setObjectName("assistantInstructionsEdit")
        self.instructions.setPlaceholderText(self.tr("What this assistant does and how it answers (Markdown). "
                                                     "Variables: {date}, {language}, {workspace}."))
        self.instructions.setTabChangesFocus(True)
        self.starters = QPlainTextEdit("\n".join(a.starters))
        self.starters.setObjectName("assistantStartersEdit")
        self.starters.setPlaceholderText(self.tr("One starter prompt per line (shown in an empty chat)"))
        self.starters.setTabChangesFocus(True)
        self.starters.setMaximumHeight(90)

        self.profile = QComboBox()
        self.profile.setObjectName("assistantProfileCombo")
        self.profile.addItem(self.tr("The default provider"), None)
        for profile_id, shown in profiles:
            self.profile.addItem(shown, profile_id)
        index = self.profile.findData(a.profile_id)
        self.profile.setCurrentIndex(max(0, index))
        self.model = QLineEdit(a.model or "")
        self.model.setObjectName("assistantModelEdit")
        self.model.setPlaceholderText(self.tr("The provider's model"))
        self.side_profile = QComboBox()
        self.side_profile.setObjectName("assistantSideProfileCombo")
        self.side_profile.addItem(self.tr("The chat's provider"), None)
        for profile_id, shown in profiles:
            self.side_profile.addItem(shown, profile_id)
        self.side_profile.setCurrentIndex(max(0, self.side_profile.findData(a.side_profile_id)))
        self.side_model = QLineEdit(a.side_model or "")
        self.side_model.setObjectName("assistantSideModelEdit")
        self.side_model.setPlaceholderText(self.tr("Same as the chat (titles, summaries, memory)"))
        self.temperature = self._number(0, 2, 0.1, a.temperature, "assistantTemperature")
        self.top_p = self._number(0, 1, 0.05, a.top_p, "assistantTopP")
        self.max_tokens = QSpinBox()
        self.max_tokens.setObjectName("assistantMaxTokens")
        self.max_tokens.setRange(0, 1_000_000)
        self.max_tokens.setSingleStep(256)
        self.max_tokens.setSpecialValueText(self.tr("Provider's setting"))
        self.max_tokens.setValue(a.max_output_tokens or 0)
        self.effort = QComboBox()
        self.effort.setObjectName("assistantEffortCombo")
        for value, label in ((None, self.tr("Provider's setting")), ("low", self.tr("Low")),
                             ("medium", self.tr("Medium")), ("high", self.tr("High"))):
            self.effort.addItem(label, value)
        self.effort.setCurrentIndex(max(0, self.effort.findData(a.reasoning_effort)))

        self.tools = _checklist("assistantToolList", tools, a.tools or ())
        self.skills = _checklist("assistantSkillList", [(s, s) for s in skills], a.skills or ())
        self.servers = _checklist("assistantServerList", [(s, s) for s in servers], a.mcp_servers or ())
        self.knowledge = QLineEdit(", ".join(a.knowledge))
        self.knowledge.setObjectName("assistantKnowledgeEdit")
        self.knowledge.setPlaceholderText(self.tr("Knowledge base names, separated by commas"))
        self.memory = QCheckBox(self.tr("Use and record memory"))
        self.memory.setObjectName("assistantMemoryCheck")
        self.memory.setChecked(a.memory)

        about = QWidget()
        form = QFormLayout(about)
        name_row = QHBoxLayout()
        name_row.addWidget(self.emoji)
        name_row.addWidget(self.name, 1)
        form.addRow(self.tr("Name"), name_row)
        form.addRow(self.tr("Description"), self.description)
        form.addRow(self.tr("Instructions"), self.instructions)
        form.addRow(self.tr("Starter prompts"), self.starters)
        model_page = QWidget()
        model_form = QFormLayout(model_page)
        model_form.addRow(self.tr("Provider"), self.profile)
        model_form.addRow(self.tr("Model"), self.model)
        model_form.addRow(self.tr("Temperature"), self.temperature)
        model_form.addRow(self.tr("Top P"), self.top_p)
        model_form.addRow(self.tr("Max output tokens"), self.max_tokens)
        model_form.addRow(self.tr("Reasoning effort"), self.effort)
        model_form.addRow(self.tr("Side-task provider"), self.side_profile)
        model_form.addRow(self.tr("Side-task model"), self.side_model)
        tools_page = QWidget()
        tools_column = QVBoxLayout(tools_page)
        note = QLabel(self.tr("The assistant may use only what is ticked. Your approval rules still apply: "
                              "writes and deletes still ask you."))
        note.setWordWrap(True)
        tools_column.addWidget(note)
        tools_column.addWidget(self.tools, 2)
        tools_column.addWidget(QLabel(self.tr("Skills")))
        tools_column.addWidget(self.skills, 1)
        tools_column.addWidget(QLabel(self.tr("MCP servers")))
        tools_column.addWidget(self.servers, 1)
        knowledge_row = QFormLayout()
        knowledge_row.addRow(self.tr("Knowledge"), self.knowledge)
        tools_column.addLayout(knowledge_row)
        tools_column.addWidget(self.memory)
        self.tabs = QTabWidget()
        self.tabs.addTab(about, self.tr("Assistant"))
        self.tabs.addTab(model_page, self.tr("Model"))
        self.tabs.addTab(tools_page, self.tr("Tools"))
        self.problem = QLabel()
        self.problem.setObjectName("assistantProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        self.problem.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setObjectName("saveAssistantButton")
        self.buttons.accepted.connect(self._check_and_accept)
        self.buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        column.addWidget(self.tabs, 1)
        column.addWidget(self.problem)
        column.addWidget(self.buttons)
        self.resize(620, 560)
        self.result_assistant: Assistant | None = None
        self.name.setFocus()

    def _number(self, low: float, high: float, step: float, value: float | None, name: str) -> QDoubleSpinBox:
        box = QDoubleSpinBox()
        box.setObjectName(name)
        box.setRange(low - step, high)  # the lowest value means "the provider's setting"
        box.setSingleStep(step)
        box.setDecimals(2)
        box.setSpecialValueText(self.tr("Provider's setting"))
        box.setValue(value if value is not None else low - step)
        return box

    def _value(self, box: QDoubleSpinBox) -> float | None:
        return None if box.value() < box.minimum() + 1e-9 else round(box.value(), 2)

    def assistant(self) -> Assistant:
        """The edited assistant, validated as a file would be; raises AssistantFormatError at the bad field."""
        data = {
            "name": self.name.text(), "emoji": self.emoji.text().strip(), "description": self.description.text(),
            "instructions": self.instructions.toPlainText(),
            "model": {"profile_id": self.profile.currentData(), "model": self.model.text().strip() or None},
            "parameters": {"temperature": self._value(self.temperature), "top_p": self._value(self.top_p),
                           "max_output_tokens": self.max_tokens.value() or None,
                           "reasoning_effort": self.effort.currentData()},
            "side_model": {"profile_id": self.side_profile.currentData(),
                           "model": self.side_model.text().strip() or None},
            "tools": list(_ticked(self.tools)), "skills": list(_ticked(self.skills)),
            "mcp_servers": list(_ticked(self.servers)),
            "knowledge": [k.strip() for k in self.knowledge.text().split(",") if k.strip()],
            "memory": self.memory.isChecked(),
            "starters": [line.strip() for line in self.starters.toPlainText().splitlines() if line.strip()],
        }
        made = from_json(data, "assistant")
        original = self.original
        if original is None or original.builtin:
            return made
        return replace(made, id=original.id, origin=original.origin, group=original.group,
                       translations=original.translations)

    def _check_and_accept(self) -> None:
        try:
            self.result_assistant = self.assistant()
        except AssistantFormatError as exc:
            self.show_problem(exc.problem if exc.place else str(exc), exc.place)
            return
        self.accept()

    def show_problem(self, text: str, place: str = "") -> None:
        field = place.rsplit(".", 1)[-1] if place else ""
        labels = {"name": self.tr("Name"), "instructions": self.tr("Instructions"), "description": self.tr("Description"),
                  "emoji": self.tr("Emoji")}
        shown = labels.get(field, field)
        self.problem.setText(f"{shown}: {text}" if shown else text)
        self.problem.show()
