"""``sha256`` without loading OpenSSL: CPython's own implementation, the same digests.

``hashlib`` loads the OpenSSL binding on import, about 2 ms of every hook call, which hashes
a few kilobytes (the cache's source files, an audit line). CPython ships its own sha256 as
``_sha256`` (``_sha2`` from 3.12 on); ``hashlib`` is the fallback for an interpreter without.
"""

from __future__ import annotations

from .lean_typing import TYPE_CHECKING

__all__ = ["sha256"]

if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:
        from _sha256 import sha256
    except ImportError:
        try:
            from _sha2 import sha256
        except ImportError:
            from hashlib import sha256
