"""Skills tab › Install from URL…: a git repository or a zip URL, fetched and checked by core/skills/remote.py in a
worker thread, then what it holds (skills, descriptions, code with SHA-256, requirements, the pin) is shown in a
question whose default is Cancel; only "Install" installs it. The window's thin layer over the same core the
`skills install` command uses (issue 27)."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox

from hermes_desktop.ui.async_dialog import Confirmation, run_dialog


def inventory_text(staged: Any) -> str:
    """What the staged source holds, in the window's language (the same facts as `skills install` prints)."""
    source = staged.source
    where = source.location
    if source.ref:
        where += QCoreApplication.translate("SkillInstall", " (ref {0})").format(source.ref)
    if source.subdir:
        where += QCoreApplication.translate("SkillInstall", ", folder {0}").format(source.subdir)
    lines = [QCoreApplication.translate("SkillInstall", "Source: {0}").format(where),
             QCoreApplication.translate("SkillInstall", "Pinned to: {0}").format(staged.pin),
             QCoreApplication.translate("SkillInstall", "Installs as {0}/ with {1} skill(s):").format(
                 staged.name, len(staged.skills))]
    scripts = staged.scripts()
    for skill in staged.skills:
        lines.append(f"  {skill.name}: {skill.description[:200]}")
        for requirement in skill.requires:
            needs = QCoreApplication.translate("SkillInstall", "needs {0} {1}")
            lines.append("      " + needs.format(requirement.kind, requirement.name))
        prefix = skill.folder.relative_to(staged.root).as_posix()
        code = QCoreApplication.translate("SkillInstall", "code {0}  SHA-256 {1}")
        for path, digest in scripts.items():
            if prefix == "." or path.startswith(prefix + "/"):
                lines.append("      " + code.format(path, digest))
    if scripts:
        lines.append(QCoreApplication.translate(
            "SkillInstall", "Its code does not run until you trust it (Trust its code… in the Skills tab)."))
    return "\n".join(lines)


async def install_from_url(window: Any, url: str = "") -> bool:
    """Ask for the URL (unless given: a collection chosen in the catalog), show what it holds, install on yes.
    Returns whether a source was installed. Every refusal (a hostile repository, the private-network guard, no
    git) is said in the status bar with its reason."""
    from hermes_desktop.core.skills import remote
    from hermes_desktop.core.skills.install_files import InstallRefused

    runtime = window.controller.runtime
    if runtime is None:
        return False
    if not url:
        ask = QInputDialog(window)
        ask.setObjectName("skillUrlDialog")
        ask.setWindowTitle(QCoreApplication.translate("SkillInstall", "Install skills from a URL"))
        ask.setLabelText(QCoreApplication.translate("SkillInstall", "A git repository (https://host/owner/repo, …/tree/REF/folder) or an https URL of a .zip:"))
        ask.setTextEchoMode(QLineEdit.EchoMode.Normal)
        ask.resize(560, ask.sizeHint().height())
        window.skill_url_dialog = ask  # for tests and automation
        if not await run_dialog(ask) or not ask.textValue().strip():
            return False
        url = ask.textValue().strip()
    status = window.statusBar()
    status.showMessage(QCoreApplication.translate("SkillInstall", "Fetching {0}…").format(url))
    try:
        source = remote.parse_source(url)
        if source.kind == "path":
            raise InstallRefused(QCoreApplication.translate("SkillInstall", "give a URL; a folder or zip on disk goes into the skills folder "
                                     "(Open skills folder)"))
        staged = await asyncio.to_thread(remote.stage, source, runtime.paths.user_skills_dir,
                                         runtime.network_policy())
    except (InstallRefused, OSError) as exc:
        status.showMessage(QCoreApplication.translate("SkillInstall", "Not installed: {0}").format(exc), 15000)
        return False
    try:
        box = Confirmation(window, QMessageBox.Icon.Question, QCoreApplication.translate("SkillInstall", "Install these skills?"),
                           inventory_text(staged), QCoreApplication.translate("SkillInstall", "Install"))
        box.setObjectName("installSkillDialog")
        window.install_skill_dialog = box
        if not await box.confirmed():
            status.showMessage(QCoreApplication.translate("SkillInstall", "Not installed."), 5000)
            return False
        records = remote.SourceRecords(runtime.paths.data_dir / remote.SOURCES_FILE)
        target = await asyncio.to_thread(remote.commit, staged, runtime.paths.user_skills_dir, records)
    except (InstallRefused, OSError) as exc:
        status.showMessage(QCoreApplication.translate("SkillInstall", "Not installed: {0}").format(exc), 15000)
        return False
    finally:
        staged.discard()
    await window.controller.reload_skills()
    status.showMessage(QCoreApplication.translate("SkillInstall", "Installed {0} into {1}").format(", ".join(s.name for s in staged.skills), target), 10000)
    return True



