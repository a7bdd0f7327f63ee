"""Learning from what worked (issue 27): task trajectories and workflow memory (trajectories.py)."""
