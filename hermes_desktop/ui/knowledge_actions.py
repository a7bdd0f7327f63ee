"""What the Knowledge tab does: list the bases, add a folder, sync with progress off the GUI thread, show the files
that could not be read, remove a base, choose which bases the open conversation uses, and watch the folders.

- Reads and small writes (the registry) run in worker threads (`asyncio.to_thread`), so a slow disk never freezes
  the window. A sync runs in its own thread with its own SQLite connection (core/knowledge/sync.py); its progress
  comes back through a Qt signal (queued to the GUI thread, at most every PROGRESS_MS), and Pause / Cancel act on
  its `SyncControl` between files. PDFs and Word files are parsed in the reader's child process as always.
- Modals open with `run_dialog` (never `exec()` inside a coroutine).
- "Use in this conversation" stores the choice in the knowledge registry, keyed by the session id (a new chat gets
  its id now, as the model picker and the skills do).
- Folder watching: a QFileSystemWatcher over each base's folders (and up to WATCH_LIMIT subfolders); a change
  schedules a sync of that base after WATCH_DEBOUNCE_MS of quiet (debounced), never two at once.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox

from hermes_desktop.ui.async_dialog import Confirmation, run_dialog
from hermes_desktop.ui.tasks import in_thread, spawn

if TYPE_CHECKING:
    from hermes_desktop.core.knowledge.registry import KnowledgeRegistry
    from hermes_desktop.core.knowledge.sync import SyncControl
    from hermes_desktop.ui.knowledge_panel import KnowledgePanel
    from hermes_desktop.ui.main_window import MainWindow

log = logging.getLogger(__name__)
PROGRESS_MS = 100
WATCH_DEBOUNCE_MS = 3000
WATCH_LIMIT = 400


class _SyncSignals(QObject):
    progress = Signal(object)
    """A SyncProgress from the worker thread (queued to the GUI thread)."""
    finished = Signal(str, object)
    """(base name, SyncResult or the exception that stopped it)."""


class KnowledgeActions(QObject):
    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window = window
        self.controller = window.controller
        self.signals = _SyncSignals(self)
        self.signals.progress.connect(self._on_progress)
        self.signals.finished.connect(self._on_finished)
        self.syncing: str | None = None
        self.control: "SyncControl | None" = None
        self.thread: threading.Thread | None = None
        self.last_result: Any = None
        self._queued: list[str] = []
        self._last_progress = 0.0
        self.add_dialog: QFileDialog | None = None  # the open dialogs, for tests and automation
        self.name_dialog: QInputDialog | None = None
        self.remove_dialog: Confirmation | None = None
        self.citation_dialog: QDialog | None = None
        self.settings_dialog: QDialog | None = None
        self.watcher = QFileSystemWatcher(self)
        self.watcher.directoryChanged.connect(self._changed)
        self.watcher.fileChanged.connect(self._changed)
        self._watched: dict[str, str] = {}  # watched path -> base name
        self._timers: dict[str, QTimer] = {}
        from hermes_desktop.ui.knowledge_picker import KnowledgePicker

        self.picker = KnowledgePicker()  # the chat's own control for the same choice (ui/knowledge_picker.py)
        self.picker.sig_use.connect(lambda name, on: spawn(self.use(name, on)))
        self.picker.sig_manage.connect(self.show_tab)
        window.chat.add_composer_tool(self.picker)
        window.inspector.when_built("knowledge", self._connect_panel)
        window.inspector.currentChanged.connect(lambda _index: self._visible() and self.refresh())

    @property
    def panel(self) -> "KnowledgePanel":
        return self.window.inspector.knowledge

    @property
    def registry(self) -> "KnowledgeRegistry | None":
        runtime = self.controller.runtime
        knowledge = getattr(runtime, "knowledge", None) if runtime is not None else None
        return knowledge.registry if knowledge is not None else None

    def _visible(self) -> bool:
        return "knowledge" not in getattr(self.window.inspector, "_unbuilt", {}) and self.panel.isVisible()

    def _connect_panel(self, panel: Any) -> None:
        panel.sig_add.connect(lambda: spawn(self.add()))
        panel.sig_sync.connect(self.sync)
        panel.sig_remove.connect(lambda name: spawn(self.remove(name)))
        panel.sig_use.connect(lambda name, on: spawn(self.use(name, on)))
        panel.sig_settings.connect(lambda name: spawn(self.edit_settings(name)))
        panel.sig_pause.connect(self.pause)
        panel.sig_cancel.connect(self.cancel)
        panel.sig_selected.connect(lambda name: spawn(self._show_problems(name)))

    # ------------------------------------------------------------------ the list
    def refresh(self) -> None:
        if self.registry is None or not self.controller.ready:
            return
        spawn(self._refresh())

    def show_session(self, _session_id: str | None) -> None:
        """Another conversation was opened (or a new one started): its ticks."""
        self.refresh()

    async def _refresh(self) -> None:
        registry = self.registry
        if registry is None:
            return
        session = self.window.current_session
        service = self.controller.runtime.knowledge  # type: ignore[union-attr]  # registry is not None: it exists

        def read() -> tuple[list[Any], set[str], set[str]]:
            bases = registry.list()
            if not session:
                return bases, set(), set()
            used = service.session_bases(session, fresh=True)  # the chat's bases and its assistant's
            return bases, set(used.attached), set(used.from_assistant)

        try:
            bases, attached, from_assistant = await in_thread(read)
        except Exception as exc:
            log.warning("the knowledge bases could not be listed: %s", exc)
            return
        from hermes_desktop.ui.knowledge_panel import BaseRow

        shown = getattr(self.window, "assistants", None)
        assistant = shown.current.shown_name(shown.language) if shown is not None and shown.current else ""
        rows = [BaseRow(b.name, tuple(b.paths), b.documents, b.chunks, b.problems, b.last_sync, b.embedding_model,
                        b.vectors, b.name in attached or b.name in from_assistant,
                        b.last_result if b.last_result.startswith("cannot be read") else "",
                        (assistant or "?") if b.name in from_assistant else "")
                for b in bases]
        self.panel.show_bases(rows)
        self.picker.show_bases(rows)
        self._watch(bases)

    def show_tab(self) -> None:
        """The Knowledge tab, the inspector shown if it was hidden."""
        self.window.inspector_toggle.setChecked(True)
        self.window.inspector.setCurrentWidget(self.panel)
        self.panel.list.setFocus()

    async def _show_problems(self, name: str) -> None:
        registry = self.registry
        if registry is None:
            return

        def read() -> list[tuple[str, str, str]]:
            with registry.open(name) as index:
                return [(d.path, d.code or "", d.problem or "") for d in index.problems()]

        try:
            self.panel.show_problems(await in_thread(read))
        except Exception:
            self.panel.show_problems([])

    # ------------------------------------------------------------------ add, remove, use
    async def add(self) -> None:
        registry = self.registry
        if registry is None:
            return
        dialog = QFileDialog(self.window, self.tr("Choose a folder for a knowledge base"))
        dialog.setObjectName("addKnowledgeDialog")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        self.add_dialog = dialog
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
            return
        folder = Path(dialog.selectedFiles()[0])
        await self.create(folder)

    async def create(self, folder: Path, name: str | None = None) -> None:
        """Ask for a name (the folder's by default), create the base, sync it."""
        registry = self.registry
        if registry is None:
            return
        if name is None:
            ask = QInputDialog(self.window)
            ask.setObjectName("knowledgeNameDialog")
            ask.setWindowTitle(self.tr("New knowledge base"))
            ask.setLabelText(self.tr("Name of the knowledge base for {0}:").format(str(folder)))
            ask.setTextValue(folder.name or str(folder))
            self.name_dialog = ask
            if await run_dialog(ask) != QDialog.DialogCode.Accepted:
                return
            name = ask.textValue()
        from hermes_desktop.core.knowledge.registry import KnowledgeError

        try:
            info = await in_thread(registry.create, name, [folder])
        except KnowledgeError as exc:
            self.window.errors.show_message(self.tr("The knowledge base was not made: {0}").format(str(exc)))
            return
        await self._refresh()
        self.panel.select(info.name)
        self.sync(info.name)

    async def remove(self, name: str) -> None:
        registry = self.registry
        if registry is None:
            return
        box = Confirmation(self.window, QMessageBox.Icon.Warning, self.tr("Remove this knowledge base?"),
                           self.tr("This deletes the index of “{0}” (its passages and vectors). The folders and "
                                   "their files are not touched; you can add them again.").format(name),
                           self.tr("Remove"), QMessageBox.ButtonRole.DestructiveRole)
        box.setObjectName("removeKnowledgeDialog")
        self.remove_dialog = box
        if not await box.confirmed():
            return
        from hermes_desktop.core.knowledge.registry import KnowledgeError

        try:
            await in_thread(registry.remove, name)
        except KnowledgeError as exc:
            self.window.errors.show_message(self.tr("The knowledge base was not removed: {0}").format(str(exc)))
        await self._refresh()

    async def edit_settings(self, name: str) -> None:
        """The base's chunk settings in a dialog (ui/knowledge_settings.py); a change is saved, then synced."""
        registry = self.registry
        if registry is None:
            return
        from hermes_desktop.core.knowledge.registry import ChunkSettingsError, KnowledgeError
        from hermes_desktop.ui.knowledge_settings import KnowledgeSettingsDialog, settings_error_text

        try:
            info = await in_thread(registry.get, name)
        except Exception as exc:
            self.window.errors.show_message(self.tr("The knowledge base cannot be read: {0}").format(str(exc)))
            return
        if info is None:
            return
        dialog = KnowledgeSettingsDialog(self.window, info.name, info.chunk_tokens, info.overlap_tokens)
        self.settings_dialog = dialog
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
            return
        try:
            _info, changed = await in_thread(registry.set_chunking, info.name, *dialog.values())
        except ChunkSettingsError as exc:  # the dialog checks the same rule; said again if it was bypassed
            self.window.errors.show_message(self.tr("The settings were not saved: {0}").format(
                settings_error_text(exc.code, exc.params)))
            return
        except KnowledgeError as exc:
            self.window.errors.show_message(self.tr("The settings were not saved: {0}").format(str(exc)))
            return
        if changed:
            self.sync(info.name)  # every file chunked again with the new settings

    async def use(self, name: str, on: bool) -> None:
        registry = self.registry
        if registry is None:
            return
        session = self.window._ensure_session()  # a new chat gets its id now

        def change() -> None:
            names = [n for n in registry.session_bases(session) if n.casefold() != name.casefold()]
            registry.set_session_bases(session, names + [name] if on else names)

        try:
            await in_thread(change)
        except Exception as exc:
            self.window.errors.show_message(self.tr("The choice was not saved: {0}").format(str(exc)))
        await self._refresh()

    # ------------------------------------------------------------------ sync (a worker thread)
    def sync(self, name: str) -> None:
        registry = self.registry
        if registry is None:
            return
        if self.syncing is not None:
            if name != self.syncing and name not in self._queued:
                self._queued.append(name)
            return
        from hermes_desktop.core.knowledge.sync import SyncControl

        self.syncing = name
        self.control = SyncControl()
        runtime = self.controller.runtime
        endpoint_for = getattr(runtime, "embedding_endpoint", None)
        control, signals = self.control, self.signals
        self._last_progress = 0.0

        def work() -> None:
            from hermes_desktop.core.knowledge.sync import sync_base

            try:
                with registry.open(name) as index:
                    result: Any = sync_base(index, progress=self._progress_from_worker, control=control,
                                            endpoint_for=endpoint_for)
            except Exception as exc:  # SyncBusy, IndexFull, a damaged file: said in the tab
                result = exc
            signals.finished.emit(name, result)

        self.panel.show_progress(0, 0, "", None, False)
        self.thread = threading.Thread(target=work, name=f"knowledge-sync-{name}", daemon=True)
        self.thread.start()

    def _progress_from_worker(self, step: Any) -> None:
        now = time.monotonic()
        if step.current and now - self._last_progress < PROGRESS_MS / 1000:
            return  # throttled: the GUI thread repaints at most every PROGRESS_MS
        self._last_progress = now
        self.signals.progress.emit(step)

    def _on_progress(self, step: Any) -> None:
        if self.syncing is None:
            return
        paused = self.control.paused if self.control is not None else False
        self.panel.show_progress(step.done, step.total, step.current, step.remaining_s, paused)

    def _on_finished(self, name: str, result: Any) -> None:
        from hermes_desktop.core.knowledge.sync import SyncResult

        self.syncing, self.control, self.thread = None, None, None
        self.last_result = result
        if isinstance(result, SyncResult):
            text = self.tr("{0}: {1} new, {2} changed, {3} removed, {4} unchanged").format(
                name, result.added, result.updated, result.removed, result.unchanged)
            if result.problems:
                text += self.tr(", {0} could not be read").format(result.problems)
            if result.stopped == "cancelled":
                text = self.tr("Stopped: {0}").format(text)
            for notice in result.notices:
                text += "\n" + notice
        else:
            text = self.tr("{0}: the sync stopped: {1}").format(name, str(result))
        self.panel.show_idle(text)
        spawn(self._refresh())
        if self._visible() and self.panel.selected() == name:
            spawn(self._show_problems(name))
        if self._queued:
            self.sync(self._queued.pop(0))

    def pause(self) -> None:
        if self.control is None:
            return
        if self.control.paused:
            self.control.resume()
        else:
            self.control.pause()
        self.panel.pause_button.setText(self.tr("Pause") if not self.control.paused else self.tr("Resume"))

    def cancel(self) -> None:
        if self.control is not None:
            self.control.cancel()

    def stop(self) -> None:
        """The window closes: a running sync stops after its current file (what was indexed stays)."""
        self.cancel()

    # ------------------------------------------------------------------ citations in replies
    def show_citation(self, item: Any, number: str) -> None:
        """A reply's [n] was clicked: the passage it cites, from the turn's stored citations."""
        spawn(self._show_citation(item, number))

    def _turn_of(self, item: Any) -> int | None:
        """The id of the user message the reply answers (the turn that keyed its citations)."""
        from hermes_desktop.ui.chat.items import MessageItem

        items = self.window.chat.model.items()
        try:
            at = next(i for i, candidate in enumerate(items) if candidate is item)
        except StopIteration:
            return None
        for candidate in reversed(items[:at]):
            if isinstance(candidate, MessageItem) and candidate.role == "user":
                return candidate.message_id
        return None

    async def _show_citation(self, item: Any, number: str) -> None:
        registry, session, turn = self.registry, self.window.current_session, self._turn_of(item)
        passage: dict[str, Any] | None = None
        if registry is not None and session is not None and turn is not None and number.isdigit():
            try:
                passage = (await in_thread(registry.citations, session, turn)).get(int(number))
            except Exception as exc:
                log.warning("the citations could not be read: %s", exc)
        from hermes_desktop.ui.citation_dialog import CitationDialog

        dialog = CitationDialog(self.window, number, passage)
        self.citation_dialog = dialog
        await run_dialog(dialog)

    # ------------------------------------------------------------------ watching
    def _watch(self, bases: list[Any]) -> None:
        wanted: dict[str, str] = {}
        for base in bases:
            for root in base.paths:
                path = Path(root)
                if not path.is_dir():
                    continue
                wanted[str(path)] = base.name
                try:
                    for sub in path.rglob("*"):
                        if len(wanted) >= WATCH_LIMIT:
                            break
                        if sub.is_dir() and not sub.is_symlink() and not any(p.startswith(".") for p in sub.parts):
                            wanted[str(sub)] = base.name
                except OSError:
                    continue
        gone = [p for p in self._watched if p not in wanted]
        if gone:
            self.watcher.removePaths(gone)
        new = [p for p in wanted if p not in self._watched]
        if new:
            self.watcher.addPaths(new)
        self._watched = wanted

    def _changed(self, path: str) -> None:
        name = self._watched.get(path)
        if name is None:
            return
        timer = self._timers.get(name)
        if timer is None:
            timer = self._timers[name] = QTimer(self)
            timer.setSingleShot(True)
            timer.setInterval(WATCH_DEBOUNCE_MS)
            timer.timeout.connect(lambda n=name: self.sync(n))
        timer.start()  # debounced: a burst of changes is one sync
