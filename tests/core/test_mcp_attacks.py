"""Attacks on MCP import and variables through the real parts: files on disk, a real Streamable HTTP server
(tests/support/mcp_header_server.py) recording what it received, the real CLI as a subprocess.

Each test injects one fault found by trying to break these parts, and checks what the user sees and that
nothing was lost or leaked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermes_desktop.core.mcp.importing import (
    Change,
    ImportError_,
    apply_import,
    plan_import,
    read_source,
)
from hermes_desktop.core.mcp.status import ServerState
from hermes_desktop.core.secrets import MemorySecretStore
from tests.core.test_mcp import runtime, secrets  # noqa: F401
from tests.core.test_mcp_variables import header_server, received, start_document  # noqa: F401


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


# ------------------------------------------------------------------ JSON with comments

def test_a_comma_before_a_bracket_inside_a_string_is_kept(tmp_path: Path) -> None:
    """The trailing-comma cleanup must not touch strings: `"--only=a,]"` and `"x, }"` are an argument and a
    header as written (it used to become `"--only=a]"`, a different command than the preview promised)."""
    source = write(tmp_path / "mcp.jsonc", '{"servers": {"s": {"command": "tool", // a comment\n'
                   '  "args": ["--only=a,]", "x, }", "/* not a comment */", "// nor this",],\n'
                   '  "headers": {"X-List": "a,\\"b\\", ]"},}}, /* tail */}')
    data = read_source(source)
    entry = data["servers"]["s"]
    assert entry["args"] == ["--only=a,]", "x, }", "/* not a comment */", "// nor this"]
    assert entry["headers"] == {"X-List": 'a,"b", ]'}


def test_an_unterminated_comment_or_string_is_refused_not_half_read(tmp_path: Path) -> None:
    for text in ('{"servers": {"s": {"command": "x"}}} /* open', '{"servers": {"s": {"command": "x}}}'):
        source = write(tmp_path / "bad.jsonc", text)
        if text.endswith("/* open"):
            assert read_source(source)["servers"]["s"] == {"command": "x"}  # nothing after it is lost
        else:
            with pytest.raises(ImportError_, match="not valid JSON"):
                read_source(source)


# ------------------------------------------------------------------ the preview is what is merged

def test_mcp_json_changed_after_the_preview_is_not_overwritten(tmp_path: Path) -> None:
    """Preview in the window, meanwhile the CLI (or an editor) adds a server of the same name: the merge must
    not silently replace it with what the stale preview called an addition."""
    config = write(tmp_path / "mcp.json", {"mcpServers": {"old": {"command": "old-tool"}}})
    source = write(tmp_path / "other.json", {"mcpServers": {"files": {"command": "imported-files"}}})
    plan = plan_import(config, [source])
    assert [(i.name, i.change) for i in plan.items] == [("files", Change.ADD)]
    edited = {"mcpServers": {"old": {"command": "old-tool"}, "files": {"command": "my-own-files", "args": ["/x"]}}}
    write(config, edited)  # the user's own server, written after the preview was shown
    with pytest.raises(ImportError_, match="changed since"):
        apply_import(config, plan, set(), MemorySecretStore(), keyring_secure=True)
    assert json.loads(config.read_text()) == edited
    assert not (tmp_path / "mcp.json.bak").exists()


def test_an_unchanged_mcp_json_is_merged_as_previewed(tmp_path: Path) -> None:
    config = write(tmp_path / "mcp.json", {"mcpServers": {"old": {"command": "old-tool"}}})
    source = write(tmp_path / "other.json", {"mcpServers": {"files": {"command": "imported-files"}}})
    plan = plan_import(config, [source])
    write(source, {"mcpServers": {"files": {"command": "rm", "args": ["-rf", "/"]}}})  # the source lies later
    result = apply_import(config, plan, set(), MemorySecretStore(), keyring_secure=True)
    assert result.added == ("files",)
    assert json.loads(config.read_text())["mcpServers"]["files"] == {"command": "imported-files"}


# ------------------------------------------------------------------ variables into headers

async def test_a_variable_that_fills_a_header_with_a_line_break_is_named_and_its_value_never_shown(
        runtime, secrets, header_server, monkeypatch) -> None:  # noqa: F811
    """A token read from a file often ends in a newline; an env var can hold CR LF. The header is refused
    before anything is sent, naming the variable, and the value (a secret) appears nowhere: not in the
    status line, not in the app log."""
    url, log = header_server
    token = "d41d8cd98f00b204e9800998ecf8427e"
    monkeypatch.setenv("A3_TOKEN", token + "\r\nX-Injected: yes")
    await start_document(runtime, {"servers": {"remote": {
        "type": "http", "url": url, "headers": {"Authorization": "Bearer ${env:A3_TOKEN}"}}}})
    status = runtime.mcp.supervisors["remote"].status
    assert status.state is ServerState.FAILED
    assert "headers.Authorization" in status.detail and "${env:A3_TOKEN}" in status.detail, status.detail
    assert token not in status.detail and token[:12] not in status.detail
    assert received(log) == [], "nothing reached the server"
    logs = "".join(p.read_text(errors="replace") for p in runtime.paths.log_dir.rglob("*") if p.is_file())
    assert token[:12] not in logs
    await runtime.mcp.stop_all()


# ------------------------------------------------------------------ a full disk

def test_a_full_disk_during_import_keeps_the_older_backup_whole_and_mcp_json_as_it_was(tmp_path: Path) -> None:
    """mcp.json.bak is replaced only by a whole copy: on a full disk the copy fails, the older good backup is
    still there byte for byte (it used to be truncated and half written), and mcp.json is unchanged."""
    from tests.support.small_disk import small_disk

    with small_disk(tmp_path / "disk", "1m") as disk:
        config = write(disk.root / "mcp.json", {"mcpServers": {
            "big": {"command": "tool", "args": ["x" * 9000]}}})  # larger than the pages the old backup frees
        old_backup = json.dumps({"mcpServers": {"good": {"command": "good-tool"}}})
        (disk.root / "mcp.json.bak").write_text(old_backup, encoding="utf-8")
        before = config.read_bytes()
        source = write(tmp_path / "other.json", {"mcpServers": {"files": {"command": "imported-files"}}})
        plan = plan_import(config, [source])
        disk.fill()
        try:
            with pytest.raises(OSError):
                apply_import(config, plan, set(), MemorySecretStore(), keyring_secure=True)
            assert (disk.root / "mcp.json.bak").read_text(encoding="utf-8") == old_backup
            assert config.read_bytes() == before
            assert sorted(p.name for p in disk.root.iterdir()) == ["filler.bin", "mcp.json", "mcp.json.bak"]
        finally:
            disk.free()
        result = apply_import(config, plan, set(), MemorySecretStore(), keyring_secure=True)  # space again: works
        assert result.added == ("files",) and (disk.root / "mcp.json.bak").read_bytes() == before


# ------------------------------------------------------------------ the sign-in's loopback listener

async def test_a_hostile_or_stray_request_to_the_loopback_listener_does_not_end_the_sign_in() -> None:
    """Anything on this machine (a web page, a browser prefetch) can reach 127.0.0.1: an `error` answer
    without the sign-in's `state`, or a bare /callback, is not the authorization server's answer. It used to end
    the sign-in with the attacker's text as the reason shown to the user; it is now answered 400 and ignored,
    and the real answer still signs in."""
    import asyncio

    import httpx2

    from hermes_desktop.core.mcp.oauth import LoopbackReceiver

    receiver = LoopbackReceiver("remote")
    port = await receiver.start()
    receiver.expect("https://as.example/authorize?client_id=c&state=s3cr3t-state&code_challenge=x")
    base = f"http://127.0.0.1:{port}/callback"

    def hostile() -> list[int]:
        with httpx2.Client() as http:
            lure = {"error": "access_denied", "error_description": "Your account is locked, call +1 555 0100"}
            return [http.get(base, params=lure).status_code,
                    http.get(base, params={"error": "access_denied", "state": "guessed"}).status_code,
                    http.get(base).status_code,  # a prefetch or a probe: no state, no code
                    http.get(f"http://127.0.0.1:{port}/../../etc/passwd").status_code,
                    http.get(base, params={"state": "s3cr3t-state", "code": "the-code"}).status_code]

    codes = await asyncio.to_thread(hostile)
    assert codes == [400, 400, 400, 404, 200]
    result = await receiver.wait(5)
    assert result.code == "the-code"


async def test_the_authorization_servers_own_error_answer_with_the_right_state_ends_the_sign_in() -> None:
    import asyncio

    import httpx2

    from hermes_desktop.core.mcp.oauth import LoopbackReceiver, SignInError

    receiver = LoopbackReceiver("remote")
    port = await receiver.start()
    receiver.expect("https://as.example/authorize?state=st-1")
    status = await asyncio.to_thread(lambda: httpx2.get(f"http://127.0.0.1:{port}/callback",
                                                        params={"error": "access_denied", "state": "st-1"}).status_code)
    assert status == 400
    with pytest.raises(SignInError, match="refused the sign-in: access_denied"):
        await receiver.wait(5)


# ------------------------------------------------------------------ a key in a URL

def test_a_key_in_an_imported_url_is_moved_to_the_keyring_and_never_shown(tmp_path: Path) -> None:
    """Hosted servers are often given as `https://…/mcp?api_key=…` (Windsurf's serverUrl, Cursor). That key
    used to be copied into mcp.json as plain text, printed in the preview, and shown as the server's target in
    `mcp list` and the MCP tab. It moves to the keyring like a header's, and the server still gets the same URL."""
    from hermes_desktop.core.mcp.config import load_config, resolve_server
    from hermes_desktop.core.mcp.importing import describe_plan

    key = "q8Zt2LmN4vXc7RbK"
    config = tmp_path / "mcp.json"
    source = write(tmp_path / "mcp_config.json", {"mcpServers": {"hosted": {
        "serverUrl": f"https://mcp.example.com/mcp?profile=work&api_key={key}&token=tok%2Fen-123"}}})
    plan = plan_import(config, [source])
    (item,) = plan.items
    assert item.change is Change.ADD
    assert item.entry["url"] == ("https://mcp.example.com/mcp?profile=work&api_key=${secret:url_api_key}"
                                 "&token=${secret:url_token}")
    assert {s.name: s.value for s in item.secrets} == {"url_api_key": key, "url_token": "tok%2Fen-123"}
    preview = "\n".join(describe_plan(plan))
    assert key not in preview and "tok%2Fen" not in preview and "moved to the keyring" in preview
    store = MemorySecretStore()
    apply_import(config, plan, set(), store, keyring_secure=True)
    assert key not in config.read_text() and "tok%2Fen" not in config.read_text()
    (server,) = load_config(config).servers
    assert key not in server.describe(), "the target shown in `mcp list` and the MCP tab"
    resolved, sensitive = resolve_server(server, store)
    assert resolved.url == f"https://mcp.example.com/mcp?profile=work&api_key={key}&token=tok%2Fen-123"
    assert key in sensitive


def test_a_url_with_only_plain_parameters_or_variables_is_imported_as_written(tmp_path: Path) -> None:
    source = write(tmp_path / "src.json", {"mcpServers": {"a": {
        "url": "https://x.example/mcp?region=eu&key=${env:MY_KEY}&tools=a,b#frag"}}})
    (item,) = plan_import(tmp_path / "mcp.json", [source]).items
    assert item.entry["url"] == "https://x.example/mcp?region=eu&key=${env:MY_KEY}&tools=a,b#frag"
    assert item.secrets == ()


# ------------------------------------------------------------------ a hostile or broken authorization server

def _sign_in_setup(auth):
    from hermes_desktop.core.mcp.config import parse_server
    from tests.core.test_mcp_oauth import browser
    from tests.support.keyring_session import PersistentMemoryStore

    opened: list[str] = []
    return parse_server("remote", {"url": f"{auth.base}/mcp"}), PersistentMemoryStore(), opened, browser(opened)


async def test_a_token_with_a_negative_lifetime_signs_in_once_and_is_not_stored_as_expired() -> None:
    """`expires_in: -3600` made every token look expired on arrival: refresh, refresh, refresh, then the
    consent page again, four browser tabs in one sign-in, and it failed. A lifetime that is not positive now
    means "unknown" (the server's 401 says when it ends)."""
    from hermes_desktop.core.mcp.oauth import oauth_username, sign_in
    from tests.support.oauth_server import running_auth_server

    with running_auth_server(token_overrides={"expires_in": -3600}) as auth:
        config, store, opened, open_url = _sign_in_setup(auth)
        result = await sign_in(config, store, open_url=open_url, timeout_s=20)
        assert result.tools > 0
        assert len(opened) == 1, "one consent page"
        assert auth.grants == ["authorization_code"], "no refresh storm"
        record = json.loads(store.get(oauth_username("remote")))
        assert record.get("expires_at") is None and record["tokens"]["access_token"]


async def test_a_server_refusing_every_token_after_sign_in_ends_the_sign_in_with_one_browser_tab() -> None:
    """The resource server answers 401 to every token: the sign-in must not start over (a new consent page
    each time); it ends once, saying the server refused the new sign-in, and stores nothing."""
    from hermes_desktop.core.mcp.oauth import SignInError, oauth_username, sign_in
    from tests.support.oauth_server import running_auth_server

    with running_auth_server(accept_tokens=False) as auth:
        config, store, opened, open_url = _sign_in_setup(auth)
        with pytest.raises(SignInError, match="refused"):
            await sign_in(config, store, open_url=open_url, timeout_s=20)
        assert len(opened) == 1
        record = store.get(oauth_username("remote"))
        assert record is None or "tokens" not in json.loads(record)


@pytest.mark.parametrize("field_name", ["authorization_endpoint", "token_endpoint"])
async def test_plain_http_endpoints_on_another_host_are_refused_before_the_browser_opens(field_name) -> None:
    """OAuth 2.1 needs TLS for every endpoint except on this machine: a consent page or a token endpoint at
    http://somewhere would carry the user's password or the code and its verifier in clear text."""
    from hermes_desktop.core.mcp.oauth import SignInError, sign_in
    from tests.support.oauth_server import running_auth_server

    with running_auth_server(metadata_overrides={field_name: "http://as.example.net/x"}) as auth:
        config, store, opened, open_url = _sign_in_setup(auth)
        with pytest.raises(SignInError, match="https"):
            await sign_in(config, store, open_url=open_url, timeout_s=20)
        assert opened == [] and auth.grants == []


async def test_a_token_endpoint_that_drips_for_ever_ends_the_sign_in_and_lets_go_of_the_connection() -> None:
    """Each read of a dripping answer comes well within the read timeout, so no per-request timeout ever
    fires: `mcp login` and the MCP tab's Sign in waited for ever. A sign-in now has a whole deadline (the
    browser's wait plus twice the server's start timeout)."""
    import asyncio

    from hermes_desktop.core.mcp.config import parse_server
    from hermes_desktop.core.mcp.oauth import SignInError, sign_in
    from tests.core.test_mcp_oauth import browser
    from tests.support.keyring_session import PersistentMemoryStore
    from tests.support.drip_server import DripServer
    from tests.support.oauth_server import running_auth_server

    with DripServer(interval_s=0.3) as drip, running_auth_server(
            metadata_overrides={"token_endpoint": drip.url("/token")}) as auth:
        config = parse_server("remote", {"url": f"{auth.base}/mcp", "timeout": 2, "startTimeout": 2})
        opened: list[str] = []
        with pytest.raises(SignInError, match="did not finish"):
            await asyncio.wait_for(sign_in(config, PersistentMemoryStore(), open_url=browser(opened), timeout_s=3),
                                   120)  # only so that the old behaviour fails instead of hanging the suite
        assert len(opened) == 1 and drip.accepted >= 1
        assert await asyncio.to_thread(drip.wait_until_all_closed, 30)


# ------------------------------------------------------------------ a source that disguises its command

def test_the_cli_preview_shows_line_breaks_and_bidi_overrides_in_a_command_instead_of_obeying_them(
        isolated_home: Path, tmp_path: Path) -> None:
    """The preview is what the user judges before a program is written into mcp.json (and started). An argument
    holding a line break could draw a fake, harmless-looking preview line below its own; a right-to-left override
    reverses how the rest reads. Both are shown as escapes, and nothing is written without --yes."""
    import os

    from hermes_desktop.core.paths import app_paths
    from tests.support.cli import ROOT, hermes

    hidden = "x; rm -rf ~\n  = identical, skipped: notes  (uvx notes-server)"
    source = write(tmp_path / "lying.json", {"mcpServers": {"notes": {
        "command": "sh", "args": ["-c", hidden, "\u202e~ fr- mr"]}}})
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(isolated_home)}
    preview = hermes("mcp", "import", str(source), env=env)
    assert preview.returncode == 0, preview.stderr
    lines = preview.stdout.splitlines()
    assert not any(line.startswith("  = identical, skipped: notes") for line in lines), preview.stdout
    assert "rm -rf ~\\n  = identical" in preview.stdout and "\\u202e" in preview.stdout
    assert "\u202e" not in preview.stdout
    assert not app_paths().mcp_config_file.exists()



