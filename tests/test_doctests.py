"""The core's docstring examples run: every module of attention_core is imported and its doctests
executed (issue 43: four examples that had never run). A failing example fails here."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import attention_core

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(attention_core.__path__, prefix="attention_core.")
)


def test_the_core_has_doctests_and_every_one_passes():
    attempted, failures = 0, []
    for name in ["attention_core", *MODULES]:
        result = doctest.testmod(importlib.import_module(name), verbose=False, report=False)
        attempted += result.attempted
        if result.failed:
            failures.append(f"{name}: {result.failed} of {result.attempted} failed")
    assert not failures, failures
    assert attempted >= 4, attempted  # the examples exist: a test that finds none checks nothing


@pytest.mark.parametrize("name", ["attention_core.readings.heads"])
def test_a_wrong_example_is_caught(name, monkeypatch):
    """The runner fails a wrong example (it is not vacuous): a docstring's expected output
    changed in memory is reported as a failure."""
    module = importlib.import_module(name)
    fn = module.read_head
    monkeypatch.setattr(fn, "__doc__", fn.__doc__.replace("(1.00)", "(0.50)"))
    result = doctest.testmod(module, verbose=False, report=False)
    assert result.failed >= 1
