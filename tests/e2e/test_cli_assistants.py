"""`hermes-desktop assistants …`, `prompts …` and `ask --assistant`, run as the real command line (a subprocess)
against the scripted model server, with the user's real data folder in the test's temp home."""

from __future__ import annotations

import json
from pathlib import Path

from hermes_desktop.core.paths import app_paths
from hermes_desktop.core.settings import ProviderProfile, Settings, SettingsStore
from tests.support.cli import hermes
from tests.support.model_server import text_reply


def cherry_file(tmp_path: Path, count: int = 3) -> Path:
    path = tmp_path / "agents.json"
    path.write_text(json.dumps([{"id": str(i), "name": f"Cherry {i}", "emoji": "🍒", "group": ["Fun"],
                                 "prompt": f"You are cherry number {i}.", "description": "from Cherry"}
                                for i in range(count)]), encoding="utf-8")
    return path


def test_list_show_and_export_the_gallery(env) -> None:
    listed = hermes("assistants", "list", "--json", env=env)
    assert listed.returncode == 0, listed.stderr
    assistants = json.loads(listed.stdout)
    assert assistants[0]["id"] == "hermes" and assistants[0]["tools"] == "all"
    assert len(assistants) >= 19 and {"builtin:translator", "builtin:weekly-report"} <= {a["id"] for a in assistants}
    shown = hermes("assistants", "show", "周报", env=env)
    assert shown.returncode == 0 and "Weekly report" in shown.stdout and "tools: get_current_time" in shown.stdout
    assert hermes("assistants", "show", "nobody", env=env).returncode == 2
    exported = json.loads(hermes("assistants", "export", "Translator", env=env).stdout)
    assert exported["format"] == "hermes-assistants" and exported["assistants"][0]["name"] == "Translator"


def test_import_shows_what_is_added_asks_and_never_grants_tools_from_a_script(env, tmp_path) -> None:
    path = cherry_file(tmp_path)
    refused = hermes("assistants", "import", str(path), env=env)  # no terminal to ask, no --yes: nothing saved
    assert refused.returncode == 2 and "Cherry 0" in refused.stdout and "You are cherry number 0." in refused.stdout
    assert "nothing was added" in refused.stderr
    assert "Cherry 0" not in hermes("assistants", "list", env=env).stdout
    done = hermes("assistants", "import", str(path), "--yes", env=env)
    assert done.returncode == 0, done.stderr
    assert "added 3 assistant(s)" in done.stdout
    shown = hermes("assistants", "show", "Cherry 2", env=env)
    assert "tools: no tools" in shown.stdout and "[imported]" not in shown.stdout

    ours = tmp_path / "ours.json"
    ours.write_text(json.dumps({"format": "hermes-assistants", "version": 1, "assistants": [
        {"name": "Writer", "instructions": "Write.", "tools": ["write_file"]}]}), encoding="utf-8")
    scripted = hermes("assistants", "import", str(ours), "--yes", env=env)
    assert "requests tools: write_file" in scripted.stdout and "without the tools" in scripted.stdout
    assert "tools: no tools" in hermes("assistants", "show", "Writer", env=env).stdout
    added = hermes("assistants", "add", str(ours), env=env)  # the user's own file, named by them: as written
    assert added.returncode == 0 and "Writer (2)" in added.stdout and "write_file" in added.stdout


def test_a_bad_file_says_where(env, tmp_path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"name": "ok", "prompt": "p"}, {"name": "no prompt"}]), encoding="utf-8")
    result = hermes("assistants", "import", str(bad), "--yes", env=env)
    assert result.returncode == 2 and "[1].prompt: is missing" in result.stderr and "Traceback" not in result.stderr
    missing = hermes("assistants", "import", str(tmp_path / "nothing.json"), "--yes", env=env)
    assert missing.returncode == 2 and "could not read" in missing.stderr
    private = hermes("assistants", "import", "http://127.0.0.1:9/agents.json", "--yes", env=env)
    assert private.returncode == 2 and "could not download" in private.stderr


def test_ask_with_an_imported_assistant_uses_its_prompt_and_no_tools(server, env, tmp_path) -> None:
    hermes("assistants", "import", str(cherry_file(tmp_path)), "--yes", env=env)
    server.enqueue(text_reply("I am cherry."))
    asked = hermes("ask", "who are you?", "--session", "c", "--assistant", "Cherry 1", env=env)
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.strip() == "I am cherry."
    request = [r for r in server.chat_requests if "who are you?" in json.dumps(r.body)][0]
    assert "You are cherry number 1." in request.system_prompt
    assert set(request.tool_names) == {"remember", "recall", "forget"}, "memory (on by default), no other tool"
    server.enqueue(text_reply("still cherry"))
    again = hermes("ask", "and now?", "--session", "c", env=env)  # the session keeps its assistant
    assert again.returncode == 0
    assert any("You are cherry number 1." in r.system_prompt for r in server.chat_requests
               if "and now?" in json.dumps(r.body))
    wrong = hermes("ask", "hi", "--assistant", "nobody", env=env)
    assert wrong.returncode == 2 and "No assistant named 'nobody'" in wrong.stderr
    exported = json.loads(hermes("sessions", "export", "c", "--format", "json", env=env).stdout)
    assert exported["session"]["assistant"]["name"] == "Cherry 1"
    assert "cherry number" not in json.dumps(exported["session"])


def test_titles_go_to_the_profiles_side_model(server, env) -> None:
    profile = ProviderProfile(id="main", name="Main", base_url=server.base_url, model="scripted-model",
                              request_timeout_s=5.0, side_model="cheap-titles")
    SettingsStore(app_paths()).save(Settings(profiles=(profile,), active_profile_id="main"))
    server.enqueue(text_reply("The answer."))
    asked = hermes("ask", "plan my week", "--session", "t", env=env)
    assert asked.returncode == 0, asked.stderr
    titles = [r for r in server.chat_requests if r.system_prompt.startswith("Write a title")]
    turns = [r for r in server.chat_requests if not r.system_prompt.startswith("Write a title")]
    assert [r.body["model"] for r in titles] == ["cheap-titles"]
    assert {r.body["model"] for r in turns} == {"scripted-model"}


def test_prompts_list_and_show(env) -> None:
    listed = hermes("prompts", "list", env=env)
    assert listed.returncode == 0 and "周报模板" in listed.stdout and "{{tone, text}}" in listed.stdout
    shown = hermes("prompts", "show", "Rewrite in a tone", env=env)
    assert shown.returncode == 0 and "variables: tone, text" in shown.stdout
    assert hermes("prompts", "show", "nothing", env=env).returncode == 2