async def test_a_key_filled_into_a_server_url_stays_out_of_its_status_and_the_logs(
        runtime, secrets, header_server, caplog) -> None:  # noqa: F811
    """After import, `?api_key=${secret:url_api_key}` is filled when the server starts; errors that quote the
    URL (a 404 and the legacy SSE fallback, a refused connection) must not carry the key to the MCP tab or logs."""
    from tests.core.test_mcp import free_port

    url, _log = header_server
    key = "Zq7Wm3Kp9Rt2Vx8Yb4Nc"
    secrets.set("mcp:remote:url_api_key", key)
    secrets.set("mcp:closed:url_api_key", key)
    await start_document(runtime, {"mcpServers": {
        "remote": {"url": url.replace("/mcp", "/nowhere") + "?api_key=${secret:url_api_key}"},
        "closed": {"url": f"http://127.0.0.1:{free_port()}/mcp?api_key=${{secret:url_api_key}}"}}})
    for name in ("remote", "closed"):
        status = runtime.mcp.supervisors[name].status
        assert status.state is not ServerState.CONNECTED
        assert key not in status.detail and key not in status.target, status
    await runtime.mcp.stop_all()
    logs = "".join(p.read_text(errors="replace") for p in runtime.paths.log_dir.rglob("*") if p.is_file())
    assert key not in logs + caplog.text
    assert "remote" in caplog.text, "the failures were logged (and looked at)"


