"""What ``--audit-arguments`` records: paths and commands as given, secrets and contents not."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from toolpolicy.engine.redaction import REDACTED, digest_text, redacted_arguments


def test_paths_and_commands_stay_as_given() -> None:
    arguments = {"path": "src/a.py", "command": "git status", "pattern": "**/*.py"}
    assert redacted_arguments(arguments) == arguments


def test_file_contents_become_their_sha256_and_length() -> None:
    text = "password=hunter2\n"
    digest = hashlib.sha256(text.encode()).hexdigest()
    out = redacted_arguments({"path": "a", "content": text, "old_string": "x", "new_string": text})
    assert out == {
        "path": "a",
        "content": f"<sha256:{digest}, 17 chars>",
        "old_string": digest_text("x"),
        "new_string": f"<sha256:{digest}, 17 chars>",
    }


def test_secret_looking_keys_are_redacted_at_any_depth_and_spelling() -> None:
    out = redacted_arguments(
        {
            "url": "https://example.com",
            "headers": {"Authorization": "Bearer abc", "X-Api-Key": "k", "accept": "json"},
            "auth": [{"access_token": "t", "user": "me"}],
            "Password": "p",
            "client_secret": {"nested": "s"},
        }
    )
    assert out == {
        "url": "https://example.com",
        "headers": {"Authorization": REDACTED, "X-Api-Key": REDACTED, "accept": "json"},
        "auth": [{"access_token": REDACTED, "user": "me"}],
        "Password": REDACTED,
        "client_secret": REDACTED,
    }


SECRET = "s3cr3t-value-that-must-not-leak"
keys = st.sampled_from(["token", "api_key", "PASSWORD", "content", "secret", "cookie", "a", "b"])
json_values = st.recursive(
    st.sampled_from([SECRET, 1, None, True]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=12,
)


@given(st.dictionaries(keys, json_values, max_size=4))
def test_a_value_under_a_secret_or_content_key_never_survives(arguments: dict[str, object]) -> None:
    def leaks(value: object, hidden: bool) -> bool:
        if isinstance(value, dict):
            return any(leaks(v, hidden or k not in ("a", "b")) for k, v in value.items())
        if isinstance(value, list):
            return any(leaks(v, hidden) for v in value)
        return hidden and value == SECRET

    assert not leaks(redacted_arguments(arguments), False)
