"""Skills tab › Learning… (objectName `learningDialog`, issue 27): what the agent has learned from finished tasks,
and the user's say over it.

- A switch for workflow memory (earlier successful paths offered to the model as hints; Settings'
  `workflow_memory`), saved at once.
- Suggested skills: the paths that succeeded three or more times in the same shape (core/learning/suggestions.py),
  each with "Draft a skill…".
- The recorded paths, newest first, with how each ended, and Forget (a forgotten path is never offered again).

The dialog only shows and asks; every change goes through the callables it is given (ui/learning_actions.py).
"""

from __future__ import annotations

from html import escape
from typing import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.learning.suggestions import Suggestion
from hermes_desktop.core.learning.trajectories import Trajectory
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.rich_list import HTML_ROLE, rich_list

ROW_ROLE = Qt.ItemDataRole.UserRole + 1


class LearningDialog(QDialog):
    def __init__(self, *, enabled: bool, suggestions: Sequence[Suggestion], paths: Sequence[Trajectory],
                 set_enabled: Callable[[bool], None], draft: Callable[[Suggestion], None],
                 forget: Callable[[Trajectory], bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("learningDialog")
        self.setWindowTitle(self.tr("Learning from finished tasks"))
        self._draft, self._forget = draft, forget
        self.switch = QCheckBox(self.tr("Offer earlier successful paths to the model as hints"))
        self.switch.setObjectName("workflowMemorySwitch")
        self.switch.setChecked(enabled)
        self.switch.toggled.connect(set_enabled)
        note = QLabel(self.tr("Paths stay on this computer. A path that failed, was denied or undone is never "
                              "offered; sessions with memory off record nothing."))
        note.setWordWrap(True)

        self.suggested = QListWidget()
        self.suggested.setObjectName("suggestedSkillsList")
        for suggestion in suggestions:
            text = self.tr("{0}  ·  succeeded {1} times").format(" → ".join(suggestion.tools), suggestion.count)
            item = QListWidgetItem(text)
            item.setToolTip("\n".join(suggestion.requests))
            item.setData(ROW_ROLE, suggestion)
            self.suggested.addItem(item)
        if not suggestions:
            self._placeholder(self.suggested, self.tr("No suggestions yet: a task that succeeds three times in the "
                                                      "same way is suggested here."))
        self.draft_button = QPushButton(self.tr("Draft a skill…"))
        self.draft_button.setObjectName("draftSuggestedSkillButton")
        self.draft_button.clicked.connect(self._draft_clicked)

        self.paths = rich_list("learnedPathsList", self.tr("Recorded paths"))  # rows sized by their own text
        theme = themes.current()
        for path in reversed(paths):
            ended = self.tr("ended well") if path.good else self.tr("not offered: {0}").format(self._why(path.why))
            item = QListWidgetItem(f"{path.request[:120]}\n    {path.path_text[:200]}  ·  {ended}")
            colour = theme.muted if path.good else theme.risk_write
            item.setData(HTML_ROLE, f"<b>{escape(path.request[:120])}</b><br>{escape(path.path_text[:200])}"
                                    f"<br><span style='color:{colour}'>{escape(ended)}</span>")
            item.setToolTip(path.path_text[:2000])
            item.setData(ROW_ROLE, path)
            self.paths.addItem(item)
        if not paths:
            self._placeholder(self.paths, self.tr("No paths recorded yet."))
        self.forget_button = QPushButton(self.tr("Forget this path"))
        self.forget_button.setObjectName("forgetPathButton")
        self.forget_button.clicked.connect(self._forget_clicked)

        self.suggested.itemSelectionChanged.connect(self._selection_changed)
        self.paths.itemSelectionChanged.connect(self._selection_changed)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.switch)
        layout.addWidget(note)
        layout.addWidget(QLabel(self.tr("Suggested skills")))
        layout.addWidget(self.suggested, 1)
        layout.addLayout(self._row(self.draft_button))
        layout.addWidget(QLabel(self.tr("Recorded paths")))
        layout.addWidget(self.paths, 2)
        layout.addLayout(self._row(self.forget_button))
        layout.addWidget(close)
        self.resize(720, 560)
        self._selection_changed()

    def _why(self, why: str) -> str:
        """core/learning/trajectories.py's reasons in the user's words (an unknown one as it is)."""
        if why.startswith("finished: "):
            return self.tr("the task did not finish ({0})").format(why.split(": ", 1)[1])
        if why.startswith("unresolved: "):
            return self.tr("a tool's error was left unresolved ({0})").format(why.split(": ", 1)[1])
        return {"a call was denied": self.tr("a call was denied"), "regenerated": self.tr("the reply was regenerated"),
                "the user said it was wrong": self.tr("you said it was wrong")}.get(why, why)

    @staticmethod
    def _placeholder(listing: QListWidget, text: str) -> None:
        item = QListWidgetItem(text)
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        listing.addItem(item)

    @staticmethod
    def _row(button: QPushButton) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(button)
        return row

    @staticmethod
    def _chosen(listing: QListWidget) -> object:
        items = listing.selectedItems()
        return items[0].data(ROW_ROLE) if items else None

    def _selection_changed(self) -> None:
        self.draft_button.setEnabled(self._chosen(self.suggested) is not None)
        self.forget_button.setEnabled(self._chosen(self.paths) is not None)

    def _draft_clicked(self) -> None:
        chosen = self._chosen(self.suggested)
        if isinstance(chosen, Suggestion):
            self.accept()  # the draft opens its own editor; this dialog is done
            self._draft(chosen)

    def _forget_clicked(self) -> None:
        chosen = self._chosen(self.paths)
        if isinstance(chosen, Trajectory) and self._forget(chosen):
            self.paths.takeItem(self.paths.row(self.paths.selectedItems()[0]))
            self._selection_changed()
