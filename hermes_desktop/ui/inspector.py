"""The right-hand inspector: Tools (enable/disable, schemas), Skills, MCP servers, the Activity trace, Memory
(ui/memory_panel.py), Knowledge (ui/knowledge_panel.py) and Assistants (ui/assistant_panel.py).

Only the tab on screen is built before the window's first paint (ui/launch.py); the others hold an empty page
until `build_pages()` (MainWindow.finish_start, right after the paint), until they are shown, or until code asks
for one of their widgets (`skills`, `mcp`, `activity`, `memory`, … are properties that build their page).
`when_built(key, callback)` lets a helper connect to a page whenever it comes."""

from __future__ import annotations

import json
from html import escape
from typing import TYPE_CHECKING, Any, Callable, Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QHeaderView,
    QListWidgetItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from hermes_desktop.ui import theme as themes
from hermes_desktop.ui import words
from hermes_desktop.ui.keyboard import fit_tool_columns, install_tool_keys

if TYPE_CHECKING:
    from hermes_desktop.core.tools.spec import ToolSpec
    from hermes_desktop.ui.activity import ActivityRecorder, TurnActivity

NAME_ROLE = Qt.ItemDataRole.UserRole + 1
MESSAGE_ROLE = Qt.ItemDataRole.UserRole + 2
CALL_ROLE = Qt.ItemDataRole.UserRole + 3


def _skill_html(row: dict[str, object], problems: list[str], theme: themes.Theme) -> str:
    """Name in bold (with a dot when active in this session), state muted, description, problems coloured."""
    marker = f"<span style='color:{theme.accent}'>● </span>" if row["active"] else ""
    html = (f"{marker}<b>{escape(str(row['name']))}</b>&nbsp;&nbsp;"
            f"<span style='color:{theme.muted}'>{escape(str(row['state']))}</span><br>{escape(str(row['description']))}")
    for text, present in row.get("requirements") or []:  # type: ignore[union-attr]
        colour = theme.muted if present else theme.risk_write
        html += f"<br><span style='color:{colour}'>{'✓' if present else '✗'} {escape(str(text))}</span>"
    for problem in problems:
        html += f"<br><span style='color:{theme.risk_write}'>⚠ {escape(problem)}</span>"
    return html


class _OnPage:
    """An inspector attribute that lives on a tab page built on first use: reading it builds the page (the page's
    builder sets it as `_<name>`)."""

    def __init__(self, page: str) -> None:
        self.page = page
        self.private = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.private = "_" + name

    def __get__(self, inspector: "Inspector | None", owner: type | None = None) -> Any:
        if inspector is None:
            return self
        inspector._ensure(self.page)
        return getattr(inspector, self.private)


