"""The parser's garbage-collector handling for large inputs (pause, then O(1) promotion)."""

from __future__ import annotations

import gc

import pytest

import deerguard.shell._parse as parse_module
from deerguard.shell._parse import parse

BIG = "echo a | b && c; " * 2000  # well above the pause threshold


@pytest.mark.skipif(not hasattr(gc, "freeze"), reason="gc.freeze is CPython-only")
def test_large_parse_does_not_leave_its_tree_in_the_young_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a large parse the next young collection must not rescan the whole new tree."""
    monkeypatch.setattr(parse_module, "_promote_ok", True)  # in case a test froze objects
    assert gc.isenabled()
    script = parse(BIG)
    assert len(script.statements) == 2000
    # Promoted straight to the oldest generation; otherwise a young collection would have to
    # scan it first (it would sit in generation 0 or 1 here).
    assert any(obj is script for obj in gc.get_objects(generation=2))


@pytest.mark.skipif(not hasattr(gc, "freeze"), reason="gc.freeze is CPython-only")
def test_large_parse_keeps_an_applications_frozen_objects_frozen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Apps freeze objects before fork (copy-on-write); a parse must not unfreeze them."""
    monkeypatch.setattr(parse_module, "_promote_ok", True)
    keep = [object() for _ in range(10)]
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        assert before > 0
        parse(BIG)
        assert gc.get_freeze_count() == before
        assert gc.isenabled()
        parse(BIG)  # promotion is now off for good: the frozen set is not even counted again
        assert gc.get_freeze_count() == before
        assert parse_module._promote_ok is False
    finally:
        gc.unfreeze()
    del keep
