"""Benchmarks: `make bench` (or `python -m tests.benchmarks [name]`). Not part of the test run.

Each prints a table with its own baseline measured in the same run, and the targets.
"""
