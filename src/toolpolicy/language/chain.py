"""``extends``: a policy file and everything it is layered on, base-most first.

``extends`` names a built-in profile (``P03``) or a path relative to the extending file's
folder. A cycle, an unknown target, or a target of the wrong kind is a problem at the
``extends`` line of the file that names it.
"""

from __future__ import annotations

import os

from ..core.errors import PolicyLoadError, Problem
from . import codes
from .builtin import builtin_profiles
from .document import LoadedDocument, load_document
from .models import PolicyDoc

__all__ = ["MAX_CHAIN", "load_policy_chain"]

MAX_CHAIN = 32
"""The most documents one chain may hold, the built-in profile included."""


def load_policy_chain(path: str | os.PathLike[str]) -> tuple[LoadedDocument, ...]:
    """The document at ``path`` and every document it extends, base-most first.

    The chain ends at a built-in profile when it reaches one (that profile's document comes
    first), or at a policy without ``extends``. Raises ``PolicyLoadError`` for any problem in
    any file of the chain.
    """
    document = load_document(path)
    if document.kind not in ("Policy", "Profile"):
        raise _error(
            document,
            "",
            codes.EXTENDS_KIND,
            f"expected a Policy or Profile document, found a {document.kind}",
        )
    chain = [document]
    trail = [document.path]
    seen = {os.path.realpath(document.path)}
    while isinstance(document.model, PolicyDoc) and document.model.extends is not None:
        target = document.model.extends
        profile = builtin_profiles().get(target)
        if profile is not None:
            chain.append(profile)
            break
        resolved = os.path.normpath(os.path.join(os.path.dirname(document.path), target))
        real = os.path.realpath(resolved)
        if real in seen:
            cycle = " -> ".join([*trail, resolved])
            raise _error(document, "/extends", codes.EXTENDS_CYCLE, f"extends cycle: {cycle}")
        if not os.path.isfile(resolved):
            names = ", ".join(sorted(builtin_profiles()))
            raise _error(
                document,
                "/extends",
                codes.EXTENDS_UNKNOWN,
                f"extends {target!r} is neither a built-in profile ({names}) "
                f"nor a file (looked for {resolved})",
            )
        if len(chain) >= MAX_CHAIN - 1:
            raise _error(
                document,
                "/extends",
                codes.EXTENDS_TOO_DEEP,
                f"the extends chain is longer than {MAX_CHAIN} documents",
            )
        parent = load_document(resolved)
        if parent.kind != "Policy":
            raise _error(
                document,
                "/extends",
                codes.EXTENDS_KIND,
                f"extends {target!r} reaches a {parent.kind}; a file can only extend a Policy "
                "(built-in profiles are extended by name)",
            )
        seen.add(real)
        trail.append(resolved)
        chain.append(parent)
        document = parent
    return tuple(reversed(chain))


def _error(document: LoadedDocument, pointer: str, code: str, message: str) -> PolicyLoadError:
    line, column = document.position(pointer)
    return PolicyLoadError([Problem(document.path, line, column, code, message, pointer)])