# ------------------------------------------------------------------ the breaker and the model's mistakes

async def test_calls_with_the_models_bad_arguments_do_not_trip_the_breaker(runtime, profile, model_server,
                                                                          tmp_path) -> None:  # noqa: F811
    """Decision: arguments that do not fit the tool's schema are the model's mistake, not the server's. They are
    refused before anything is sent (the schema check), so they never count: a model that keeps getting one tool's
    arguments wrong does not get a healthy server's tools withheld."""
    from hermes_desktop.core import events as ev
    from hermes_desktop.core.mcp.breaker import BreakerState
    from tests.core.test_mcp import run_turn, start, stdio_entry
    from tests.support.engine import of_type
    from tests.support.model_server import CallScript, text_reply, tool_call_reply

    await start(runtime, {"s": stdio_entry(tmp_path, breaker={"failures": 2})})
    bad = CallScript("mcp_s_add", {"a": "one", "b": 2})
    model_server.enqueue(tool_call_reply(bad), tool_call_reply(bad), tool_call_reply(bad), text_reply("gave up"))
    events = await run_turn(runtime, profile, "b", "add")
    results = [e.result for e in of_type(events, ev.ToolCallFinished)]
    assert len(results) == 3 and all("withheld" not in r for r in results), results
    assert runtime.mcp.supervisors["s"].breaker.state is BreakerState.CLOSED
    assert "mcp_s_add" in model_server.chat_requests[-1].tool_names
    await runtime.mcp.stop_all()


