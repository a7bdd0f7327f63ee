"""The chunk settings in the real window (ui/knowledge_settings.py): Chunks… opens the base's values, a value out
of the core's range is said in the dialog and OK is disabled (nothing saved, nothing typed lost), a valid change is
saved to the base's SQLite file and the sync that follows chunks every file again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox


def test_chunk_settings_are_checked_saved_and_re_chunk_the_base(make_window, tmp_path: Path) -> None:
    h = make_window()
    actions = h.window.knowledge
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text(" ".join(f"Sentence {n} about the budget." for n in range(300)), encoding="utf-8")
    (folder / "b.md").write_text("Short.", encoding="utf-8")
    h.run(actions.create(folder, name="notes"))
    h.wait_until(lambda: actions.syncing is None and actions.last_result is not None, timeout=60, what="first sync")
    panel = h.window.inspector.knowledge
    h.do(lambda: h.window.inspector.setCurrentWidget(panel))
    h.wait_until(lambda: panel.list.count() == 1, what="the row")
    h.do(lambda: panel.select("notes"))
    assert panel.settings_button.isEnabled()
    h.do(panel.settings_button.click)
    h.wait_until(lambda: actions.settings_dialog is not None and actions.settings_dialog.isVisible(), what="dialog")
    dialog = actions.settings_dialog
    assert dialog.values() == (350, 60)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    h.do(lambda: dialog.chunk.setValue(40))
    assert not ok.isEnabled() and dialog.error.text() == "A chunk has 100 to 2000 tokens."
    h.do(lambda: dialog.chunk.setValue(120))
    h.do(lambda: dialog.overlap.setValue(90))
    assert not ok.isEnabled() and dialog.error.text() == "The overlap is 0 to half a chunk (60 tokens)."
    h.do(lambda: dialog.overlap.setValue(20))
    assert ok.isEnabled() and not dialog.error.isVisible()
    actions.last_result = None
    h.do(ok.click)
    registry = h.controller.runtime.knowledge.registry
    h.wait_until(lambda: actions.last_result is not None and actions.syncing is None, timeout=60,
                 what="the sync after the change")
    info = registry.get("notes")
    assert (info.chunk_tokens, info.overlap_tokens) == (120, 20)
    assert sorted(actions.last_result.read) == ["notes/a.md", "notes/b.md"]
