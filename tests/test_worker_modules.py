"""The engine's worker loads in two waves: worker.js, then every module of its static import graph at once (each module on the start's path is a round trip)."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"
STATIC = re.compile(r'^import (?:[\w{}, ]+ from )?"(\.[^"]+)";$')
DYNAMIC = re.compile(r'\bimport\(\s*("[^"]*"|[^)]*)\)')


def static_imports(module: Path) -> set[Path]:
    found = set()
    for line in module.read_text().splitlines():
        # (Python's imports inside the modules' template strings have no quotes or braces.)
        if not line.startswith("import") or not any(mark in line for mark in '"{*'):
            continue
        match = STATIC.match(line)
        assert match, f"{module.relative_to(WEB)}: an import this test cannot read (one line each): {line}"
        target = (module.parent / match.group(1)).resolve()
        assert target.is_file(), f"{module.relative_to(WEB)} imports {match.group(1)}, which is not there"
        found.add(target)
    return found


def test_every_module_of_the_worker_is_imported_by_worker_js_itself():
    entry = WEB / "worker.js"
    direct = static_imports(entry)
    assert direct, "worker.js names its stages"
    for module in sorted(direct):
        for target in static_imports(module):
            # Fetched in the same wave as the stage that imports it.
            assert target in direct, f"{module.relative_to(WEB)} imports {target.relative_to(WEB)}, which worker.js does not"


def test_stages_import_only_the_modules_they_share():
    direct = static_imports(WEB / "worker.js")
    # What the page and the worker say to each other, and the snapshot's stored forms.
    shared = {WEB / "runtime" / "protocol.js", WEB / "runtime" / "snapshotformat.js"}
    assert shared <= direct
    for module in sorted(shared):
        assert not static_imports(module), f"{module.relative_to(WEB)} is shared: it imports nothing"
    for module in sorted(direct - shared):
        deeper = static_imports(module) - shared
        assert not deeper, f"{module.relative_to(WEB)} imports another stage: {sorted(p.relative_to(WEB).as_posix() for p in deeper)}"


def test_the_worker_imports_at_run_time_only_what_a_copy_still_xored_needs():
    modules = [WEB / "worker.js", *sorted(static_imports(WEB / "worker.js"))]
    dynamic = {}
    for module in modules:
        for target in DYNAMIC.findall(module.read_text()):
            dynamic.setdefault(target, []).append(module.relative_to(WEB).as_posix())
    # Pyodide's two modules (their URL is this build's), and the XOR's code.
    assert dynamic == {
        'indexURL + "pyodide.mjs"': ["runtime/pyodide.js"],
        'indexURL + "pyodide.asm.mjs"': ["runtime/pyodide.js"],
        '"./wasmdata.js"': ["runtime/snapshot.js"],
    }
