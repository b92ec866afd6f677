"""Benchmarks of the engines, run by the ``taash ... bench`` commands (they are commands, not tests)."""