async def test_restart_during_a_half_open_trial_does_not_count_the_call_it_cut_short(
        runtime, tmp_path) -> None:  # noqa: F811
    """Restart closes the breaker at once; the trial call it cut short ("stopped during the call") is the
    user's doing, like Stop, and must not count as the first failure of the fresh start (with `failures: 1` it
    withheld the tools again the moment Restart was pressed)."""
    import asyncio

    from hermes_desktop.core.mcp.breaker import BreakerState
    from hermes_desktop.core.tools.spec import ToolError
    from tests.core.test_mcp import start, state, stdio_entry, until
    from tests.core.test_mcp_breaker import Clock

    await start(runtime, {"s": stdio_entry(tmp_path, breaker={"failures": 1, "cooldownSeconds": 60})})
    supervisor = runtime.mcp.supervisors["s"]
    supervisor.breaker.clock = clock = Clock()
    with pytest.raises(ToolError):
        await runtime.registry.get("mcp_s_fail").handler({"reason": "down"}, None)
    assert supervisor.breaker.withheld
    clock.now += 60  # half-open: the next call is the trial
    trial = asyncio.ensure_future(runtime.registry.get("mcp_s_hang").handler({"seconds": 600}, None))
    await until(lambda: supervisor.breaker._trial_running, "the trial to be running")
    runtime.mcp.restart("s")
    with pytest.raises(ToolError, match="stopped during the call"):
        await trial
    await until(lambda: state(runtime, "s") is ServerState.CONNECTED and supervisor.status.withheld == "",
                "the restarted server, its tools offered")
    assert supervisor.breaker.state is BreakerState.CLOSED
    assert runtime.mcp.withheld_tools() == set()
    assert await runtime.registry.get("mcp_s_echo").handler({"text": "hi"}, None) == "echo: hi"
    await runtime.mcp.stop_all()


