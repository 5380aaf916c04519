"""How the suite is spread over pytest-xdist's workers (pyproject.toml: `-n auto --dist loadgroup`).

Tests go to whichever worker is free, one by one, except that a test using a
module- or class-scoped fixture joins its module's group (the module runs on one
worker, so the fixture is made once: the positions of tests/test_ai.py, the
engines of tests/e2e/test_engines.py). `-n 0` runs everything in this process.
"""

from __future__ import annotations

import pytest

_SHARED_SCOPES = ("module", "class", "package")


def shares_a_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a fixture made once for several tests of its module (session
    fixtures are made once per worker in any case)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope in _SHARED_SCOPES for defs in info.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)  # before xdist reads the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.has_plugin("xdist"):  # its marks mean nothing without it
        return
    for item in items:
        if shares_a_fixture(item) and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
