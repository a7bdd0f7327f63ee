"""The model picker (objectName `modelPicker`, Ctrl+Shift+M): which model answers the current session.

A button in the status bar shows the session's model ("Profile · model"). It opens a popup with a filter
field and a tree: "Default" (the active profile and its model: what a session follows until a model is
picked for it), then each profile with its own model, the models typed by hand and those its server lists
(core/model_catalog.py), and an "Add model…" entry that saves a typed name into the profile's `models` and
picks it. A pick applies to the current session from its next message and is saved with it
(core/session_models.py); a new chat gets its session created by the pick, as a skill toggled there does.

The cached lists show at once; a profile never listed, or listed more than STALE_AFTER_S ago, is asked again
in the background, and Refresh asks every server now. Listing is a coroutine on the model client (never the
GUI thread); a server that cannot list keeps its cached and hand-typed models and its header says why.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QEvent, QObject, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QGuiApplication, QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.async_dialog import run_dialog
from hermes_desktop.ui.tasks import spawn
from hermes_desktop.ui.words import profile_name

if TYPE_CHECKING:
    import asyncio

    from hermes_desktop.core.model_catalog import CatalogEntry
    from hermes_desktop.core.session_models import SessionPick
    from hermes_desktop.core.settings import ProviderProfile
    from hermes_desktop.ui.controller import AppController

log = logging.getLogger(__name__)

STALE_AFTER_S = 6 * 3600  # a cached list older than this is fetched again when the picker opens
KIND_ROLE = Qt.ItemDataRole.UserRole + 1
PROFILE_ROLE = Qt.ItemDataRole.UserRole + 2
MODEL_ROLE = Qt.ItemDataRole.UserRole + 3
LABEL_MAX_PX = 320
MIN_POPUP_HEIGHT, MAX_POPUP_HEIGHT = 220, 560


class ModelPicker(QToolButton):
    """The status-bar button; owns the popup and the current session's pick."""

    sig_problem = Signal(str)
    """A pick could not be saved (a read-only history, say): for the window's error bar."""
    sig_chosen = Signal(str)
    """A model was picked for the session: a line for the status bar."""

    def __init__(self, controller: "AppController", current_session: Callable[[], str | None],
                 ensure_session: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("modelPicker")
        self.setAccessibleName(self.tr("Model"))
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setAutoRaise(True)
        self.controller = controller
        self._current_session = current_session
        self._ensure_session = ensure_session
        self.pick: SessionPick | None = None  # the current session's, as last read
        self.popup: ModelPickerPopup | None = None
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self.clicked.connect(self.open_popup)
        self.setText(self.tr("No model set up"))

    # ------------------------------------------------------------------ the label
    def show_session(self, session_id: str | None) -> None:
        """Show this session's model (after switching sessions, or a new chat)."""
        spawn(self._read_pick(session_id))

    def refresh(self) -> None:
        """Settings changed (a provider saved, activated, deleted): show the current session's model again."""
        self.show_session(self._current_session())

    async def _read_pick(self, session_id: str | None) -> None:
        from hermes_desktop.core.session_models import read_pick
        import asyncio

        pick = None
        if session_id is not None and self.controller.ready:
            pick = await asyncio.to_thread(read_pick, self.controller.store, session_id)
        if session_id != self._current_session():
            self.show_session(self._current_session())  # the user moved on meanwhile: show that one's
            return
        self.pick = pick
        self._update_label()
        if self.popup is not None and self.popup.isVisible():
            self.popup.fill()

    def effective(self) -> tuple[ProviderProfile | None, str | None]:
        """The profile and model the current session's next message goes to."""
        runtime = self.controller.runtime
        if runtime is None:
            return None, None
        if self.pick is not None:
            profile = runtime.profile_for(self.pick.profile_id)
            if profile is not None:
                return profile, self.pick.model
        return runtime.profile, runtime.profile.model if runtime.profile else None

    def _update_label(self) -> None:
        profile, model = self.effective()
        if profile is None:
            self.setText(self.tr("No model set up"))
            self.setToolTip(self.tr("Set up a provider to chat"))
            return
        full = f"{profile_name(profile)} · {model}"
        # The ▾ says it opens something: in the status bar a flat button would otherwise read as a label.
        self.setText(self.fontMetrics().elidedText(full, Qt.TextElideMode.ElideMiddle, LABEL_MAX_PX) + " ▾")
        how = self.tr("chosen for this session") if self.pick is not None else self.tr("the default")
        self.setToolTip(self.tr("Model for this session: {0} ({1}). Click or press Ctrl+Shift+M to change it.")
                        .format(full, how))

    # ------------------------------------------------------------------ the popup
    def open_popup(self) -> None:
        if not self.controller.ready or self.controller.runtime is None or self.controller.agent is None:
            return
        if self.popup is None:
            self.popup = ModelPickerPopup(self)
        spawn(self._open())

    async def _open(self) -> None:
        runtime = self.controller.runtime
        assert runtime is not None and runtime.model_catalog is not None and self.popup is not None
        await runtime.model_catalog.load()  # the cache file, read in a worker thread
        popup = self.popup
        popup.fill()
        popup.fit_height()
        popup.show_near(self)
        now = time.time()
        for profile in runtime.picker_profiles():
            entry = runtime.model_catalog.entry(profile)
            if entry.fetched_at is None or now - entry.fetched_at > STALE_AFTER_S:
                self.refresh_models(profile)

    def entries(self) -> list[tuple[CatalogEntry, bool]]:
        """Each profile's entry, and whether its list is being fetched now."""
        runtime = self.controller.runtime
        if runtime is None or runtime.model_catalog is None:
            return []
        return [(runtime.model_catalog.entry(p), p.id in self._refreshing) for p in runtime.picker_profiles()]

    def refresh_models(self, profile: ProviderProfile) -> None:
        """Ask this profile's server for its models, in the background; the popup follows."""
        if profile.id in self._refreshing:
            return
        task = spawn(self._refresh(profile))
        self._refreshing[profile.id] = task
        task.add_done_callback(lambda _t, pid=profile.id: self._refreshed(pid))
        if self.popup is not None and self.popup.isVisible():
            self.popup.fill()

    def refresh_all(self) -> None:
        runtime = self.controller.runtime
        for profile in runtime.picker_profiles() if runtime else []:
            self.refresh_models(profile)

    async def _refresh(self, profile: ProviderProfile) -> None:
        runtime = self.controller.runtime
        assert runtime is not None and runtime.model_catalog is not None and runtime.session_models is not None
        models = runtime.session_models

        async def lister(p: ProviderProfile) -> list[str]:
            return await (await models.client_for(p)).list_models()

        await runtime.model_catalog.refresh(profile, lister)

    def _refreshed(self, profile_id: str) -> None:
        self._refreshing.pop(profile_id, None)
        if self.popup is not None and self.popup.isVisible():
            self.popup.fill()

    @property
    def refreshing(self) -> bool:
        return bool(self._refreshing)

    # ------------------------------------------------------------------ choosing
    async def choose(self, pick: SessionPick | None) -> None:
        """Use this model (None: the default) for the current session from its next message, and save it."""
        from hermes_desktop.core.session_models import write_pick
        import asyncio

        session_id = self._ensure_session()
        try:
            await asyncio.to_thread(write_pick, self.controller.store, session_id, pick)
        except Exception as exc:  # the store refused (read-only, full disk): say so, change nothing
            self.sig_problem.emit(self.tr("The model choice could not be saved: {0}").format(exc))
            return
        if session_id == self._current_session():
            self.pick = pick
            self._update_label()
        self.controller.sig_sessions_changed.emit()  # a new chat's session now exists
        profile, model = self.effective()
        if profile is not None:
            self.sig_chosen.emit(self.tr("This session uses {0} · {1} from its next message.").format(profile.name,
                                                                                                    model))

    async def add_model(self, profile: ProviderProfile) -> None:
        """Ask for a model name, keep it with the profile (saved profiles only) and pick it."""
        from hermes_desktop.core.session_models import SessionPick

        dialog = AddModelDialog(profile, self.window())
        self.add_dialog = dialog  # for tests and automation
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
            return
        name = dialog.model_name()
        runtime = self.controller.runtime
        if not name or runtime is None:
            return
        saved = runtime.settings.profile(profile.id)
        if saved is not None and name not in saved.models and name != saved.model:
            await self.controller.update_profile(replace(saved, models=(*saved.models, name)))
        await self.choose(SessionPick(profile.id, name))


class ModelPickerPopup(QFrame):
    """The list of profiles and models under the button."""

    def __init__(self, picker: ModelPicker) -> None:
        super().__init__(picker.window(), Qt.WindowType.Popup)
        self.setObjectName("modelPickerPopup")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.picker = picker
        title = QLabel(self.tr("Model for this session"))
        title.setObjectName("modelPickerTitle")
        bold = title.font()
        bold.setBold(True)
        title.setFont(bold)
        self.filter = QLineEdit()
        self.filter.setObjectName("modelFilter")
        self.filter.setPlaceholderText(self.tr("Filter models…"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(lambda _t: self._apply_filter())
        self.filter.returnPressed.connect(self._activate_current)
        self.filter.installEventFilter(self)
        self.tree = QTreeWidget()
        self.tree.setObjectName("modelTree")
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setIndentation(14)
        self.tree.setUniformRowHeights(True)
        self.tree.itemActivated.connect(lambda item, _c: self.activate(item))
        self.tree.itemClicked.connect(lambda item, _c: self.activate(item))
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.refresh_button.setObjectName("refreshModelsButton")
        self.refresh_button.setToolTip(self.tr("Ask every provider's server for its models again"))
        self.refresh_button.setAutoDefault(False)
        self.refresh_button.clicked.connect(picker.refresh_all)
        note = QLabel(self.tr("Applies to this session from its next message."))
        note.setObjectName("modelPickerNote")
        note.setWordWrap(True)
        self.note = note
        bottom = QHBoxLayout()
        bottom.addWidget(note, 1)
        bottom.addWidget(self.refresh_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(title)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree, 1)
        layout.addLayout(bottom)
        self.resize(QSize(480, 460))

    # ------------------------------------------------------------------ showing
    def fit_height(self) -> None:
        """As tall as the list needs (within limits), so a short list does not open a mostly empty box."""
        rows = sum(1 for item in self._all_items() if not item.isHidden())
        row_height = max(self.tree.sizeHintForRow(0), self.fontMetrics().height() + 2)
        chrome = self.layout().sizeHint().height() - self.tree.sizeHint().height() + 2 * self.tree.frameWidth()
        self.resize(self.width(), max(MIN_POPUP_HEIGHT, min(MAX_POPUP_HEIGHT, chrome + row_height * (rows + 1))))

    def _all_items(self) -> list[QTreeWidgetItem]:
        items = []
        for top in range(self.tree.topLevelItemCount()):
            header = self.tree.topLevelItem(top)
            items.append(header)
            items += [header.child(i) for i in range(header.childCount())]
        return items

    def show_near(self, anchor: QWidget) -> None:
        """Above the button (it sits at the bottom of the window), kept on the screen."""
        self._place(anchor)
        self.filter.clear()
        self.show()
        self.filter.setFocus()

    def _place(self, anchor: QWidget) -> None:
        corner = anchor.mapToGlobal(QPoint(anchor.width(), 0))
        screen = (anchor.screen() or QGuiApplication.primaryScreen()).availableGeometry()
        x = max(screen.left(), min(corner.x() - self.width(), screen.right() - self.width()))
        y = corner.y() - self.height() - 4
        if y < screen.top():
            y = anchor.mapToGlobal(QPoint(0, anchor.height())).y() + 4
        self.move(x, y)

    def fill(self) -> None:
        """Rebuild the tree from the catalog, keeping the filter and the selected entry."""
        picker = self.picker
        runtime = picker.controller.runtime
        theme = themes.current()
        selected = self.tree.currentItem()
        keep = (selected.data(0, KIND_ROLE), selected.data(0, PROFILE_ROLE), selected.data(0, MODEL_ROLE)) \
            if selected is not None else None
        self.tree.clear()
        chosen = picker.pick
        default = runtime.profile if runtime is not None else None
        if default is not None:
            item = self._item(self.tr("Default: {0} · {1}").format(default.name, default.model), "default")
            item.setToolTip(0, self.tr("Follow the default model (the active provider's); new sessions use it"))
            self._mark(item, chosen is None)
            self.tree.addTopLevelItem(item)
        for entry, loading in picker.entries():
            header = QTreeWidgetItem([self._header_text(entry, loading)])
            header.setData(0, KIND_ROLE, "profile")
            header.setData(0, PROFILE_ROLE, entry.profile.id)
            header.setFlags(Qt.ItemFlag.ItemIsEnabled)
            font = header.font(0)
            font.setBold(True)
            header.setFont(0, font)
            self.tree.addTopLevelItem(header)
            if entry.error:
                problem = QTreeWidgetItem([self.tr("Could not list models: {0}").format(entry.error)])
                problem.setData(0, KIND_ROLE, "error")
                problem.setFlags(Qt.ItemFlag.ItemIsEnabled)
                problem.setForeground(0, QColor(theme.risk_destructive))
                problem.setToolTip(0, entry.error)
                header.addChild(problem)
            if getattr(entry, "left_out", 0):  # the server listed more (or stranger) names than are shown
                from hermes_desktop.core.model_catalog import MAX_MODELS  # not before the first paint (core.settings)

                note = QTreeWidgetItem([self.tr("{0} more not listed (at most {1})").format(
                    f"{entry.left_out:,}", f"{MAX_MODELS:,}")])
                note.setToolTip(0, self.tr("The server listed more models than the picker keeps, or names that are "
                                           "too long or hold control characters. Type a model by hand with “Add "
                                           "model…”."))
                note.setData(0, KIND_ROLE, "error")
                note.setFlags(Qt.ItemFlag.ItemIsEnabled)
                note.setForeground(0, QColor(theme.muted))
                header.addChild(note)
            hand = set(entry.hand_typed)
            for name in entry.models:
                label = name
                if name == entry.profile.model:
                    label = self.tr("{0} (profile's model)").format(name)
                elif name in hand:
                    label = self.tr("{0} (added by hand)").format(name)
                item = self._item(label, "model", entry.profile.id, name)
                self._mark(item, chosen is not None and chosen.profile_id == entry.profile.id and chosen.model == name)
                header.addChild(item)
            add = self._item(self.tr("Add model…"), "add", entry.profile.id)
            italic = add.font(0)
            italic.setItalic(True)
            add.setFont(0, italic)
            header.addChild(add)
        if default is None and not picker.entries():
            empty = QTreeWidgetItem([self.tr("No providers yet: set one up in Settings.")])
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.tree.addTopLevelItem(empty)
        self.tree.expandAll()
        self.refresh_button.setEnabled(not picker.refreshing)
        self._apply_filter(keep)
        if self.isVisible():  # a list arrived: grow to show it, still above the button
            self.fit_height()
            self._place(picker)

    def _header_text(self, entry: CatalogEntry, loading: bool) -> str:
        name = profile_name(entry.profile)
        if loading:
            return self.tr("{0} — listing models…").format(name)
        if entry.fetched_at is None:
            return self.tr("{0} — not listed yet").format(name)
        return self.tr("{0} — {1} listed {2}").format(name, len(entry.listed), self._age(time.time() - entry.fetched_at))

    def _age(self, seconds: float) -> str:
        if seconds < 90:
            return self.tr("just now")
        if seconds < 90 * 60:
            return self.tr("{0} min ago").format(round(seconds / 60))
        if seconds < 36 * 3600:
            return self.tr("{0} h ago").format(round(seconds / 3600))
        return self.tr("{0} days ago").format(round(seconds / 86400))

    def _item(self, text: str, kind: str, profile_id: str | None = None, model: str | None = None) -> QTreeWidgetItem:
        item = QTreeWidgetItem([text])
        item.setData(0, KIND_ROLE, kind)
        item.setData(0, PROFILE_ROLE, profile_id)
        item.setData(0, MODEL_ROLE, model)
        return item

    def _mark(self, item: QTreeWidgetItem, chosen: bool) -> None:
        if chosen:
            item.setText(0, "✓ " + item.text(0))
            font: QFont = item.font(0)
            font.setBold(True)
            item.setFont(0, font)
        else:
            item.setText(0, "   " + item.text(0))

    # ------------------------------------------------------------------ filtering and keys
    def _apply_filter(self, keep: tuple[str, str, str] | None = None) -> None:
        words = self.filter.text().strip().lower().split()
        first: QTreeWidgetItem | None = None
        restore: QTreeWidgetItem | None = None
        for top in range(self.tree.topLevelItemCount()):
            header = self.tree.topLevelItem(top)
            visible_children = 0
            for index in range(header.childCount()):
                child = header.child(index)
                kind = child.data(0, KIND_ROLE)
                text = f"{child.data(0, MODEL_ROLE) or ''} {header.text(0)}".lower()
                show = kind in ("add", "error") or all(w in text for w in words)
                child.setHidden(not show)
                if show and kind == "model":
                    visible_children += 1
                    first = first or child
            if header.data(0, KIND_ROLE) == "default":
                header.setHidden(bool(words))
                if not words:
                    first = first or header
            if keep is not None:
                for item in [header, *(header.child(i) for i in range(header.childCount()))]:
                    if (item.data(0, KIND_ROLE), item.data(0, PROFILE_ROLE), item.data(0, MODEL_ROLE)) == keep:
                        restore = item
        target = restore if restore is not None and not restore.isHidden() and not words else first
        if target is not None:
            self.tree.setCurrentItem(target)

    def _activate_current(self) -> None:
        item = self.tree.currentItem()
        if item is not None and not item.isHidden():
            self.activate(item)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Up and Down in the filter field move through the list, so typing and choosing need no mouse."""
        if watched is self.filter and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_PageDown, Qt.Key.Key_PageUp):
            self.tree.keyPressEvent(event)
            return True
        return super().eventFilter(watched, event)

    def activate(self, item: QTreeWidgetItem) -> None:
        from hermes_desktop.core.session_models import SessionPick

        if not self.isVisible():  # a single click can emit both itemClicked and itemActivated: act once
            return
        kind = item.data(0, KIND_ROLE)
        runtime = self.picker.controller.runtime
        if kind == "default":
            self.hide()
            spawn(self.picker.choose(None))
        elif kind == "model":
            self.hide()
            spawn(self.picker.choose(SessionPick(item.data(0, PROFILE_ROLE), item.data(0, MODEL_ROLE))))
        elif kind == "add" and runtime is not None:
            profile = runtime.profile_for(item.data(0, PROFILE_ROLE))
            if profile is not None:
                self.hide()
                spawn(self.picker.add_model(profile))


class AddModelDialog(QDialog):
    """One field: a model name the server does not list (or not yet), kept with the profile."""

    def __init__(self, profile: ProviderProfile, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("addModelDialog")
        self.setWindowTitle(self.tr("Add a model"))
        explain = QLabel(self.tr("A model name {0} accepts, as its documentation writes it (for example one its "
                                 "server does not list). It is kept with the provider and used for this session.")
                         .format(profile.name))
        explain.setWordWrap(True)
        self.edit = QLineEdit()
        self.edit.setObjectName("addModelEdit")
        self.edit.setPlaceholderText(self.tr("Model name"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Add and use"))
        self.ok_button.setEnabled(False)
        self.edit.textChanged.connect(lambda text: self.ok_button.setEnabled(bool(text.strip())))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(explain)
        layout.addWidget(self.edit)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)

    def model_name(self) -> str:
        return self.edit.text().strip()