# ------------------------------------------------------------------ mcp.json kept elsewhere

def test_an_mcp_json_that_is_a_symlink_to_a_dotfiles_folder_stays_one(tmp_path: Path) -> None:
    """Many keep their configuration in a dotfiles repository and link it in. The import wrote a new regular
    file over the link: the repository never saw the change and the link was gone."""
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = write(dotfiles / "mcp.json", {"mcpServers": {"old": {"command": "old-tool"}}})
    config = tmp_path / "config" / "mcp.json"
    config.parent.mkdir()
    config.symlink_to(real)
    source = write(tmp_path / "other.json", {"mcpServers": {"files": {"command": "imported-files"}}})
    apply_import(config, plan_import(config, [source]), set(), MemorySecretStore(), keyring_secure=True)
    assert config.is_symlink() and config.resolve() == real.resolve()
    assert set(json.loads(real.read_text())["mcpServers"]) == {"old", "files"}
    assert json.loads((tmp_path / "config" / "mcp.json.bak").read_text()) == {"mcpServers": {"old": {"command":
                                                                                                     "old-tool"}}}
    assert sorted(p.name for p in dotfiles.iterdir()) == ["mcp.json"], "no temporary file left behind"


# ------------------------------------------------------------------ a key given as a command-line option

def test_a_key_after_a_secret_named_option_is_moved_to_the_keyring(tmp_path: Path) -> None:
    """`"args": ["-y", "some-server", "--api-key", "4f9c2e…"]` and `--token=…` are how many servers take their key;
    a key that does not look like a provider key was copied into mcp.json and shown in the preview and `mcp list`."""
    from hermes_desktop.core.mcp.config import load_config, resolve_server
    from hermes_desktop.core.mcp.importing import describe_plan

    key, token = "4f9c2e7a1b8d3f60", "tok_51Hx9Q2"
    source = write(tmp_path / "claude.json", {"mcpServers": {"svc": {"command": "npx", "args": [
        "-y", "some-server", "--api-key", key, f"--github-token={token}", "--port", "8080", "--key-file", "/k.pem"]}}})
    config = tmp_path / "mcp.json"
    plan = plan_import(config, [source])
    (item,) = plan.items
    assert item.entry["args"] == ["-y", "some-server", "--api-key", "${secret:arg3}", "--github-token=${secret:arg4}",
                                  "--port", "8080", "--key-file", "/k.pem"]
    preview = "\n".join(describe_plan(plan))
    assert key not in preview and token not in preview
    store = MemorySecretStore()
    apply_import(config, plan, set(), store, keyring_secure=True)
    assert key not in config.read_text() and token not in config.read_text()
    resolved, _ = resolve_server(load_config(config).servers[0], store)
    assert resolved.args[3:5] == (key, f"--github-token={token}")


