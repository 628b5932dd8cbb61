"""``sha256`` without loading OpenSSL at start, and with it where hashing is per call.

``hashlib`` loads the OpenSSL binding on import, about 2 ms of every hook call, which hashes
a few kilobytes (the cache's source files, an audit line). CPython ships its own sha256 as
``_sha256`` (``_sha2`` from 3.12 on): the same digests, but about three times slower per byte
than OpenSSL's. So a process starts with CPython's, and one that hashes on every call — a
gate, which hashes each call's arguments and chains each audit line — switches to OpenSSL's
with :func:`prefer_openssl` once, when it is built. The digests never change.
"""

from __future__ import annotations

from .lean_typing import TYPE_CHECKING, Protocol

__all__ = ["Digest", "prefer_openssl", "sha256"]

if TYPE_CHECKING:
    from collections.abc import Callable


class Digest(Protocol):
    """What a sha256 object gives: ``hashlib``'s and ``_sha256``'s alike."""

    def update(self, data: bytes, /) -> None: ...

    def digest(self) -> bytes: ...

    def hexdigest(self) -> str: ...


if TYPE_CHECKING:
    _implementation: Callable[[bytes], Digest]
else:
    try:
        from _sha256 import sha256 as _implementation
    except ImportError:
        try:
            from _sha2 import sha256 as _implementation
        except ImportError:
            from hashlib import sha256 as _implementation


def sha256(data: bytes = b"") -> Digest:
    """A sha256 object over ``data``."""
    return _implementation(data)


def prefer_openssl() -> None:
    """Hash with ``hashlib``'s (OpenSSL's) sha256 from now on, for the whole process: about
    three times faster per call, for a one-time load of about 2 ms. Called by a process that
    hashes on every call (building a gate does); a one-answer process (the hook) never does.
    """
    global _implementation
    import hashlib

    _implementation = hashlib.sha256
