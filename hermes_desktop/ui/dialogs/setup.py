"""Connect a model: the first-run dialog, also used to add and edit provider profiles.

The key field is a password field with a Show toggle; pasted keys are trimmed. Test
connection makes a real, cheap request (core/connection_check.py) and says what to do
about what it finds. The dialog never stores anything itself: Save hands the profile
and the key to the controller, which puts the key in the keyring and the rest in
settings.json.

Enter presses Test connection until a test succeeds, then Save (and Test again once a
field is edited after it); no other button is ever the default, so a stray Enter never
hits Cancel/Not now. Closing with unsaved changes (Esc, the window's close button,
Cancel/Not now) asks first, in a window-modal question awaited with `run_dialog` (never
`exec()` in a coroutine); `reject()` itself stays silent, for the code that closes the
dialog on purpose (a cancelled task, the app quitting).

Advanced settings (collapsed for a first run, open when editing) also hold the per-profile controls for
reasoning models and images: reasoning echo (auto/always/never), reasoning effort, extra request parameters
(a JSON object checked as it is typed; Save is refused while it is not one, and keys, or fields Hermes sets
itself such as `model` and `messages`, are refused there: keys belong in the keyring), vision (auto/yes/no),
and "Forget what was learned" when the server taught the profile something (`learned_*`), and the embedding model
for memory recall (blank: none). Fields this dialog does not show (the picker's hand-typed models, the request
time-out) are kept as they were.
"""

from __future__ import annotations

import asyncio
import importlib
import json
from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeyEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFrame,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.extra_params import parse_extra_params
from hermes_desktop.core.providers import PRESETS, Preset, preset, preset_for_url, profile_id_for
from hermes_desktop.ui import words
from hermes_desktop.core.settings import Capability, ProviderProfile, ReasoningEcho, ToolMode
from hermes_desktop.ui import theme as themes
from hermes_desktop.ui.async_dialog import Confirmation
from hermes_desktop.ui.tasks import spawn

if TYPE_CHECKING:
    from hermes_desktop.core.connection_check import CheckResult

REASONING_EFFORTS = ("low", "medium", "high")


SHOWN_FIELDS = ("id", "name", "base_url", "model", "temperature", "max_output_tokens", "context_window", "tool_mode",
                "needs_api_key", "reasoning_echo", "reasoning_effort", "extra_params", "vision",
                "learned_reasoning_echo", "learned_no_vision", "embedding_model", "side_model", "local_only")
"""The profile fields this dialog edits; `profile()` keeps every other field of the profile being edited."""


async def _connection_check() -> ModuleType:
    """core/connection_check: the first import loads openai (~0.5 s), so it happens in a worker thread."""
    return await asyncio.to_thread(importlib.import_module, "hermes_desktop.core.connection_check")


class SetupDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, *, profile: ProviderProfile | None = None,
                 key_stored: bool = False, keyring_secure: bool = True, keyring_reason: str = "",
                 taken_ids: set[str] | None = None, first_run: bool = False,
                 prefill: ProviderProfile | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("setupDialog")
        self.setWindowTitle(self.tr("Connect a model") if profile is None else self.tr("Edit provider"))
        self.setModal(True)
        self._editing = profile
        self._key_stored = key_stored
        self._taken = set(taken_ids or ()) - ({profile.id} if profile else set())
        self.last_check: CheckResult | None = None

        intro = QLabel(self.tr("Hermes works with any OpenAI-compatible service, in the cloud or on this computer. "
                               "Pick one, paste a key if it needs one, and test the connection.")
                       if first_run else self.tr("Provider settings."))
        intro.setWordWrap(True)
        self.provider = QComboBox()
        self.provider.setObjectName("providerCombo")
        self.provider.setAccessibleName(self.tr("Provider"))
        for item in PRESETS:
            self.provider.addItem(words.provider_name(item.id, item.name), item.id)
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("profileNameEdit")
        self.base_url = QLineEdit()
        self.base_url.setObjectName("baseUrlEdit")
        self.base_url.setAccessibleName(self.tr("Base URL"))
        self.base_url.setPlaceholderText("https://…/v1")
        self.model = QComboBox()
        self.model.setObjectName("modelEdit")
        self.model.setAccessibleName(self.tr("Model"))
        self.model.setEditable(True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.api_key = QLineEdit()
        self.api_key.setObjectName("apiKeyEdit")
        self.api_key.setAccessibleName(self.tr("API key"))
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText(self.tr("Stored in the keyring — leave empty to keep it") if key_stored
                                        else self.tr("Paste your API key"))
        self.show_key = QAction(self.tr("Show"), self.api_key)
        self.show_key.setCheckable(True)
        self.show_key.toggled.connect(self._toggle_key)
        self.api_key.addAction(self.show_key, QLineEdit.ActionPosition.TrailingPosition)
        self.key_hint = QLabel()
        self.key_hint.setObjectName("keyHint")
        self.key_hint.setWordWrap(True)
        self.keyring_note = QLabel(self.tr("No secure keyring was found on this computer ({0}). The key will be kept "
                                           "in memory for this run only and never written to a file. To supply it on "
                                           "every start, set the HERMES_API_KEY environment variable.")
                                   .format(keyring_reason or self.tr("no backend")))
        self.keyring_note.setObjectName("keyringWarning")
        self.keyring_note.setWordWrap(True)
        self.keyring_note.setVisible(not keyring_secure)
        self.keyring_note.setStyleSheet(f"color: {themes.current().risk_write};")

        self.tool_mode = QComboBox()
        self.tool_mode.setObjectName("toolModeCombo")
        for mode, label in ((ToolMode.AUTO, self.tr("Automatic")), (ToolMode.NATIVE, self.tr("Native tool calls")),
                            (ToolMode.TEXT, self.tr("Text tool calls (for models without native support)"))):
            self.tool_mode.addItem(label, mode.value)
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(-0.01, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setSpecialValueText(self.tr("provider default"))
        self.temperature.setValue(-0.01)
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(0, 1_000_000)
        self.max_tokens.setSingleStep(256)
        self.max_tokens.setSpecialValueText(self.tr("provider default"))
        self.context_window = QSpinBox()
        self.context_window.setRange(1_024, 10_000_000)
        self.context_window.setSingleStep(1_024)
        self.advanced_toggle = QCheckBox(self.tr("Advanced settings"))
        self.advanced_toggle.setObjectName("advancedToggle")
        self.advanced_toggle.setChecked(profile is not None)
        advanced = QGroupBox()
        advanced_form = QFormLayout(advanced)
        # In a scroll area: open, the section is taller than a small screen, and a squeezed form overlaps its
        # wrapped notes. The area's size hint stops at ~24 lines; the rest scrolls.
        self.advanced_area = QScrollArea()
        self.advanced_area.setObjectName("advancedArea")
        self.advanced_area.setWidgetResizable(True)
        self.advanced_area.setFrameShape(QFrame.Shape.NoFrame)
        self.advanced_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.advanced_area.setWidget(advanced)
        self.advanced_area.setVisible(self.advanced_toggle.isChecked())
        self.advanced_toggle.toggled.connect(self.advanced_area.setVisible)
        self.advanced_toggle.toggled.connect(lambda on: QTimer.singleShot(0, self._fit_advanced) if on else None)
        self.advanced_toggle.toggled.connect(lambda _on: QTimer.singleShot(0, self.adjustSize))
        advanced_form.addRow(self.tr("Name"), self.name_edit)
        advanced_form.addRow(self.tr("Tool calling"), self.tool_mode)
        advanced_form.addRow(self.tr("Temperature"), self.temperature)
        advanced_form.addRow(self.tr("Max output tokens"), self.max_tokens)
        advanced_form.addRow(self.tr("Context window (tokens)"), self.context_window)
        self.embedding_model = QLineEdit()
        self.embedding_model.setObjectName("embeddingModelEdit")
        self.embedding_model.setAccessibleName(self.tr("Embedding model for memory"))
        self.embedding_model.setPlaceholderText(self.tr("None: memories are recalled by their words"))
        self.embedding_model.setToolTip(self.tr("An embedding model this provider serves (for example "
                                                "text-embedding-3-small): memories are also recalled by meaning, "
                                                "through the provider's /embeddings endpoint. Nothing is downloaded."))
        advanced_form.addRow(self.tr("Embedding model (memory)"), self.embedding_model)
        self.side_model = QLineEdit()  # titles, summaries, memory extraction (core/assistants/service.py)
        self.side_model.setObjectName("sideModelEdit")
        self.side_model.setAccessibleName(self.tr("Side-task model"))
        self.side_model.setPlaceholderText(self.tr("None: the chat's own model"))
        self.side_model.setToolTip(self.tr("A cheaper model of this provider for titles, summaries and memory "
                                           "extraction; the chat itself keeps its model."))
        advanced_form.addRow(self.tr("Side-task model"), self.side_model)
        self.local_only = QCheckBox(self.tr("Conversations stay local"))
        self.local_only.setObjectName("localOnlyCheck")
        self.local_only.setToolTip(self.tr("For a model on this computer or your own network. A conversation it "
                                           "answered in is then never sent to another provider (only to providers "
                                           "also marked local only), and what you told it is not recalled for "
                                           "other providers."))
        self.local_only.setAccessibleName(self.tr("Local only"))
        advanced_form.addRow(self.tr("Local only"), self.local_only)
        self._build_model_controls(advanced_form)
        self.advanced = advanced

        self.test_button = QPushButton(self.tr("Test connection"))
        self.test_button.setObjectName("testConnectionButton")
        self.test_button.clicked.connect(lambda: spawn(self.test_connection()))
        self.test_button.setDefault(True)  # until a test succeeds; then Save (see _make_default)
        self.status = QLabel()
        self.status.setObjectName("connectionStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fix_button = QPushButton()
        self.fix_button.setObjectName("applySuggestionButton")
        self.fix_button.setAutoDefault(False)
        self.fix_button.hide()
        self.fix_button.clicked.connect(self._apply_suggestion)
        self.save_button = QPushButton(self.tr("Save"))
        self.save_button.setObjectName("saveButton")
        self.save_button.clicked.connect(self._save)
        cancel = QPushButton(self.tr("Cancel") if not first_run else self.tr("Not now"))
        cancel.setObjectName("cancelButton")
        cancel.setAutoDefault(False)  # Enter never discards what was typed
        cancel.clicked.connect(self.close_asking)
        self.cancel_button = cancel
        self.discard_question: Confirmation | None = None

        form = QFormLayout()
        form.addRow(self.tr("Provider"), self.provider)
        form.addRow(self.tr("Base URL"), self.base_url)
        form.addRow(self.tr("Model"), self.model)
        form.addRow(self.tr("API key"), self.api_key)
        form.addRow("", self.key_hint)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.fix_button)
        test_row.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.keyring_note)
        layout.addWidget(self.advanced_toggle)
        layout.addWidget(self.advanced_area, 1)
        layout.addLayout(test_row)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self.setMinimumWidth(560)
        self.adjustSize()

        self._models_timer = QTimer(self)
        self._models_timer.setSingleShot(True)
        self._models_timer.setInterval(600)
        self._models_timer.timeout.connect(lambda: spawn(self.refresh_models()))
        self.provider.currentIndexChanged.connect(self._preset_chosen)
        self.base_url.textEdited.connect(lambda _t: self._models_timer.start())
        self.api_key.textEdited.connect(lambda _t: self._models_timer.start())
        self._suggestion: tuple[str, str] | None = None
        self._model_problem = self.tr("Choose a model.")
        self._save_problems: list[str] = []
        """The problems Save last showed in the status line, while they are still shown there."""
        if profile is not None or prefill is not None:
            self._load(profile or prefill)  # type: ignore[arg-type]
        else:
            self._preset_chosen(0)
        self._initial = self._state()
        # Only the user's own edits make an earlier test stale (a test refills the model list itself).
        for edited in (self.base_url.textEdited, self.api_key.textEdited, self.model.lineEdit().textEdited,
                       self.model.activated, self.provider.activated):
            edited.connect(lambda *_args: self._make_default(self.test_button))
        self.model.editTextChanged.connect(self._clear_model_problem)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.advanced_area.isVisible():
            QTimer.singleShot(0, self._fit_advanced)

    def _fit_advanced(self) -> None:
        """Tall enough to show the whole advanced section when the screen allows; otherwise as tall as the screen,
        and the section scrolls (it stretches into whatever height the dialog has). Its size is only known once
        it is laid out on screen. (adjustSize would stop at 2/3 of the screen and squeeze the buttons.)"""
        screen = self.screen().availableGeometry() if self.screen() else None
        natural = self.sizeHint().height() - self.advanced_area.sizeHint().height() + self.advanced.sizeHint().height()
        frame_extra = self.frameGeometry().height() - self.height()
        limit = screen.height() - frame_extra - 16 if screen is not None else natural
        height = max(self.minimumSizeHint().height(), min(natural + 4, limit))
        if height > self.height():
            self.resize(self.width(), height)
            self._keep_on_screen()

    def _keep_on_screen(self) -> None:
        """After growing, move up as far as needed so the buttons stay on the screen."""
        screen = self.screen().availableGeometry() if self.screen() else None
        frame = self.frameGeometry()
        if screen is not None and frame.bottom() > screen.bottom():
            self.move(frame.left(), max(screen.top(), frame.top() - (frame.bottom() - screen.bottom())))

    def _build_model_controls(self, form: QFormLayout) -> None:
        """Reasoning echo, reasoning effort, extra request parameters, vision, and what was learned."""
        heading = QLabel(self.tr("Reasoning and images"))
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        form.addRow(heading)
        self.reasoning_echo = QComboBox()
        self.reasoning_echo.setObjectName("reasoningEchoCombo")
        for value, label in ((ReasoningEcho.AUTO, self.tr("Automatic")), (ReasoningEcho.ALWAYS, self.tr("Always")),
                             (ReasoningEcho.NEVER, self.tr("Never"))):
            self.reasoning_echo.addItem(label, value.value)
        echo_note = QLabel(self.tr("Sends a reply's reasoning back with its tool calls (DeepSeek's thinking mode "
                                   "requires it). Automatic: for providers known to need it, or once the server "
                                   "asks for it."))
        echo_note.setObjectName("reasoningEchoNote")
        echo_note.setWordWrap(True)
        echo_note.setStyleSheet(f"color: {themes.current().muted};")
        form.addRow(self.tr("Send reasoning back"), self.reasoning_echo)
        form.addRow("", echo_note)
        self.reasoning_effort = QComboBox()
        self.reasoning_effort.setObjectName("reasoningEffortCombo")
        self.reasoning_effort.setToolTip(self.tr("Sent as reasoning_effort, for models that accept it"))
        self.reasoning_effort.addItem(self.tr("Default (not sent)"), None)
        for effort, label in zip(REASONING_EFFORTS, (self.tr("Low"), self.tr("Medium"), self.tr("High"))):
            self.reasoning_effort.addItem(label, effort)
        form.addRow(self.tr("Reasoning effort"), self.reasoning_effort)
        self.extra_params = QPlainTextEdit()
        self.extra_params.setObjectName("extraParamsEdit")
        self.extra_params.setPlaceholderText('{"enable_thinking": true}')
        self.extra_params.setTabChangesFocus(True)
        self.extra_params.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self.extra_params.textChanged.connect(self._check_extra_params)
        self.extra_error = QLabel()
        self.extra_error.setObjectName("extraParamsError")
        self.extra_error.setWordWrap(True)
        self.extra_error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.tr("Extra request parameters"), self.extra_params)
        form.addRow("", self.extra_error)
        self.vision = QComboBox()
        self.vision.setObjectName("visionCombo")
        for value, label in ((Capability.AUTO, self.tr("Automatic (from the model's name)")),
                             (Capability.YES, self.tr("Yes: the model reads images")),
                             (Capability.NO, self.tr("No: text only"))):
            self.vision.addItem(label, value.value)
        form.addRow(self.tr("Images"), self.vision)
        self.learned_label = QLabel()
        self.learned_label.setObjectName("learnedLabel")
        self.learned_label.setWordWrap(True)
        self.reset_learned = QPushButton(self.tr("Forget what was learned"))
        self.reset_learned.setObjectName("resetLearnedButton")
        self.reset_learned.setAutoDefault(False)
        self.reset_learned.clicked.connect(self._forget_learned)
        learned_row = QHBoxLayout()
        learned_row.addWidget(self.learned_label, 1)
        learned_row.addWidget(self.reset_learned)
        self.learned_row = QWidget()
        self.learned_row.setLayout(learned_row)
        learned_row.setContentsMargins(0, 0, 0, 0)
        form.addRow("", self.learned_row)
        self._learned = (False, False)  # (reasoning echo, no vision) as this dialog will save them
        self._show_learned()
        self._check_extra_params()

    def _check_extra_params(self) -> dict[str, Any] | None:
        """Validate the JSON as it is typed; show what is wrong. Returns the parsed object, or None."""
        parsed, problem = parse_extra_params(self.extra_params.toPlainText())
        theme = themes.current()
        if problem is None:
            self.extra_error.setStyleSheet(f"color: {theme.muted};")
            self.extra_error.setText(self.tr("A JSON object merged into every request (for example "
                                             "{\"enable_thinking\": true}). Not for keys: the API key field keeps "
                                             "those in the keyring."))
        else:
            self.extra_error.setStyleSheet(f"color: {theme.risk_destructive};")
            self.extra_error.setText(self._describe_problem(problem))
        return parsed

    def _describe_problem(self, problem: str) -> str:
        if problem == "not an object":
            return self.tr("Not a JSON object: write it in braces, {…}.")
        if problem.startswith("reserved:"):
            return self.tr("Hermes sets {0} itself; remove it from the extra parameters.").format(
                problem.partition(":")[2])
        if problem.startswith("secret:"):
            return self.tr("“{0}” looks like a key or password. Keys go in the API key field, which keeps them in "
                           "the keyring; settings.json is not the place for them.").format(problem.partition(":")[2])
        return self.tr("Not valid JSON: {0}").format(problem)

    def _show_learned(self) -> None:
        echo, no_vision = self._learned
        lines = []
        if echo:
            lines.append(self.tr("the server wants the reasoning sent back"))
        if no_vision:
            lines.append(self.tr("the model refused images"))
        self.learned_label.setText(self.tr("Learned from the server: {0}.").format("; ".join(lines)) if lines else "")
        self.learned_row.setVisible(bool(lines))

    def _forget_learned(self) -> None:
        self._learned = (False, False)
        self._show_learned()
        self.status.setStyleSheet("")
        self.status.setText(self.tr("What was learned will be forgotten when you save."))

    # ------------------------------------------------------------------ default button and closing
    def _make_default(self, button: QPushButton) -> None:
        """The button Enter presses: Test connection, or Save once a test succeeded."""
        for candidate in (self.test_button, self.save_button):
            candidate.setDefault(candidate is button)
            candidate.setAutoDefault(candidate is button)

    def _state(self) -> tuple[ProviderProfile, str, str]:
        return self.profile(), self.entered_key(), self.extra_params.toPlainText().strip()

    def has_unsaved_changes(self) -> bool:
        return self._state() != self._initial

    def close_asking(self) -> None:
        """Close without saving: at once when nothing was changed, otherwise after the user confirms."""
        if not self.has_unsaved_changes():
            self.reject()
        elif self.discard_question is None:
            spawn(self._confirm_discard())

    async def _confirm_discard(self) -> None:
        box = Confirmation(self, QMessageBox.Icon.Question, self.tr("Discard your changes?"),
                           self.tr("The provider settings you entered are not saved yet. Close the dialog and "
                                   "discard them?"), self.tr("Discard"), QMessageBox.ButtonRole.DestructiveRole)
        box.setObjectName("discardChangesDialog")
        keep = box.button(QMessageBox.StandardButton.Cancel)
        keep.setText(self.tr("Keep editing"))
        keep.setIcon(QIcon())  # the style's Cancel cross would suggest this one discards
        self.discard_question = box
        try:
            if await box.confirmed():
                self.reject()
        finally:
            self.discard_question = None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Cancel):
            event.accept()
            self.close_asking()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.isVisible() and self.has_unsaved_changes():
            event.ignore()
            self.close_asking()
            return
        super().closeEvent(event)

    # ------------------------------------------------------------------ filling
    def _load(self, profile: ProviderProfile) -> None:
        matching = preset_for_url(profile.base_url)
        self.provider.blockSignals(True)
        self.provider.setCurrentIndex(max(0, self.provider.findData(matching.id)))
        self.provider.blockSignals(False)
        self.name_edit.setText(profile.name)
        self.base_url.setText(profile.base_url)
        self.model.setEditText(profile.model)
        self.tool_mode.setCurrentIndex(max(0, self.tool_mode.findData(profile.tool_mode.value)))
        self.temperature.setValue(profile.temperature if profile.temperature is not None else -0.01)
        self.max_tokens.setValue(profile.max_output_tokens or 0)
        self.context_window.setValue(profile.context_window)
        self.embedding_model.setText(profile.embedding_model or "")
        self.side_model.setText(profile.side_model or "")
        self.local_only.setChecked(profile.local_only)
        self.reasoning_echo.setCurrentIndex(max(0, self.reasoning_echo.findData(profile.reasoning_echo.value)))
        effort = profile.reasoning_effort
        if effort and self.reasoning_effort.findData(effort) < 0:  # a value typed into settings.json: kept
            self.reasoning_effort.addItem(effort, effort)
        self.reasoning_effort.setCurrentIndex(max(0, self.reasoning_effort.findData(effort)))
        self.extra_params.setPlainText(json.dumps(profile.extra_params, indent=2, ensure_ascii=False)
                                       if profile.extra_params else "")
        self.vision.setCurrentIndex(max(0, self.vision.findData(profile.vision.value)))
        self._learned = (profile.learned_reasoning_echo, profile.learned_no_vision)
        self._show_learned()
        self._show_hint(matching, profile.needs_api_key)

    def _preset_chosen(self, index: int) -> None:
        chosen = preset(self.provider.itemData(index)) or PRESETS[-1]
        self.base_url.setText(chosen.base_url)
        self.model.clear()
        self.model.setEditText(chosen.model)
        self.name_edit.setText(words.preset_profile_name(chosen.id, chosen.name))
        self.context_window.setValue(chosen.context_window)
        self._show_hint(chosen, chosen.needs_key)
        self.status.clear()
        self.fix_button.hide()
        if chosen.base_url:
            self._models_timer.start()

    def _show_hint(self, chosen: Preset, needs_key: bool) -> None:
        if chosen.key_hint:
            self.key_hint.setText(self.tr("Get a key at {0}").format(chosen.key_hint))
        elif not needs_key:
            self.key_hint.setText(self.tr("A local server usually needs no key; leave it empty."))
        else:
            self.key_hint.clear()

    def _toggle_key(self, shown: bool) -> None:
        self.api_key.setEchoMode(QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password)
        self.show_key.setText(self.tr("Hide") if shown else self.tr("Show"))

    # ------------------------------------------------------------------ values
    def entered_key(self) -> str:
        return "".join(self.api_key.text().split())  # pasted keys often carry spaces or a newline

    def key_to_use(self, stored: str | None = None) -> str | None:
        return self.entered_key() or stored

    def profile(self) -> ProviderProfile:
        chosen = preset(self.provider.currentData()) or PRESETS[-1]
        name = self.name_edit.text().strip() or words.preset_profile_name(chosen.id, chosen.name)
        # A name in Chinese has no letters for an id ("provider"): the preset's id says more (`ask --model custom`).
        id_from = name if any(c.isascii() and c.isalnum() for c in name) else chosen.id
        profile_id = self._editing.id if self._editing else profile_id_for(id_from, self._taken)
        temperature = self.temperature.value()
        extra, _problem = parse_extra_params(self.extra_params.toPlainText())
        profile = ProviderProfile(
            id=profile_id,
            name=name,
            base_url=self.base_url.text().strip().rstrip("/"),
            model=self.model.currentText().strip(),
            temperature=None if temperature < 0 else round(temperature, 2),
            max_output_tokens=self.max_tokens.value() or None,
            context_window=self.context_window.value(),
            tool_mode=ToolMode(self.tool_mode.currentData()),
            needs_api_key=chosen.needs_key if not self._editing else (self._editing.needs_api_key or bool(self.entered_key())),
            reasoning_echo=ReasoningEcho(self.reasoning_echo.currentData()),
            reasoning_effort=self.reasoning_effort.currentData() or None,
            # While the text is not a valid object the saved value stands (Save is refused until it is).
            extra_params=extra if extra is not None else dict(self._editing.extra_params if self._editing else {}),
            vision=Capability(self.vision.currentData()),
            # What one server taught holds for that server only: a URL edited to another one starts afresh.
            learned_reasoning_echo=self._learned[0] and self._same_server_as_edited(),
            learned_no_vision=self._learned[1] and self._same_server_as_edited(),
            embedding_model=self.embedding_model.text().strip() or None,
            side_model=self.side_model.text().strip() or None,
            local_only=self.local_only.isChecked(),
        )
        # Fields the dialog does not show (the picker's hand-typed models, request_timeout_s, any added later) stay
        # as they were: the edited profile with the shown fields replaced.
        return replace(self._editing, **{name: getattr(profile, name) for name in SHOWN_FIELDS}) \
            if self._editing else profile

    def _same_server_as_edited(self) -> bool:
        from hermes_desktop.core.settings import same_server

        return self._editing is None or same_server(self.base_url.text(), self._editing.base_url)

    # ------------------------------------------------------------------ checking
    async def refresh_models(self) -> None:
        url = self.base_url.text().strip().rstrip("/")
        if not url:
            return
        check = await _connection_check()
        models = await check.list_models_quietly(url, self.entered_key() or None)
        if models and url == self.base_url.text().strip().rstrip("/"):
            current = self.model.currentText()
            self.model.clear()
            self.model.addItems(models)
            self.model.setEditText(current or models[0])

    async def test_connection(self, stored_key: str | None = None) -> "CheckResult":
        had_focus = self.test_button.hasFocus()  # disabling it moves the focus on to another button
        self.test_button.setEnabled(False)
        self.fix_button.hide()
        self.status.setStyleSheet("")
        self.status.setText(self.tr("Testing…"))
        profile = self.profile()
        try:
            check = await _connection_check()
            CheckStatus = check.CheckStatus
            result = await check.check_connection(profile.base_url, profile.model, self.key_to_use(stored_key))
        finally:
            self.test_button.setEnabled(True)
        self.last_check = result
        self._make_default(self.save_button if result.ok else self.test_button)
        if had_focus:
            (self.save_button if result.ok else self.test_button).setFocus()
        theme = themes.current()
        self.status.setStyleSheet(f"color: {theme.risk_read if result.ok else theme.risk_destructive};")
        self.status.setText(words.check_text(result))
        if result.models:
            current = self.model.currentText()
            self.model.clear()
            self.model.addItems(result.models)
            self.model.setEditText(current)
        if result.status is CheckStatus.WRONG_URL and result.suggested_url:
            self._offer(self.tr("Use {0}").format(result.suggested_url), ("url", result.suggested_url))
        elif result.status is CheckStatus.MODEL_NOT_FOUND and result.models:
            self._offer(self.tr("Use {0}").format(result.models[0]), ("model", result.models[0]))
            self.model.showPopup() if self.isVisible() else None
        elif result.status is CheckStatus.TOOLS_UNSUPPORTED:
            self._offer(self.tr("Use text tool calls"), ("tool_mode", ToolMode.TEXT.value))
        return result

    def _offer(self, label: str, suggestion: tuple[str, str]) -> None:
        self._suggestion = suggestion
        self.fix_button.setText(label)
        self.fix_button.show()

    def _apply_suggestion(self) -> None:
        if self._suggestion is None:
            return
        kind, value = self._suggestion
        if kind == "url":
            self.base_url.setText(value)
        elif kind == "model":
            self.model.setEditText(value)
        elif kind == "tool_mode":
            self.advanced_toggle.setChecked(True)
            self.tool_mode.setCurrentIndex(self.tool_mode.findData(value))
        self.fix_button.hide()
        self.status.setText(self.tr("Changed. Test again to be sure, or save."))

    def _clear_model_problem(self, text: str) -> None:
        """Once a model is chosen or typed, Save's "Choose a model." no longer applies: take it out of the
        status line (the other problems Save found, if any, stay)."""
        if not text.strip() or self._model_problem not in self._save_problems:
            return
        if self.status.text() != " ".join(self._save_problems):  # something newer (a test result) is shown
            return
        self._save_problems.remove(self._model_problem)
        if self._save_problems:
            self.status.setText(" ".join(self._save_problems))
        else:
            self.status.setStyleSheet("")
            self.status.clear()

    def _save(self) -> None:
        profile = self.profile()
        problems = []
        self._save_problems = problems
        if not profile.base_url.startswith(("http://", "https://")):
            problems.append(self.tr("The base URL must start with http:// or https://."))
        if not profile.model:
            problems.append(self._model_problem)
        if self._check_extra_params() is None:
            self.advanced_toggle.setChecked(True)
            problems.append(self.tr("The extra request parameters are not saved until they are a valid JSON object."))
            self.extra_params.setFocus()
            self.advanced_area.ensureWidgetVisible(self.extra_params)
        if problems:
            self.status.setStyleSheet(f"color: {themes.current().risk_destructive};")
            self.status.setText(" ".join(problems))
            return
        self.accept()


