"""The chat's knowledge base picker (objectName `knowledgePicker`): which knowledge bases this conversation uses.

A button beside the paperclip in the composer. Its text says the state at a glance ("Knowledge" when the
conversation uses none, "Knowledge · 2" when it uses two; the tooltip names them). It opens a menu with one check
item per base (objectName `knowledgePick:<name>`; a base whose file cannot be read is listed but cannot be ticked)
and "Manage knowledge bases…", which opens the Knowledge tab. A tick is the same choice as the tab's check box: both
go through ui/knowledge_actions.py (`use`), which stores it for the open session (a new chat gets its id then) and
refreshes both. The picker holds only the rows it was last shown (`BaseRow`, ui/knowledge_panel.py).
A base the conversation's assistant names (core/knowledge/service.py `session_bases`) is counted, shown ticked and
marked "Assistant: <name>", and cannot be unticked here (it is changed in the assistant's editor).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

if TYPE_CHECKING:
    from hermes_desktop.ui.knowledge_panel import BaseRow



def assistant_label(row: Any) -> str:
    """"Assistant: <name>" for a base the conversation's assistant brings (its existing translation), else "".
    Here, not in knowledge_panel: the picker is filled before the first paint, the Knowledge tab after it."""
    if not row.assistant:
        return ""
    return QCoreApplication.translate("AssistantActions", "Assistant") + ": " + row.assistant

class KnowledgePicker(QToolButton):
    sig_use = Signal(str, bool)
    """A base was ticked (True) or unticked (False) for the open conversation."""
    sig_manage = Signal()
    """"Manage knowledge bases…" was chosen: show the Knowledge tab."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("knowledgePicker")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setMinimumHeight(28)
        self.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")  # it sat on the count
        self.menu_ = QMenu(self)
        self.menu_.setObjectName("knowledgePickerMenu")
        self.setMenu(self.menu_)
        self.rows: list["BaseRow"] = []
        self.show_bases([])

    def show_bases(self, rows: Sequence["BaseRow"]) -> None:
        """The bases and which of them the open conversation uses."""
        self.rows = list(rows)
        used = [r.name for r in self.rows if r.used]
        self.setText(self.tr("Knowledge · {0}").format(len(used)) if used else self.tr("Knowledge"))
        self.setCheckable(True)
        self.setChecked(bool(used))  # drawn pressed while the conversation uses a base
        if used:
            tip = self.tr("This conversation uses: {0}").format(", ".join(used))
        elif self.rows:
            tip = self.tr("This conversation uses no knowledge base. Choose which ones it searches.")
        else:
            tip = self.tr("No knowledge bases yet: add a folder in the Knowledge tab.")
        self.setToolTip(tip)
        self.setAccessibleName(self.tr("Knowledge bases for this conversation"))
        self.setAccessibleDescription(tip)
        self._fill_menu()

    def _fill_menu(self) -> None:
        menu = self.menu_
        menu.clear()
        if not self.rows:
            empty = menu.addAction(self.tr("No knowledge bases yet"))
            empty.setEnabled(False)
        for row in self.rows:
            label = assistant_label(row)
            action = QAction(f"{row.name} · {label}" if label else row.name, menu)
            action.setObjectName(f"knowledgePick:{row.name}")
            action.setCheckable(True)
            action.setChecked(row.used)
            action.setEnabled(not row.broken and not row.assistant)  # the assistant's: not removable here
            if label:
                action.setToolTip(label)
            if row.broken:
                action.setToolTip(self.tr("cannot be read: {0}").format(row.broken))
            action.toggled.connect(lambda on, name=row.name: self.sig_use.emit(name, on))
            menu.addAction(action)
        menu.addSeparator()
        manage = menu.addAction(self.tr("Manage knowledge bases…"))
        manage.setObjectName("knowledgePickManage")
        manage.triggered.connect(self.sig_manage.emit)

    def action_for(self, name: str) -> QAction | None:
        return next((a for a in self.menu_.actions() if a.objectName() == f"knowledgePick:{name}"), None)

    def nextCheckState(self) -> None:
        """A click opens the menu; the pressed look follows the conversation's state, not the click."""
