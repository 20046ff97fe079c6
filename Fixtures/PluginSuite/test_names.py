"""Tests whose ids read the same as file names (`a/b` and `a_b`), the first failing on purpose,
and one whose id is over 300 characters: pytest-showreel gives each a video of its own, and
retain-on-failure keeps the failing one's (make test checks both)."""
import time

import pytest


@pytest.mark.parametrize("path", ["a/b", "a_b"])
def test_path(path):
    time.sleep(0.3)
    assert path != "a/b", "fails on purpose: its video must survive the passing test named like it"


@pytest.mark.parametrize("text", ["x" * 300], ids=["x" * 300])
def test_long(text):
    time.sleep(0.3)
    assert len(text) == 300
