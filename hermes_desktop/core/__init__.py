"""The engine. Pure Python and asyncio: nothing in this package may import Qt.

A test walks every module's imports to enforce it (tests/core/test_core_is_qt_free.py).
"""
