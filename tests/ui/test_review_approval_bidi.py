"""What the user judges before allowing a call cannot be reordered by the call's own text: a path with a Unicode
bidi override (U+202E) shows the override as an escape in the approval dialog's arguments, its 'On disk' lines and
its impact, and on the tool card's impact line (ui/words.impact_text: live and reopened cards alike)."""

from __future__ import annotations

from hermes_desktop.core.tools.approval import ApprovalRequest
from hermes_desktop.core.tools.spec import Risk
from hermes_desktop.core.tools.workspace import Workspace
from hermes_desktop.ui import words
from hermes_desktop.ui.dialogs.approval import ApprovalDialog

TRICK = "invoice\u202efdp.exe"  # reads as "invoiceexe.pdf" on screen


def test_a_bidi_override_in_a_path_is_shown_not_obeyed(qtbot, tmp_path) -> None:
    request = ApprovalRequest("s", "c1", "delete_path", "builtin", Risk.DESTRUCTIVE, {"path": TRICK},
                              impact=f"will delete {TRICK} (3 bytes)", impact_code="delete_file",
                              impact_params={"path": TRICK, "bytes": 3})
    dialog = ApprovalDialog(request, workspace=Workspace(tmp_path))
    qtbot.addWidget(dialog)
    shown = dialog.args_view.toPlainText()
    assert "\u202e" not in shown and "invoice\\u202efdp.exe" in shown
    assert "On disk:" in shown, "the resolved path is listed too"
    assert "\u202e" not in dialog.impact_label.text() and "\\u202e" in dialog.impact_label.text()
    card_line = words.impact_text("delete_file", {"path": TRICK, "bytes": 3}, None)
    assert "\u202e" not in card_line and "\\u202e" in card_line
    fallback = words.impact_text("", {}, f"runs\x1b[2K {TRICK}\nsecond line")
    assert "\u202e" not in fallback and "\x1b" not in fallback and "\nsecond line" in fallback


def test_the_cards_arguments_show_the_override_too() -> None:
    """The card (with its inline Allow / Deny) shows the arguments as well: parsed or not, the override is escaped."""
    from hermes_desktop.ui.chat.items import pretty_arguments

    for raw in ('{"path": "invoice\u202efdp.exe"}', '{"path": "invoice\u202efdp.exe", cut'):
        shown = pretty_arguments(raw)
        assert "\u202e" not in shown and "\\u202e" in shown
    assert pretty_arguments('{"path": "a.txt", "note": "第一\\n行"}') == '{\n  "path": "a.txt",\n  "note": "第一\\n行"\n}'