class Inspector(QTabWidget):
    sig_tool_toggled = Signal(str, bool)
    """A tool was enabled (True) or disabled (False): disabled tools are not sent to the model."""
    sig_rule_changed = Signal(str, object)
    """An approval rule for a tool: (rule key, "always_allow" | "ask" | "never_allow" | None for the default)."""
    sig_show_in_chat = Signal(object, object)
    """Scroll the chat to (message id, tool call id) of the selected activity entry."""
    sig_skill_action = Signal(str, str)
    """A Skills-tab button: (action, skill name). Actions: toggle (use in this session or stop), trust, reload,
    open_folder (the name is empty for reload and open_folder)."""

    def __init__(self, parent: QWidget | None = None, *, lazy: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("inspector")
        self.setDocumentMode(True)  # flat tabs over the page, no box around it (calmer; ui/design.py)
        self.setAccessibleName(self.tr("Inspector"))
        self.tools = QTreeWidget()
        self.tools.setObjectName("toolList")
        self.tools.setAccessibleName(self.tr("Tools"))
        self.tools.setHeaderLabels([self.tr("Tool"), self.tr("Risk"), self.tr("Approval")])
        # The tab is narrow (390 px at the default window): the name column takes what Risk and the Approval
        # combos leave, so no horizontal scroll bar appears and the combos keep their arrows (fit_tool_columns).
        self.tools.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tools.header().setStretchLastSection(False)
        self.tools.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tools.header().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.tools.header().setSectionResizeMode(2, QHeaderView.ResizeMode.Fixed)
        self.tools.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tools.setWordWrap(True)
        install_tool_keys(self.tools)
        self.tools.itemChanged.connect(self._tool_changed)
        self.addTab(self.tools, self.tr("Tools"))
        self._filling = False
        self._skill_states: dict[str, dict[str, object]] = {}
        self._activity_shown: tuple[ActivityRecorder | None, int] = (None, 0)  # which trace, how many turns
        # The other tabs: an empty stand-in page each until built (see the module docstring). Memory last, so a
        # saved tab index (main_window state) keeps pointing where it did.
        self._unbuilt: dict[str, tuple[QWidget, Callable[[], QWidget]]] = {}
        self._built: dict[str, QWidget] = {}
        self._when_built: dict[str, list[Callable[[QWidget], None]]] = {}
        for key, label, build in (("skills", self.tr("Skills"), self._build_skills),
                                  ("mcp", self.tr("MCP"), self._build_mcp),
                                  ("activity", self.tr("Activity"), self._build_activity),
                                  ("memory", self.tr("Memory"), self._build_memory),
                                  ("knowledge", self.tr("Knowledge"), self._build_knowledge),
                                  ("assistants", self.tr("Assistants"), self._build_assistants)):
            stand_in = QWidget()
            self.addTab(stand_in, label)
            self._unbuilt[key] = (stand_in, build)
        self.currentChanged.connect(self._build_current)
        if not lazy:
            self.build_pages()

    # ------------------------------------------------------------------ pages built when needed
    def build_pages(self) -> None:
        """Build every tab not built yet (after the first paint)."""
        for key in list(self._unbuilt):
            self._ensure(key)

    def when_built(self, key: str, callback: Callable[[QWidget], None]) -> None:
        """Call `callback(page)` once the page `key` is built: now if it is."""
        if key in self._unbuilt:
            self._when_built.setdefault(key, []).append(callback)
        else:
            callback(self._built[key])

    def _build_current(self, index: int) -> None:
        for key, (stand_in, _build) in list(self._unbuilt.items()):
            if self.indexOf(stand_in) == index:
                self._ensure(key)

    def _ensure(self, key: str) -> None:
        entry = self._unbuilt.pop(key, None)
        if entry is None:
            return
        stand_in, build = entry
        page = self._built[key] = build()
        index = self.indexOf(stand_in)
        current = self.currentIndex()
        blocked = self.blockSignals(True)  # the same tab stays current: no currentChanged for the swap
        try:
            self.insertTab(index, page, self.tabText(index))
            self.removeTab(index + 1)
            self.setCurrentIndex(current)
        finally:
            self.blockSignals(blocked)
        stand_in.deleteLater()
        for callback in self._when_built.pop(key, []):
            callback(page)

    def _build_skills(self) -> QWidget:
        from hermes_desktop.ui.empty_state import EmptyState, only_placeholder, overlay_when_empty
        from hermes_desktop.ui.panels import button, list_with_buttons
        from hermes_desktop.ui.rich_list import rich_list

        self._skills = rich_list("skillList", self.tr("Skills"))
        self._skills.itemSelectionChanged.connect(self._skill_selected)
        self._skill_toggle = button(self.tr("Use in this session"), "pinSkillButton", lambda: self._skill_button("toggle"))
        self._skill_trust = button(self.tr("Trust its code…"), "trustSkillButton", lambda: self._skill_button("trust"))
        skills_page = QWidget()
        list_with_buttons(skills_page, self._skills, [
            [self._skill_toggle, self._skill_trust],
            [button(self.tr("Reload"), "reloadSkillsButton", lambda: self.sig_skill_action.emit("reload", "")),
             button(self.tr("Open skills folder"), "openSkillsFolderButton",
                    lambda: self.sig_skill_action.emit("open_folder", ""))],
            [button(self.tr("Install from URL…"), "installSkillUrlButton",
                    lambda: self.sig_skill_action.emit("install_url", "")),
             button(self.tr("Browse collections…"), "browseSkillCollectionsButton",
                    lambda: self.sig_skill_action.emit("collections", ""))],
            [button(self.tr("Save as skill…"), "saveAsSkillButton",
                    lambda: self.sig_skill_action.emit("save_as_skill", "")),
             button(self.tr("Learning…"), "learningButton", lambda: self.sig_skill_action.emit("learning", ""))],
        ])
        self._skills_empty = overlay_when_empty(self._skills, lambda: EmptyState(
            "skills", self.tr("No skills installed"),
            self.tr("Put skill folders (SKILL.md or skill.yaml) in the skills folder, then press Reload."),
            [(self.tr("Open skills folder"), "emptyOpenSkillsFolderButton",
              lambda: self.sig_skill_action.emit("open_folder", "")),
             (self.tr("Reload"), "emptyReloadSkillsButton", lambda: self.sig_skill_action.emit("reload", ""))],
            object_name="skillsEmptyState"), lambda: only_placeholder(self._skills))
        self._skill_selected()  # its buttons off; no "No skills installed" before the engine has looked
        return skills_page

    def _build_mcp(self) -> QWidget:
        from hermes_desktop.ui.mcp_panel import McpPanel

        self._mcp = McpPanel()
        return self._mcp

    def _build_activity(self) -> QWidget:
        from hermes_desktop.ui.empty_state import EmptyState, only_placeholder, overlay_when_empty

        self._activity = QTreeWidget()
        self._activity.setObjectName("activityLog")
        self._activity.setAccessibleName(self.tr("Activity"))
        self._activity.setHeaderHidden(True)
        self._activity.setWordWrap(True)
        self._activity.itemSelectionChanged.connect(self._activity_selected)
        self._activity.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self._activity.customContextMenuRequested.connect(self._activity_menu)
        self._activity_empty = overlay_when_empty(self._activity, lambda: EmptyState(
            "activity", self.tr("Nothing yet"),
            self.tr("Send a message: each turn's model calls, tool calls and context budget appear here."),
            object_name="activityEmptyState"), lambda: only_placeholder(self._activity))
        self.show_activity(None)
        return self._activity

    def _build_memory(self) -> QWidget:
        from hermes_desktop.ui.memory_panel import MemoryPanel

        self._memory = MemoryPanel()
        return self._memory

    def _build_knowledge(self) -> QWidget:
        from hermes_desktop.ui.knowledge_panel import KnowledgePanel

        self._knowledge = KnowledgePanel()
        return self._knowledge

    def _build_assistants(self) -> QWidget:
        from hermes_desktop.ui.assistant_panel import AssistantPanel

        self._assistants = AssistantPanel()
        return self._assistants

    # Widgets on the pages built later: reading one builds its page (`_OnPage`).
    skills = _OnPage("skills")  # QListWidget with rich rows (ui/rich_list.py)
    skill_toggle = _OnPage("skills")  # QPushButton
    skill_trust = _OnPage("skills")  # QPushButton
    skills_empty = _OnPage("skills")  # the empty state's overlay (ui/empty_state.py)
    mcp = _OnPage("mcp")  # McpPanel
    activity = _OnPage("activity")  # QTreeWidget
    activity_empty = _OnPage("activity")
    memory = _OnPage("memory")  # MemoryPanel
    knowledge = _OnPage("knowledge")  # KnowledgePanel (ui/knowledge_panel.py)
    assistants = _OnPage("assistants")  # AssistantPanel (ui/assistant_panel.py)

    # ------------------------------------------------------------------ tools
    def show_tools(self, specs: Iterable[ToolSpec], disabled: set[str], rules: dict[str, str] | None = None) -> None:
        from hermes_desktop.core.tools.approval import rule_key
        from hermes_desktop.core.mcp.bridge import tool_name

        rules = rules or {}
        specs = list(specs)
        # Called on every MCP status change and skill reload: rebuilding the tree (a combo per tool) takes ~20 ms,
        # a stall while a reply streams, and folds what the user opened. Unchanged tools are left as they are.
        shown = (themes.current().name, self.tr("Tool"), frozenset(disabled), tuple(sorted(rules.items())),
                 tuple((s.name, s.source, s.source_detail, s.risk.value, s.description,
                        json.dumps(s.parameters, sort_keys=True, default=str)) for s in specs))
        if shown == getattr(self, "_tools_shown", None) and self.tools.topLevelItemCount():
            return
        self._tools_shown = shown
        self._filling = True
        self.tools.clear()
        theme = themes.current()
        groups: dict[str, QTreeWidgetItem] = {}
        for spec in sorted(specs, key=lambda s: (s.source != "builtin", s.source, s.name)):
            group = groups.get(spec.source)
            if group is None:
                group = QTreeWidgetItem([self._source_title(spec.source)])
                font = group.font(0)
                font.setBold(True)
                group.setFont(0, font)
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                self.tools.addTopLevelItem(group)
                group.setFirstColumnSpanned(True)  # a group title is not cut at the Tool column's width
                group.setExpanded(True)
                groups[spec.source] = group
            # Under its server's heading an MCP tool shows its own name; the full one (what the model and the
            # chat cards use) is in the tooltip.
            prefix = tool_name(spec.source[4:], "") if spec.source.startswith("mcp:") else ""
            shown = spec.name[len(prefix):] if prefix and spec.name.startswith(prefix) else spec.name
            item = QTreeWidgetItem(group, [shown, self._risk_words(spec.risk.value)])
            item.setData(0, NAME_ROLE, spec.name)
            # The model's description is English; the Tools tab says what the tool does in the window's language.
            described = words.tool_description(spec.name, spec.source, spec.description)
            item.setToolTip(0, described if shown == spec.name else f"{spec.name}\n{described}")
            item.setForeground(1, QColor(theme.risk_colour(spec.risk.value)))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsSelectable)
            item.setCheckState(0, Qt.CheckState.Unchecked if spec.name in disabled else Qt.CheckState.Checked)
            combo = self._rule_combo(rule_key(spec.name, spec.source, spec.source_detail), rules)
            combo.setAccessibleName(self.tr("Approval rule for {0}").format(spec.name))
            self.tools.setItemWidget(item, 2, combo)
            description = QTreeWidgetItem(item, [described])
            description.setFirstColumnSpanned(True)
            description.setFlags(Qt.ItemFlag.ItemIsEnabled)
            schema = QTreeWidgetItem(item, [self.tr("JSON schema")])
            schema.setFlags(Qt.ItemFlag.ItemIsEnabled)
            text = QTreeWidgetItem(schema, [json.dumps(spec.parameters, indent=2, ensure_ascii=False)])
            text.setFirstColumnSpanned(True)
            text.setFont(0, QFont("monospace"))
            text.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        self._filling = False
        fit_tool_columns(self.tools)

    def _source_title(self, source: str) -> str:
        if source == "builtin":
            return self.tr("Built-in")
        if source == "skills":
            return self.tr("Skills (load on demand)")
        if source.startswith("skill:"):
            return self.tr("Skill: {0}").format(source[6:])
        if source.startswith("mcp:"):
            return self.tr("MCP: {0}").format(source[4:])
        return source

    def _risk_words(self, risk: str) -> str:
        return {"read": self.tr("read"), "write": self.tr("write"), "destructive": self.tr("destructive")}.get(risk, risk)

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
    def show_skills(self, rows: list[dict[str, object]], rejected: list[tuple[str, str]]) -> None:
        """One entry per skill (name, description, state words, problems) and one per folder that failed."""
        from hermes_desktop.ui.rich_list import HTML_ROLE

        selected = self.selected_skill()
        self.skills.clear()
        self._skill_states = {str(row["name"]): row for row in rows}
        theme = themes.current()
        for row in rows:
            problems = [str(p) for p in row["problems"]]  # type: ignore[union-attr]
            needs = [f"{'✓' if present else '✗'} {text}" for text, present in row.get("requirements") or []]  # type: ignore[union-attr]
            lines = [f"{row['name']}  ·  {row['state']}", str(row["description"])] + needs + [f"⚠ {p}" for p in problems]
            item = QListWidgetItem("\n".join(lines))
            item.setData(NAME_ROLE, row["name"])
            item.setData(HTML_ROLE, _skill_html(row, problems, theme))
            item.setToolTip(str(row.get("folder", "")))
            self.skills.addItem(item)
            if row["name"] == selected:
                item.setSelected(True)
        not_loaded = self.tr("Not loaded")  # outside the f-string, where lupdate sees it
        for folder, reason in rejected:
            item = QListWidgetItem(self.tr("Not loaded: {0}").format(folder) + f"\n⚠ {reason}")
            item.setData(HTML_ROLE, f"<b>{escape(not_loaded)}</b> "
                                    f"<span style='color:{theme.muted}'>{escape(folder)}</span><br>"
                                    f"<span style='color:{theme.risk_destructive}'>⚠ {escape(reason)}</span>")
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.skills.addItem(item)
        if not rows and not rejected:
            empty = QListWidgetItem(self.tr("No skills installed. Put skill folders (SKILL.md or skill.yaml) in the "
                                            "skills folder and press Reload."))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.skills.addItem(empty)
        self._skill_selected()

    def selected_skill(self) -> str | None:
        items = self.skills.selectedItems()
        return items[0].data(NAME_ROLE) if items and items[0].data(NAME_ROLE) else None

    def _skill_selected(self) -> None:
        state = self._skill_states.get(self.selected_skill() or "")
        self.skill_toggle.setEnabled(state is not None)
        self.skill_toggle.setText(self.tr("Stop using in this session") if state and state["active"]
                                  else self.tr("Use in this session"))
        self.skill_trust.setEnabled(bool(state and state["needs_trust"]))

    def _skill_button(self, action: str) -> None:
        name = self.selected_skill()
        if name:
            self.sig_skill_action.emit(action, name)

    # ------------------------------------------------------------------ activity
    def show_activity(self, recorder: ActivityRecorder | None) -> None:
        """Show a session's trace. Called on every engine event of a running turn: for the trace already shown,
        only its last turn (the one that can still change) and any newer ones are rebuilt, so a long session's
        history is not rebuilt on each tool call and the user's expanded items stay as they were."""
        if recorder is None or not recorder.turns:
            self.activity.clear()
            self._activity_shown = (None, 0)
            empty = QTreeWidgetItem([self.tr("Nothing yet. Send a message: each turn's model calls, tool calls and "
                                             "context budget appear here; select one to find it in the chat.")])
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.activity.addTopLevelItem(empty)
            return
        shown, turns_shown = self._activity_shown
        if shown is not recorder:
            self.activity.clear()
            turns_shown = 0
            if recorder.rebuilt_turns:
                note = QTreeWidgetItem([self.tr("Earlier turns: rebuilt from the saved conversation")])
                note.setFlags(Qt.ItemFlag.NoItemFlags)
                note.setToolTip(0, self.tr("Earlier turns are rebuilt from the saved conversation: their timings, "
                                           "context sizes and approval decisions were not kept."))
                self.activity.addTopLevelItem(note)
        keep = self.activity.topLevelItemCount() - turns_shown + max(0, turns_shown - 1)
        while self.activity.topLevelItemCount() > keep:
            self.activity.takeTopLevelItem(self.activity.topLevelItemCount() - 1)
        for turn in recorder.turns[max(0, turns_shown - 1):]:
            self.activity.addTopLevelItem(self._turn_item(turn))
        self._activity_shown = (recorder, len(recorder.turns))
        last = self.activity.topLevelItem(self.activity.topLevelItemCount() - 1)
        last.setExpanded(True)
        self.activity.scrollToItem(last.child(last.childCount() - 1) if last.childCount() else last)

    def _turn_item(self, turn: TurnActivity) -> QTreeWidgetItem:
        from hermes_desktop.ui.words import stop_reason_name

        state = "" if turn.finished in (None, "completed") else "  " + self.tr("[{0}]", "how a turn ended").format(
            stop_reason_name(turn.finished))
        from hermes_desktop.ui.activity import entry_tooltip, line_tooltip, turn_tooltip
        from hermes_desktop.ui.activity_view import install_wrapping

        install_wrapping(self.activity)  # once: lines wrap to the tab's width (not at start-up: no turn yet)

        top = QTreeWidgetItem([("▶ " if turn.finished is None else "") + turn.title + state])
        top.setToolTip(0, turn_tooltip(turn, top.text(0)))  # every line can be cut at 390 px: its whole text
        top.setData(0, MESSAGE_ROLE, turn.user_message_id)
        for entry in turn.entries:
            child = QTreeWidgetItem(top, [entry.title])
            # A tooltip guesses rich text: memories, tool results and errors are shown as written, never as HTML.
            child.setToolTip(0, entry_tooltip(entry))
            child.setData(0, MESSAGE_ROLE, entry.message_id)
            child.setData(0, CALL_ROLE, entry.call_id)
            for line in entry.detail.splitlines():
                detail = QTreeWidgetItem(child, [line])
                detail.setToolTip(0, line_tooltip(line))
                detail.setFlags(Qt.ItemFlag.ItemIsEnabled)
        return top

    def _activity_menu(self, position: Any) -> None:
        """A turn's menu: Save as skill… (issue 27: any turn's menu has it; the window says why one cannot be)."""
        from PySide6.QtWidgets import QMenu

        item = self.activity.itemAt(position)
        if item is None or item.parent() is not None or item.data(0, MESSAGE_ROLE) is None:
            return
        menu = QMenu(self.activity)
        menu.setObjectName("activityTurnMenu")
        message_id = str(item.data(0, MESSAGE_ROLE))
        menu.addAction(self.tr("Save as skill…"), lambda: self.sig_skill_action.emit("save_turn_as_skill", message_id))
        self.activity_menu = menu  # for tests
        menu.popup(self.activity.viewport().mapToGlobal(position))

    def _activity_selected(self) -> None:
        items = self.activity.selectedItems()
        if items:
            message_id, call_id = items[0].data(0, MESSAGE_ROLE), items[0].data(0, CALL_ROLE)
            if message_id is not None or call_id is not None:
                self.sig_show_in_chat.emit(message_id, call_id)


