"""Text that is safe to print on a terminal: no escape sequences, no carriage returns, no other controls.

Model text, tool arguments, paths and tool names come from outside (a model, a web page it read, a file
name) and a terminal obeys what they contain: an OSC 52 sequence writes the clipboard, `\\r\\x1b[2K`
erases the line it is on (the approval prompt's "will delete …"), colour codes hide text. Two forms:

- `strip_controls(text)` / `TerminalTextFilter`: for prose (the reply `ask` prints). Whole escape
  sequences (ESC/CSI/OSC/DCS/SOS/PM/APC, 7-bit and C1 forms, OSC ended by BEL or ST) are removed, then
  every remaining C0/C1 control except newline and tab. The filter is for a stream: a sequence split
  across two pieces is held back until it is complete (at most `MAX_PENDING` characters), so its
  payload never leaks into the text.
- `visible_controls(text)`: for what the user must judge (the approval prompt). Nothing is dropped: each
  control, and each Unicode bidirectional override, is shown as an escape (`\\r`, `\\x1b`, `\\u202e`), so a
  path named `data\\r\\x1b[2K` reads as exactly that instead of erasing the line or passing for `data`.

- `terminal_safe_json(value)`: for `--json` output. json.dumps escapes only C0 controls; with
  `ensure_ascii=False` (Chinese stays readable) C1 controls (U+009B is a CSI to xterm), DEL, line separators
  and bidi overrides would pass through, so those are written as `\\u` escapes (they occur only inside
  strings, where an escape means the same).
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_PENDING = 4096  # longest incomplete sequence held back between stream pieces

# Where an escape sequence can start: ESC, and the C1 introducers CSI, OSC, DCS, SOS, PM, APC.
_INTRODUCER = re.compile("[\x1b\x9b\x9d\x90\x98\x9e\x9f]")
_COMPLETE = re.compile(
    "\x1b\\][^\x07\x1b\x9c]*(?:\x07|\x9c|\x1b\\\\)"  # OSC … BEL or ST
    "|\x1b[PX^_][^\x1b\x9c]*(?:\x9c|\x1b\\\\)"  # DCS, SOS, PM, APC … ST
    "|\x1b\\[[0-?]*[ -/]*[@-~]"  # CSI
    "|\x1b[ -/]*[0-OQ-WYZ\\\\`-~]"  # every other ESC sequence (intermediates, then a final byte)
    "|\x9b[0-?]*[ -/]*[@-~]"  # C1 CSI
    "|\x9d[^\x07\x1b\x9c]*(?:\x07|\x9c|\x1b\\\\)"  # C1 OSC
    "|[\x90\x98\x9e\x9f][^\x1b\x9c]*(?:\x9c|\x1b\\\\)"  # C1 DCS, SOS, PM, APC
)
# What could still become a complete sequence when more text arrives.
_PREFIX = re.compile(
    "\x1b(?:\\][^\x07\x1b\x9c]*\x1b?|[PX^_][^\x1b\x9c]*\x1b?|\\[[0-?]*[ -/]*|[ -/]*)?"
    "|\x9b[0-?]*[ -/]*"
    "|\x9d[^\x07\x1b\x9c]*\x1b?"
    "|[\x90\x98\x9e\x9f][^\x1b\x9c]*\x1b?"
)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 but \t and \n, DEL, C1
_SHOWN = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # \t stays a tab
_NAMED = {"\n": "\\n", "\r": "\\r"}


class TerminalTextFilter:
    """Strips control sequences from text that arrives in pieces (a streamed reply)."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, text: str) -> str:
        """The printable part of `text`; an escape sequence cut off at its end waits for the next piece."""
        return self._clean(self._pending + text, final=False)

    def flush(self) -> str:
        """What is left at the end of the stream (an unfinished sequence's introducer is dropped)."""
        return self._clean(self._pending, final=True)

    def _clean(self, text: str, *, final: bool) -> str:
        self._pending = ""
        out: list[str] = []
        position = 0
        while True:
            found = _INTRODUCER.search(text, position)
            if found is None:
                out.append(_CONTROL.sub("", text[position:]))
                break
            start = found.start()
            out.append(_CONTROL.sub("", text[position:start]))
            sequence = _COMPLETE.match(text, start)
            if sequence is not None:
                position = sequence.end()  # the whole sequence goes
                continue
            if not final and len(text) - start <= MAX_PENDING and _PREFIX.fullmatch(text, start):
                self._pending = text[start:]  # may complete with the next piece
                break
            position = start + 1  # not a sequence (or never finished): drop the lone introducer
        return "".join(out)


def strip_controls(text: str) -> str:
    """`text` without escape sequences, carriage returns or other C0/C1 controls (newline and tab stay)."""
    cleaner = TerminalTextFilter()
    return cleaner.feed(text) + cleaner.flush()


def safe_name(text: str) -> str:
    """A name from outside (a file name) for one terminal line: escape sequences and controls removed (newlines
    too), and each bidirectional control (U+202A-U+202E, U+2066-U+2069, U+200E/F, U+061C) shown as its escape
    (`\\u202e`), so `photo\\u202egnp.exe` cannot pass for `photoexe.png`."""
    flat = strip_controls(text).replace("\n", " ").replace("\t", " ")
    return _BIDI.sub(lambda match: f"\\u{ord(match.group()):04x}", flat)


_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_OVERRIDES = re.compile("[\u202a-\u202e\u2066-\u2069]")


def visible_bidi(text: str) -> str:
    """`text` with each bidirectional embedding, override or isolate written as its escape (`\\u202e`), for text from
    outside shown in the window (a memory's words): it cannot reverse what follows it on screen. The marks
    (U+200E/F) that right-to-left writing uses stay."""
    return _OVERRIDES.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def visible_controls(text: str, *, keep_newlines: bool = False) -> str:
    """`text` with each control character (and bidi override) written as an escape, so nothing is hidden."""
    def show(match: re.Match[str]) -> str:
        char = match.group()
        if char == "\n" and keep_newlines:
            return char
        if char in _NAMED:
            return _NAMED[char]
        return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"

    return _SHOWN.sub(show, text)


_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def terminal_safe_json(value: Any, *, indent: int | None = None) -> str:
    """JSON with Chinese as is, and every character a terminal would obey or reorder text by as a `\\u` escape."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _UNSAFE_IN_JSON.sub(lambda match: f"\\u{ord(match.group()):04x}", text)
