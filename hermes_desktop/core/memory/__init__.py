"""Memory the user can see and trust (issue 13).

Modules, one job each:
- model.py    the values: Memory, Layer, MemoryState, Kind, Recalled
- store.py    MemoryStore: the table `memories` (migration v6) and its CJK-aware FTS index; the API of the Memory
              tab, the CLI and the tools (list/search, add, edit, pin, forget + undo, undo_add, delete, wipe,
              history, for_message, incognito)
- text.py     words: recall terms (OR, CJK pairs), entity keys, subject keys, the verbatim quote check, own words
              (pasted material left out), the support rule, one fact
- rules.py    candidates in the user's own sentences; questions, hypotheticals, reported speech never are; dates
- extract.py  the one side request that refines candidates; only quotes found verbatim survive
- recall.py   BM25 + entity boost + decay + pins, within the token budget, with sources
- service.py  MemoryService: before/after-turn hooks, background extraction, MemoryRemembered listeners, switches
- tools.py    remember / recall / forget
- embeddings.py optional /embeddings similarity mixed into recall

Trust rule: every memory carries the user's exact words (`quote`) and where they were said; a statement that
cannot be traced to them is never stored. Design and what was verified: docs/memory-safety.md.
"""

from hermes_desktop.core.memory.model import Kind, Layer, Memory, MemoryState, Origin, Recalled
from hermes_desktop.core.memory.store import MemoryNotFound, MemoryStore

__all__ = ["Kind", "Layer", "Memory", "MemoryNotFound", "MemoryState", "MemoryStore", "Origin", "Recalled"]
