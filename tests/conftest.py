"""How the suite is spread over pytest-xdist's workers (pyproject.toml: `-n auto --dist loadgroup`).

Tests go to whichever worker is free, one by one, except that a test using a
module- or class-scoped fixture joins its module's group (the module runs on one
worker, so the fixture is made once: the positions of tests/test_ai.py, the
engines of tests/e2e/test_engines.py). `-n 0` runs everything in this process.

The browser tests marked `alone` (tests/e2e/conftest.py) stop every other browser
test while they run; they form one group of their own, handed out first, and the
CPython tests come next: while one worker runs the `alone` tests one after another,
the other runs the CPython tests instead of waiting on a browser test. The other
browser tests come last, their groups first (xdist's own reordering by group size
is off: `--no-loadscope-reorder`).
"""

from __future__ import annotations

import collections

import pytest

_SHARED_SCOPES = ("module", "class", "package")


def shares_a_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a fixture made once for several tests of its module (session
    fixtures are made once per worker in any case)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(defs and defs[-1].scope in _SHARED_SCOPES for defs in info.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Paths given on the command line, those of one folder together (the first folder named first,
    each path's place among its folder's kept): pytest 9.1.1 loses a folder's conftest fixtures
    when a path of another folder comes between two of its own (`tests/e2e/a.py tests/b.py
    tests/e2e/c.py`: "fixture 'page' not found" for c.py; pytest-dev/pytest#14971, fixed in 9.2,
    which pyproject.toml says why we do not take). The order tests run in is ours anyway
    (pytest_collection_modifyitems below)."""
    config.args[:] = grouped_by_folder(config.args)


def grouped_by_folder(args: list[str]) -> list[str]:
    def folder(arg: str) -> str:
        path = arg.split("::", 1)[0].rstrip("/")
        return path if not path.endswith(".py") else path.rpartition("/")[0]

    first: dict[str, int] = {}
    for arg in args:
        first.setdefault(folder(arg), len(first))
    return sorted(args, key=lambda arg: first[folder(arg)])


@pytest.hookimpl(tryfirst=True)  # before xdist reads the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.pluginmanager.has_plugin("xdist"):  # its marks mean nothing without it
        return
    for item in items:
        if item.get_closest_marker("alone") and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group("alone"))
        elif shares_a_fixture(item) and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    sizes = collections.Counter(map(_group, items))
    # stable: tests of the same turn and size keep their collection order
    items[:] = sorted(items, key=lambda item: (_turn(item), -sizes[_group(item)] if _group(item) else 0))


def _group(item: pytest.Item) -> str | None:
    mark = item.get_closest_marker("xdist_group")
    return (mark.args[0] if mark.args else mark.kwargs.get("name")) if mark else None


def _turn(item: pytest.Item) -> int:
    """When a test is handed out: the `alone` group, the CPython tests (their groups first, the
    largest first), then the other browser tests (the same)."""
    if item.get_closest_marker("alone"):
        return 0
    browser = "e2e" in item.path.parts
    return 1 + 2 * browser + (_group(item) is None)
