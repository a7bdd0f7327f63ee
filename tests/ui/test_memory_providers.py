"""Issue 24 through the real window: memory follows the user across providers, and Settings › Memory chooses which
providers receive it. Two saved providers on two scripted servers (real HTTP, real openai client), the real store;
the session is switched with the model picker's own `choose`, the exclusion set by clicking the page's boxes."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QCheckBox, QDialogButtonBox

from hermes_desktop.core.session_models import SessionPick
from tests.support.model_server import text_reply
from tests.ui.test_model_picker import last_turn_request, providers, second_server  # noqa: F401 (fixtures)
from tests.ui.test_window import ask_and_settle, wait_for_reply

PREFERENCE = "I prefer dark chocolate with sea salt."


def settings_page(h):
    h.do(h.window.open_settings)
    dialog = h.wait_until(lambda: getattr(h.window, "settings_dialog", None), what="the settings")
    return dialog, dialog.memory_page


def test_memory_said_to_one_provider_reaches_the_other_until_the_user_unticks_it(
        make_window, model_server, second_server, providers) -> None:  # noqa: F811
    h = make_window(configured=False)
    ask_and_settle(h, model_server, PREFERENCE, "Noted.")
    h.wait_until(lambda: h.controller.memory.list(), what="the memory")
    [memory] = h.controller.memory.list()
    assert memory.profile_id == "main"

    h.run(h.window.model_picker.choose(SessionPick("other", "other-a")))
    ask_and_settle(h, second_server, "Which chocolate should I buy?", "Dark, salted.")
    assert PREFERENCE in last_turn_request(second_server).system_prompt, "made with Main, recalled for Other"

    dialog, page = settings_page(h)
    boxes = {pid: box for pid, box in page.provider_checks.items()}
    assert set(boxes) == {"main", "other"} and all(b.isChecked() for b in boxes.values())
    assert [b.text() for b in dialog.findChildren(QCheckBox) if b.objectName().startswith("memoryProvider:")] == \
        ["Main", "Other"]
    h.do(boxes["other"].click)
    assert h.controller.runtime.settings.memory_excluded_profiles == ("other",)
    saved = json.loads(h.controller.runtime.paths.settings_file.read_text(encoding="utf-8"))
    assert saved["memory_excluded_profiles"] == ["other"]
    assert page.provider_checks["other"] is boxes["other"], "a tick does not rebuild the list under the mouse"

    second_server.enqueue(text_reply("No idea."))
    h.send("Which chocolate again?")
    wait_for_reply(h, "No idea.")
    prompt = last_turn_request(second_server).system_prompt
    assert "sea salt" not in prompt and "What you remember about the user" not in prompt

    # memory off greys the boxes; ticked again, Other gets it from its next request
    h.do(page.enabled.click)
    assert not page.providers.isEnabled()
    h.do(page.enabled.click)
    h.do(boxes["other"].click)
    assert h.controller.runtime.settings.memory_excluded_profiles == ()
    h.do(lambda: dialog.findChild(QDialogButtonBox).rejected.emit())
    h.wait_until(lambda: not h.controller.is_busy(h.window.current_session), what="idle")
    ask_and_settle(h, second_server, "And now, which chocolate?", "Dark.")
    assert PREFERENCE in last_turn_request(second_server).system_prompt
