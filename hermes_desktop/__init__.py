"""Hermes Desktop: a desktop chat application whose AI agent does real work."""

__version__ = "0.1.0"
