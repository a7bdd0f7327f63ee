"""Durable sessions: SQLite schema and migrations, the store, search, and import/export.

`core/store.py` is the entry point (`open_store`); this package holds its parts.
"""
