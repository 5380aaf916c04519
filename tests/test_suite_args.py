"""Paths named on the command line in any order: every folder keeps its conftest's fixtures."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_folders_fixtures_are_found_though_another_folders_path_comes_between_its_own():
    # tests/e2e's `page` and `open_app` (tests/e2e/conftest.py) for the last path, though
    # tests/test_cards.py comes between it and test_install.py (pytest 9.1.1 lost them: tests/conftest.py).
    args = ["tests/e2e/test_install.py", "tests/test_cards.py", "tests/e2e/test_table.py::test_hint_names_and_menu"]
    env = {**os.environ, "CHROMIUM": os.environ.get("CHROMIUM", "chromium")}
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "--setup-plan", *args],
                         cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert "not found" not in out.stdout, out.stdout[-3000:]
    assert out.returncode == 0, out.stdout[-3000:]
    assert "tests/e2e/test_table.py::test_hint_names_and_menu (fixtures used:" in out.stdout
    assert "page" in out.stdout.split("test_hint_names_and_menu (fixtures used:")[1].split(")")[0]
