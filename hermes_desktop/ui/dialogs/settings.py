"""Settings (Ctrl+,): provider profiles, workspace, approvals, appearance, memory (dialogs/memory_settings.py), and
where the data lives.

The provider list never scrolls sideways: a row is "● name — model  (base URL)" and only the URL gives way, elided
in the middle (its start and its end stay) by `ProviderRowDelegate` as wide as the row is at
paint time, so name and model stay readable at any dialog size. The item's own text, its tooltip and its
accessible description keep the whole row (screen readers, keyboard search and copy see the full URL).
"""

from __future__ import annotations

from dataclasses import replace
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, QSize, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from hermes_desktop.core.paths import agents_skills_dir, claude_skills_dir
from hermes_desktop.core.secrets import SecretStoreError
from hermes_desktop.ui.startup_words import secret_error_text
from hermes_desktop.ui.async_dialog import run_dialog
from hermes_desktop.ui.dialogs.setup import SetupDialog
from hermes_desktop.ui.tasks import spawn
from hermes_desktop.ui.words import keyring_name, keyring_reason, source_short

if TYPE_CHECKING:
    from hermes_desktop.ui.controller import AppController

PROFILE_ROLE = Qt.ItemDataRole.UserRole + 1
URL_ROLE = Qt.ItemDataRole.UserRole + 2  # the row's base URL (the part that is elided)
HEAD_ROLE = Qt.ItemDataRole.UserRole + 3  # what comes before it ("● name — model")


