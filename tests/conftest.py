"""How the suite is spread over pytest-xdist's workers (pyproject.toml: `-n auto --dist loadgroup`).

Tests go to whichever worker is free, one by one, except that a test using a
module- or class-scoped fixture joins its module's group (the module runs on one
worker, so the fixture is made once: the positions of tests/test_ai.py, the
engines of tests/e2e/test_engines.py). `-n 0` runs everything in this process.

The browser tests marked `alone` (tests/e2e/conftest.py) stop every other browser
test while they run; they form one group of their own, handed out first, and the
CPython tests come next: while one worker runs the `alone` tests one after another,
the others run the CPython tests instead of waiting on a browser test. The other
browser tests come last, their groups first (xdist's own reordering by group size
is off: `--no-loadscope-reorder`).

`-n auto` starts one worker more than the machine has cores, and a worker runs its
CPython tests at a lower priority (nice +5) than the browsers: while the `alone` test
waits on a deal's animation or the computer's pause, a CPython test takes the idle
core, and when the page needs the CPU it gets it first (the `alone` tests measure
its pace). No more than +5: a CPython test still running once the browser tests have
begun must keep a fair share of the CPU. Browser tests still run at most one per core
at once (tests/e2e/conftest.py, Turns), so the extra worker only adds CPython tests
beside them.
"""

from __future__ import annotations

import collections
import os

import pytest
from tools.testenv import cores

_SHARED_SCOPES = ("module", "class", "package")
# How much nicer a worker is while it runs CPython tests than while it runs browser tests.
CPYTHON_NICE = 5
_BASE_NICE = os.getpriority(os.PRIO_PROCESS, 0) if hasattr(os, "getpriority") else 0


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: one worker per core and one more (the module's docstring says why);
    PYTEST_XDIST_AUTO_NUM_WORKERS, when set, as xdist reads it."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return cores() + 1


@pytest.hookimpl(tryfirst=True)  # before the test's fixtures start a browser
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Under xdist, as root (who may raise the priority again): a worker's CPython tests
    CPYTHON_NICE nicer than it started, its browser tests (and the browsers they start) as it
    started."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    want = _BASE_NICE if "e2e" in item.path.parts else min(19, _BASE_NICE + CPYTHON_NICE)
    if os.getpriority(os.PRIO_PROCESS, 0) != want:
        os.setpriority(os.PRIO_PROCESS, 0, want)


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
