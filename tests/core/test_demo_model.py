"""The demo model (tests/support/demo_model.py) as a new user meets it: the scripted server over real HTTP with the
demo responder, the app's real runtime (settings, store, tools, memory) and the real openai client. Each English
and Chinese request makes the right tool call, the files change after approval (an approver that allows: the
injection point the dialog and the terminal use), a declined call leaves them as they were and the reply says so,
and each session gets its own title from its first message. Also `doctor`'s line about the provider's API key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from hermes_desktop.core import events as ev
from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.runtime import open_runtime
from hermes_desktop.core.secrets import MemorySecretStore
from hermes_desktop.core.titles import retitle_session
from hermes_desktop.core.tools.approval import Decision
from tests.support.demo_model import demo_responder, title_for, understand
from tests.support.engine import ScriptedApprover, of_type
from tests.support.loopback import html_page
from tests.support.model_server import ScriptedModelServer

ROOT = Path(__file__).resolve().parents[2]
ALLOW, DENY = Decision.ALLOW_ONCE, Decision.DENY


@pytest.fixture
def site() -> Iterator[str]:
    with html_page("<html><head><title>Demo Page</title></head><body><p>Hello from the page.</p></body></html>"
                   .encode()) as url:
        yield url


@pytest.fixture
def demo() -> Iterator[ScriptedModelServer]:
    with ScriptedModelServer(responder=demo_responder) as server:
        yield server


@pytest.fixture
async def runtime(demo, site, workspace_dir):
    paths = app_paths()
    paths.config_dir.mkdir(parents=True, exist_ok=True)
    # The page server is on 127.0.0.1, which fetch_url refuses unless the user allowed that host in settings.
    (paths.config_dir / "settings.json").write_text(json.dumps(
        {"fetch_allowed_private_hosts": [site.removeprefix("http://")]}), encoding="utf-8")
    made = open_runtime({"HERMES_BASE_URL": demo.base_url, "HERMES_MODEL": "scripted-model",
                         "HERMES_WORKSPACE": str(workspace_dir)}, secrets=MemorySecretStore())
    yield made
    if made.memory is not None:
        await made.memory.close()
    made.store.close()


async def turn(runtime, text: str, answers: list[Decision] | None = None, session: str | None = None):
    """One turn through the app's agent; returns (events, the approver, the reply text)."""
    approver = ScriptedApprover(list(answers or []))
    agent = runtime.make_agent(approver)
    try:
        events = await agent.start_turn(session or f"s-{abs(hash(text))}", text).wait()
        if runtime.memory is not None:
            await runtime.memory.wait_idle(10)
    finally:
        await agent.model.aclose()
    finished = of_type(events, ev.TurnFinished)
    assert finished and finished[-1].reason == "completed", events
    return events, approver, "".join(e.text for e in of_type(events, ev.TextDelta))


def calls(events) -> list[tuple[str, dict]]:
    return [(e.name, e.arguments) for e in of_type(events, ev.ToolCallProposed)]


FILE_STORY = {
    "en": [("write hello.txt saying hi", "write_file", {"path": "hello.txt", "content": "hi\n"}, "created hello.txt"),
           ("make a folder notes", "make_directory", {"path": "notes"}, "created folder notes"),
           ("move hello.txt to notes/hello.txt", "move_path", {"src": "hello.txt", "dst": "notes/hello.txt"},
            "moved hello.txt to notes/hello.txt"),
           ("delete notes", "delete_path", {"path": "notes"}, "deleted notes")],
    "zh": [("写一个 hello.txt，内容是 你好", "write_file", {"path": "hello.txt", "content": "你好\n"}, "已写入 `hello.txt`"),
           ("新建文件夹 notes", "make_directory", {"path": "notes"}, "已新建文件夹 `notes`"),
           ("把 hello.txt 移动到 notes/hello.txt", "move_path", {"src": "hello.txt", "dst": "notes/hello.txt"},
            "已把 `hello.txt` 移动到 `notes/hello.txt`"),
           ("删除 notes", "delete_path", {"path": "notes"}, "已删除 `notes`")],
}


