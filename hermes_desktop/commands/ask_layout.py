"""Where `ask`'s pieces go on the terminal, so that the reply reads as one text and notes never glue onto it.

The reply streams to stdout; thinking (with --show-thinking), tool lines, notices and errors go to stderr.
On a terminal both land on the same screen, so:
- a stderr line that comes while the reply's (or the thinking's) line is still open starts on a new line
  (the newline is written to stderr: stdout stays the reply alone, byte for byte, when it is piped);
- the reply's text before a tool call and its text after it are separated by a blank line on stdout
  ("I'll look that up." and "It is 21 °C." are two paragraphs, not "up.It is").
Pure bookkeeping: the caller writes what these methods return.
"""

from __future__ import annotations


class AskLayout:
    def __init__(self) -> None:
        self._wrote_text = False
        self._text_line_open = False
        self._break_before_text = False

    def text(self, shown: str) -> str:
        """What to write to stdout for this piece of reply text."""
        if not shown:
            return ""
        prefix = ""
        if self._break_before_text and self._wrote_text:
            prefix = "\n" if shown.startswith("\n") or not self._text_line_open else "\n\n"
            if shown.startswith("\n\n"):
                prefix = ""
        self._break_before_text = False
        self._wrote_text = True
        self._text_line_open = not shown.endswith("\n")
        return prefix + shown

    def tool_call(self) -> None:
        """A tool call came between two stretches of the reply's text."""
        self._break_before_text = True

    def stderr_prefix(self, *, thinking_open: bool = False) -> str:
        """"\\n" when a stderr line would otherwise continue the reply's or the thinking's open line."""
        return "\n" if self._text_line_open or thinking_open else ""

    @property
    def wrote_text(self) -> bool:
        return self._wrote_text
