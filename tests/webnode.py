"""Run a module script in Node over the page's own modules (web/), without a page: the script gets
web/'s file URL as process.argv[1] and the JSON of `data` as process.argv[2], and prints JSON."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

WEB = Path(__file__).resolve().parents[1] / "web"


def run_web(script: str, data: Any = None, tz: str | None = None) -> Any:
    """What `script` printed, parsed; `tz` sets the time zone Node runs in."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (build.py uses it too)")
    env = {**os.environ, "TZ": tz} if tz else None
    out = subprocess.run(
        [node, "--no-warnings", "--input-type=module", "-e", script, WEB.as_uri(), json.dumps(data)],
        capture_output=True, text=True, check=True, env=env,
    )
    return json.loads(out.stdout)