@pytest.mark.parametrize("language", ["en", "zh"])
async def test_write_make_folder_move_and_delete_change_the_files_after_approval(runtime, workspace_dir,
                                                                               language) -> None:
    greeting = "hi\n" if language == "en" else "你好\n"
    after = [lambda: (workspace_dir / "hello.txt").read_text(encoding="utf-8") == greeting,
             lambda: (workspace_dir / "notes").is_dir() and (workspace_dir / "hello.txt").exists(),
             lambda: (workspace_dir / "notes" / "hello.txt").read_text(encoding="utf-8") == greeting
             and not (workspace_dir / "hello.txt").exists(),
             lambda: list(workspace_dir.iterdir()) == []]
    for (prompt, tool, args, said), check in zip(FILE_STORY[language], after):
        events, approver, reply = await turn(runtime, prompt, [ALLOW])
        assert calls(events) == [(tool, args)], prompt
        assert [r.tool_name for r in approver.asked] == [tool], "the user was asked before anything changed"
        assert check(), f"{prompt}: the workspace is not as asked: {sorted(map(str, workspace_dir.rglob('*')))}"
        assert said in reply, reply


@pytest.mark.parametrize("prompt, tool, said", [
    ("write hello.txt saying bye", "write_file", "You declined, so I did not write `hello.txt`."),
    ("写一个 hello.txt，内容是 再见", "write_file", "你拒绝了，所以我没有写入 `hello.txt`。"),
    ("delete hello.txt", "delete_path", "You declined, so I did not delete `hello.txt`; it is still there."),
    ("删除 hello.txt", "delete_path", "你拒绝了，所以我没有删除 `hello.txt`，它还在。"),
    ("move hello.txt to moved.txt", "move_path", "You declined, so I did not move `hello.txt`; it is where it was."),
    ("把 hello.txt 移动到 moved.txt", "move_path", "你拒绝了，所以我没有移动 `hello.txt`，它还在原处。"),
    ("make a folder notes", "make_directory", "You declined, so I did not create the folder `notes`."),
])
async def test_a_declined_call_changes_nothing_and_the_reply_says_it_was_not_done(runtime, workspace_dir, prompt,
                                                                                  tool, said) -> None:
    (workspace_dir / "hello.txt").write_text("keep me", encoding="utf-8")
    events, approver, reply = await turn(runtime, prompt, [DENY])
    assert [name for name, _ in calls(events)] == [tool] and len(approver.asked) == 1
    assert reply.endswith(said), reply
    assert sorted(p.name for p in workspace_dir.iterdir()) == ["hello.txt"]
    assert (workspace_dir / "hello.txt").read_text(encoding="utf-8") == "keep me"


@pytest.mark.parametrize("prompt, said", [("fetch {url}", "its title is **Demo Page**"),
                                          ("获取 {url}", "标题是 **Demo Page**")])
async def test_fetch_reads_the_page_and_says_what_it_found(runtime, site, prompt, said) -> None:
    url = f"{site}/page"
    events, approver, reply = await turn(runtime, prompt.format(url=url))
    assert calls(events) == [("fetch_url", {"url": url})] and approver.asked == []
    assert said in reply and "Hello from the page." in reply, reply


@pytest.mark.parametrize("prompt, tool, args, said", [
    ("what time is it", "get_current_time", {}, "It is **"),
    ("现在几点", "get_current_time", {}, "现在是 **"),
    ("12*7", "calculate", {"expression": "12*7"}, "= **84**"),
    ("计算 12*7", "calculate", {"expression": "12*7"}, "= **84**"),
    ("list my files", "list_directory", {"path": "."}, "In your workspace:"),
    ("列出文件", "list_directory", {"path": "."}, "工作区里有："),
])
async def test_read_only_requests(runtime, workspace_dir, prompt, tool, args, said) -> None:
    (workspace_dir / "plan.md").write_text("# plan", encoding="utf-8")
    events, approver, reply = await turn(runtime, prompt)
    assert calls(events) == [(tool, args)] and approver.asked == []
    assert said in reply, reply
    if tool == "list_directory":
        assert "plan.md" in reply


@pytest.mark.parametrize("first, then, expression, result", [("What is (12+34)*5?", "and times 2?", "230*2", "460"),
                                                            ("计算 12*7", "再乘以 2", "84*2", "168")])
async def test_a_follow_up_works_on_the_last_result_of_the_session(runtime, first, then, expression, result) -> None:
    """The README's `--session maths` example: the second ask continues the first."""
    await turn(runtime, first, session="maths")
    events, _, reply = await turn(runtime, then, session="maths")
    assert calls(events) == [("calculate", {"expression": expression})] and f"**{result}**" in reply


async def test_the_demo_reports_usage_that_grows_with_the_conversation(runtime) -> None:
    """A server counts the whole request: the second turn of a session reports more prompt tokens than the first,
    so the context meter on the demo grows as the chat does."""
    first, _, _ = await turn(runtime, "hello there", session="usage")
    second, _, _ = await turn(runtime, "tell me more about that, please", session="usage")
    before, after = of_type(first, ev.UsageReported)[-1], of_type(second, ev.UsageReported)[-1]
    assert after.prompt_tokens > before.prompt_tokens + before.completion_tokens > before.prompt_tokens > 100
    assert before.completion_tokens > 20, "the help text is long; it is counted, not a constant"


