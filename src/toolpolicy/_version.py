"""The version of toolpolicy, below every layer so that any module may name it."""

__version__ = "0.1.0"
