"""What the fold tests draw: YAML values (dumped block or flow style) and raw YAML-ish text."""

from __future__ import annotations

from hypothesis import strategies as st

__all__ = ["TEXTS", "VALUES"]

_KEYS = st.sampled_from(
    ["name", "rules", "a/b", "x~y", "no", "on", "1", "", "workspace_boundary", "paths", "ü"]
)
_SCALARS = st.one_of(
    st.sampled_from(
        ["yes", "no", "~", "", "1", "1.5", "0x1f", "2024-01-02", "*.env", "a b", "x" * 40]
    ),
    st.integers(-5, 5),
    st.booleans(),
    st.none(),
    st.text(alphabet="ab:-#'\" é", max_size=6),
)
VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=25,
)
"""Documents of every shape the fold meets: nested lists and mappings of YAML's scalars."""

TEXTS = st.text(alphabet=list("ab:-[]{},&*!|>'\"#\n ?~1"), max_size=60)
"""Text that is mostly not well-formed YAML: anchors, aliases, tags, flow and block markers."""
