"""Layer 2: YAML documents with positions, the JSON Schema, and frozen pydantic models."""