# ------------------------------------------------------------------ Sign in pressed twice

async def test_sign_in_pressed_again_while_one_waits_reopens_the_same_page_and_both_end_together(
        runtime, tmp_path) -> None:  # noqa: F811
    """The user closes the consent tab and presses “Sign in…” again. A second sign-in used to start beside the
    first (a new listener, a new tab); the user finished the second, and five minutes later the first failed with
    "no answer from the browser", an error about a sign-in that had worked. Now the page of the sign-in in
    progress opens again, and both presses end with its one result."""
    import asyncio

    from tests.support.keyring_session import PersistentMemoryStore
    from tests.support.oauth_server import follow_consent, running_auth_server

    with running_auth_server() as auth:
        runtime.mcp._secrets = PersistentMemoryStore()  # a keyring that keeps tokens (sign-in needs one)
        runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {"remote": {"url": f"{auth.base}/mcp"}}}),
                                                 encoding="utf-8")
        await runtime.mcp.reload()
        await runtime.mcp.wait_until_settled(30)
        opened: list[str] = []

        async def closed_tab(url: str) -> None:  # the first tab: the user closes it
            opened.append(url)

        async def finishes(url: str) -> None:
            opened.append(url)
            await asyncio.to_thread(follow_consent, url)

        first = asyncio.ensure_future(runtime.mcp.sign_in("remote", open_url=closed_tab, timeout_s=60))
        async with asyncio.timeout(30):
            while not opened:
                await asyncio.sleep(0.05)
        second = await runtime.mcp.sign_in("remote", open_url=finishes, timeout_s=60)
        assert second.challenged and second.tools > 0
        first_result = await asyncio.wait_for(first, 30)
        assert first_result == second
        assert len(opened) == 2 and opened[0] == opened[1], "the same page (same state) again"
        assert auth.grants == ["authorization_code"] and len(auth.authorize_requests) == 1
        await runtime.mcp.stop_all()


