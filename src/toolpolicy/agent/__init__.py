"""Layer 6: the agent loop and model clients."""
