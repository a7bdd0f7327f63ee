"""The engine's structured reports in the user's language: impacts, decisions, outcomes, errors, notices.

The core says what happened as a code and its parameters next to its own English sentence (kept for the CLI,
the log and `ask --json`): an `Impact` (core/tools/spec.py), `TurnError.code/params`, `Notice.code/params`,
`TurnFinished.params`, `CheckResult.code/params`, `BackendReport.code`. Each function here turns one of them into
a whole sentence through `QCoreApplication.translate("Words", "literal with {named} placeholders")`, so lupdate
sees every source string and a translator can reorder the parts. Paths, file names, tool, model and server names,
URLs and numbers stay data. Text that only exists in English (a server's error body, an MCP server's message,
a tool's own refusal) is quoted inside a translated sentence, never passed to translate().
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from PySide6.QtCore import QCoreApplication


# ---------------------------------------------------------------- numbers


def size_text(size: float | int | None) -> str:
    """A byte count for people: "3 bytes", "1.2 KB" (units after 1,024)."""
    value = float(size or 0)
    if value < 1024:
        return QCoreApplication.translate("Words", "{0} bytes").format(f"{value:.0f}")
    for unit in ("KB", "MB", "GB"):
        value /= 1024
        if value < 1024 or unit == "GB":
            return QCoreApplication.translate("Words", "{0} {1}", "a size and its unit").format(f"{value:.1f}", unit)
    return ""


def seconds_text(seconds: float) -> str:
    """A duration: "45 s", "2 minutes"."""
    if seconds >= 60:
        return QCoreApplication.translate("Words", "{0} minutes").format(f"{seconds / 60:g}")
    return QCoreApplication.translate("Words", "{0} s").format(f"{seconds:g}")


def _tree_text(params: Mapping[str, Any]) -> str:
    """What a move carries: the size of a file, or how many files (and folders) and their size."""
    size = size_text(params.get("bytes"))
    if not params.get("is_folder"):
        return size
    return _count_text(int(params.get("files") or 0), int(params.get("folders") or 0), size)


def _count_text(files: int, folders: int, size: str) -> str:
    """"3 files in 2 folders, 1.2 KB", with "1 file" and "1 folder" in the singular (one whole phrase each)."""
    n, m = f"{files:,}", f"{folders:,}"
    if not folders:
        if files == 1:
            return QCoreApplication.translate("Words", "1 file, {size}").format(size=size)
        return QCoreApplication.translate("Words", "{files} files, {size}").format(files=n, size=size)
    if files == 1 and folders == 1:
        return QCoreApplication.translate("Words", "1 file in 1 folder, {size}").format(size=size)
    if files == 1:
        return QCoreApplication.translate("Words", "1 file in {folders} folders, {size}").format(folders=m, size=size)
    if folders == 1:
        return QCoreApplication.translate("Words", "{files} files in 1 folder, {size}").format(files=n, size=size)
    return QCoreApplication.translate("Words", "{files} files in {folders} folders, {size}").format(
        files=n, folders=m, size=size)


# ---------------------------------------------------------------- risk and source


def side_purpose_name(purpose: str) -> str:
    """What a side request was for (core/usage records' `purpose`), in the Activity tab."""
    return {
        "title": QCoreApplication.translate("Words", "title", "side request"),
        "summary": QCoreApplication.translate("Words", "summary for a new session", "side request"),
        "context_summary": QCoreApplication.translate("Words", "summary of older messages", "side request"),
        "memory": QCoreApplication.translate("Words", "memory extraction", "side request"),
        "skill_draft": QCoreApplication.translate("Words", "skill draft", "side request"),
        "sampling": QCoreApplication.translate("Words", "MCP server's request", "side request"),
        "connection_test": QCoreApplication.translate("Words", "connection test", "side request"),
    }.get(purpose, purpose)


def risk_name(risk: str) -> str:
    """The risk level's badge: 只读 / 写入 / 危险."""
    return {
        "read": QCoreApplication.translate("Words", "read", "risk level"),
        "write": QCoreApplication.translate("Words", "write", "risk level"),
        "destructive": QCoreApplication.translate("Words", "destructive", "risk level"),
    }.get(risk, QCoreApplication.translate("Words", "unknown risk", "risk level"))


def risk_explanation(risk: str) -> str:
    return {
        "read": QCoreApplication.translate("Words", "only reads"),
        "write": QCoreApplication.translate("Words", "creates or changes files"),
        "destructive": QCoreApplication.translate("Words", "can delete or overwrite data"),
    }.get(risk, QCoreApplication.translate("Words", "treated as destructive"))


def risk_line(risk: str) -> str:
    """"DESTRUCTIVE — can delete or overwrite data" as one sentence."""
    return QCoreApplication.translate("Words", "{level} — {explanation}", "risk level and what it means").format(
        level=risk_name(risk).upper(), explanation=risk_explanation(risk))


def source_sentence(source: str, detail: str = "") -> str:
    """Where the tool comes from, for the approval dialog."""
    if source == "builtin":
        return QCoreApplication.translate("Words", "From a built-in tool")
    if source == "skills":
        return QCoreApplication.translate("Words", "From the skills system")
    if source.startswith("skill:"):
        return QCoreApplication.translate("Words", "From the skill “{0}”").format(source[6:])
    if source.startswith("mcp:"):
        if detail:
            return QCoreApplication.translate("Words", "From the MCP server “{0}” ({1})").format(source[4:], detail)
        return QCoreApplication.translate("Words", "From the MCP server “{0}”").format(source[4:])
    return QCoreApplication.translate("Words", "From “{0}”").format(source)


def source_short(source: str) -> str:
    """Where the tool comes from, on a tool card."""
    if source == "builtin":
        return QCoreApplication.translate("Words", "built-in")
    if source == "skills":
        return QCoreApplication.translate("Words", "skills")
    if source.startswith("skill:"):
        return QCoreApplication.translate("Words", "skill {0}").format(source[6:])
    if source.startswith("mcp:"):
        return QCoreApplication.translate("Words", "MCP {0}").format(source[4:])
    return source


# ---------------------------------------------------------------- impact


def impact_text(code: str, params: Mapping[str, Any] | None, fallback: str | None, *, tool: str = "",
                source: str = "") -> str:
    """What a call will do, from its Impact code; an uncoded tool's own words are quoted. The user judges a call by
    it (approval dialog, tool card): controls and bidi overrides in its paths are shown as escapes, never obeyed
    (`invoice\\u202efdp.exe` cannot pass for `invoiceexe.pdf`)."""
    from hermes_desktop.core.terminal_text import visible_controls

    text = _impact_text(code, params, fallback, tool=tool, source=source)
    alike = (params or {}).get("lookalike")
    if isinstance(alike, Mapping) and code:  # a coded impact: the note in the user's language (uncoded: in `fallback`)
        text += "\n" + QCoreApplication.translate(
            "Words", "Note: another name in this folder looks the same as “{name}”: this one is written {written}, the "
            "other {others}.").format(name=alike.get("name", ""), written=alike.get("written", ""),
                                      others=alike.get("others", ""))
    return visible_controls(text, keep_newlines=True)


def _impact_text(code: str, params: Mapping[str, Any] | None, fallback: str | None, *, tool: str = "",
                 source: str = "") -> str:
    p = dict(params or {})
    if code == "create_file":
        return QCoreApplication.translate("Words", "will create {path} ({size})").format(
            path=p.get("path", ""), size=size_text(p.get("bytes")))
    if code == "overwrite_file":
        return QCoreApplication.translate("Words", "will overwrite {path} ({old}) with {new}").format(
            path=p.get("path", ""), old=size_text(p.get("old_bytes")), new=size_text(p.get("bytes")))
    if code == "create_folder":
        return QCoreApplication.translate("Words", "will create folder {path}").format(path=p.get("path", ""))
    if code == "move":
        return QCoreApplication.translate("Words", "will move {src} ({what}) to {dst}").format(
            src=p.get("src", ""), what=_tree_text(p), dst=p.get("dst", ""))
    if code == "move_replacing":
        return QCoreApplication.translate(
            "Words", "will move {src} ({what}) to {dst}, replacing the existing file ({old})").format(
            src=p.get("src", ""), what=_tree_text(p), dst=p.get("dst", ""), old=size_text(p.get("replaced_bytes")))
    if code == "delete_file":
        return QCoreApplication.translate("Words", "will delete {path} ({size})").format(
            path=p.get("path", ""), size=size_text(p.get("bytes")))
    if code == "delete_folder":
        files, folders = int(p.get("files") or 0), int(p.get("folders") or 0)
        if not files and not folders:
            return QCoreApplication.translate("Words", "will delete the empty folder {path}").format(
                path=p.get("path", ""))
        return QCoreApplication.translate("Words", "will delete {what} in {path}").format(
            path=p.get("path", ""), what=_count_text(files, folders, size_text(p.get("bytes"))))
    if code == "save_note":
        return QCoreApplication.translate("Words", "will save a new note “{title}” ({size}) in {folder}").format(
            title=p.get("title", ""), size=size_text(p.get("bytes")), folder=p.get("folder", ""))
    if code == "replace_note":
        return QCoreApplication.translate("Words", "will replace note “{title}” ({old}) with {new}").format(
            title=p.get("title", ""), old=size_text(p.get("old_bytes")), new=size_text(p.get("bytes")))
    if code == "fetch":
        return QCoreApplication.translate("Words", "will download {url}").format(url=p.get("url", ""))
    if code == "forget_memory_off":
        return QCoreApplication.translate("Words", "Forgets nothing: memory is off for this conversation.")
    if code == "forget_memory_not_shared":
        return QCoreApplication.translate("Words", "Forgets nothing: this provider gets no memories.")
    if code == "forget_memories":
        memories = list(p.get("memories") or [])
        if not memories:
            return QCoreApplication.translate("Words", "Forgets nothing: no memory matches.")
        items = [QCoreApplication.translate("Words", "#{id} “{statement}”", "one memory in a list").format(
            id=m.get("id", ""), statement=m.get("statement", "")) for m in memories]
        listed = QCoreApplication.translate("Words", "; ", "list separator").join(items)
        if len(memories) == 1:
            return QCoreApplication.translate("Words", "Forgets 1 memory: {list}").format(list=listed)
        return QCoreApplication.translate("Words", "Forgets {count} memories: {list}").format(
            count=len(memories), list=listed)
    if code == "run_script":
        return QCoreApplication.translate(
            "Words", "runs {command} from skill {skill}, in {folder}, with your permissions").format(
            command=p.get("command", ""), skill=p.get("skill", ""), folder=p.get("folder", ""))
    if code == "cannot_run":
        return QCoreApplication.translate("Words", "cannot run: {0}").format(p.get("reason", ""))
    if code == "precheck_failed":
        return QCoreApplication.translate("Words", "Impact unknown: its check failed ({0}).").format(p.get("error", ""))
    if fallback:
        return QCoreApplication.translate("Words", "The tool describes it as: “{0}”").format(fallback)
    if source.startswith("mcp:"):
        return QCoreApplication.translate(
            "Words", "Calls “{tool}” on the MCP server “{server}”; Hermes cannot tell in advance what it changes."
        ).format(tool=tool, server=source[4:])
    return ""


def no_impact_text() -> str:
    return QCoreApplication.translate("Words", "No impact estimate for this tool.")


# ---------------------------------------------------------------- decisions and outcomes


def decider(decided_by: str) -> str:
    """Who or what decided a call: "you", a rule, the mode, a timeout."""
    known = {
        "you": QCoreApplication.translate("Words", "you"),
        "user": QCoreApplication.translate("Words", "you"),
        "rule: never allow": QCoreApplication.translate("Words", "rule: never allow"),
        "rule: always allow": QCoreApplication.translate("Words", "rule: always allow"),
        "policy: chat only": QCoreApplication.translate("Words", "chat-only mode"),
        "policy: read-only": QCoreApplication.translate("Words", "read-only call"),
        "policy: trusted mode": QCoreApplication.translate("Words", "trusted mode"),
        "allowed for this session": QCoreApplication.translate("Words", "allowed for this conversation"),
        "default approver": QCoreApplication.translate("Words", "nobody to ask"),
        "timeout: no answer in time": QCoreApplication.translate("Words", "no answer in time"),
        "error while asking": QCoreApplication.translate("Words", "error while asking"),
        "dry run": QCoreApplication.translate("Words", "dry run"),
    }
    return known.get(decided_by, decided_by)


def decision_name(decision: str) -> str:
    return {
        "allow_once": QCoreApplication.translate("Words", "allowed once"),
        "allow_session": QCoreApplication.translate("Words", "allowed for this conversation"),
        "allow_always": QCoreApplication.translate("Words", "always allowed"),
        "deny": QCoreApplication.translate("Words", "denied"),
    }.get(decision, QCoreApplication.translate("Words", "allowed"))


def denied_status(decided_by: str | None) -> str:
    if decided_by:
        return QCoreApplication.translate("Words", "denied ({0})", "who denied the call").format(decider(decided_by))
    return QCoreApplication.translate("Words", "denied")


def done_status(elapsed: float | None, decision: str | None, decided_by: str | None) -> str:
    """"done in 0.12 s · allowed once (you)"; reads that just ran say only how long they took."""
    how = bool(decided_by) and decided_by != "policy: read-only"
    if elapsed is None and not how:
        return QCoreApplication.translate("Words", "done")
    if not how:
        return QCoreApplication.translate("Words", "done in {0} s").format(f"{elapsed:.2f}")
    if elapsed is None:
        return QCoreApplication.translate("Words", "done · {decision} ({who})").format(
            decision=decision_name(decision or ""), who=decider(decided_by or ""))
    return QCoreApplication.translate("Words", "done in {seconds} s · {decision} ({who})").format(
        seconds=f"{elapsed:.2f}", decision=decision_name(decision or ""), who=decider(decided_by or ""))


def running_status(elapsed: float | None) -> str:
    if elapsed is None:
        return QCoreApplication.translate("Words", "running")
    return QCoreApplication.translate("Words", "running {0} s").format(f"{elapsed:.1f}")


def status_word(status: str) -> str:
    """A card state with no numbers in it."""
    return {
        "waiting": QCoreApplication.translate("Words", "waiting for your approval"),
        "pending": QCoreApplication.translate("Words", "queued"),
        "failed": QCoreApplication.translate("Words", "failed"),
        "timed out": QCoreApplication.translate("Words", "timed out"),
        "cancelled": QCoreApplication.translate("Words", "cancelled"),
        "skipped": QCoreApplication.translate("Words", "skipped (the turn was stopped)"),
        "dry run": QCoreApplication.translate("Words", "dry run: not run"),
        "interrupted": QCoreApplication.translate("Words", "interrupted — not run"),
        "denied": QCoreApplication.translate("Words", "denied"),
        "done": QCoreApplication.translate("Words", "done"),
        "running": QCoreApplication.translate("Words", "running"),
    }.get(status, status)


def result_label(size: int, *, note: bool = False) -> str:
    if note:
        return QCoreApplication.translate("Words", "Note sent to the model ({0} characters)").format(f"{size:,}")
    return QCoreApplication.translate("Words", "Result ({0} characters)").format(f"{size:,}")


def show_all_label(lines: int) -> str:
    return QCoreApplication.translate("Words", "Show all ({0} lines)").format(f"{lines:,}")


def outcome_name(outcome: str) -> str:
    return {
        "ok": QCoreApplication.translate("Words", "ok", "a tool call's outcome"),
        "error": QCoreApplication.translate("Words", "failed"),
        "invalid": QCoreApplication.translate("Words", "invalid call"),
        "denied": QCoreApplication.translate("Words", "denied"),
        "timeout": QCoreApplication.translate("Words", "timed out"),
        "cancelled": QCoreApplication.translate("Words", "cancelled"),
        "skipped": QCoreApplication.translate("Words", "skipped"),
        "dry_run": QCoreApplication.translate("Words", "dry run"),
        "interrupted": QCoreApplication.translate("Words", "interrupted, not run"),
    }.get(outcome, outcome)


# ---------------------------------------------------------------- errors


def server_said(text: str) -> str:
    return QCoreApplication.translate("Words", "The server said: “{0}”").format(text)


def _with_server(sentence: str, params: Mapping[str, Any]) -> str:
    said = str(params.get("server") or "")
    return sentence + ("\n" + server_said(said) if said else "")


def model_error_text(code: str, params: Mapping[str, Any] | None, kind: str = "", message: str = "") -> str:
    """A model request's failure (core/llm/errors.py codes), or a turn's error by its kind."""
    p = dict(params or {})
    host, status = p.get("host", ""), p.get("status", "")
    if code == "auth_rejected":
        return _with_server(QCoreApplication.translate(
            "Words", "The provider rejected the API key ({0}). Check the key in the provider settings.").format(status), p)
    if code == "auth_forbidden":
        return _with_server(QCoreApplication.translate(
            "Words", "The API key has no access to this model or endpoint ({0}).").format(status), p)
    if code == "quota":
        return _with_server(QCoreApplication.translate(
            "Words", "The provider says the account is out of quota or credit ({0}).").format(status), p)
    if code == "rate_limited":
        wait = p.get("retry_after_s")
        if wait is not None:
            text = QCoreApplication.translate(
                "Words", "The provider is limiting how fast requests may come ({status}). Try again in {wait}.").format(
                status=status, wait=seconds_text(max(1, round(float(wait)))))
        else:
            text = QCoreApplication.translate(
                "Words", "The provider is limiting how fast requests may come ({0}). Wait a moment and try again."
            ).format(status)
        return _with_server(text, p)
    if code == "server_error":
        return _with_server(QCoreApplication.translate("Words", "The model server had an error ({0}).").format(status), p)
    if code == "refused":
        return _with_server(QCoreApplication.translate(
            "Words", "The model server refused the request ({0}). Check this provider's model and extra parameters "
            "in Settings, or pick another model; then press Retry.").format(status), p)
    if code == "reasoning_history_refused":
        return _with_server(QCoreApplication.translate(
            "Words", "{0} refused this conversation's earlier replies even with their tool calls sent as text. Switch "
            "this conversation back to the model that wrote them, start a new conversation, or turn off thinking mode "
            "for this provider; then press Retry.").format(p.get("model", "")), p)
    if code == "tool_call_rejected":
        return _with_server(QCoreApplication.translate(
            "Words", "The model wrote a tool call the server could not accept. Try again; the model usually "
            "writes it right the next time."), p)
    if code == "reply_output_limit":
        return _with_server(QCoreApplication.translate(
            "Words", "The reply reached the model's output limit. What arrived is kept; raise the profile's maximum "
            "output tokens for longer replies."), p)
    if code == "tools_unsupported":
        return _with_server(QCoreApplication.translate("Words", "The model does not accept native tool calls."), p)
    if code == "model_not_found":
        return _with_server(QCoreApplication.translate(
            "Words", "The server at {host} does not offer the model “{model}”.").format(host=host, model=p.get("model", "")), p)
    if code == "no_chat_endpoint":
        return QCoreApplication.translate(
            "Words", "The server at {0} has no chat endpoint at this URL (404). Check the base URL (many servers "
            "need it to end in /v1).").format(host)
    if code == "timeout":
        return QCoreApplication.translate("Words", "The model server at {0} did not answer in time.").format(host)
    if code == "stream_timeout":
        return QCoreApplication.translate(
            "Words", "The model server stopped sending the reply and timed out. What arrived is kept.")
    if code == "stream_dropped":
        return QCoreApplication.translate(
            "Words", "The connection dropped while the reply was streaming. What arrived is kept.")
    if code == "connection":
        return QCoreApplication.translate(
            "Words", "Can't reach the model server at {0}. Check that it is running and that the base URL is right."
        ).format(host)
    if code == "malformed":
        return QCoreApplication.translate(
            "Words", "The model server sent a reply Hermes could not read. What arrived is kept.")
    if code == "stream_error":
        return _with_server(QCoreApplication.translate(
            "Words", "The model server reported an error while streaming."), p)
    if code == "context_too_long":
        return QCoreApplication.translate(
            "Words", "The conversation is too long for this model's context window. Start a new conversation with a "
            "summary, or use a model with a larger context.")
    if code == "over_window":
        return over_window_text(p)
    if code == "internal":
        return QCoreApplication.translate(
            "Words", "Something went wrong inside Hermes ({0}). Your message is saved; the details are in the log."
        ).format(p.get("error", ""))
    if code == "no_model":
        return QCoreApplication.translate(
            "Words", "No model is set up yet. Add a provider (base URL, model and key) in settings; your message is "
            "saved.")
    if code == "local_only_session":
        return QCoreApplication.translate(
            "Words", "This conversation was held with {held}, which you marked local-only, so it is not sent to "
            "{other}. Switch back to {held} (or another local-only provider) in the model picker, or start a new "
            "conversation for this provider. Your message is saved.").format(held=p.get("held", ""),
                                                                           other=p.get("other", ""))
    if code == "turn_deadline":
        return QCoreApplication.translate(
            "Words", "Stopped: this turn reached its time limit of {0} (turn_deadline_s in the settings' limits). "
            "What arrived so far is kept; send a message to continue.").format(seconds_text(float(p.get("limit_s") or 0)))
    if code == "session_busy":
        return QCoreApplication.translate(
            "Words", "This conversation is busy: another Hermes window or command is running a turn in it, and it did "
            "not finish within {0}. Nothing was sent or saved; try again when it has finished.").format(
            seconds_text(float(p.get("wait_s") or 0)))
    if code.startswith("storage"):
        return storage_text(code, p)
    return _kind_text(kind, message)


def _kind_text(kind: str, message: str) -> str:
    """An error without a code: a sentence for its kind, with the engine's English words quoted."""
    sentence = {
        "auth": QCoreApplication.translate("Words", "The provider refused the API key."),
        "rate_limit": QCoreApplication.translate("Words", "The provider is limiting requests."),
        "server": QCoreApplication.translate("Words", "The model server had an error."),
        "connection": QCoreApplication.translate("Words", "Can't reach the model server."),
        "timeout": QCoreApplication.translate("Words", "The model server did not answer in time."),
        "stream_dropped": QCoreApplication.translate("Words", "The reply stopped half-way. What arrived is kept."),
        "context_too_long": QCoreApplication.translate("Words", "The conversation is too long for this model."),
        "model_not_found": QCoreApplication.translate("Words", "The server does not offer this model."),
        "malformed_response": QCoreApplication.translate("Words", "The model server sent a reply Hermes could not read."),
        "bad_request": QCoreApplication.translate("Words", "The model server refused the request."),
        "not_configured": QCoreApplication.translate("Words", "No model provider is set up yet."),
        "storage": QCoreApplication.translate("Words", "The conversation could not be saved."),
        "internal": QCoreApplication.translate("Words", "Something went wrong inside Hermes."),
    }.get(kind, QCoreApplication.translate("Words", "Something went wrong."))
    if message:
        return sentence + "\n" + QCoreApplication.translate("Words", "Details: “{0}”").format(message)
    return sentence


def _consequence(text: str) -> str:
    """What a storage failure meant (core/storage: "your message was not saved", …) in the user's language."""
    return {
        "nothing was saved": QCoreApplication.translate("Words", "nothing was saved"),
        "your message was not saved": QCoreApplication.translate("Words", "your message was not saved"),
        "the reply was not saved": QCoreApplication.translate("Words", "the reply was not saved"),
        "the tool result was not saved": QCoreApplication.translate("Words", "the tool result was not saved"),
        "the message was not saved": QCoreApplication.translate("Words", "the message was not saved"),
        "the change was not saved": QCoreApplication.translate("Words", "the change was not saved"),
        "the new session was not saved": QCoreApplication.translate("Words", "the new conversation was not saved"),
        "the latest part of the reply was not saved": QCoreApplication.translate(
            "Words", "the latest part of the reply was not saved"),
        "your edited message was not saved": QCoreApplication.translate("Words", "your edited message was not saved"),
        "your message and its attachments were not saved": QCoreApplication.translate(
            "Words", "your message and its attachments were not saved"),
        "the conversation summary was not saved": QCoreApplication.translate(
            "Words", "the conversation summary was not saved"),
        "the attachment was not saved": QCoreApplication.translate("Words", "the attachment was not saved"),
        "the history is open read-only and nothing new can be saved": QCoreApplication.translate(
            "Words", "the history is open read-only and nothing new can be saved"),
        "the history cannot be shown and nothing can be saved": QCoreApplication.translate(
            "Words", "the history cannot be shown and nothing can be saved"),
        "today's backup of the session database was skipped": QCoreApplication.translate(
            "Words", "today's backup of the session database was skipped"),
        "start-up housekeeping (interrupted replies, the expired trash) was postponed": QCoreApplication.translate(
            "Words", "start-up housekeeping (interrupted replies, the expired trash) was postponed"),
    }.get(text, QCoreApplication.translate("Words", "“{0}”", "a consequence only known in English").format(text)
          if text else QCoreApplication.translate("Words", "nothing was saved"))


def storage_text(code: str, params: Mapping[str, Any]) -> str:
    """A storage fault (core/storage/errors.py describe) in the user's language; the path stays data."""
    path, what = params.get("path", ""), _consequence(str(params.get("consequence") or ""))
    fault = code.removeprefix("storage_")
    if fault == "full":
        return QCoreApplication.translate(
            "Words", "The disk holding {path} is full: {what}. Free some space and try again.").format(path=path, what=what)
    if fault == "read_only":
        return QCoreApplication.translate(
            "Words", "{path} is on read-only storage or is write-protected: {what}. Make it writable, then restart "
            "Hermes Desktop.").format(path=path, what=what)
    if fault == "io":
        return QCoreApplication.translate(
            "Words", "The disk holding {path} reported an I/O error: {what}. Check the disk, then try again.").format(
            path=path, what=what)
    if fault == "permission":
        return QCoreApplication.translate(
            "Words", "Hermes is not allowed to read or write {path}: {what}. Check the permissions of the file and its "
            "folder.").format(path=path, what=what)
    if fault == "busy":
        return QCoreApplication.translate(
            "Words", "{path} is locked by another program: {what}. Close that program or wait, then try again.").format(
            path=path, what=what)
    if fault == "corrupt":
        return QCoreApplication.translate(
            "Words", "{path} is damaged: {what}. Restart Hermes Desktop to recover it from a backup.").format(
            path=path, what=what)
    return QCoreApplication.translate("Words", "The session database {path} failed: {what}.").format(path=path, what=what)


def read_only_text(store: Any) -> str:
    """Why the history is read-only (the store's read_only_code), for the disabled Send and the message box."""
    code, params = getattr(store, "read_only_code", ""), getattr(store, "read_only_params", {}) or {}
    if code == "newer_schema":
        return QCoreApplication.translate(
            "Words", "The session database was made by a newer version of Hermes Desktop (schema {version}, this app "
            "knows {known}). It is open read-only: update Hermes Desktop to keep chatting.").format(
            version=params.get("version", ""), known=params.get("known", ""))
    if code.startswith("storage_"):
        return storage_text(code, params)
    return str(getattr(store, "read_only_reason", "") or "")


def _cost_line(cost: Mapping[str, Any]) -> str:
    what, name, tokens = cost.get("what", ""), str(cost.get("name", "")), f"{int(cost.get('tokens') or 0):,}"
    if what == "skill_catalog":
        return QCoreApplication.translate(
            "Words", "• Skill catalog: {0} tokens — disable activate_skill in the Tools tab, or remove skills you do "
            "not use").format(tokens)
    if what == "skill":
        return QCoreApplication.translate(
            "Words", "• Skill “{name}”: {tokens} tokens — stop using skill {name} in this session (Skills tab)").format(
            name=name, tokens=tokens)
    if what == "mcp_server":
        return QCoreApplication.translate(
            "Words", "• MCP server “{name}”: {tokens} tokens — turn it off (MCP tab or mcp.json)").format(
            name=name, tokens=tokens)
    if what == "tools":
        return QCoreApplication.translate(
            "Words", "• Built-in tools: {0} tokens — disable the tools you do not need in the Tools tab").format(tokens)
    if what == "memory":
        return QCoreApplication.translate("Words", "• Memory: {0} tokens — turn memory off in Settings").format(tokens)
    if what == "message":
        return QCoreApplication.translate(
            "Words", "• This turn: {0} tokens — your message and this turn's tool results: shorten the message or "
            "split the task").format(tokens)
    return QCoreApplication.translate("Words", "• “{name}”: {tokens} tokens").format(name=name, tokens=tokens)


def over_window_text(params: Mapping[str, Any]) -> str:
    head = QCoreApplication.translate(
        "Words", "Not sent: this request needs about {needed} tokens before any history, but the model's context "
        "window ({window} tokens, less its reply reserve) leaves {available}. Turn something off to make room; your "
        "message is saved.").format(needed=f"{int(params.get('needed') or 0):,}",
                                    window=f"{int(params.get('window') or 0):,}",
                                    available=f"{int(params.get('available') or 0):,}")
    lines = [_cost_line(c) for c in list(params.get("costs") or [])[:8]]
    return "\n".join([head, *lines])


def turn_error_text(event: Any) -> str:
    """A TurnError's banner."""
    code, params = getattr(event, "code", ""), getattr(event, "params", {}) or {}
    if not code and getattr(event, "kind", "") == "context_too_long":
        try:  # a refusal from before codes existed: its detail is JSON with the costs
            detail = json.loads(event.detail)
            if isinstance(detail, dict) and "costs" in detail:
                return over_window_text(detail)
        except (ValueError, TypeError, AttributeError):
            pass
    return model_error_text(code, params, str(getattr(event, "kind", "")), getattr(event, "message", ""))


def retry_text(event: Any) -> str:
    """A RetryScheduled event: why, when, which attempt."""
    delay = f"{event.delay_s:.1f}" if event.delay_s < 10 else f"{event.delay_s:.0f}"
    values = {"delay": delay, "attempt": event.attempt, "of": event.max_attempts}
    kind = str(event.kind)
    if kind == "rate_limit":
        return QCoreApplication.translate(
            "Words", "The provider is limiting requests; retrying in {delay} s (attempt {attempt} of {of}).").format(**values)
    if kind == "server":
        return QCoreApplication.translate(
            "Words", "The model server had an error; retrying in {delay} s (attempt {attempt} of {of}).").format(**values)
    if kind in ("connection", "stream_dropped"):
        return QCoreApplication.translate(
            "Words", "Can't reach the model server; retrying in {delay} s (attempt {attempt} of {of}).").format(**values)
    if kind == "timeout":
        return QCoreApplication.translate(
            "Words", "The model server did not answer in time; retrying in {delay} s (attempt {attempt} of {of})."
        ).format(**values)
    return QCoreApplication.translate(
        "Words", "The request failed; retrying in {delay} s (attempt {attempt} of {of}).").format(**values)


# ---------------------------------------------------------------- notices and stops


def notice_text(event: Any) -> str:
    code, params = getattr(event, "code", ""), getattr(event, "params", {}) or {}
    if code == "retry_less_history":
        return QCoreApplication.translate(
            "Words", "The conversation is too long for the model; retrying with less history.")
    if code == "session_busy_waiting":
        return QCoreApplication.translate(
            "Words", "Waiting for another Hermes window or command to finish its turn in this conversation (at most "
            "{0})…").format(seconds_text(float(params.get("wait_s") or 0)))
    if code == "reply_length_cut":
        return QCoreApplication.translate("Words", "The reply reached the maximum output length and was cut off.")
    if code == "thinking_only":
        return QCoreApplication.translate(
            "Words", "The model's reply ended inside its thinking, with no separate answer: open its thinking to read "
            "what it wrote.")
    if code == "reasoning_echo":
        return QCoreApplication.translate(
            "Words", "The server wants the model's reasoning sent back with its tool calls (it said: “{0}”). From now "
            "on Hermes sends it back with tool calls for this provider.").format(params.get("server", ""))
    if code == "history_as_text":
        return QCoreApplication.translate(
            "Words", "The server refused the conversation's earlier tool calls without their reasoning (it said: "
            "“{0}”). Hermes sends them as text from now on and tried again.").format(params.get("server", ""))
    if code == "text_tool_mode":
        return QCoreApplication.translate(
            "Words", "This model does not accept native tool calls; Hermes switched to the text tool-call format for it.")
    if code == "summary_failed":
        return QCoreApplication.translate(
            "Words", "The earlier conversation could not be summarised (“{error}”), so {count} older messages were left "
            "out of this request instead. Your history is unchanged.").format(
            error=params.get("error", ""), count=f"{int(params.get('dropped') or 0):,}")
    if code == "model_choice":
        return QCoreApplication.translate("Words", "About this conversation's model: “{0}”").format(
            params.get("text", ""))
    if code == "knowledge_bm25_only":
        return QCoreApplication.translate(
            "Words", "Knowledge search without vectors this time: {0}.").format(params.get("text", ""))
    return getattr(event, "message", "")


def stop_text(event: Any) -> str:
    """Why a guard stopped the turn (TurnFinished with MAX_ROUND_TRIPS, REPEATED_*, OUTPUT_LIMIT)."""
    reason, p = str(event.reason), getattr(event, "params", {}) or {}
    if reason == "max_round_trips" and "limit" in p:
        return QCoreApplication.translate(
            "Words", "Stopped after {0} model round trips in one turn. Send a message to let the agent continue."
        ).format(p["limit"])
    if reason == "repeated_call" and "tool" in p:
        return QCoreApplication.translate(
            "Words", "Stopped: the agent asked for {tool} with the same arguments {count} times in a row. Tell it what "
            "to do differently.").format(tool=p["tool"], count=p.get("count", ""))
    if reason == "repeated_failure" and "tool" in p:
        return QCoreApplication.translate(
            "Words", "Stopped: {tool} failed {count} times in a row. Check the errors above and tell the agent how to "
            "proceed.").format(tool=p["tool"], count=p.get("count", ""))
    if reason == "output_limit" and "limit" in p:
        if p.get("had_calls"):
            return QCoreApplication.translate(
                "Words", "Stopped: the reply passed the output limit of {0} characters. What arrived is kept, and its "
                "tool calls were not run.").format(f"{int(p['limit']):,}")
        return QCoreApplication.translate(
            "Words", "Stopped: the reply passed the output limit of {0} characters. What arrived is kept.").format(
            f"{int(p['limit']):,}")
    if reason == "cancelled":
        return QCoreApplication.translate("Words", "Stopped. What arrived so far is kept.")
    return getattr(event, "message", "")


def tool_mode_name(mode: str) -> str:
    """How a request offered tools: native (the API's tool calls), text (the fallback format) or none."""
    return {
        "native": QCoreApplication.translate("Words", "native", "tool calling"),
        "text": QCoreApplication.translate("Words", "text format", "tool calling"),
        "none": QCoreApplication.translate("Words", "no tools", "tool calling"),
    }.get(mode, mode)


def error_kind_name(kind: str) -> str:
    return {
        "auth": QCoreApplication.translate("Words", "API key refused"),
        "rate_limit": QCoreApplication.translate("Words", "rate limited"),
        "server": QCoreApplication.translate("Words", "server error"),
        "connection": QCoreApplication.translate("Words", "cannot connect"),
        "timeout": QCoreApplication.translate("Words", "timed out"),
        "stream_dropped": QCoreApplication.translate("Words", "reply cut off"),
        "context_too_long": QCoreApplication.translate("Words", "context too long"),
        "model_not_found": QCoreApplication.translate("Words", "model not found"),
        "malformed_response": QCoreApplication.translate("Words", "unreadable reply"),
        "bad_request": QCoreApplication.translate("Words", "request refused"),
        "not_configured": QCoreApplication.translate("Words", "not set up"),
        "storage": QCoreApplication.translate("Words", "storage"),
        "internal": QCoreApplication.translate("Words", "internal error"),
    }.get(kind, kind)


def stop_reason_name(reason: str) -> str:
    return {
        "completed": QCoreApplication.translate("Words", "completed"),
        "cancelled": QCoreApplication.translate("Words", "stopped by you"),
        "error": QCoreApplication.translate("Words", "error"),
        "max_round_trips": QCoreApplication.translate("Words", "too many round trips"),
        "repeated_call": QCoreApplication.translate("Words", "the same call repeated"),
        "repeated_failure": QCoreApplication.translate("Words", "repeated failures"),
        "output_limit": QCoreApplication.translate("Words", "output limit reached"),
    }.get(reason, reason)


# ---------------------------------------------------------------- connection check, providers, keyring


def check_text(result: Any) -> str:
    """The setup dialog's answer to Test connection."""
    code, p = getattr(result, "code", ""), getattr(result, "params", {}) or {}
    if code == "connected":
        return QCoreApplication.translate("Words", "Connected: {model} answered in {ms} ms.").format(
            model=p.get("model", ""), ms=p.get("latency_ms", ""))
    if code == "bad_scheme":
        return QCoreApplication.translate("Words", "The base URL must start with http:// or https://.")
    if code == "add_v1":
        return QCoreApplication.translate("Words", "Nothing answers at {url}, but {suggested} works. Use that URL.").format(
            url=p.get("url", ""), suggested=p.get("suggested_url", ""))
    if code == "model_not_listed":
        return QCoreApplication.translate(
            "Words", "The server does not list the model “{model}”. Pick one of the {count} it offers.").format(
            model=p.get("model", ""), count=p.get("count", ""))
    if code == "no_model":
        return QCoreApplication.translate("Words", "Choose a model.")
    if code == "tools_unsupported":
        return QCoreApplication.translate(
            "Words", "The model answers, but does not accept native tool calls. Use the text tool-call format for it.")
    return model_error_text(code, p, "", getattr(result, "message", ""))


def provider_name(preset_id: str, fallback: str) -> str:
    """A preset's display name: brands stay as they are, generic words are translated."""
    return {
        "openai": "OpenAI",
        "deepseek": "DeepSeek",
        "qwen": QCoreApplication.translate("Words", "Qwen (DashScope)"),
        "moonshot": QCoreApplication.translate("Words", "Moonshot / Kimi"),
        "zhipu": QCoreApplication.translate("Words", "Zhipu GLM"),
        "openrouter": "OpenRouter",
        "ollama": QCoreApplication.translate("Words", "Ollama (local)"),
        "lmstudio": QCoreApplication.translate("Words", "LM Studio (local)"),
        "custom": QCoreApplication.translate("Words", "Custom (vLLM, other OpenAI-compatible)"),
    }.get(preset_id, fallback)


def preset_profile_name(preset_id: str, fallback: str) -> str:
    """The name a new provider gets from its preset: the brand, or for a custom server a short name in the
    window's language (the preset's list entry, "Custom (vLLM, other OpenAI-compatible)", describes, it is no name)."""
    if preset_id == "custom":
        return QCoreApplication.translate("Words", "Custom server")
    return provider_name(preset_id, fallback)


def mcp_detail(status: Any) -> str:
    """Why an MCP server is not connected (core/mcp/status.py detail_code); its own words are quoted data."""
    code, p = getattr(status, "detail_code", ""), getattr(status, "detail_params", {}) or {}
    if code == "still_starting":
        return QCoreApplication.translate("Words", "still starting after {waited} s; its startTimeout is {limit} s").format(
            waited=f"{float(p.get('waited_s') or 0):g}", limit=f"{float(p.get('limit_s') or 0):g}")
    if code == "needs_sign_in":
        plain = re.fullmatch(r"it needs you to sign in(?: \(HTTP (\d{3})\))?", str(p.get("reason", "")).strip())
        if plain:  # the core's generic reason: said once, not quoted inside the same sentence
            return QCoreApplication.translate(
                "Words", "It needs you to sign in{status}: sign in from the MCP tab or with hermes-desktop mcp login "
                "{server}").format(status=f" (HTTP {plain.group(1)})" if plain.group(1) else "",
                                   server=p.get("server", ""))
        return QCoreApplication.translate(
            "Words", "It needs you to sign in (“{reason}”): sign in from the MCP tab or with hermes-desktop mcp login "
            "{server}").format(reason=p.get("reason", ""), server=p.get("server", ""))
    if code == "refused":
        return QCoreApplication.translate("Words", "The server refused the request: “{0}”").format(p.get("reason", ""))
    if code == "failed":
        if reason := mcp_reason(p):
            return QCoreApplication.translate("Words", "It stopped. {0}").format(reason)
        return QCoreApplication.translate("Words", "It stopped: “{0}”").format(p.get("reason", ""))
    if code == "unresolved_variable":
        return QCoreApplication.translate(
            "Words", "{variable} in {where} has no value, so the server was not started. Set it (for a "
            "${{secret:…}}, with Set secret…) and press Restart.").format(
            variable=p.get("variable", ""), where=p.get("where", ""))
    if code == "restarting":
        delay = f"{float(p.get('delay_s') or 0):g}"
        if reason := mcp_reason(p):
            return QCoreApplication.translate("Words", "It stopped. {reason} Restarting in {delay} s.").format(
                reason=reason, delay=delay)
        return QCoreApplication.translate("Words", "It stopped (“{reason}”); restarting in {delay} s").format(
            reason=p.get("reason", ""), delay=delay)
    return str(getattr(status, "detail", ""))


def mcp_reason(p: Mapping[str, Any]) -> str:
    """Why an MCP server stopped, from its reason_code (core/mcp/supervisor.reason_code), as whole sentences;
    "" when the reason is only the OS's or the SDK's own words (then they are quoted as data)."""
    code = p.get("reason_code", "")
    if code == "command_not_found":
        return mcp_not_found(str(p.get("command", "")), str(p.get("launcher") or ""))
    if code == "start_timeout":
        limit = f"{float(p.get('limit_s') or 0):g}"
        return {
            "start": QCoreApplication.translate("Words", "It did not start within {0} s (its startTimeout)."),
            "initialize": QCoreApplication.translate(
                "Words", "It did not answer `initialize` within {0} s (its startTimeout)."),
        }.get(str(p.get("stage", "")), QCoreApplication.translate(
            "Words", "It did not list its tools within {0} s (its startTimeout).")).format(limit)
    if code == "not_mcp_output":
        return QCoreApplication.translate(
            "Words", "It wrote something that is not MCP on its standard output: {0}. A server may write only JSON-RPC "
            "messages there; logs belong on stderr.").format(p.get("line", ""))
    if code == "no_answer":
        return QCoreApplication.translate("Words", "It did not answer in time.")
    if code == "connection_closed":
        return QCoreApplication.translate("Words", "The connection closed.")
    return ""


def mcp_not_found(command: str, launcher: str) -> str:
    """A missing command, with what to install when it is a known launcher (core/mcp/launchers.py's hints, by
    launcher_name): one sentence per launcher, so a translation orders it its own way."""
    sentence = {
        "uvx": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install uv, which brings uvx (for example: pip install uv), then press Restart."),
        "uv": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install uv (for example: pip install uv), then press Restart."),
        "npx": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install Node.js, which brings npx (your system's package, e.g. apt install npm, or the Node.js installer), then press Restart."),
        "npm": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install Node.js, which brings npm, then press Restart."),
        "node": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install Node.js, then press Restart."),
        "bunx": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install Bun, which brings bunx, then press Restart."),
        "deno": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install Deno, then press Restart."),
        "pipx": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install pipx (for example: pip install pipx), then press Restart."),
        "docker": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install Docker and start it, then press Restart."),
        "python": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install Python 3, or give the full path of the Python to use, then press Restart."),
        "python3": QCoreApplication.translate(
            "Words", "The command {0} was not found. Install Python 3, or give the full path of the Python to use, then press Restart."),
    }.get(launcher, QCoreApplication.translate("Words", "The command {0} was not found."))
    return sentence.format(command)


def memory_line(item: Mapping[str, Any]) -> str:
    """A recalled memory for the Activity tab: its words (data) and where it came from, with the day."""
    from PySide6.QtCore import QDateTime

    day = QDateTime.fromSecsSinceEpoch(int(item.get("created_at") or 0)).date().toString(
        QCoreApplication.translate("Words", "d MMM", "a memory's day (Qt date format)"))
    statement, title = item.get("statement", ""), item.get("title")
    if item.get("session_id") is None:
        return QCoreApplication.translate("Words", "{statement} (added by you, {day})").format(statement=statement, day=day)
    if title is None:
        return QCoreApplication.translate("Words", "{statement} (from a deleted conversation, {day})").format(
            statement=statement, day=day)
    if not title:
        return QCoreApplication.translate("Words", "{statement} (from a conversation, {day})").format(
            statement=statement, day=day)
    return QCoreApplication.translate("Words", "{statement} (from “{title}”, {day})").format(
        statement=statement, title=" ".join(str(title).split())[:60], day=day)


def profile_name(profile: Any) -> str:
    """A provider profile's name; the one made from HERMES_* environment variables is named in the user's language."""
    if getattr(profile, "id", "") == "env" and getattr(profile, "name", "") == "Environment":
        return QCoreApplication.translate("Words", "Environment")
    return str(getattr(profile, "name", ""))


def keyring_name(backend: str) -> str:
    """The keyring a report names (core/secrets.py backend_kind), in words, not as a Python class."""
    from hermes_desktop.core.secrets import backend_kind

    return {
        "secret_service": QCoreApplication.translate("Words", "Secret Service: GNOME Keyring or KeePassXC"),
        "kwallet": QCoreApplication.translate("Words", "KDE Wallet"),
        "macos": QCoreApplication.translate("Words", "macOS Keychain"),
        "windows": QCoreApplication.translate("Words", "Windows Credential Manager"),
        "none": QCoreApplication.translate("Words", "none"),
    }.get(backend_kind(backend), backend)


def keyring_reason(code: str, reason: str) -> str:
    """Why there is no secure keyring (core/secrets.py BackendReport.code)."""
    if code == "no_keyring":
        return QCoreApplication.translate("Words", "no system keyring is available")
    if code == "insecure_backend":
        return QCoreApplication.translate("Words", "the keyring backend does not store secrets securely")
    if code == "low_priority":
        return QCoreApplication.translate("Words", "the keyring backend cannot be used here")
    return QCoreApplication.translate("Words", "the keyring reported: “{0}”").format(reason) if reason else \
        QCoreApplication.translate("Words", "no keyring backend")


def tool_description(name: str, source: str, fallback: str) -> str:
    """What a built-in or skill tool does, for the Tools tab, in the window's language. The model keeps the English
    description of the tool's schema; an MCP tool's description is its server's own words and stays as sent."""
    if source not in ("builtin", "skills", "skill:project-doctor"):
        return fallback
    return {
        "get_current_time": QCoreApplication.translate("Words", "The current date and time, in your time zone or in a given IANA time zone."),
        "calculate": QCoreApplication.translate("Words", "Works out an arithmetic expression exactly, e.g. (12+34)*5 or sqrt(2)*pi."),
        "list_directory": QCoreApplication.translate("Words", "Lists a folder in the workspace (names, sizes, dates)."),
        "read_file": QCoreApplication.translate("Words", "Reads a text file in the workspace, a range of lines or a page at a time."),
        "search_files": QCoreApplication.translate("Words", "Finds files in the workspace by name pattern and, if asked, by text they contain."),
        "write_file": QCoreApplication.translate("Words", "Creates or overwrites a text file in the workspace (making folders as needed)."),
        "make_directory": QCoreApplication.translate("Words", "Creates a folder (and its parents) in the workspace."),
        "move_path": QCoreApplication.translate("Words", "Moves or renames a file or folder inside the workspace."),
        "delete_path": QCoreApplication.translate("Words", "Deletes a file, or a folder with everything in it, inside the workspace, for good."),
        "list_notes": QCoreApplication.translate("Words", "Lists your notes (titles, newest first)."),
        "read_note": QCoreApplication.translate("Words", "Reads one note by its title."),
        "save_note": QCoreApplication.translate("Words", "Saves a Markdown note under a title (replacing a note with the same title)."),
        "fetch_url": QCoreApplication.translate("Words", "Downloads a public web page (http/https) and returns its readable text. Addresses "
                                                         "on your own network are refused unless listed in Settings."),
        "read_more": QCoreApplication.translate("Words", "Reads the rest of a long tool result."),
        "remember": QCoreApplication.translate("Words", "Remembers something you said about yourself, your preferences or your projects, "
                                                        "in your own words, for later conversations."),
        "recall": QCoreApplication.translate("Words", "Searches what Hermes remembers about you from earlier conversations."),
        "forget": QCoreApplication.translate("Words", "Forgets memories you want gone; you are asked first and see which ones."),
        "search_knowledge": QCoreApplication.translate("Words", "Searches the knowledge bases used in this conversation (your own documents) "
                                                                "and cites the passages it uses."),
        "activate_skill": QCoreApplication.translate("Words", "Loads a skill when your task matches its description."),
        "read_skill_resource": QCoreApplication.translate("Words", "Reads a file that comes with a skill, a page at a time."),
        "find_skills": QCoreApplication.translate("Words", "Searches the installed skills that the catalog does not list, by keywords."),
        "inspect_project": QCoreApplication.translate("Words", "Surveys a project folder in the workspace: file types, manifest files, "
                                                               "layout, README, largest files and likely problems. Read-only."),
    }.get(name, fallback)


def skill_description(name: str, origin: str, fallback: str) -> str:
    """A bundled skill's description in the window's language (the model reads the English one in SKILL.md or
    skill.yaml); any other skill's description is its author's words and stays as written."""
    if origin != "bundled":
        return fallback
    return {
        "file-organizer": QCoreApplication.translate("Words", "Plans and carries out a tidy-up of a folder in the workspace (grouping files "
                                                              "into folders by type, project or date, renaming them consistently), showing "
                                                              "the plan first and asking before each change."),
        "meeting-notes": QCoreApplication.translate("Words", "Turns a pasted meeting transcript or rough notes into structured meeting notes "
                                                             "(summary, decisions, action items with owners and dates, open questions) and "
                                                             "saves them as a note."),
        "project-doctor": QCoreApplication.translate("Words", "Looks at a project folder in the workspace and explains what it is: its "
                                                              "purpose, languages and frameworks, structure, how to build and test it, and "
                                                              "anything that looks missing or broken."),
        "web-research": QCoreApplication.translate("Words", "Researches a question on the web: reads a few relevant pages, compares what they "
                                                            "say, and writes a short summary with its sources, saved as a note."),
    }.get(name, fallback)


# A built-in tool's refusals and failures, as the model reads them (core/tools/builtin/, core/tools/workspace.py),
# matched to a sentence in the window's language. The card shows that sentence; the result itself, what the model
# was sent, stays as it is under "Result". Anything not listed is quoted inside a sentence (docs/glossary.md).
_TOOL_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^refused: '?(?P<path>.+?)'? is outside the workspace \((?P<root>.+)\)$"), "outside_workspace"),
    (re.compile(r"^(?P<path>.+) does not exist$"), "missing"),
    (re.compile(r"^(?P<path>.+) is a folder(; use list_directory)?$"), "is_folder"),
    (re.compile(r"^(?P<path>.+) is not a folder$"), "not_folder"),
    (re.compile(r"^(?P<path>.+) is a binary file, not text$"), "binary"),
    (re.compile(r"^(?P<path>.+) is not UTF-8, and its encoding could not be detected$"), "not_text"),
    (re.compile(r"^(?P<path>.+) exists and is a file$"), "exists_file"),
    (re.compile(r"^division by zero$"), "division_by_zero"),
    (re.compile(r"^the expression is empty$"), "empty_expression"),
    (re.compile(r"^unknown time zone '(?P<zone>[^']*)'"), "unknown_zone"),
    (re.compile(r"^no note titled '(?P<title>.*)'; list_notes shows the titles$"), "no_note"),
    (re.compile(r"^(?P<tool>\S+) did not finish within (?P<seconds>[\d.]+) s and was stopped$"), "timed_out"),
)


def tool_error_text(result: str | None, source: str) -> str | None:
    """What went wrong in a built-in tool's error result, in the window's language; None for other results."""
    if not result or source not in ("builtin", "skills") or not result.startswith("{"):
        return None
    try:
        error = json.loads(result).get("error")
    except (ValueError, AttributeError):
        return None
    if not isinstance(error, str) or not error:
        return None
    for pattern, code in _TOOL_ERRORS:
        found = pattern.match(error)
        if found is None:
            continue
        p = found.groupdict()
        if code == "outside_workspace":
            return QCoreApplication.translate("Words", "Refused: {path} is outside the workspace ({root}).").format(**p)
        if code == "missing":
            return QCoreApplication.translate("Words", "{path} does not exist.").format(**p)
        if code == "is_folder":
            return QCoreApplication.translate("Words", "{path} is a folder, not a file.").format(**p)
        if code == "not_folder":
            return QCoreApplication.translate("Words", "{path} is not a folder.").format(**p)
        if code == "binary":
            return QCoreApplication.translate("Words", "{path} is a binary file, not text.").format(**p)
        if code == "not_text":
            # The knowledge panel's word for the same reason (core/documents/text.py decodes both), already translated
            return p["path"] + ": " + QCoreApplication.translate("KnowledgePanel", "not text, or an encoding that could not be detected")
        if code == "exists_file":
            return QCoreApplication.translate("Words", "{path} already exists and is a file.").format(**p)
        if code == "division_by_zero":
            return QCoreApplication.translate("Words", "Division by zero.")
        if code == "empty_expression":
            return QCoreApplication.translate("Words", "The expression is empty.")
        if code == "unknown_zone":
            return QCoreApplication.translate("Words", "Unknown time zone {zone}.").format(**p)
        if code == "no_note":
            return QCoreApplication.translate("Words", "There is no note titled “{title}”.").format(**p)
        if code == "timed_out":
            return QCoreApplication.translate("Words", "{tool} did not finish within {seconds} s and was stopped.").format(**p)
    return QCoreApplication.translate("Words", "The tool reported an error: “{0}”").format(error)
