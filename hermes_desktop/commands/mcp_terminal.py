"""`ask` on a terminal: an MCP server's elicitation is asked field by field, its sampling request is shown for
approval and its reply before it is sent. Without a terminal nothing is installed, so core's defaults apply: an
elicitation is declined and a sampling request refused (core/mcp/client_features.py).

Everything a server wrote is printed with its control characters shown as escapes, never obeyed. Only an explicit
answer accepts: an empty line or end of input is a cancel (elicitation) or a refusal (sampling).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, Awaitable, Callable, TextIO

from hermes_desktop.core.mcp.client_features import (
    ElicitAction,
    ElicitationAnswer,
    ElicitationRequest,
    FieldKind,
    FormField,
    Problem,
    SamplingDraft,
    SamplingRequest,
    check_value,
    number_text,
    parse_text,
)
from hermes_desktop.commands.terminal_input import LineReader, terminal_lines
from hermes_desktop.core.terminal_text import visible_controls

MAX_TRIES = 3  # a field answered wrongly this many times cancels the form


def install_terminal_askers(runtime: Any, stdin: TextIO | None = None) -> bool:
    """Ask MCP servers' questions on this terminal when stdin is one. True when installed."""
    stdin = stdin or sys.stdin
    features = getattr(runtime.mcp, "client_features", None)
    if features is None or not stdin.isatty():
        return False
    features.elicitor = TerminalElicitor()
    features.sampler = TerminalSampler()
    return True


class _Terminal:
    def __init__(self, out: TextIO | None = None, read: Callable[[], str] | None = None) -> None:
        self.out = out or sys.stderr
        # the process's one stdin reader, shared with tool approvals (a withdrawn question keeps no line)
        self._lines = LineReader(read) if read is not None else terminal_lines()

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def ask(self, prompt: str) -> str | None:
        """One line, or None at end of input."""
        self.out.write(prompt)
        self.out.flush()
        try:
            line = await self._lines.readline()
        except asyncio.CancelledError:
            self.say("\n  (the question was withdrawn: the next line you type answers what is asked next)")
            raise
        return None if line == "" else line.rstrip("\n")


def _shown(text: str) -> str:
    return visible_controls(text, keep_newlines=True)


class TerminalElicitor(_Terminal):
    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
        self.say(f"\nMCP server {_shown(request.server)} asks:")
        self.say("  " + _shown(request.message).replace("\n", "\n  "))
        if request.mode == "url":
            return await self._url(request)
        choice = await self.ask("Answer it? [y] fill in the form, [d] decline, [N] cancel: ")
        choice = (choice or "").strip().lower()
        if choice in ("d", "decline"):
            return ElicitationAnswer(ElicitAction.DECLINE)
        if choice not in ("y", "yes"):
            return ElicitationAnswer(ElicitAction.CANCEL)
        content: dict[str, Any] = {}
        for form_field in request.fields:
            value = await self._field(form_field)
            if value is _CANCELLED:
                return ElicitationAnswer(ElicitAction.CANCEL)
            if value is not None and value != []:
                content[form_field.name] = value
        self.say("Your answers:")
        for name, value in content.items():
            self.say(f"  {_shown(name)}: {_shown(str(value))}")
        final = await self.ask(f"Send them to {_shown(request.server)}? [y] send, [d] decline, [N] cancel: ")
        final = (final or "").strip().lower()
        if final in ("y", "yes"):
            return ElicitationAnswer(ElicitAction.ACCEPT, content)
        return ElicitationAnswer(ElicitAction.DECLINE if final in ("d", "decline") else ElicitAction.CANCEL)

    async def _url(self, request: ElicitationRequest) -> ElicitationAnswer:
        self.say(f"  It wants you to open a page on {_shown(request.domain)}")
        self.say(f"  full address: {_shown(request.url)}")
        choice = await self.ask("Open it in your browser? [y] open, [d] decline, [N] cancel: ")
        choice = (choice or "").strip().lower()
        if choice in ("y", "yes"):
            return ElicitationAnswer(ElicitAction.ACCEPT)
        return ElicitationAnswer(ElicitAction.DECLINE if choice in ("d", "decline") else ElicitAction.CANCEL)

    async def _field(self, form_field: FormField) -> Any:
        self.say(f"\n{_shown(form_field.label)}{' (required)' if form_field.required else ' (optional)'}"
                 + (f" — {_shown(form_field.description)}" if form_field.description else ""))
        for number, option in enumerate(form_field.options, 1):
            self.say(f"  {number}. {_shown(option.label)}")
        hint = _hint(form_field)
        for _ in range(MAX_TRIES):
            line = await self.ask(f"  {hint}: " if hint else "  > ")
            if line is None:
                return _CANCELLED
            try:
                value = parse_text(form_field, line)
                if value is None and form_field.default is not None:
                    value = form_field.default
                problem = check_value(form_field, value)
            except ValueError as exc:
                problem = exc.args[0] if exc.args and isinstance(exc.args[0], Problem) else None
                value = None
                if problem is None:
                    raise
            if problem is None:
                return value
            self.say(f"  {problem.english()}")
        self.say("  too many tries: the form is cancelled")
        return _CANCELLED