@pytest.mark.parametrize("told, statement, recall, remembered, forget", [
    ("remember that I prefer tea", "I prefer tea", "What do you remember about me?", "I remember:", "forget tea"),
    ("记住我喜欢喝茶", "我喜欢喝茶", "你记得我什么？", "我记得：", "忘掉喝茶"),
])
async def test_remember_recall_and_forget_in_both_languages(runtime, told, statement, recall, remembered,
                                                           forget) -> None:
    events, _, reply = await turn(runtime, told)
    assert calls(events) == [("remember", {"statement": statement, "quote": told})]
    assert statement in reply
    memories = runtime.memory.store.list()
    assert [m.statement for m in memories] == [statement], "the remember call and the extraction keep one memory"
    events, _, reply = await turn(runtime, recall)
    assert [name for name, _ in calls(events)] == ["recall"] and remembered in reply and statement in reply, reply
    events, approver, reply = await turn(runtime, forget, [DENY])
    assert [name for name, _ in calls(events)] == ["forget"] and len(approver.asked) == 1
    assert ("declined" in reply or "拒绝" in reply) and runtime.memory.store.list()[0].state.value == "active"


async def test_attachments_are_described_from_the_request(runtime, tmp_path) -> None:
    from hermes_desktop.core.attachments import prepare_attachment
    from hermes_desktop.imaging import process_image
    from tests.support.attachment_files import write_png

    picture = write_png(tmp_path / "shot.png", 64, 48)
    notes = tmp_path / "notes.md"
    notes.write_text("# Shopping\n- tea\n- milk\n", encoding="utf-8")
    attached = [prepare_attachment(p, process_image=process_image) for p in (picture, notes)]
    for text, said in (("what are these?", ["an image: PNG, 64×48 px", "the file **notes.md**: 3 lines",
                                            "it begins “# Shopping”"]),
                       ("这些是什么？", ["一张 PNG 图片，64×48 像素", "文件 **notes.md**：3 行"])):
        agent = runtime.make_agent(ScriptedApprover())
        try:
            events = await agent.start_turn(f"attach-{len(text)}", text, attached).wait()
        finally:
            await agent.model.aclose()
        reply = "".join(e.text for e in of_type(events, ev.TextDelta))
        assert calls(events) == [] and all(s in reply for s in said), reply


async def test_what_it_does_not_understand_gets_a_list_of_what_to_try(runtime) -> None:
    _, _, reply = await turn(runtime, "write me a poem")
    assert "Try:" in reply and "write hello.txt saying hi" in reply and "make a folder notes" in reply
    _, _, reply = await turn(runtime, "给我讲个笑话")
    assert "可以试试" in reply and "新建文件夹 notes" in reply and "删除 hello.txt" in reply


async def test_each_session_gets_its_own_title_from_its_first_message(runtime, demo) -> None:
    titles = {}
    for session, text in (("t1", "write hello.txt saying hi"), ("t2", "删除 hello.txt"), ("t3", "what time is it"),
                          ("t4", "hello there, how are you?")):
        await turn(runtime, text, [DENY], session=session)
        titles[session] = None
    # The title the app asks the model for after the first exchange (the CLI and the window both do this).
    client = runtime.new_client(runtime.profile, None)
    try:
        for session in titles:
            titles[session] = await retitle_session(runtime.store, client, session)
    finally:
        await client.aclose()
    assert titles == {"t1": "Write hello.txt", "t2": "删除 hello.txt", "t3": "The time now",
                      "t4": "Hello there, how are you"}
    assert all(runtime.store.session_details(s).title_source == "model" for s in titles), "stored as the titles"


