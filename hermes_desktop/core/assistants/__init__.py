"""Assistants and the prompt library (issue 23).

An assistant is a named helper: its own instructions (added to the context below the app's rules), a default
model and request parameters, an allow list of tools, skills and MCP servers, the knowledge bases its chats use
(by name), memory on or off, and starter prompts. "Hermes" (`DEFAULT_ID`) is the default assistant: today's behaviour, every tool.

- model.py: the Assistant value, its validation (errors name the field) and our JSON format.
- allow_list.py: which offered tools an assistant keeps, and the refusal of a call outside its list.
- gallery.py + gallery/*.json: the built-in assistants (English and Chinese), read-only.
- store.py: the user's assistants, saved prompts and each session's assistant in hermes.db (migration 9).
- service.py: the engine's hooks (layer, tools, parameters, model, memory, side-task model) for a session.
- imports.py: our JSON, Cherry Studio's subscription list and NextChat masks, read into a plan shown first.
- prompt_library.py: saved prompts with {{variables}}.
Qt-free.
"""
