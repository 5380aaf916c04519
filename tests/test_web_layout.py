"""web/'s layers and function sizes, read by a real JavaScript parser (tests/web_modules.mjs, acorn)."""

from __future__ import annotations

import json
import posixpath
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
SCRIPT = ROOT / "tests" / "web_modules.mjs"

# Each folder of web/ is a layer; a module imports from its own folder or from
# a folder of a lower rank, never from one above it nor from another folder of
# its own rank (those stand beside each other). The files at the root are the
# entry files, named by a path (index.html, app.js, boot.js, worker.js, sw.js):
# they may import anything, and nothing in a folder imports them.
RANKS = {
    "model": 0,  # card rules, knock, variants, settings, seeds: no DOM
    "runtime": 0,  # the engine client and what the worker loads
    "text": 1,  # i18n, words
    "data": 1,  # the storage adapter and its keys, saves, finished matches, tabs
    "table": 2,  # render, morph, motion, card faces, input, drag, panels
    "screens": 3,  # sheets: statistics, matches, viewer, questions
    "play": 4,  # controller, intents, coach, tutorial
}
# Layers that never touch the page (their modules run under Node too).
NO_DOM = {"model": {"document", "window"}, "text": {"document", "window"}, "data": {"document"}}
MAX_FUNCTION_LINES = 150


@cache
def modules() -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (build.py uses it too)")
    if not (WEB / "node_modules" / "acorn").is_dir():
        pytest.fail("web/node_modules/acorn is missing: run `python3 build.py build`")
    out = subprocess.run([node, str(SCRIPT), str(WEB)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def layer_of(rel: str) -> str | None:
    """The layer of a module path under web/ (None: an entry file at the root)."""
    if "/" not in rel:
        return None
    return rel.split("/", 1)[0]


def upward_imports(found: dict) -> list[str]:
    """Every import of a module from a layer it may not import, as 'file:line -> target'."""
    bad = []
    for rel, info in found.items():
        layer = layer_of(rel)
        if layer is None:
            continue
        assert layer in RANKS, f"{rel}: web/{layer}/ is not a layer (add it to RANKS, with its rank, and to the README's map)"
        for imp in info["imports"]:
            spec = imp["spec"]
            assert spec.startswith("./") or spec.startswith("../"), f"{rel}:{imp['line']}: {spec!r} is not a path"
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), spec))
            assert target in found, f"{rel}:{imp['line']}: {spec} names no module"
            other = layer_of(target)
            if other == layer:
                continue
            if other is None or RANKS[other] >= RANKS[layer]:
                bad.append(f"{rel}:{imp['line']} ({layer}) -> {target} ({other or 'entry'})")
    return bad


def test_the_layer_check_sees_an_upward_import():
    found = {
        "model/cards.js": {"imports": [{"spec": "../table/dom.js", "line": 1, "dynamic": False}]},
        "table/dom.js": {"imports": [{"spec": "../model/cards.js", "line": 1, "dynamic": False}]},
        "text/words.js": {"imports": [{"spec": "../data/keys.js", "line": 2, "dynamic": True}]},
        "data/keys.js": {"imports": [{"spec": "../app.js", "line": 3, "dynamic": False}]},
        "app.js": {"imports": [{"spec": "./play/x.js", "line": 1, "dynamic": False}]},
        "play/x.js": {"imports": []},
    }
    assert upward_imports(found) == [
        "model/cards.js:1 (model) -> table/dom.js (table)",
        "text/words.js:2 (text) -> data/keys.js (data)",
        "data/keys.js:3 (data) -> app.js (entry)",
    ]


def test_web_modules_import_only_from_layers_below_their_own():
    found = modules()
    assert {layer_of(rel) for rel in found} >= {None, *RANKS} - {"runtime"}
    assert upward_imports(found) == []


def test_model_text_and_data_never_touch_the_page():
    found = modules()
    touching = [
        f"{rel}: {sorted(set(info['names']) & NO_DOM[layer_of(rel)])}"
        for rel, info in found.items()
        if layer_of(rel) in NO_DOM and set(info["names"]) & NO_DOM[layer_of(rel)]
    ]
    assert touching == []



def test_no_function_in_web_is_longer_than_a_screen():
    found = modules()
    # A factory closure counts as one function, everything nested inside it included.
    long = sorted(
        (f["lines"], f"{rel}:{f['line']} {f['name']}")
        for rel, info in found.items()
        for f in info["functions"]
        if f["lines"] > MAX_FUNCTION_LINES
    )
    assert long == [], f"functions over {MAX_FUNCTION_LINES} lines: {long}"
