"""The Qt layer: renders core events, turns clicks into core calls. Nothing in core imports it."""
