"""Layer 5: the decision pipeline, approval, audit, knobs and presets."""
