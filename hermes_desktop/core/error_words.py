"""A turn's error in the command line's language (core/i18n.py), worded from its code and parameters.

The engine sends each error as a code with parameters and an English `message` (core/events.TurnError); the window
words the code through Qt (ui/words.model_error_text), and this is the same for the terminal through gettext, with
the same English sentences as msgids so both catalogs say the same thing. A code not listed here keeps the
engine's English message, quoted inside a sentence in the user's language.
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
        return _with_server(_("The model server refused the request ({0}).").format(status), p)
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
    if code == "internal":
        return _("Something went wrong inside Hermes ({0}). Your message is saved; the details are in the log."
                 ).format(p.get("error", ""))
    return _("Details: “{0}”").format(message)