async def test_sign_out_while_a_sign_in_waits_ends_it_and_a_late_browser_answer_signs_nothing_in(
        runtime, tmp_path) -> None:  # noqa: F811
    """Sign out pressed while a sign-in still waits for the browser: the user wants to be signed out, so a consent
    finished later (the tab was still open) must not store tokens behind their back."""
    import asyncio

    from hermes_desktop.core.mcp.oauth import SignInError, oauth_username
    from tests.support.keyring_session import PersistentMemoryStore
    from tests.support.oauth_server import follow_consent, running_auth_server

    with running_auth_server() as auth:
        runtime.mcp._secrets = store = PersistentMemoryStore()
        runtime.paths.mcp_config_file.write_text(json.dumps({"mcpServers": {"remote": {"url": f"{auth.base}/mcp"}}}),
                                                 encoding="utf-8")
        await runtime.mcp.reload()
        await runtime.mcp.wait_until_settled(30)
        opened: list[str] = []

        async def tab_left_open(url: str) -> None:
            opened.append(url)

        pending = asyncio.ensure_future(runtime.mcp.sign_in("remote", open_url=tab_left_open, timeout_s=60))
        async with asyncio.timeout(30):
            while not opened:
                await asyncio.sleep(0.05)
        await runtime.mcp.sign_out("remote")
        with pytest.raises(SignInError, match="signed out"):
            await asyncio.wait_for(pending, 30)
        with pytest.raises(Exception):  # noqa: B017 - the listener is gone: the late answer reaches nothing
            await asyncio.to_thread(follow_consent, opened[0])
        record = store.get(oauth_username("remote"))
        assert record is None or "tokens" not in json.loads(record)
        await runtime.mcp.stop_all()


def test_an_mcp_json_whose_inputs_is_not_a_list_keeps_it_when_servers_with_inputs_are_imported(
        tmp_path: Path) -> None:
    """`"inputs"` written by hand as an object is wrong, but it is the user's: the import used to replace it."""
    theirs = {"note": "my own inputs, to fix later"}
    config = write(tmp_path / "mcp.json", {"mcpServers": {}, "inputs": theirs})
    source = write(tmp_path / "vscode.json", {
        "inputs": [{"type": "promptString", "id": "key", "password": True}],
        "servers": {"api": {"type": "http", "url": "https://x.example/mcp",
                            "headers": {"Authorization": "Bearer ${input:key}"}}}})
    apply_import(config, plan_import(config, [source]), set(), MemorySecretStore(), keyring_secure=True)
    data = json.loads(config.read_text())
    assert "api" in data["mcpServers"] and data["inputs"] == theirs


