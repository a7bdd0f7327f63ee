"""The window's side of learning (issue 27): Save as skill, the Learning dialog and the collections catalog.

Save as skill drafts a SKILL.md from a turn that ended well by a side request to the session's own model (its
assistant's side model where one is set: never another provider; core/runtime.side_client), then opens the editor
(ui/dialogs/skill_draft.py). A refusal (no path to save, no model, the model failed or timed out) is said in the
status bar in the user's language; nothing is written until the user saves. Store and learning.db calls run in a
worker thread.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from hermes_desktop.ui.async_dialog import run_dialog
from hermes_desktop.ui.tasks import in_thread, spawn

MIN_TOOL_CALLS_TO_OFFER = 3  # "after a turn with at least three tool calls that ended well, the chat offers it"


async def save_as_skill(window: Any, session_id: str | None, trajectory: Any = None) -> bool:
    """Draft from `trajectory` (a suggestion's example) or the session's last turn that ended well; edit; save."""
    from hermes_desktop.core.learning import drafting

    runtime = window.controller.runtime
    status = window.statusBar()
    if runtime is None or runtime.workflow is None:
        return False
    if trajectory is None:
        if not session_id:
            status.showMessage(QCoreApplication.translate("Learning", "Open a conversation first: a skill is saved from one of its tasks."), 8000)
            return False
        try:
            trajectory = await in_thread(drafting.choose_turn, runtime.workflow, runtime.store, session_id, None)
        except drafting.DraftError:
            status.showMessage(QCoreApplication.translate("Learning", "Nothing to save as a skill: no task in this conversation used tools and ended "
                                   "well (or learning is off)."), 10000)
            return False
    model = await runtime.side_client(trajectory.session_id)
    if model is None:
        status.showMessage(QCoreApplication.translate("Learning", "No model is set up to draft the skill."), 8000)
        return False
    status.showMessage(QCoreApplication.translate("Learning", "Drafting a skill from this task…"))
    try:
        made = await drafting.draft(model, trajectory)
    except drafting.DraftError as exc:
        status.showMessage(QCoreApplication.translate("Learning", "No draft: {0}").format(exc), 15000)
        return False
    status.clearMessage()
    from hermes_desktop.ui.dialogs.skill_draft import SkillDraftDialog

    dialog = SkillDraftDialog(made, lambda chosen: drafting.save(chosen, runtime.paths.user_skills_dir), window)
    window.skill_draft_dialog = dialog  # for tests and automation
    if not await run_dialog(dialog):
        status.showMessage(QCoreApplication.translate("Learning", "The skill was not saved."), 5000)
        return False
    await window.controller.reload_skills()
    status.showMessage(QCoreApplication.translate("Learning", "Saved the skill {0}: it is yours and active from the next message.").format(
        dialog.draft.name), 10000)
    return True


async def save_turn_as_skill(window: Any, session_id: str | None, message_id: int) -> bool:
    """Activity › a turn's menu › Save as skill…: that turn's path, if it was recorded and ended well."""
    runtime = window.controller.runtime
    if runtime is None or runtime.workflow is None or not session_id:
        return False
    recorded = [t for t in await in_thread(runtime.workflow.all)
                if t.session_id == session_id and t.message_id == message_id]
    status = window.statusBar()
    if not recorded:
        status.showMessage(QCoreApplication.translate("Learning", "This turn used no tools (or learning was off): "
                                                      "there is no path to save."), 10000)
        return False
    if not recorded[-1].good:
        status.showMessage(QCoreApplication.translate("Learning", "This turn did not end well, so it is not saved "
                                                      "as a skill."), 10000)
        return False
    return await save_as_skill(window, session_id, recorded[-1])


async def show_learning(window: Any) -> None:
    from hermes_desktop.core.learning.suggestions import suggestions
    from hermes_desktop.ui.dialogs.learning import LearningDialog

    runtime = window.controller.runtime
    if runtime is None or runtime.workflow is None:
        return
    workflow = runtime.workflow
    paths = await in_thread(workflow.all)

    def set_enabled(on: bool) -> None:
        workflow.enabled = on
        window.controller.set_memory_settings(workflow_memory=on)

    def forget(path: Any) -> bool:
        return bool(workflow.forget(path.id))  # one small DELETE: on this thread, so the list updates at once

    dialog = LearningDialog(enabled=workflow.enabled, suggestions=suggestions(paths), paths=paths,
                            set_enabled=set_enabled, forget=forget,
                            draft=lambda chosen: spawn(save_as_skill(window, None, chosen.example)), parent=window)
    window.learning_dialog = dialog
    await run_dialog(dialog)


async def browse_collections(window: Any) -> bool:
    from hermes_desktop.core.skills import collections
    from hermes_desktop.ui.dialogs.skill_collections import SkillCollectionsDialog
    from hermes_desktop.ui.skill_install_actions import install_from_url

    runtime = window.controller.runtime
    if runtime is None:
        return False
    from hermes_desktop.ui.i18n import active_language

    known, problems = await in_thread(collections.load, runtime.paths.config_dir, active_language())
    user_file = str(runtime.paths.config_dir / collections.USER_FILE_NAME)
    dialog = SkillCollectionsDialog(known, problems, user_file, window)
    window.skill_collections_dialog = dialog
    if not await run_dialog(dialog) or dialog.chosen is None:
        return False
    return await install_from_url(window, dialog.chosen.url)


def worth_offering(tool_calls: int, ended_well: bool) -> bool:
    return ended_well and tool_calls >= MIN_TOOL_CALLS_TO_OFFER


OFFER_WITHIN_S = 120.0  # a path recorded this long ago or less belongs to the turn that just finished


async def offer_after_turn(window: Any, session_id: str) -> None:
    """After a turn with at least three tool calls that ended well, a "Save as skill…" button in the status bar
    (until the next turn starts or another conversation is opened)."""
    import time

    runtime = window.controller.runtime
    if runtime is None or runtime.workflow is None or not runtime.workflow.enabled:
        return
    found = await in_thread(runtime.workflow.latest, session_id)
    if found is None:
        return
    path, recorded_at = found
    if (time.time() - recorded_at > OFFER_WITHIN_S or not worth_offering(len(path.path), path.good)
            or session_id != window.current_session or path.id in window.skills_offered):
        return
    window.skills_offered.add(path.id)
    withdraw_offer(window)
    from PySide6.QtWidgets import QPushButton

    button = QPushButton(QCoreApplication.translate("Learning", "Save as skill…"))
    button.setObjectName("saveAsSkillOffer")
    button.setToolTip(QCoreApplication.translate("Learning", "This task took {0} steps and ended well: keep it as a skill to do it the same way "
                          "next time.").format(len(path.path)))
    button.setFlat(True)

    def clicked() -> None:
        withdraw_offer(window)
        spawn(save_as_skill(window, session_id, path))

    button.clicked.connect(clicked)
    window.statusBar().addPermanentWidget(button)
    window.skill_offer = button


def withdraw_offer(window: Any) -> None:
    button = getattr(window, "skill_offer", None)
    if button is not None:
        window.statusBar().removeWidget(button)
        button.deleteLater()
        window.skill_offer = None
