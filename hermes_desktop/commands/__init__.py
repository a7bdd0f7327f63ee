"""Implementations of command-line commands that have grown beyond a few lines (cli.py parses and dispatches)."""