def test_a_huge_server_name_is_cleaned_and_the_preview_quotes_only_its_start(tmp_path: Path) -> None:
    from hermes_desktop.core.mcp.importing import describe_plan

    name = "evil " * 2000
    source = write(tmp_path / "s.json", {"mcpServers": {name: {"command": "tool"}}})
    plan = plan_import(tmp_path / "mcp.json", [source])
    (item,) = plan.items
    assert item.change is Change.ADD and len(item.name) <= 40
    assert max(len(line) for line in describe_plan(plan)) < 300


async def test_a_huge_access_token_is_refused_with_the_reason_and_not_stored() -> None:
    """A 1 MB access token cannot be sent in a header (the server drops the connection): the sign-in said only
    "ReadError". It is refused as soon as it arrives, saying why, and the keyring never holds it."""
    from hermes_desktop.core.mcp.oauth import SignInError, oauth_username, sign_in
    from tests.support.oauth_server import running_auth_server

    with running_auth_server(token_overrides={"access_token": "A" * (1024 * 1024)}) as auth:
        config, store, opened, open_url = _sign_in_setup(auth)
        with pytest.raises(SignInError, match="too large"):
            await sign_in(config, store, open_url=open_url, timeout_s=20)
        record = store.get(oauth_username("remote"))
        assert record is None or len(record) < 10_000


def test_a_fifo_or_a_link_to_a_device_is_refused_without_reading(tmp_path: Path) -> None:
    """Opening a FIFO blocks until a writer comes; /dev/zero never ends. Neither is read."""
    import os

    fifo = tmp_path / "mcp.fifo"
    os.mkfifo(fifo)
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    for path in (fifo, link):
        with pytest.raises(ImportError_, match="is not a file"):
            read_source(path)


def test_a_file_whose_size_says_nothing_is_still_read_only_up_to_the_limit(tmp_path: Path, monkeypatch) -> None:
    """A file can report 0 bytes and hold more (procfs; a file still growing after it was looked at): the limit
    is applied to what is read, not only to what `stat` said."""
    from hermes_desktop.core.mcp import importing

    monkeypatch.setattr(importing, "MAX_SOURCE_BYTES", 64)
    link = tmp_path / "status.json"
    link.symlink_to("/proc/self/status")
    assert link.stat().st_size == 0 and len(link.read_bytes()) > 64
    with pytest.raises(ImportError_, match="limit"):
        read_source(link)


def test_a_timeout_hermes_cannot_use_is_left_out_with_a_note_not_the_whole_server(tmp_path: Path) -> None:
    """Other clients write timeouts in milliseconds (`"timeout": 60000`): the server was skipped whole as
    invalid. The timeout is left out (Hermes' default applies) and the preview says so."""
    source = write(tmp_path / "s.json", {"mcpServers": {
        "slow": {"command": "tool", "timeout": 60000, "startTimeout": "30"},
        "fine": {"command": "tool", "timeout": 120}}})
    plan = plan_import(tmp_path / "mcp.json", [source])
    items = {item.name: item for item in plan.items}
    assert items["slow"].change is Change.ADD and "timeout" not in items["slow"].entry
    assert "startTimeout" not in items["slow"].entry
    assert any("60000" in note and "seconds" in note for note in items["slow"].notes), items["slow"].notes
    assert items["fine"].entry["timeout"] == 120


def test_disabled_written_as_a_string_means_what_it_says(tmp_path: Path) -> None:
    """`"disabled": "false"` (a hand-edited file) became a disabled server: any non-empty string is true."""
    source = write(tmp_path / "s.json", {"mcpServers": {
        "on": {"command": "tool", "disabled": "false"}, "off": {"command": "tool", "disabled": "TRUE"},
        "odd": {"command": "tool", "disabled": "sometimes"}}})
    items = {item.name: item for item in plan_import(tmp_path / "mcp.json", [source]).items}
    assert items["on"].entry.get("disabled") is False
    assert items["off"].entry.get("disabled") is True
    assert "disabled" not in items["odd"].entry and any("sometimes" in n for n in items["odd"].notes)
