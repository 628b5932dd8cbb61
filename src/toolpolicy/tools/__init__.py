"""Layer 4: the tool registry, the built-in tools, workspace path safety and the sandbox."""
