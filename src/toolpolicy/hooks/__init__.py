"""Adapters that put toolpolicy in front of agents people already run (Claude Code)."""
