"""The routines pipeline: the action stream, the routines mined from it."""
