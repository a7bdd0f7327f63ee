"""The right-hand inspector: Tools (enable/disable, schemas), Skills, and the Activity trace."""

from __future__ import annotations

import json
from typing import Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QComboBox, QListWidget, QListWidgetItem, QTabWidget, QTreeWidget, QTreeWidgetItem, QWidget

from hermes_desktop.core.tools.approval import rule_key
from hermes_desktop.core.tools.spec import ToolSpec
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.activity import ActivityRecorder, TurnActivity

NAME_ROLE = Qt.ItemDataRole.UserRole + 1
MESSAGE_ROLE = Qt.ItemDataRole.UserRole + 2
CALL_ROLE = Qt.ItemDataRole.UserRole + 3


def _source_title(source: str) -> str:
    if source == "builtin":
        return "Built-in"
    if source.startswith("skill:"):
        return f"Skill: {source[6:]}"
    if source.startswith("mcp:"):
        return f"MCP: {source[4:]}"
    return source


class Inspector(QTabWidget):
    sig_tool_toggled = Signal(str, bool)
    """A tool was enabled (True) or disabled (False): disabled tools are not sent to the model."""
    sig_rule_changed = Signal(str, object)
    """An approval rule for a tool: (rule key, "always_allow" | "ask" | "never_allow" | None for the default)."""
    sig_show_in_chat = Signal(object, object)
    """Scroll the chat to (message id, tool call id) of the selected activity entry."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self.setAccessibleName(self.tr("Inspector"))
        self.tools = QTreeWidget()
        self.tools.setObjectName("toolList")
        self.tools.setAccessibleName(self.tr("Tools"))
        self.tools.setHeaderLabels([self.tr("Tool"), self.tr("Risk"), self.tr("Approval")])
        self.tools.setColumnWidth(0, 170)
        self.tools.setColumnWidth(1, 80)
        self.tools.setWordWrap(True)
        self.tools.itemChanged.connect(self._tool_changed)
        self.skills = QListWidget()
        self.skills.setObjectName("skillList")
        self.skills.setAccessibleName(self.tr("Skills"))
        self.activity = QTreeWidget()
        self.activity.setObjectName("activityLog")
        self.activity.setAccessibleName(self.tr("Activity"))
        self.activity.setHeaderHidden(True)
        self.activity.setWordWrap(True)
        self.activity.itemSelectionChanged.connect(self._activity_selected)
        self.addTab(self.tools, self.tr("Tools"))
        self.addTab(self.skills, self.tr("Skills"))
        self.addTab(self.activity, self.tr("Activity"))
        self._filling = False
        self.show_skills([])

    # ------------------------------------------------------------------ tools
    def show_tools(self, specs: Iterable[ToolSpec], disabled: set[str], rules: dict[str, str] | None = None) -> None:
        rules = rules or {}
        self._filling = True
        self.tools.clear()
        theme = themes.current()
        groups: dict[str, QTreeWidgetItem] = {}
        for spec in sorted(specs, key=lambda s: (s.source != "builtin", s.source, s.name)):
            group = groups.get(spec.source)
            if group is None:
                group = QTreeWidgetItem([_source_title(spec.source)])
                font = group.font(0)
                font.setBold(True)
                group.setFont(0, font)
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                self.tools.addTopLevelItem(group)
                group.setExpanded(True)
                groups[spec.source] = group
            item = QTreeWidgetItem(group, [spec.name, spec.risk.value])
            item.setData(0, NAME_ROLE, spec.name)
            item.setToolTip(0, spec.description)
            item.setForeground(1, QColor(theme.risk_colour(spec.risk.value)))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsSelectable)
            item.setCheckState(0, Qt.CheckState.Unchecked if spec.name in disabled else Qt.CheckState.Checked)
            self.tools.setItemWidget(item, 2, self._rule_combo(rule_key(spec.name, spec.source), rules))
            description = QTreeWidgetItem(item, [spec.description])
            description.setFirstColumnSpanned(True)
            description.setFlags(Qt.ItemFlag.ItemIsEnabled)
            schema = QTreeWidgetItem(item, [self.tr("JSON schema")])
            schema.setFlags(Qt.ItemFlag.ItemIsEnabled)
            text = QTreeWidgetItem(schema, [json.dumps(spec.parameters, indent=2, ensure_ascii=False)])
            text.setFirstColumnSpanned(True)
            text.setFont(0, QFont("monospace"))
            text.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        self._filling = False

    def _rule_combo(self, key: str, rules: dict[str, str]) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(f"rule:{key}")
        for value, label in ((None, self.tr("Default")), ("always_allow", self.tr("Always allow")),
                             ("ask", self.tr("Ask")), ("never_allow", self.tr("Never allow"))):
            combo.addItem(label, value)
        combo.setCurrentIndex(max(0, combo.findData(rules.get(key))))
        combo.currentIndexChanged.connect(lambda _i: self.sig_rule_changed.emit(key, combo.currentData()))
        return combo

    def update_rules(self, rules: dict[str, str]) -> None:
        """Show rules changed elsewhere (the approval dialog, the settings) without re-emitting them."""
        for combo in self.tools.findChildren(QComboBox):
            key = combo.objectName().removeprefix("rule:")
            index = max(0, combo.findData(rules.get(key)))
            if combo.currentIndex() != index:
                combo.blockSignals(True)
                combo.setCurrentIndex(index)
                combo.blockSignals(False)

    def _tool_changed(self, item: QTreeWidgetItem, column: int) -> None:
        name = item.data(0, NAME_ROLE)
        if self._filling or column != 0 or not name:
            return
        self.sig_tool_toggled.emit(name, item.checkState(0) == Qt.CheckState.Checked)

    def tool_item(self, name: str) -> QTreeWidgetItem | None:
        for g in range(self.tools.topLevelItemCount()):
            group = self.tools.topLevelItem(g)
            for c in range(group.childCount()):
                if group.child(c).data(0, NAME_ROLE) == name:
                    return group.child(c)
        return None

    # ------------------------------------------------------------------ skills
    def show_skills(self, skills: list[tuple[str, str]]) -> None:
        self.skills.clear()
        if not skills:
            empty = QListWidgetItem(self.tr("No skills installed."))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.skills.addItem(empty)
        for name, description in skills:
            item = QListWidgetItem(f"{name}\n{description}")
            self.skills.addItem(item)

    # ------------------------------------------------------------------ activity
    def show_activity(self, recorder: ActivityRecorder | None) -> None:
        self.activity.clear()
        if recorder is None or not recorder.turns:
            empty = QTreeWidgetItem([self.tr("Nothing yet: each turn's model calls, tool calls and context "
                                             "budget appear here.")])
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.activity.addTopLevelItem(empty)
            return
        for turn in recorder.turns:
            self.activity.addTopLevelItem(self._turn_item(turn))
        last = self.activity.topLevelItem(self.activity.topLevelItemCount() - 1)
        last.setExpanded(True)
        self.activity.scrollToItem(last.child(last.childCount() - 1) if last.childCount() else last)

    def _turn_item(self, turn: TurnActivity) -> QTreeWidgetItem:
        state = "" if turn.finished in (None, "completed") else f"  [{turn.finished}]"
        top = QTreeWidgetItem([("▶ " if turn.finished is None else "") + turn.title + state])
        top.setData(0, MESSAGE_ROLE, turn.user_message_id)
        for entry in turn.entries:
            child = QTreeWidgetItem(top, [entry.title])
            child.setToolTip(0, entry.detail)
            child.setData(0, MESSAGE_ROLE, entry.message_id)
            child.setData(0, CALL_ROLE, entry.call_id)
            if entry.detail:
                detail = QTreeWidgetItem(child, [entry.detail])
                detail.setFlags(Qt.ItemFlag.ItemIsEnabled)
        return top

    def _activity_selected(self) -> None:
        items = self.activity.selectedItems()
        if items:
            message_id, call_id = items[0].data(0, MESSAGE_ROLE), items[0].data(0, CALL_ROLE)
            if message_id is not None or call_id is not None:
                self.sig_show_in_chat.emit(message_id, call_id)


