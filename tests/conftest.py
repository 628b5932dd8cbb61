"""Fixtures every test folder may use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from toolpolicy.tools import beneath


@pytest.fixture(params=["openat2", "walk"])
def resolution(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test with each way the file tools resolve a path: the kernel's ``openat2``
    (where this kernel has it) and the ``O_NOFOLLOW`` walk every other platform uses."""
    if request.param == "openat2" and not beneath.OPENAT2_AVAILABLE:
        pytest.skip("this kernel has no openat2")
    monkeypatch.setattr(beneath, "OPENAT2_AVAILABLE", request.param == "openat2")
    yield request.param
