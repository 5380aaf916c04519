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

Within each of those turns the longest work goes first, as far as the last run
tells (each test's time, setup and teardown included, kept in
.cache/test-durations.json after every run; a test it does not know counts as
nothing, a group as the sum of its tests), so that a run does not end with one
worker on a long test while the other has nothing left. Without that file (a
fresh clone), groups go by their number of tests and the rest in collection order.
"""

from __future__ import annotations

import collections
import json
import os
from pathlib import Path

import pytest

_SHARED_SCOPES = ("module", "class", "package")
DURATIONS = Path(__file__).resolve().parents[1] / ".cache" / "test-durations.json"


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
    known = _read_durations()
    weights: collections.Counter = collections.Counter()
    for item in items:
        # a group weighs all its tests: their number, or their time when the last run told it
        weights[_group(item) or item.nodeid] += known.get(item.nodeid, 0.0) if known else _group(item) is not None
    # stable: tests of the same turn and weight keep their collection order (a group's tests too)
    items[:] = sorted(items, key=lambda item: (_turn(item), -weights[_group(item) or item.nodeid]))


def _read_durations() -> dict[str, float]:
    """The last runs' time of each test (seconds by node id), or {} when there is none to read."""
    try:
        known = json.loads(DURATIONS.read_text())
        return {k: float(v) for k, v in known.items()} if isinstance(known, dict) else {}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


_TIMES: collections.Counter = collections.Counter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    # Under xdist the node id of a grouped test ends with "@<group>" (a path or a name, never "::").
    base, at, group = report.nodeid.rpartition("@")
    _TIMES[base if at and "::" not in group else report.nodeid] += report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput") or not _TIMES:  # the controller (or -n 0) writes
        return
    known = _read_durations()
    known.update(_TIMES)
    try:
        DURATIONS.parent.mkdir(exist_ok=True)
        tmp = DURATIONS.with_name(f"{DURATIONS.name}.{os.getpid()}")
        tmp.write_text(json.dumps(known, sort_keys=True, indent=0))
        tmp.replace(DURATIONS)
    except OSError:
        pass  # only an order for the next run


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
