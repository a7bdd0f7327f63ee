"""The built-in gallery: every assistant loads, has English and Chinese names and starters, and offers exactly its
own tools from the real registry (built-ins, memory tools, skill tools, the pager); one of them, 周报, answers a
real turn against the scripted model server with only its tools offered."""

from __future__ import annotations

import pytest

from hermes_desktop.core.assistants import allow_list, gallery
from hermes_desktop.core.assistants.model import HERMES, from_json
from hermes_desktop.core.tools.builtin import builtin_tools
from hermes_desktop.core.tools.pager import read_more_tool
from hermes_desktop.core.tools.spec import Risk, ToolSpec

BUILTIN_NAMES = {spec.name for spec in builtin_tools()}
WANTED = {"中英互译", "润色", "周报", "会议纪要", "邮件助手", "总结助手", "代码审查", "数据分析", "面试教练"}


def every_tool() -> list[ToolSpec]:
    """The registry a real runtime has: built-ins, the pager, memory tools, skill tools and an MCP server's tool."""
    noop = lambda args, ctx: ""  # noqa: E731
    extra = [ToolSpec(name, "", {"type": "object"}, noop, Risk.READ) for name in ("remember", "recall", "forget")]
    extra += [ToolSpec("activate_skill", "", {"type": "object"}, noop, Risk.READ, source="skills"),
              ToolSpec("mcp_files_write", "", {"type": "object"}, noop, Risk.WRITE, source="mcp:files")]
    return [*builtin_tools(), read_more_tool(), *extra]


def test_the_gallery_has_about_twenty_assistants_in_both_languages() -> None:
    assistants = gallery.assistants()
    assert 18 <= len(assistants) <= 30
    assert WANTED <= {a.shown_name("zh_CN") for a in assistants}
    assert len({a.name.casefold() for a in assistants}) == len(assistants), "names are unique"
    for a in assistants:
        assert a.id.startswith("builtin:") and a.builtin
        assert a.name and a.emoji and a.description and len(a.instructions) > 200
        zh = a.translations["zh_CN"]
        assert zh["name"] and zh["description"] and any("\u4e00" <= ch <= "\u9fff" for ch in zh["description"])
        assert a.shown_starters("en") and a.shown_starters("zh_CN") != a.shown_starters("en")
        assert a.tools is not None and set(a.tools) <= BUILTIN_NAMES, f"{a.name}: unknown tools"
        assert a.skills == () and a.mcp_servers == (), "the gallery never grants skills or MCP servers"


@pytest.mark.parametrize("assistant", gallery.assistants(), ids=lambda a: a.id)
def test_each_gallery_assistant_offers_only_its_tools(assistant) -> None:
    offered = {spec.name for spec in allow_list.offered(assistant, every_tool())}
    memory = {"remember", "recall", "forget"} if assistant.memory else set()
    assert offered == set(assistant.tools) | memory | {"read_more"}
    for risky in ("delete_path", "write_file", "mcp_files_write", "activate_skill"):
        if risky not in (assistant.tools or ()):
            spec = next(s for s in every_tool() if s.name == risky)
            assert allow_list.refusal(assistant, risky, spec.source, {}) is not None


def test_gallery_files_round_trip_through_our_format() -> None:
    for a in gallery.assistants():
        again = from_json(a.to_json(), a.id, origin="builtin")
        assert again == a


def test_only_the_file_writer_among_the_gallery_can_write_and_none_can_delete() -> None:
    writers = {a.name for a in gallery.assistants() if {"write_file", "move_path", "save_note"} & set(a.tools or ())}
    assert writers == {"File organiser", "Note keeper", "Web researcher"}
    assert not any("delete_path" in (a.tools or ()) for a in gallery.assistants())


def test_hermes_keeps_everything() -> None:
    assert {s.name for s in allow_list.offered(HERMES, every_tool())} == {s.name for s in every_tool()}


async def test_weekly_report_from_the_gallery_answers_with_only_its_tools(model_server, workspace_dir) -> None:
    """The new user's walk: pick 周报, paste notes, get a weekly report."""
    from tests.core.test_assistants import ask, choose, runtime, save_profile
    from tests.support.model_server import text_reply

    save_profile(model_server)
    made = runtime(workspace_dir)
    weekly = made.assistants.store.get("周报")
    choose(made, "s", weekly)
    model_server.enqueue(text_reply("## 本周进展\n- 完成登录页改版"))
    await ask(made, "s", "这周：改了登录页，修了两个 bug，下周做支付")
    request = model_server.chat_requests[-1]
    assert set(request.tool_names) == {"get_current_time", "read_file", "list_directory", "remember", "recall",
                                       "forget"}
    assert "weekly work reports" in request.system_prompt and "{date}" not in request.system_prompt
    made.store.close()
