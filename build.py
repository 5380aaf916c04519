#!/usr/bin/env python3
"""One entry point for gin: build | serve [--port N] | test [pytest args] | bench [names].

`build` assembles dist/ from the source tree (tools/dist.py).
`serve` builds and serves dist/ on 127.0.0.1 with the headers the page needs
(tools/serve.py).
`test` prepares a virtual environment, the build, a Chromium and the other
engines, then runs pytest (tools/testenv.py).
`bench` builds, then runs the benchmarks: every bench/*.py, or those named
(tools/bench.py).

Only the standard library is used here and in tools/, so a fresh Python 3.11
can run it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from tools import bench as benchmarks
from tools import testenv
from tools.common import DIST, ROOT, log
from tools.dist import build
from tools.serve import serve


def prepare() -> tuple[Path, str]:
    """The venv, the build and a Chromium: what tests and benches need."""
    py = testenv.ensure_venv()
    build()
    chromium = testenv.find_chromium(py)
    log(f"Chromium: {chromium}")
    return py, chromium


def test(pytest_args: list[str]) -> int:
    py, chromium = prepare()
    # The browser tests run in the headless shell; the few that need the whole
    # browser (its install check) launch CHROMIUM_FULL.
    shell = testenv.find_headless_shell(chromium)
    log(f"Chromium for the tests: {shell}")
    env = {**os.environ, "CHROMIUM": shell, "CHROMIUM_FULL": chromium, **testenv.video_env(py), **testenv.find_engines()}
    cmd = [str(py), "-m", "pytest", *pytest_args]
    log("$ " + " ".join(cmd))
    code = subprocess.run(cmd, cwd=ROOT, env=env).returncode
    if code == 5:
        log("pytest collected no tests: that is a failure")
        return 1
    return code


def bench(names: list[str]) -> int:
    scripts = benchmarks.select(names)  # before the build: a wrong name fails at once
    py, chromium = prepare()
    return benchmarks.run(scripts, py, {**os.environ, "CHROMIUM": chromium})


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["test"]:
        # Everything after `test` belongs to pytest, untouched.
        return test(argv[1:])
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="assemble dist/")
    p_serve = sub.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    p_serve.add_argument("--no-build", action="store_true", help="serve dist/ as it is")
    p_serve.add_argument("--quiet", action="store_true", help="do not log requests")
    p_serve.add_argument("--dir", type=Path, help="serve this directory as it is (implies --no-build)")
    sub.add_parser("test", help="venv + build + browsers, then pytest [args]", add_help=False)
    p_bench = sub.add_parser("bench", help="build, then run the benchmarks (bench/*.py)")
    p_bench.add_argument("names", nargs="*", help="only these (e.g. `engine boot`); all when none")
    args = parser.parse_args(argv)
    if args.command == "build":
        build()
        return 0
    if args.command == "serve":
        if not (args.no_build or args.dir):
            build()
        serve(args.port, args.quiet, (args.dir or DIST).resolve())
        return 0
    if args.command == "bench":
        return bench(args.names)
    return 2


if __name__ == "__main__":
    sys.exit(main())
