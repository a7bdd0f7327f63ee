"""A turn's error in the command line's language (core/i18n.py), worded from its code and parameters.

The engine sends each error as a code with parameters and an English `message` (core/events.TurnError); the window
words the code through Qt (ui/words.model_error_text), and this is the same for the terminal through gettext, with
the same English sentences as msgids so both catalogs say the same thing. Every code the core can give is listed
(tests/core/test_cli_chinese.py reads them from the core's source); where the window's advice names its buttons
("press Retry"), this says what the terminal can do instead. An unknown code keeps the engine's English message,
quoted inside a sentence in the user's language.
"""

from __future__ import annotations

from typing import Any, Mapping

from hermes_desktop.core.i18n import _, active_language


def seconds_text(seconds: float) -> str:
    if seconds >= 60:
        return _("{0} minutes").format(f"{seconds / 60:g}")
    return _("{0} s").format(f"{seconds:g}")


def _with_server(sentence: str, params: Mapping[str, Any]) -> str:
    said = str(params.get("server") or "")
    return sentence + (" " + _("The server said: “{0}”").format(said) if said else "")


def error_text(code: str, params: Mapping[str, Any] | None, message: str) -> str:
    """The sentence for `code`; in English, and for a code not listed here, the engine's own `message`."""
    if active_language() == "en" or not code:
        return message  # English on the terminal reads as it always did: the engine's sentence
    p = dict(params or {})
    host, status = p.get("host", ""), p.get("status", "")
    if code == "auth_rejected":
        return _with_server(_("The provider rejected the API key ({0}). Check the key in the provider settings.")
                            .format(status), p)
    if code == "auth_forbidden":
        return _with_server(_("The API key has no access to this model or endpoint ({0}).").format(status), p)
    if code == "quota":
        return _with_server(_("The provider says the account is out of quota or credit ({0}).").format(status), p)
    if code == "rate_limited":
        wait = p.get("retry_after_s")
        text = (_("The provider is limiting how fast requests may come ({status}). Try again in {wait}.").format(
            status=status, wait=seconds_text(max(1, round(float(wait))))) if wait is not None else
            _("The provider is limiting how fast requests may come ({0}). Wait a moment and try again.").format(status))
        return _with_server(text, p)
    if code == "server_error":
        return _with_server(_("The model server had an error ({0}).").format(status), p)
    if code == "refused":
        # The window's advice, said for the terminal: there is no Retry button, `ask --model` picks another model.
        return _with_server(_("The model server refused the request ({0}). Check this provider's model and extra "
                              "parameters in the settings, or pick another model (ask --model); then ask again."
                              ).format(status), p)
    if code == "reasoning_history_refused":
        return _with_server(_("{0} refused this conversation's earlier replies even with their tool calls sent as "
                              "text. Continue it with the model that wrote them (ask --model), start a new "
                              "conversation (another --session), or turn off thinking mode for this provider in the "
                              "settings; then ask again.").format(p.get("model", "")), p)
    if code == "tool_call_rejected":
        return _with_server(_("The model wrote a tool call the server could not accept. Try again; the model usually "
                              "writes it right the next time."), p)
    if code == "reply_output_limit":
        return _with_server(_("The reply reached the model's output limit. What arrived is kept; raise the profile's "
                              "maximum output tokens for longer replies."), p)
    if code == "tools_unsupported":
        return _with_server(_("The model does not accept native tool calls."), p)
    if code == "stream_error":
        return _with_server(_("The model server reported an error while streaming."), p)
    if code == "model_not_found":
        return _with_server(_("The server at {host} does not offer the model “{model}”.").format(
            host=host, model=p.get("model", "")), p)
    if code == "no_chat_endpoint":
        return _("The server at {0} has no chat endpoint at this URL (404). Check the base URL (many servers need it "
                 "to end in /v1).").format(host)
    if code == "timeout":
        return _("The model server at {0} did not answer in time.").format(host)
    if code == "stream_timeout":
        return _("The model server stopped sending the reply and timed out. What arrived is kept.")
    if code == "stream_dropped":
        return _("The connection dropped while the reply was streaming. What arrived is kept.")
    if code == "connection":
        return _("Can't reach the model server at {0}. Check that it is running and that the base URL is right."
                 ).format(host)
    if code == "malformed":
        return _("The model server sent a reply Hermes could not read. What arrived is kept.")
    if code == "context_too_long":
        return _("The conversation is too long for this model's context window. Start a new conversation with a "
                 "summary, or use a model with a larger context.")
    if code == "no_model":
        return _("No model is set up yet. Add a provider (base URL, model and key) in settings; your message is "
                 "saved.")
    if code == "local_only_session":
        return _("This conversation was held with {held}, which you marked local-only, so it is not sent to "
                 "{other}. Switch back to {held} (or another local-only provider) with `ask --model`, or start a new "
                 "conversation (another `--session`) for this provider. Your message is saved.").format(
            held=p.get("held", ""), other=p.get("other", ""))
    if code == "over_window":
        return over_window_text(p)
    if code == "internal":
        return _("Something went wrong inside Hermes ({0}). Your message is saved; the details are in the log."
                 ).format(p.get("error", ""))
    if code == "turn_deadline":
        return _("Stopped: this turn reached its time limit of {0} (turn_deadline_s in the settings' limits). What "
                 "arrived so far is kept; send a message to continue.").format(seconds_text(float(p.get("limit_s") or 0)))
    if code == "session_busy":
        return _("This conversation is busy: another Hermes window or command is running a turn in it, and it did not "
                 "finish within {0}. Nothing was sent or saved; try again when it has finished.").format(
            seconds_text(float(p.get("wait_s") or 0)))
    if code.startswith("storage"):
        return storage_text(code, p)
    return _("Details: “{0}”").format(message)


