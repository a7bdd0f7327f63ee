"""The built-in tools on a real temporary workspace: what they do, and what they refuse."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path
from typing import Callable

import pytest

from hermes_desktop.core.tools.builtin import builtin_tools
from hermes_desktop.core.tools.builtin import files as files_module
from hermes_desktop.core.tools.builtin.clock_math import evaluate
from hermes_desktop.core.tools.builtin.notes import sanitize_title
from hermes_desktop.core.tools.network import NetworkPolicy
from hermes_desktop.core.tools.spec import Risk, ToolContext, ToolError
from hermes_desktop.core.tools.workspace import Workspace, WorkspaceError

TOOLS = {t.name: t for t in builtin_tools()}


@pytest.fixture
def ctx(workspace_dir: Path) -> ToolContext:
    return ToolContext("s", Workspace(workspace_dir), NetworkPolicy(), workspace_dir / "notes")


def run(ctx: ToolContext, name: str, **args):
    return TOOLS[name].handler(args, ctx)


def test_the_contract_names_and_risks() -> None:
    assert set(TOOLS) == {"get_current_time", "calculate", "list_directory", "read_file", "search_files", "write_file",
                          "make_directory", "move_path", "delete_path", "list_notes", "read_note", "save_note",
                          "fetch_url"}
    risks = {name: spec.risk for name, spec in TOOLS.items()}
    assert {n for n, r in risks.items() if r is Risk.DESTRUCTIVE} == {"delete_path"}
    assert {n for n, r in risks.items() if r is Risk.WRITE} == {"write_file", "make_directory", "move_path", "save_note"}


# ------------------------------------------------------------ workspace confinement

@pytest.mark.parametrize("path", ["../outside.txt", "a/../../outside.txt", "/etc/passwd", "~/.bashrc"])
def test_paths_outside_the_workspace_are_refused(ctx: ToolContext, path: str) -> None:
    with pytest.raises(WorkspaceError) as caught:
        ctx.workspace.resolve(path)
    assert "outside the workspace" in str(caught.value)


def test_a_symlink_pointing_outside_is_refused_for_reading_and_writing(ctx: ToolContext, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    (ctx.workspace.root / "link.txt").symlink_to(secret)
    (ctx.workspace.root / "linkdir").symlink_to(tmp_path)
    for call in (lambda: run(ctx, "read_file", path="link.txt"),
                 lambda: run(ctx, "write_file", path="link.txt", content="x"),
                 lambda: run(ctx, "read_file", path="linkdir/secret.txt")):
        with pytest.raises(WorkspaceError) as caught:
            call()
        assert "symlink" in str(caught.value)
    assert secret.read_text() == "top secret"


def test_an_absolute_path_inside_the_workspace_is_fine(ctx: ToolContext) -> None:
    (ctx.workspace.root / "a.txt").write_text("hi")
    assert "hi" in run(ctx, "read_file", path=str(ctx.workspace.root / "a.txt"))


@pytest.mark.parametrize("path", [".env", "project/.env.local", ".ssh/id_rsa", "keys/server.pem", ".aws/credentials"])
def test_credential_locations_are_refused_even_inside_the_workspace(ctx: ToolContext, path: str) -> None:
    with pytest.raises(WorkspaceError) as caught:
        run(ctx, "write_file", path=path, content="x")
    assert "credential" in str(caught.value)
    assert not (ctx.workspace.root / path).exists()


# ------------------------------------------------------------ read tools

def test_read_file_with_line_ranges_and_gb18030(ctx: ToolContext) -> None:
    root = ctx.workspace.root
    (root / "lines.txt").write_text("\n".join(f"line {n}" for n in range(1, 101)))
    out = run(ctx, "read_file", path="lines.txt", start_line=10, max_lines=3)
    assert out.splitlines()[1:] == ["line 10", "line 11", "line 12"] and "continue with start_line=13" in out
    (root / "chinese.txt").write_bytes("中文内容".encode("gb18030"))
    assert "中文内容" in run(ctx, "read_file", path="chinese.txt")


def test_read_file_refuses_binary_and_big_files_saying_why(ctx: ToolContext) -> None:
    root = ctx.workspace.root
    (root / "image.png").write_bytes(b"\x89PNG\x00\x00binary")
    with pytest.raises(ToolError, match="binary"):
        run(ctx, "read_file", path="image.png")
    (root / "big.log").write_bytes(b"x" * 1_100_000)
    with pytest.raises(ToolError, match="up to 976.6 KB|up to 1"):
        run(ctx, "read_file", path="big.log")


def test_list_directory_and_search_files(ctx: ToolContext) -> None:
    root = ctx.workspace.root
    (root / "reports" / "2025").mkdir(parents=True)
    (root / "reports" / "2025" / "q1.md").write_text("Revenue grew\nbudget: 12")
    (root / "reports" / "notes.txt").write_text("nothing here")
    (root / ".env").write_text("API_KEY=sk-secret")
    listing = run(ctx, "list_directory", path="reports")
    assert "2025/" in listing and "notes.txt" in listing
    assert run(ctx, "search_files", glob="*.md").splitlines()[1] == "reports/2025/q1.md"
    found = run(ctx, "search_files", glob="**/*", contains="BUDGET")
    assert "reports/2025/q1.md" in found and "2: budget: 12" in found and "notes.txt" not in found
    assert ".env" not in run(ctx, "search_files", contains="API_KEY"), "credential files stay invisible"


@pytest.mark.parametrize("expression,result", [("(12+34)*5", "230"), ("2**10", "1024"), ("7/2", "3.5"),
                                               ("sqrt(16)+pi-pi", "4"), ("-3 % 5", "2"), ("2^3", "8")])
def test_calculate(expression: str, result: str, ctx: ToolContext) -> None:
    assert run(ctx, "calculate", expression=expression)["result"] == result


@pytest.mark.parametrize("expression,reason", [
    ("__import__('os').system('echo hi')", "only numbers"), ("open('x')", "only numbers"), ("9**9**9**9", "digits"),
    ("10**100000", "digits"), ("1/0", "division by zero"), ("factorial(100000)", "factorial"), ("(", "not an arithmetic"),
    ("a" * 600, "longer than"),
])
def test_calculate_refuses_unsafe_or_huge_input(expression: str, reason: str) -> None:
    with pytest.raises(ToolError, match=reason):
        evaluate(expression)


def test_get_current_time_in_a_zone_and_a_bad_zone(ctx: ToolContext) -> None:
    assert run(ctx, "get_current_time", timezone="Asia/Shanghai")["utc_offset"] == "+0800"
    with pytest.raises(ToolError, match="unknown time zone"):
        run(ctx, "get_current_time", timezone="Mars/Olympus")


# ------------------------------------------------------------ write tools and their risk

def test_write_file_creates_and_overwriting_raises_the_risk(ctx: ToolContext) -> None:
    spec = TOOLS["write_file"]
    args = {"path": "docs/plan.md", "content": "v1"}
    assert spec.risk_for(args, ctx) is Risk.WRITE
    assert str(spec.precheck(args, ctx)) == "will create docs/plan.md (2 bytes)"
    assert run(ctx, "write_file", **args).startswith("created docs/plan.md")
    assert spec.risk_for(args, ctx) is Risk.DESTRUCTIVE
    assert "will overwrite docs/plan.md" in str(spec.precheck({"path": "docs/plan.md", "content": "v2"}, ctx))
    run(ctx, "write_file", path="docs/plan.md", content="v2")
    assert (ctx.workspace.root / "docs/plan.md").read_text() == "v2"


def test_move_path_into_a_folder_and_over_an_existing_file(ctx: ToolContext) -> None:
    root = ctx.workspace.root
    (root / "a.txt").write_text("A")
    (root / "b.txt").write_text("B")
    (root / "archive").mkdir()
    spec = TOOLS["move_path"]
    assert spec.risk_for({"src": "a.txt", "dst": "archive"}, ctx) is Risk.WRITE
    assert run(ctx, "move_path", src="a.txt", dst="archive") == "moved a.txt to archive/a.txt"
    assert spec.risk_for({"src": "b.txt", "dst": "archive/a.txt"}, ctx) is Risk.DESTRUCTIVE
    run(ctx, "move_path", src="b.txt", dst="archive/a.txt")
    assert (root / "archive/a.txt").read_text() == "B" and not (root / "b.txt").exists()
    with pytest.raises(ToolError, match="into itself"):
        run(ctx, "move_path", src="archive", dst="archive/inner")


def test_delete_path_precheck_counts_files_and_bytes_and_never_deletes_the_root(ctx: ToolContext) -> None:
    folder = ctx.workspace.root / "reports" / "2025"
    folder.mkdir(parents=True)
    for n in range(3):
        (folder / f"r{n}.txt").write_bytes(b"x" * 1024)
    impact = TOOLS["delete_path"].precheck({"path": "reports/2025"}, ctx)
    assert (impact.files, impact.bytes) == (3, 3072)
    impact = str(impact)
    assert impact == "will delete 3 files, 3.0 KB in reports/2025"
    assert run(ctx, "delete_path", path="reports/2025") == "deleted reports/2025 (3 files, 3.0 KB)"
    assert not folder.exists()
    with pytest.raises(ToolError, match="workspace folder itself"):
        run(ctx, "delete_path", path=".")


def test_delete_removes_a_symlink_not_its_target(ctx: ToolContext, tmp_path: Path) -> None:
    inside = ctx.workspace.root / "real.txt"
    inside.write_text("keep me")
    (ctx.workspace.root / "alias.txt").symlink_to(inside)
    run(ctx, "delete_path", path="alias.txt")
    assert inside.read_text() == "keep me" and not os.path.lexists(ctx.workspace.root / "alias.txt")


def test_notes_keep_chinese_titles_readable(ctx: ToolContext) -> None:
    assert run(ctx, "save_note", title="会议记录: 2025/10 预算?", content="# 要点\n- 预算") .startswith("saved note")
    saved = ctx.notes_dir / "会议记录 2025 10 预算.md"
    assert saved.read_text() == "# 要点\n- 预算"
    assert "会议记录 2025 10 预算" in run(ctx, "list_notes")
    assert "预算" in run(ctx, "read_note", title="会议记录 2025 10 预算")
    assert TOOLS["save_note"].risk_for({"title": "会议记录: 2025/10 预算?", "content": ""}, ctx) is Risk.DESTRUCTIVE
    with pytest.raises(ToolError, match="no note titled"):
        run(ctx, "read_note", title="missing")


def test_a_note_linked_out_of_the_workspace_is_neither_read_nor_written(ctx: ToolContext, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("top secret")
    ctx.notes_dir.mkdir()
    (ctx.notes_dir / "Diary.md").symlink_to(secret)
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        run(ctx, "read_note", title="Diary")
    with pytest.raises(WorkspaceError, match="outside the workspace"):
        run(ctx, "save_note", title="Diary", content="overwritten")
    assert secret.read_text() == "top secret"


# ------------------------------------------------------------ a folder swapped for a symlink while writing

class _Swapper:
    """Swaps `folder` for a symlink to `outside` and back, as fast as it can, in its own thread."""

    def __init__(self, folder: Path, outside: Path) -> None:
        self.folder, self.outside = folder, outside
        self.real = folder.with_name(folder.name + ".real")
        self.swaps = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "_Swapper":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(60)
        assert not self._thread.is_alive()

    def _run(self) -> None:
        while not self._stop.is_set():
            os.rename(self.folder, self.real)
            self._place(lambda: os.symlink(self.outside, self.folder))
            os.unlink(self.folder)
            self._place(lambda: os.rename(self.real, self.folder))
            self.swaps += 1

    def _place(self, make: Callable[[], None]) -> None:
        """A writer may have made a new folder at the empty name meanwhile (inside the workspace): clear it."""
        for _ in range(1000):
            try:
                make()
                return
            except OSError:
                shutil.rmtree(self.folder, ignore_errors=True)
        raise AssertionError("could not swap the folder")


def _attempt(call: Callable[[], object]) -> bool:
    """True when the tool call succeeded; a refusal or a vanished folder (mid-swap) is False."""
    try:
        call()
        return True
    except (ToolError, OSError):
        return False


def test_writes_never_land_outside_while_a_folder_is_swapped_for_a_symlink(ctx: ToolContext, tmp_path: Path) -> None:
    root = ctx.workspace.root
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("keep me")
    (root / "sub").mkdir()
    ctx.notes_dir.mkdir()
    before = sorted(p.name for p in outside.iterdir())
    succeeded: dict[str, int] = {}

    def count(name: str, ok: bool) -> None:
        succeeded[name] = succeeded.get(name, 0) + int(ok)

    with _Swapper(root / "sub", outside) as sub_swapper, _Swapper(ctx.notes_dir, outside):
        for n in range(150):
            count("write_file", _attempt(lambda: run(ctx, "write_file", path=f"sub/f{n}.txt", content="x")))
            count("make_directory", _attempt(lambda: run(ctx, "make_directory", path=f"sub/d{n}")))
            count("save_note", _attempt(lambda: run(ctx, "save_note", title=f"note {n}", content="x")))
            (root / f"m{n}.txt").write_text("m")
            count("move_path", _attempt(lambda: run(ctx, "move_path", src=f"m{n}.txt", dst=f"sub/moved{n}.txt")))
            if _attempt(lambda: run(ctx, "write_file", path="sub/victim.txt", content="inside")):
                count("delete_path", _attempt(lambda: run(ctx, "delete_path", path="sub/victim.txt")))
    assert sorted(p.name for p in outside.iterdir()) == before, "something landed outside the workspace"
    assert (outside / "victim.txt").read_text() == "keep me"
    assert sub_swapper.swaps > 0
    assert all(succeeded.get(name, 0) > 0 for name in ("write_file", "make_directory", "save_note", "move_path",
                                                        "delete_path")), succeeded


# ------------------------------------------------------------ search cap

def test_search_files_says_when_it_stopped_at_its_scan_cap(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files_module, "MAX_SEARCH_FILES", 30)
    root = ctx.workspace.root
    (root / "data").mkdir()
    for n in range(40):
        (root / "data" / f"f{n:02}.txt").write_text("plain")
    (root / "data" / "z_last.md").write_text("needle")  # sorted after the cap: never scanned
    missed = run(ctx, "search_files", glob="*.md")
    assert missed.startswith("no files match glob='*.md' among the first 30 files scanned.")
    assert "stopped after scanning 30 files in ." in missed and "give `path` a subfolder" in missed
    found = run(ctx, "search_files", glob="f0*.txt")
    assert found.startswith("10 match(es):") and "stopped after scanning 30 files" in found
    (root / "small").mkdir()
    (root / "small" / "one.md").write_text("x")
    narrowed = run(ctx, "search_files", glob="*.md", path="small")
    assert narrowed == "1 match(es):\nsmall/one.md", "under the cap: no note"


@pytest.mark.parametrize("title,expected", [("a/b\\c", "a b c"), ("  ..hidden.. ", "hidden"), ("CON", "CON_"),
                                            ("日记\x00", "日记")])
def test_sanitize_title(title: str, expected: str) -> None:
    assert sanitize_title(title) == expected


# ------------------------------------------------------------ broad workspaces

@pytest.mark.parametrize("folder, expected", [
    ("/", "root of the filesystem"),
    ("/usr", "system folder"),
    ("/usr/share/doc", "inside the system folder /usr"),
    ("/etc", "system folder"),
    ("/proc", "system folder"),
    ("/var/lib", "inside the system folder /var"),
])
def test_broad_workspace_reason_names_roots_and_system_folders(folder: str, expected: str, tmp_path: Path) -> None:
    from hermes_desktop.core.tools.workspace import broad_workspace_reason
    reason = broad_workspace_reason(Path(folder), home=tmp_path / "home")
    assert reason is not None and expected in reason


def test_broad_workspace_reason_home_itself_but_not_a_project_inside_it(tmp_path: Path) -> None:
    from hermes_desktop.core.tools.workspace import broad_workspace_reason
    home = tmp_path / "home"
    (home / "project").mkdir(parents=True)
    assert "whole home folder" in (broad_workspace_reason(home, home=home) or "")
    assert broad_workspace_reason(home / "project", home=home) is None
    # The home's parent holds the home and more (issue 21): as broad as the home itself.
    assert "contains your whole home folder" in (broad_workspace_reason(tmp_path, home=home) or "")
    # /root is a system folder for everyone but root, whose home it is.
    assert "system folder" in (broad_workspace_reason(Path("/root"), home=home) or "")
    assert "whole home folder" in (broad_workspace_reason(Path("/root"), home=Path("/root")) or "")


def test_broad_workspace_reason_resolves_symlinks(tmp_path: Path) -> None:
    from hermes_desktop.core.tools.workspace import broad_workspace_reason
    (tmp_path / "everything").symlink_to("/")
    (tmp_path / "config").symlink_to("/etc")
    assert "root of the filesystem" in (broad_workspace_reason(tmp_path / "everything", home=tmp_path) or "")
    assert "/etc" in (broad_workspace_reason(tmp_path / "config", home=tmp_path / "h") or "")
