"""Skills tab › Browse collections… (objectName `skillCollectionsDialog`, issue 27): the catalog of known public
skill collections (core/skills/collections), searchable; Install hands the chosen collection's URL to the same
review-then-install flow as Install from URL (what it holds is shown before anything is installed)."""

from __future__ import annotations

from html import escape
from typing import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.skills.collections import Collection, Problem, search
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.rich_list import HTML_ROLE, rich_list

ROW_ROLE = Qt.ItemDataRole.UserRole + 1


class SkillCollectionsDialog(QDialog):
    def __init__(self, collections: Sequence[Collection], problems: Sequence[Problem], user_file: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("skillCollectionsDialog")
        self.setWindowTitle(self.tr("Skill collections"))
        self.collections = list(collections)
        self.chosen: Collection | None = None
        self.query = QLineEdit()
        self.query.setObjectName("skillCollectionsSearch")
        self.query.setPlaceholderText(self.tr("Search collections"))
        self.query.setClearButtonEnabled(True)
        self.query.textChanged.connect(self._fill)
        self.listing = rich_list("skillCollectionsList", self.tr("Skill collections"))
        self.listing.itemSelectionChanged.connect(self._selection_changed)
        self.listing.itemDoubleClicked.connect(lambda _item: self._install())
        hint = QLabel(self.tr("Add your own collections in {0}. Being listed is not trust: what a collection "
                              "holds is shown before it is installed, and its code does not run until you "
                              "trust it.").format(user_file))
        hint.setWordWrap(True)
        hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problems = QLabel("\n".join(self._problem_text(p) for p in problems))
        self.problems.setObjectName("skillCollectionsProblems")
        self.problems.setWordWrap(True)
        self.problems.setVisible(bool(problems))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.install_button = buttons.addButton(self.tr("Install…"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.install_button.setObjectName("installCollectionButton")
        self.install_button.clicked.connect(self._install)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.query)
        layout.addWidget(self.listing, 1)
        layout.addWidget(hint)
        layout.addWidget(self.problems)
        layout.addWidget(buttons)
        self.resize(620, 460)
        self._fill()

    def _problem_text(self, problem: Problem) -> str:
        words = {"too_large": self.tr("{0} is too large: skipped"),
                 "unreadable": self.tr("{0} could not be read ({2}): skipped"),
                 "no_list": self.tr("{0} has no \"collections\" list: skipped"),
                 "not_object": self.tr("{0}: entry {1} is not an object: skipped"),
                 "incomplete": self.tr("{0}: entry {1} needs a name and an https URL: skipped")}
        return words.get(problem.kind, "{0}: " + problem.kind).format(problem.file, problem.entry, problem.detail)

    def _fill(self) -> None:
        self.listing.clear()
        muted = themes.current().muted
        for collection in search(self.collections, self.query.text()):
            item = QListWidgetItem(f"{collection.name}\n{collection.description}\n{collection.url}")
            item.setData(HTML_ROLE, f"<b>{escape(collection.name)}</b><br>{escape(collection.description)}<br>"
                                    f"<span style='color:{muted}'>{escape(collection.url)}</span>")
            item.setData(ROW_ROLE, collection)
            item.setToolTip(collection.url)
            self.listing.addItem(item)
        if self.listing.count() == 0:
            empty = QListWidgetItem(self.tr("No collection matches."))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.listing.addItem(empty)
        self._selection_changed()

    def _selection_changed(self) -> None:
        items = self.listing.selectedItems()
        self.chosen = items[0].data(ROW_ROLE) if items else None
        self.install_button.setEnabled(self.chosen is not None)

    def _install(self) -> None:
        if self.chosen is not None:
            self.accept()
