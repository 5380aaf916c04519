"""`build.py bench`: the benchmarks are bench/*.py, each run with no arguments
and printing figures to compare over time; bench/lib/ holds what they share
and bench/tune/ the tuning and research scripts, run by hand (bench/README.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .common import ROOT

BENCH = ROOT / "bench"


def available() -> list[Path]:
    return sorted(BENCH.glob("*.py"))


def select(names: list[str]) -> list[Path]:
    """The benchmarks named (`boot` or `bench/boot.py`), or all of them."""
    scripts = available()
    if not names:
        return scripts
    by_name = {script.stem: script for script in scripts}
    chosen = []
    for name in names:
        stem = Path(name).stem
        if stem not in by_name:
            sys.exit(f"build: no benchmark {name!r}; there are {', '.join(by_name)}")
        chosen.append(by_name[stem])
    return chosen


def run(scripts: list[Path], python: Path, env: dict[str, str]) -> int:
    """Each script in turn; the first failure's exit code (all run regardless)."""
    if not scripts:
        print("[build] no bench/*.py", flush=True)
        return 1
    worst = 0
    for script in scripts:
        print(f"\n== {script.relative_to(ROOT)}", flush=True)
        code = subprocess.run([str(python), str(script)], cwd=ROOT, env=env).returncode
        worst = worst or code
    return worst
