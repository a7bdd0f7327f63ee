"""Skills tab › Browse collections… (objectName `skillCollectionsDialog`, issue 27): the catalog of known public
skill collections (core/skills/collections), searchable; Install hands the chosen collection's URL to the same
review-then-install flow as Install from URL (what it holds is shown before anything is installed)."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.skills.collections import Collection, search

ROW_ROLE = Qt.ItemDataRole.UserRole + 1


class SkillCollectionsDialog(QDialog):
    def __init__(self, collections: Sequence[Collection], problems: Sequence[str], user_file: str,
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
        self.listing = QListWidget()
        self.listing.setObjectName("skillCollectionsList")
        self.listing.setWordWrap(True)
        self.listing.itemSelectionChanged.connect(self._selection_changed)
        self.listing.itemDoubleClicked.connect(lambda _item: self._install())
        hint = QLabel(self.tr("Add your own collections in {0}. Being listed is not trust: what a collection "
                              "holds is shown before it is installed, and its code does not run until you "
                              "trust it.").format(user_file))
        hint.setWordWrap(True)
        hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problems = QLabel("\n".join(problems))
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

    def _fill(self) -> None:
        self.listing.clear()
        for collection in search(self.collections, self.query.text()):
            item = QListWidgetItem(f"{collection.name}\n{collection.description}\n{collection.url}")
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
