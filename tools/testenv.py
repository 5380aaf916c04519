"""The test environment `build.py test` prepares: a virtual environment with
the test extra, a Chromium and its headless shell, Firefox/WebKit for the
cross-engine set (Debian's, installed with apt when root) and ffmpeg for
Playwright's videos."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .common import CACHE, ROOT, VENV, log, run
# Headless Chromium as the tests and the benches launch it (Playwright's own
# flags plus these): no sandbox (root in a container), no GPU, no traffic of
# its own to other hosts; glyphs unhinted, as phones draw them (their screens'
# density needs no hinting) and alike in the whole browser and its headless
# shell (hinted, the shell set the "10" of a Grande card 0.2 px wider than
# chromium: at 360x740 the next card covered it, test_table_look TestGrande).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--font-render-hinting=none",
]


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv() -> Path:
    """A virtual environment with gin (editable) and the test extra; reinstalled
    only when pyproject.toml or the interpreter changed."""
    stamp = VENV / ".gin-stamp"
    want = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + sys.version.encode()
    ).hexdigest()
    if venv_python().exists() and stamp.exists() and stamp.read_text() == want:
        return venv_python()
    if not venv_python().exists():
        run([sys.executable, "-m", "venv", str(VENV)])
    py = str(venv_python())
    run([py, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([py, "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test]"])
    stamp.write_text(want)
    return venv_python()


def _playwright_chromium(py: Path) -> str | None:
    code = (
        "from playwright.sync_api import sync_playwright\n"
        "with sync_playwright() as p: print(p.chromium.executable_path)"
    )
    try:
        out = subprocess.run([str(py), "-c", code], capture_output=True, text=True, check=True)
    except subprocess.CalledProcessError:
        return None
    path = out.stdout.strip()
    return path if path and Path(path).exists() else None


def apt_install(packages: list[str], why: str) -> bool:
    """Debian's `packages` via apt-get, when we are root on Debian (the package
    lists are refreshed only if the first try fails); False when not installed."""
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get")):
        log(f"{why}; not root with apt-get, so {' '.join(packages)} cannot be installed here")
        return False
    log(f"{why}; installing Debian's {' '.join(packages)}")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "--no-install-recommends", *packages]
    try:
        run(install, env=env)
    except subprocess.CalledProcessError:
        try:
            run(["apt-get", "update"], env=env)
            run(install, env=env)
        except subprocess.CalledProcessError as exc:
            log(f"apt-get failed ({exc})")
            return False
    return True


def find_chromium(py: Path) -> str:
    """CHROMIUM, else a system Chromium/Chrome, else Debian's chromium (as root),
    else Playwright's own download."""
    env = os.environ.get("CHROMIUM")
    if env:
        if not Path(env).exists() and not shutil.which(env):
            sys.exit(f"build: CHROMIUM={env} does not exist")
        return shutil.which(env) or env
    names = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    for name in names:
        if found := shutil.which(name):
            return found
    if apt_install(["chromium"], "no Chromium found"):
        for name in names:
            if found := shutil.which(name):
                return found
    if found := _playwright_chromium(py):
        return found
    try:
        run([str(py), "-m", "playwright", "install", "chromium"])
    except subprocess.CalledProcessError:
        pass
    if found := _playwright_chromium(py):
        return found
    sys.exit("build: no Chromium available (set CHROMIUM to a Chromium or Chrome binary)")


# Debian's headless shell: /usr/bin/chromium-headless-shell is a script that
# starts this binary without exec, so the binary itself is launched.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"


