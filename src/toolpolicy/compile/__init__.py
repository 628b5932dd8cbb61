"""Layer 3: documents compiled into immutable, indexed rule objects (no pydantic here)."""
