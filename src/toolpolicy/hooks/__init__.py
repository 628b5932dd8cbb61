"""Adapters that put toolpolicy in front of agents people already run.

``adapter`` says what an adapter provides (a catalog of the agent's tools, its event, its
answers); ``claude_code`` is the Claude Code adapter; ``adapters.ADAPTERS`` names them;
``decide`` and ``scope`` decide an agent's call through the engine; ``paths`` resolves the
agent's path spellings; ``entry`` is the ``toolpolicy hook`` command and ``install`` writes
the agent's settings.
"""
