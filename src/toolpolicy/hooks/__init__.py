"""Adapters that put toolpolicy in front of agents people already run.

``adapter`` says what an adapter provides (a catalog of the agent's tools, its event, its
answers); ``claude_code``, ``codex``, ``gemini`` and ``copilot`` are the adapters, and
``adapters.ADAPTERS`` names them; ``event_json`` reads an event; ``decide`` and ``scope``
decide an agent's call through the engine; ``patch`` reads an ``apply_patch`` patch's files;
``paths`` resolves the agent's path spellings; ``answer`` gives an event's answer through the
engine, ``answer_lane`` answers most file calls from answers written down (``lane_build``),
``audit_file`` appends the audit line, ``hook_error`` names what cannot be decided;
``entry`` is the ``toolpolicy hook`` command,
and ``install`` (with ``install_codex``, ``install_json`` and ``settings_file``) writes the
agent's settings.
"""