def test_other_tests_keep_the_constant_title() -> None:
    """Only the demo makes titles: the plain scripted server still answers every title request "Scripted title"."""
    import urllib.request

    body = json.dumps({"model": "scripted-model", "stream": False, "messages": [
        {"role": "system", "content": "Write a title for this conversation"},
        {"role": "user", "content": "User:\ndelete hello.txt\n\nAssistant:\nok"}]}).encode()
    for server, expected in ((ScriptedModelServer(), "Scripted title"),
                             (ScriptedModelServer(responder=demo_responder), "Delete hello.txt")):
        with server:
            request = urllib.request.Request(server.base_url + "/chat/completions", body,
                                             {"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as answer:
                text = "".join(json.loads(line[6:])["choices"][0]["delta"].get("content") or ""
                               for line in answer.read().decode().splitlines()
                               if line.startswith("data: {") and '"choices": [{' in line)
            assert text == expected


@pytest.mark.parametrize("text, tool, args", [
    ("Please write notes/todo.md with buy milk", "write_file", {"path": "notes/todo.md", "content": "buy milk\n"}),
    ("write buy milk to list.txt", "write_file", {"path": "list.txt", "content": "buy milk\n"}),
    ("把 你好 写入 a.txt", "write_file", {"path": "a.txt", "content": "你好\n"}),
    ("rename draft.md as final.md", "move_path", {"src": "draft.md", "dst": "final.md"}),
    ("Can you delete the file old.txt?", "delete_path", {"path": "old.txt"}),
    ("请删除文件夹 旧的", "delete_path", {"path": "旧的"}),
    ("获取 https://example.com/a?b=1。", "fetch_url", {"url": "https://example.com/a?b=1"}),
])
def test_the_rules_read_everyday_phrasings(text, tool, args) -> None:
    intent = understand(text)
    assert intent is not None and (intent.tool, intent.args) == (tool, args)
    assert title_for(text) == intent.title


# ---------------------------------------------------------------- doctor: is a key stored for the active provider?

def doctor(env: dict[str, str]) -> str:
    result = subprocess.run([sys.executable, "-m", "hermes_desktop", "doctor"], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env={**env, "PYTHONPATH": str(ROOT)})
    return result.stdout + result.stderr


def _saved_profile_env(demo: ScriptedModelServer, needs_key: bool = True) -> dict[str, str]:
    from hermes_desktop.core.settings import ProviderProfile, SettingsStore

    store = SettingsStore(app_paths())
    settings = store.load().settings
    profile = ProviderProfile(id="work", name="Work", base_url=demo.base_url, model="scripted-model",
                              needs_api_key=needs_key)
    from dataclasses import replace

    store.save(replace(settings, profiles=(profile,), active_profile_id="work"))
    return {k: v for k, v in os.environ.items() if k != "HERMES_API_KEY"}


def test_doctor_says_when_no_key_is_stored_and_when_the_environment_gives_one(demo) -> None:
    env = {**_saved_profile_env(demo), "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    assert ("API key: NONE stored (keyring entry provider:work); add one in Settings > Providers, or set "
            "HERMES_API_KEY") in doctor(env)
    output = doctor({**env, "HERMES_API_KEY": "sk-from-env-0123456789"})
    assert "API key: from HERMES_API_KEY for this run; none stored (keyring entry provider:work)" in output
    assert "sk-from-env-0123456789" not in output


@pytest.mark.keyring
@pytest.mark.skipif(not os.environ.get("HERMES_TEST_SECRET_SERVICE"),
                    reason="needs a real Secret Service (tests/run_suite.sh runs it under dbus-run-session)")
def test_doctor_says_a_key_is_stored_in_the_real_keyring_without_printing_it(demo) -> None:
    import keyring

    env = _saved_profile_env(demo)
    secret = "sk-doctor-stored-key-0123456789"
    keyring.set_password("hermes-desktop", "provider:work", secret)
    try:
        output = doctor(env)
    finally:
        keyring.delete_password("hermes-desktop", "provider:work")
    assert "API key: stored in the system keyring (keyring entry provider:work)" in output, output
    assert secret not in output and secret[:12] not in output
    assert "API key: NONE stored (keyring entry provider:work)" in doctor(env), "deleted: said so again"


@pytest.mark.keyring
@pytest.mark.skipif(not os.environ.get("HERMES_TEST_SECRET_SERVICE"),
                    reason="needs a real Secret Service (tests/run_suite.sh runs it under dbus-run-session)")
def test_doctor_says_a_locked_keyring_could_not_be_read_rather_than_no_key(demo) -> None:
    import keyring
    import secretstorage

    from tests.support.keyring_session import unlock_with_master_password

    env = _saved_profile_env(demo)
    keyring.set_password("hermes-desktop", "provider:work", "sk-locked-away-0123456789")
    connection = secretstorage.dbus_init()
    collection = secretstorage.get_default_collection(connection)
    collection.lock()
    try:
        output = doctor(env)
    finally:
        unlock_with_master_password(connection, collection)
        keyring.delete_password("hermes-desktop", "provider:work")
    assert "API key: could not read the keyring (The system keyring is locked" in output, output
    assert "NONE stored" not in output and "sk-locked-away" not in output
