"""Issue 24: an MCP filesystem server's call on the user's Documents showed the built-in file tools' verdict
("refused: … outside the workspace", in English) in the approval dialog, as if Hermes would refuse it, and still
offered Allow. The workspace sandbox applies to the built-in tools only: an MCP call's arguments are shown as sent."""

from __future__ import annotations

from hermes_desktop.core.tools.approval import ApprovalRequest
from hermes_desktop.core.tools.spec import Risk
from hermes_desktop.core.tools.workspace import Workspace
from hermes_desktop.ui.dialogs.approval import ApprovalDialog


def test_an_mcp_call_s_paths_get_no_workspace_verdict(qtbot, tmp_path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    documents = tmp_path / "Documents" / "report.txt"
    request = ApprovalRequest("s", "c1", "mcp_fs_write_file", "mcp:fs", Risk.WRITE,
                              {"path": str(documents), "content": "hi"}, source_detail="npx server-filesystem")
    dialog = ApprovalDialog(request, workspace=Workspace(workspace))
    qtbot.addWidget(dialog)
    shown = dialog.args_view.toPlainText()
    assert str(documents) in shown
    assert "refused" not in shown and "outside the workspace" not in shown and "On disk:" not in shown


def test_a_built_in_call_outside_the_workspace_still_shows_it_is_refused(qtbot, tmp_path) -> None:
    request = ApprovalRequest("s", "c1", "write_file", "builtin", Risk.WRITE, {"path": "/etc/passwd", "content": "x"})
    dialog = ApprovalDialog(request, workspace=Workspace(tmp_path))
    qtbot.addWidget(dialog)
    assert "refused" in dialog.args_view.toPlainText()


def test_a_write_approval_shows_the_text_to_be_written_as_text(qtbot, tmp_path) -> None:
    """Issue 24: a write approval showed the new file as one JSON string full of \\n."""
    content = "# Plan\nMonday: review\nTuesday: \x1b[2Kship\n"
    request = ApprovalRequest("s", "c1", "write_file", "builtin", Risk.WRITE, {"path": "plan.md", "content": content})
    dialog = ApprovalDialog(request, workspace=Workspace(tmp_path))
    qtbot.addWidget(dialog)
    shown = dialog.args_view.toPlainText()
    assert '"content": "# Plan\\nMonday: review' in shown, "the arguments are still shown exactly as sent"
    block = shown.split("Text to be written:\n", 1)[1].split("\n\n")[0]
    assert block.splitlines()[:3] == ["  │ # Plan", "  │ Monday: review", "  │ Tuesday: \\x1b[2Kship"]
    one_line = ApprovalRequest("s", "c2", "write_file", "builtin", Risk.WRITE, {"path": "a.txt", "content": "hi"})
    plain = ApprovalDialog(one_line, workspace=Workspace(tmp_path))
    qtbot.addWidget(plain)
    assert "Text to be written" not in plain.args_view.toPlainText()