class ProviderRowDelegate(QStyledItemDelegate):
    """Paints a provider row with its base URL elided in the middle to the row's width (the rest stays whole)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        url, head = index.data(URL_ROLE), index.data(HEAD_ROLE)
        if not url or option.rect.width() <= 0:
            return
        style = option.widget.style() if option.widget is not None else None
        margin = (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, option, option.widget) + 1) \
            if style is not None else 4
        metrics = option.fontMetrics
        room = option.rect.width() - 2 * margin - metrics.horizontalAdvance(f"{head}  ()") - 2
        elided = metrics.elidedText(str(url), Qt.TextElideMode.ElideMiddle, max(room, 8 * metrics.averageCharWidth()))
        option.text = f"{head}  ({elided})"

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        size = super().sizeHint(option, index)
        view = option.widget
        if index.data(URL_ROLE) and view is not None and hasattr(view, "viewport"):
            size.setWidth(min(size.width(), view.viewport().width()))  # never wider than the list: no sideways scroll
        return size


def approval_modes() -> tuple[tuple[str, str], ...]:
    """The approval modes and their labels, each a literal for lupdate."""
    return (
        ("ask_risky", QCoreApplication.translate("SettingsDialog", "Ask before changing anything (recommended)")),
        ("always_ask", QCoreApplication.translate("SettingsDialog", "Always ask, even before reading")),
        ("trusted", QCoreApplication.translate("SettingsDialog", "Trusted: only ask before deleting or overwriting")),
        ("chat_only", QCoreApplication.translate("SettingsDialog", "Chat only: no tools at all")),
    )


class SettingsDialog(QDialog):
    def __init__(self, controller: "AppController", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle(self.tr("Settings"))
        self.controller = controller
        tabs = QTabWidget()
        tabs.addTab(self._providers_tab(), self.tr("Providers"))
        tabs.addTab(self._general_tab(), self.tr("General"))
        tabs.addTab(self._permissions_tab(), self.tr("Permissions"))
        from hermes_desktop.ui.dialogs.memory_settings import MemorySettingsPage

        self.memory_page = MemorySettingsPage(controller)
        tabs.addTab(self.memory_page, self.tr("Memory"))
        sync_actions = getattr(parent, "sync", None)  # ui/sync_actions.py, made by the main window
        if sync_actions is not None:
            from hermes_desktop.ui.dialogs.sync_settings import SyncSettingsPage

            self.sync_page = SyncSettingsPage(sync_actions)
            tabs.addTab(self.sync_page, self.tr("Backup && sync"))
        usage_actions = getattr(parent, "usage", None)  # ui/usage_actions.py, made by the main window
        if usage_actions is not None and usage_actions.service() is not None:
            from hermes_desktop.ui.usage_settings import UsageSettingsPage

            self.usage_page = UsageSettingsPage(usage_actions)
            tabs.addTab(self.usage_page, self.tr("Usage"))
        tabs.addTab(self._data_tab(), self.tr("Your data"))
        self.tabs = tabs
        self.message = QLabel()
        self.message.setObjectName("settingsMessage")
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.accept)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.resize(640, 480)
        self._fill_profiles()

    # ------------------------------------------------------------------ providers
    def _providers_tab(self) -> QWidget:
        page = QWidget()
        self.profiles = QListWidget()
        self.profiles.setObjectName("profileList")
        self.profiles.setAccessibleName(self.tr("Providers"))
        self.profiles.setItemDelegate(ProviderRowDelegate(self.profiles))
        self.profiles.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.profiles.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.profiles.itemDoubleClicked.connect(lambda _i: spawn(self.edit_profile()))
        buttons = QVBoxLayout()
        for label, name, handler in (
            (self.tr("Add…"), "addProfileButton", lambda: spawn(self.add_profile())),
            (self.tr("Edit…"), "editProfileButton", lambda: spawn(self.edit_profile())),
            (self.tr("Duplicate"), "duplicateProfileButton", lambda: spawn(self.duplicate_profile())),
            (self.tr("Use this one"), "activateProfileButton", lambda: spawn(self.activate_profile())),
            (self.tr("Delete"), "deleteProfileButton", lambda: spawn(self.delete_profile())),
        ):
            button = QPushButton(label)
            button.setObjectName(name)
            button.clicked.connect(handler)
            buttons.addWidget(button)
        buttons.addStretch(1)
        row = QHBoxLayout(page)
        row.addWidget(self.profiles, 1)
        row.addLayout(buttons)
        return page

    def _fill_profiles(self) -> None:
        runtime = self.controller.runtime
        assert runtime is not None
        current = self.profiles.currentItem()
        keep = current.data(PROFILE_ROLE) if current is not None else None
        self.profiles.clear()
        active = runtime.settings.active_profile
        for profile in runtime.settings.profiles:
            marker = "● " if active and profile.id == active.id else "   "
            head = f"{marker}{profile.name} — {profile.model}"
            side = profile.side_model if profile.side_model and profile.side_model != profile.model else ""
            if side:  # titles, summaries and memory go to another model of this provider: said on its row
                head = self.tr("{0}, side tasks: {1}").format(head, side)
            if profile.local_only:  # its conversations stay with local providers (core/local_only.py)
                head = self.tr("{0}, local only").format(head)
            item = QListWidgetItem(f"{head}  ({profile.base_url})")
            item.setData(PROFILE_ROLE, profile.id)
            item.setData(URL_ROLE, profile.base_url)
            item.setData(HEAD_ROLE, head)
            side_line = self.tr("Titles, summaries and memory: {0}").format(side or profile.model)
            # Rich text wraps (a plain-text tooltip of a 200-character URL is as wide as the screen); escaped.
            item.setToolTip("<p style='white-space:pre-wrap'>" + escape(f"{profile.name} — {profile.model}\n"
                                                                       f"{profile.base_url}\n{side_line}",
                                                                       quote=False) + "</p>")
            item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, profile.base_url)
            self.profiles.addItem(item)
        # Edit…, Duplicate and Delete act on the chosen row: the one chosen before, else the active provider (with
        # nothing chosen, Edit… did nothing at all).
        ids = [p.id for p in runtime.settings.profiles]
        chosen = keep if keep in ids else (active.id if active is not None and active.id in ids else None)
        if chosen is not None:
            self.profiles.setCurrentRow(ids.index(chosen))
        if not runtime.settings.profiles:
            empty = QListWidgetItem(self.tr("No providers yet: add one."))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.profiles.addItem(empty)
        if self.controller.environment.get("HERMES_BASE_URL") or self.controller.environment.get("HERMES_MODEL"):
            self.message.setText(self.tr("HERMES_BASE_URL / HERMES_MODEL are set in the environment and override the "
                                         "active profile while they are."))

    def _selected(self):  # type: ignore[no-untyped-def]
        item = self.profiles.currentItem()
        runtime = self.controller.runtime
        if item is None or runtime is None:
            return None
        return runtime.settings.profile(item.data(PROFILE_ROLE))

    async def _open_editor(self, profile=None, *, key_stored: bool = False):  # type: ignore[no-untyped-def]
        runtime = self.controller.runtime
        assert runtime is not None
        dialog = SetupDialog(self, profile=profile, key_stored=key_stored, keyring_secure=runtime.secrets_report.secure,
                             keyring_reason=keyring_reason(getattr(runtime.secrets_report, "code", ""),
                                                           runtime.secrets_report.reason),
                             taken_ids={p.id for p in runtime.settings.profiles})
        dialog.accepted.connect(self.controller.expect_provider_change)  # messages sent meanwhile wait for it
        if await run_dialog(dialog) != QDialog.DialogCode.Accepted:
            return None
        return dialog

    async def add_profile(self) -> None:
        dialog = await self._open_editor()
        if dialog is not None:
            # A new provider is added beside the default, never in its place: "Use this one" makes it the default
            # (issue 24: adding a second provider silently switched every new session to it).
            await self._save(dialog.profile(), dialog.entered_key() or None, make_active=False)

    async def edit_profile(self) -> None:
        profile = self._selected()
        if profile is None:
            return
        stored = await self._stored_key(profile.id)
        dialog = await self._open_editor(profile, key_stored=bool(stored))
        if dialog is not None:
            runtime = self.controller.runtime
            active = runtime is not None and runtime.settings.active_profile_id == profile.id
            await self._save(dialog.profile(), dialog.entered_key() or None, make_active=active)

    async def duplicate_profile(self) -> None:
        from hermes_desktop.core.providers import profile_id_for

        profile = self._selected()
        runtime = self.controller.runtime
        if profile is None or runtime is None:
            return
        name = self.tr("{0} (copy)").format(profile.name)
        copy = replace(profile, id=profile_id_for(name, {p.id for p in runtime.settings.profiles}), name=name)
        await self._save(copy, await self._stored_key(profile.id), make_active=False)

    async def activate_profile(self) -> None:
        profile = self._selected()
        if profile is not None:
            await self.controller.activate_provider(profile.id)
            self._fill_profiles()

    async def delete_profile(self) -> None:
        profile = self._selected()
        if profile is None:
            return
        try:
            await self.controller.delete_provider(profile.id)
        except SecretStoreError as exc:
            self.message.setText(secret_error_text(exc))
            return
        self.message.setText(self.tr("Deleted {0} and its key.").format(profile.name))
        self._fill_profiles()

    async def _stored_key(self, profile_id: str) -> str | None:
        try:
            return await self.controller.stored_key(profile_id)
        except SecretStoreError as exc:
            self.message.setText(secret_error_text(exc))
            return None

    async def _save(self, profile, key: str | None, *, make_active: bool) -> None:  # type: ignore[no-untyped-def]
        try:
            await self.controller.save_provider(profile, key, make_active=make_active)
        except SecretStoreError as exc:
            self.message.setText(self.tr("The key was not saved: {0}").format(secret_error_text(exc)))
            return
        self._fill_profiles()

    # ------------------------------------------------------------------ general
    def _general_tab(self) -> QWidget:
        runtime = self.controller.runtime
        assert runtime is not None
        page = QWidget()
        form = QFormLayout(page)
        self.workspace = QLineEdit(str(runtime.workspace.root))
        self.workspace.setObjectName("workspaceEdit")
        self.workspace.setAccessibleName(self.tr("Workspace folder"))
        self._asking_workspace = False
        self.workspace.editingFinished.connect(lambda: spawn(self.use_workspace(self.workspace.text().strip())))
        browse = QPushButton(self.tr("Choose…"))
        browse.setAccessibleName(self.tr("Choose the workspace folder"))
        browse.clicked.connect(lambda: spawn(self._choose_workspace()))
        row = QHBoxLayout()
        row.addWidget(self.workspace, 1)
        row.addWidget(browse)
        form.addRow(self.tr("Workspace folder"), row)
        if self.controller.environment.get("HERMES_WORKSPACE"):
            form.addRow("", QLabel(self.tr("HERMES_WORKSPACE is set and wins while it is.")))
        self.approval = QComboBox()
        self.approval.setObjectName("approvalModeCombo")
        for value, label in approval_modes():
            self.approval.addItem(label, value)
        self.approval.setCurrentIndex(max(0, self.approval.findData(runtime.settings.approval_mode.value)))
        self.approval.currentIndexChanged.connect(lambda _i: self.controller.set_approval_mode(self.approval.currentData()))
        form.addRow(self.tr("Tools and approvals"), self.approval)
        self.theme = QComboBox()
        self.theme.setObjectName("themeCombo")
        for value, label in (("system", self.tr("Follow system")), ("light", self.tr("Light")), ("dark", self.tr("Dark"))):
            self.theme.addItem(label, value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(runtime.settings.theme)))
        self.theme.currentIndexChanged.connect(lambda _i: self._theme_chosen())
        form.addRow(self.tr("Theme"), self.theme)
        self.language = QComboBox()
        self.language.setObjectName("languageCombo")
        for value, label in (("system", self.tr("Follow system")), ("en", "English"), ("zh_CN", "简体中文")):
            self.language.addItem(label, value)
        self.language.setCurrentIndex(max(0, self.language.findData(runtime.settings.language)))
        self.language.currentIndexChanged.connect(lambda _i: self.controller.set_language(self.language.currentData()))
        form.addRow(self.tr("Language"), self.language)
        form.addRow("", QLabel(self.tr("A new language applies when Hermes starts again.")))
        self.thinking = QComboBox()
        self.thinking.setObjectName("thinkingDisplayCombo")
        for value, label in (("auto", self.tr("Show while it streams, then collapse")),
                             ("expanded", self.tr("Always show")), ("hidden", self.tr("Hide"))):
            self.thinking.addItem(label, value)
        self.thinking.setCurrentIndex(max(0, self.thinking.findData(runtime.settings.thinking_display.value)))
        self.thinking.currentIndexChanged.connect(
            lambda _i: self.controller.set_thinking_display(self.thinking.currentData()))
        form.addRow(self.tr("Model's thinking"), self.thinking)
        self.agents_skills = QCheckBox(self.tr("Also load skills from {0} (shared with other apps)").format(
            agents_skills_dir()))
        self.agents_skills.setObjectName("agentsSkillsCheck")
        self.agents_skills.setChecked(runtime.settings.agents_skills)
        self.agents_skills.toggled.connect(lambda on: spawn(self.controller.set_agents_skills(on)))
        form.addRow(self.tr("Skills"), self.agents_skills)
        self.claude_skills = QCheckBox(self.tr("Also load skills from {0} (Claude Code's folder)").format(
            claude_skills_dir()))
        self.claude_skills.setObjectName("claudeSkillsCheck")
        self.claude_skills.setChecked(runtime.settings.claude_skills)
        self.claude_skills.toggled.connect(lambda on: spawn(self.controller.set_claude_skills(on)))
        form.addRow("", self.claude_skills)
        return page

    def _theme_chosen(self) -> None:
        window = self.parent()
        if hasattr(window, "set_theme"):
            window.set_theme(self.theme.currentData())  # type: ignore[union-attr]

    async def _choose_workspace(self) -> None:
        dialog = QFileDialog(self, self.tr("Workspace folder"), self.workspace.text())
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        if await run_dialog(dialog) == QDialog.DialogCode.Accepted and dialog.selectedFiles():
            self.workspace.setText(dialog.selectedFiles()[0])
            await self.use_workspace(dialog.selectedFiles()[0])

    async def use_workspace(self, folder: str) -> None:
        """Make `folder` the workspace (empty: the default one). `/`, the home folder or a system folder is
        used only after the user confirms (ui/dialogs/workspace.py); declined, the previous one stays."""
        from hermes_desktop.core.tools.workspace import broad_workspace_reason
        from hermes_desktop.ui.dialogs.workspace import confirm_broad_workspace

        runtime = self.controller.runtime
        assert runtime is not None
        previous = runtime.settings.workspace or ""
        if folder in (previous, str(runtime.workspace.root)) or self._asking_workspace:
            return  # editingFinished also comes when the field merely loses the focus
        reason = broad_workspace_reason(Path(folder)) if folder else None
        if reason is not None:
            self._asking_workspace = True
            try:
                confirmed = await confirm_broad_workspace(self, reason)
            finally:
                self._asking_workspace = False
            if not confirmed:
                self.workspace.setText(str(runtime.workspace.root))
                return
        self.controller.set_workspace(folder)

    # ------------------------------------------------------------------ permissions
    def _permissions_tab(self) -> QWidget:
        page = QWidget()
        explain = QLabel(self.tr("Rules you set for single tools. They override the approval mode; a destructive call "
                                 "that touches more than 20 files or 50 MB asks even when its tool is always allowed."))
        explain.setWordWrap(True)
        self.rules_list = QListWidget()
        self.rules_list.setObjectName("ruleList")
        self.rules_list.setAccessibleName(self.tr("Approval rules"))
        revoke = QPushButton(self.tr("Revoke"))
        revoke.setObjectName("revokeRuleButton")
        revoke.clicked.connect(self._revoke_selected)
        revoke_all = QPushButton(self.tr("Revoke all"))
        revoke_all.setObjectName("revokeAllRulesButton")
        revoke_all.clicked.connect(self._revoke_all)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(revoke)
        buttons.addWidget(revoke_all)
        hosts_explain = QLabel(self.tr("fetch_url never opens addresses on your own network or this computer (a "
                                       "router, a NAS, a local server) unless their host is listed here. Separate "
                                       "hosts with commas; add :port to allow one port only."))
        hosts_explain.setWordWrap(True)
        self.private_hosts = QLineEdit(", ".join(self._runtime_settings().fetch_allowed_private_hosts))
        self.private_hosts.setObjectName("privateHostsField")
        self.private_hosts.setAccessibleName(self.tr("Hosts on your network that fetch_url may open"))
        self.private_hosts.setPlaceholderText(self.tr("e.g. nas.local, 192.168.1.20:8080"))
        self.private_hosts.editingFinished.connect(self._save_private_hosts)
        layout = QVBoxLayout(page)
        layout.addWidget(explain)
        layout.addWidget(self.rules_list, 1)
        layout.addLayout(buttons)
        layout.addSpacing(12)
        layout.addWidget(hosts_explain)
        layout.addWidget(self.private_hosts)
        self._fill_rules()
        return page

    def _runtime_settings(self) -> Any:
        runtime = self.controller.runtime
        assert runtime is not None
        return runtime.settings

    def _save_private_hosts(self) -> None:
        from hermes_desktop.core.tools.network import parse_private_hosts

        hosts, bad = parse_private_hosts(self.private_hosts.text())
        if bad:  # nothing is saved until the whole list reads right
            self.message.setText(self.tr("Not a host name or host:port: {0}. Nothing was changed.").format(
                ", ".join(bad)))
            return
        if hosts != tuple(self._runtime_settings().fetch_allowed_private_hosts):
            self.controller.set_private_hosts(hosts)
            self.message.setText(self.tr("fetch_url may open these hosts on your network: {0}.").format(
                ", ".join(hosts)) if hosts else self.tr("fetch_url opens no address on your network now."))
        self.private_hosts.setText(", ".join(hosts))

    def _fill_rules(self) -> None:
        words = {"always_allow": self.tr("always allowed"), "ask": self.tr("always asks"),
                 "never_allow": self.tr("never allowed")}
        self.rules_list.clear()
        rules = self.controller.rules
        for key, rule in sorted(rules.items()):
            source, _, tool = key.rpartition("/")
            # where the tool comes from in words ("built-in", "MCP files"), not the rule key's "builtin"
            item = QListWidgetItem(self.tr("{tool}  —  {rule}   ({source})").format(
                tool=tool, rule=words.get(rule, rule), source=source_short(source.split("@")[0])))
            item.setData(PROFILE_ROLE, key)
            self.rules_list.addItem(item)
        if not rules:
            empty = QListWidgetItem(self.tr("No rules: every tool follows the approval mode."))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.rules_list.addItem(empty)

    def _revoke_selected(self) -> None:
        item = self.rules_list.currentItem()
        if item is not None and item.data(PROFILE_ROLE):
            self.controller.set_rule(item.data(PROFILE_ROLE), None)
            self._fill_rules()

    def _revoke_all(self) -> None:
        for key in list(self.controller.rules):
            self.controller.set_rule(key, None)
        self._fill_rules()

    # ------------------------------------------------------------------ data
    def _data_tab(self) -> QWidget:
        runtime = self.controller.runtime
        assert runtime is not None
        page = QWidget()
        grid = QGridLayout(page)
        rows = (
            (self.tr("Sessions (hermes.db) and backups"), runtime.paths.data_dir),
            (self.tr("Settings"), runtime.paths.config_dir),
            (self.tr("Logs and the audit log of every tool call"), runtime.paths.log_dir),
            (self.tr("Workspace (files the agent may use, notes)"), runtime.workspace.root),
        )
        for row, (label, path) in enumerate(rows):
            grid.addWidget(QLabel(label), row, 0)
            shown = QLineEdit(str(path))
            shown.setReadOnly(True)
            shown.setAccessibleName(label)
            grid.addWidget(shown, row, 1)
            button = QPushButton(self.tr("Open"))
            button.setAccessibleName(self.tr("Open the folder: {0}").format(label))
            button.clicked.connect(lambda _c=False, p=path: self._open_folder(Path(p)))
            grid.addWidget(button, row, 2)
        report = runtime.secrets_report
        keys = (self.tr("API keys are kept in the system keyring ({0}).").format(keyring_name(report.name))
                if report.secure else
                self.tr("No secure keyring was found ({0}): API keys are kept in memory for this run only. Set "
                        "HERMES_API_KEY to supply one on every start.").format(
                    keyring_reason(getattr(report, "code", ""), report.reason)))
        note = QLabel(keys)
        note.setWordWrap(True)
        note.setObjectName("keyringStatus")
        grid.addWidget(note, len(rows), 0, 1, 3)
        grid.setRowStretch(len(rows) + 1, 1)
        return page

    def _open_folder(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))