_CANCELLED = object()


def _hint(form_field: FormField) -> str:
    kind = form_field.kind
    parts = []
    if kind is FieldKind.BOOLEAN:
        parts.append("y/n")
    elif kind is FieldKind.CHOICE:
        parts.append("number or name")
    elif kind is FieldKind.MULTI:
        parts.append("numbers or names, separated by commas")
    elif kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        parts.append("whole number" if kind is FieldKind.INTEGER else "number")
        if form_field.minimum is not None or form_field.maximum is not None:
            parts.append(f"{number_text(form_field.minimum) if form_field.minimum is not None else '…'} to "
                         f"{number_text(form_field.maximum) if form_field.maximum is not None else '…'}")
    elif form_field.format:
        parts.append({"email": "email", "uri": "address like https://…", "date": "YYYY-MM-DD",
                      "date-time": "YYYY-MM-DDTHH:MM"}[form_field.format])
    if form_field.default is not None:
        parts.append(f"Enter for {form_field.default!r}")
    return ", ".join(parts)


class TerminalSampler(_Terminal):
    async def sample(self, request: SamplingRequest, generate: Callable[[], Awaitable[SamplingDraft]]) -> str | None:
        self.say(f"\nMCP server {_shown(request.server)} wants your model ({_shown(request.model)}) to answer this "
                 "(only what is shown is sent: nothing from your conversations, no tools):")
        if request.system_prompt:
            self.say("  system prompt: " + _shown(request.system_prompt).replace("\n", "\n    "))
        for message in request.messages:
            images = f" [{message.images} image(s)]" if message.images else ""
            self.say(f"  {message.role}: " + _shown(message.text).replace("\n", "\n    ") + images)
        self.say(f"  max tokens: {request.requested_max_tokens} requested, {request.max_tokens} allowed"
                 + (f"; model hints: {_shown(', '.join(request.model_hints))}" if request.model_hints else ""))
        answer = await self.ask("Let your model answer? [y] yes, [N] refuse: ")
        if (answer or "").strip().lower() not in ("y", "yes"):
            return None
        draft = await generate()
        if draft.error:
            self.say(f"The model failed: {_shown(draft.error)}. Nothing is sent.")
            return None
        self.say("Reply:")
        self.say("  " + _shown(draft.text).replace("\n", "\n  "))
        choice = await self.ask("Send it? [s] send, [e] edit first, [N] refuse: ")
        choice = (choice or "").strip().lower()
        if choice in ("s", "send", "y", "yes"):
            return draft.text
        if choice in ("e", "edit"):
            self.say("Type the reply; end with a line holding only a dot (.):")
            lines: list[str] = []
            while True:
                line = await self.ask("")
                if line is None:
                    return None
                if line == ".":
                    return "\n".join(lines)
                lines.append(line)
        return None
