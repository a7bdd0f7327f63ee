"""Dialogs: first-run provider setup, settings, approval. Opened only through ui.async_dialog.run_dialog."""