def find_headless_shell(chromium: str) -> str:
    """The Chromium the browser tests launch: CHROMIUM when it is set (the
    caller's choice, for every test), else Chromium's headless shell
    (Debian's chromium-headless-shell, installed as root; Playwright's own
    default for headless Chromium: the same engine without the browser's own
    UI, about a quarter fewer CPU-seconds per returning visit of the page),
    else `chromium` itself."""
    if os.environ.get("CHROMIUM"):
        return chromium

    def found() -> str | None:
        if Path(HEADLESS_SHELL).exists():
            return HEADLESS_SHELL
        return shutil.which("chromium-headless-shell")

    if shell := found():
        return shell
    if apt_install(["chromium-headless-shell"], "no Chromium headless shell found"):
        if shell := found():
            return shell
    log(f"no Chromium headless shell: the browser tests run in {chromium}")
    return chromium


def video_env(py: Path) -> dict[str, str]:
    """Playwright's video recording needs its ffmpeg, a download this machine
    may not reach: use the system's ffmpeg (else Debian's, as root), linked
    where Playwright looks for its own (<browsers path>/ffmpeg-<revision>/
    ffmpeg-linux, the revision from the installed driver's browsers.json),
    in a browsers path of ours. {} when there is no ffmpeg: the recording
    tests then say so."""
    if not shutil.which("ffmpeg"):
        apt_install(["ffmpeg"], "no ffmpeg found (for the test videos)")
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        return {}
    code = "import json, pathlib, playwright; p = pathlib.Path(playwright.__file__).parent / 'driver/package/browsers.json'; "
    code += "print(next(b['revision'] for b in json.loads(p.read_text())['browsers'] if b['name'] == 'ffmpeg'))"
    try:
        revision = subprocess.run([str(py), "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    except subprocess.CalledProcessError:
        return {}
    browsers = CACHE / "ms-playwright"
    link = browsers / f"ffmpeg-{revision}" / "ffmpeg-linux"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.exists() or link.resolve() != Path(ffmpeg).resolve():
        link.unlink(missing_ok=True)
        link.symlink_to(ffmpeg)
    return {"PLAYWRIGHT_BROWSERS_PATH": str(browsers)}


# The other engines of the cross-engine set (tests/e2e/test_engines.py), from
# Debian: variable -> (how to tell it is there, the package that brings it).
# WebKitWebDriver drives a window of ours (tests/e2e/webkit_window.py), a GTK
# WebKit view run by the system's Python with PyGObject, under Xvfb.
WEBKIT_GI = "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('WebKit2', '4.1'); from gi.repository import Gtk, WebKit2"
ENGINE_TOOLS = {
    "GIN_FIREFOX": ("firefox-esr", "firefox-esr"),
    "GIN_WEBKIT_DRIVER": ("WebKitWebDriver", "webkit2gtk-driver"),
    "GIN_XVFB": ("Xvfb", "xvfb"),
    "GIN_WEBKIT_PYTHON": (WEBKIT_GI, "gir1.2-webkit2-4.1 python3-gi"),
}


def _engine_tool(var: str) -> str | None:
    """The tool's path (the variable's value when it is set), or None."""
    probe, _ = ENGINE_TOOLS[var]
    if var != "GIN_WEBKIT_PYTHON":
        return shutil.which(os.environ.get(var) or probe)
    python = os.environ.get(var) or "/usr/bin/python3"
    if Path(python).exists() and subprocess.run([python, "-c", probe], capture_output=True).returncode == 0:
        return python
    return None


def find_engines() -> dict[str, str]:
    """Firefox ESR, WebKitWebDriver, Xvfb and a Python with WebKit's GObject
    bindings: found, else installed from Debian (as root). A missing one is
    passed as "" so the cross-engine tests fail and say which."""
    found = {var: _engine_tool(var) for var in ENGINE_TOOLS}
    missing = [var for var, path in found.items() if path is None]
    if missing:
        packages = " ".join(ENGINE_TOOLS[var][1] for var in missing).split()
        if apt_install(packages, "missing for the cross-engine tests: " + ", ".join(missing)):
            found.update({var: _engine_tool(var) for var in missing})
    for var, path in found.items():
        log(f"{var}: {path or 'MISSING (its tests will fail)'}")
    return {var: path or "" for var, path in found.items()}