def _cost_line(cost: Mapping[str, Any]) -> str:
    """One thing the request carries and how to turn it off (core/request_fit.py costs), as the window says it."""
    what, name, tokens = cost.get("what", ""), str(cost.get("name", "")), f"{int(cost.get('tokens') or 0):,}"
    if what == "skill_catalog":
        return _("• Skill catalog: {0} tokens — disable activate_skill in the Tools tab, or remove skills you do not "
                 "use").format(tokens)
    if what == "skill":
        return _("• Skill “{name}”: {tokens} tokens — stop using skill {name} in this session (Skills tab)").format(
            name=name, tokens=tokens)
    if what == "mcp_server":
        return _("• MCP server “{name}”: {tokens} tokens — turn it off (MCP tab or mcp.json)").format(
            name=name, tokens=tokens)
    if what == "tools":
        return _("• Built-in tools: {0} tokens — disable the tools you do not need in the Tools tab").format(tokens)
    if what == "memory":
        return _("• Memory: {0} tokens — turn memory off in Settings").format(tokens)
    if what == "message":
        return _("• This turn: {0} tokens — your message and this turn's tool results: shorten the message or split "
                 "the task").format(tokens)
    return _("• “{name}”: {tokens} tokens").format(name=name, tokens=tokens)


def over_window_text(params: Mapping[str, Any]) -> str:
    """A request refused before sending (core/request_fit.py): the numbers, then what to turn off, one per line."""
    head = _("Not sent: this request needs about {needed} tokens before any history, but the model's context window "
             "({window} tokens, less its reply reserve) leaves {available}. Turn something off to make room; your "
             "message is saved.").format(needed=f"{int(params.get('needed') or 0):,}",
                                         window=f"{int(params.get('window') or 0):,}",
                                         available=f"{int(params.get('available') or 0):,}")
    return "\n".join([head, *(_cost_line(c) for c in list(params.get("costs") or [])[:8])])


def _consequence(text: str) -> str:
    """What a storage failure meant (core/storage's English "your message was not saved", …), as the window's
    words._consequence says it; an unknown one stays English, quoted."""
    known = {
        "nothing was saved": _("nothing was saved"),
        "your message was not saved": _("your message was not saved"),
        "the reply was not saved": _("the reply was not saved"),
        "the tool result was not saved": _("the tool result was not saved"),
        "the message was not saved": _("the message was not saved"),
        "the change was not saved": _("the change was not saved"),
        "the new session was not saved": _("the new conversation was not saved"),
        "the latest part of the reply was not saved": _("the latest part of the reply was not saved"),
        "your edited message was not saved": _("your edited message was not saved"),
        "your message and its attachments were not saved": _("your message and its attachments were not saved"),
        "the conversation summary was not saved": _("the conversation summary was not saved"),
        "the attachment was not saved": _("the attachment was not saved"),
        "the history is open read-only and nothing new can be saved": _(
            "the history is open read-only and nothing new can be saved"),
        "the history cannot be shown and nothing can be saved": _("the history cannot be shown and nothing can be saved"),
        "today's backup of the session database was skipped": _("today's backup of the session database was skipped"),
        "start-up housekeeping (interrupted replies, the expired trash) was postponed": _(
            "start-up housekeeping (interrupted replies, the expired trash) was postponed"),
    }
    if text in known:
        return known[text]
    return _("“{0}”").format(text) if text else _("nothing was saved")


def storage_text(code: str, params: Mapping[str, Any]) -> str:
    """A storage fault (core/storage/errors.py `storage_<fault>`), as the window's words.storage_text; the path
    stays data."""
    path, what = params.get("path", ""), _consequence(str(params.get("consequence") or ""))
    fault = code.removeprefix("storage_")
    if fault == "full":
        return _("The disk holding {path} is full: {what}. Free some space and try again.").format(path=path, what=what)
    if fault == "read_only":
        return _("{path} is on read-only storage or is write-protected: {what}. Make it writable, then restart Hermes "
                 "Desktop.").format(path=path, what=what)
    if fault == "io":
        return _("The disk holding {path} reported an I/O error: {what}. Check the disk, then try again.").format(
            path=path, what=what)
    if fault == "permission":
        return _("Hermes is not allowed to read or write {path}: {what}. Check the permissions of the file and its "
                 "folder.").format(path=path, what=what)
    if fault == "busy":
        return _("{path} is locked by another program: {what}. Close that program or wait, then try again.").format(
            path=path, what=what)
    if fault == "corrupt":
        return _("{path} is damaged: {what}. Restart Hermes Desktop to recover it from a backup.").format(
            path=path, what=what)
    return _("The session database {path} failed: {what}.").format(path=path, what=what)
