"""Fixtures for end-to-end tests: dist/ served by build.py, headless Chromium, a guard on every request.

Fixtures (reuse them in tests/e2e/test_*.py):
  server        session-wide `build.py serve` of dist/ on a free port (.url, .port, .stop())
  make_server   make_server(directory=None): a private server (its own origin, so its own
                service worker), of dist/ or of another directory
  browser       session-wide Chromium (CHROMIUM env var), one new context per test
  context       a fresh browser context with the request guard; fails the test if any
                request goes to a host other than 127.0.0.1 (context.requests lists all)
  page          a page in that context; page errors and console errors are collected
                (page.errors) and fail the test
  open_app      open_app(page, url=None, hash="", settings={"speed": "instant"}) navigates
                and waits for window.ginReady; returns its value
  wait_idle     wait_idle(page): until queued engine calls and computer turns are done
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ALLOWED_HOSTS = {"127.0.0.1"}
READY_TIMEOUT_MS = 60_000
SETTINGS_KEY = "gin.settings.v1"


class Server:
    """`python3 build.py serve --no-build` on a free port, as a child process."""

    def __init__(self, directory: Path | None = None) -> None:
        where = ["--dir", str(directory)] if directory else ["--no-build"]
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "build.py"), "serve", *where, "--quiet", "--port", "0"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        if "http://" not in line:
            self.proc.kill()
            raise RuntimeError(f"build.py serve did not start: {line!r} {self.proc.stderr.read()}")
        self.url = line[line.index("http://") :].strip()
        self.port = urlsplit(self.url).port

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()


@pytest.fixture(scope="session")
def dist() -> Path:
    if not (DIST / "index.html").exists() or not (DIST / "manifest.json").exists():
        pytest.fail("dist/ is not built: run `python3 build.py build` (or `python3 build.py test`)")
    return DIST


@pytest.fixture(scope="session")
def server(dist):
    srv = Server()
    yield srv
    srv.stop()


@pytest.fixture
def make_server(dist):
    started: list[Server] = []

    def start(directory: Path | None = None) -> Server:
        srv = Server(directory)
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.stop()


@pytest.fixture(scope="session")
def playwright_instance():
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    yield pw
    pw.stop()


@pytest.fixture(scope="session")
def browser(playwright_instance):
    chromium = os.environ.get("CHROMIUM")
    if not chromium:
        pytest.fail("CHROMIUM is not set: run the tests through `python3 build.py test`")
    browser = playwright_instance.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


def _is_foreign(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss"):
        return False  # data:, blob:, about: never leave the machine
    return parts.hostname not in ALLOWED_HOSTS


@pytest.fixture
def context(browser):
    ctx = browser.new_context(locale="es-ES")
    ctx.requests = []  # every URL requested, in order
    ctx.foreign = []

    def record(request) -> None:
        ctx.requests.append(request.url)
        if _is_foreign(request.url):
            ctx.foreign.append(request.url)

    def guard(route) -> None:
        if _is_foreign(route.request.url):
            ctx.foreign.append(route.request.url)
            route.abort("blockedbyclient")
        else:
            route.continue_()

    ctx.on("request", record)
    ctx.route("**/*", guard)
    yield ctx
    foreign = list(ctx.foreign)
    ctx.close()
    assert not foreign, f"requests to other hosts: {foreign}"


@pytest.fixture
def page(context):
    pg = context.new_page()
    pg.errors = []
    pg.on("pageerror", lambda exc: pg.errors.append(f"pageerror: {exc}"))
    pg.on("console", lambda msg: pg.errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    yield pg
    errors = [e for e in pg.errors if not getattr(pg, "expect_errors", False)]
    assert not errors, "\n".join(errors)


@pytest.fixture
def open_app(server):
    def open_(page, url: str | None = None, hash: str = "", settings: dict | None = None, reload: bool = False):
        wanted = {"speed": "instant"} if settings is None else settings
        if wanted and not getattr(page, "_gin_settings_script", False):
            # Seed the settings only when the page has none (so reloads keep
            # whatever the test or the player chose since).
            page.add_init_script(
                "try { if (!localStorage.getItem(%s)) localStorage.setItem(%s, %s); } catch (e) {}"
                % (json.dumps(SETTINGS_KEY), json.dumps(SETTINGS_KEY), json.dumps(json.dumps(wanted)))
            )
            page._gin_settings_script = True
        if reload:
            page.reload()
        else:
            page.goto((url or server.url) + hash)
        return _wait_ready(page)

    return open_


def _wait_ready(page):
    # Predicates are functions, not expression strings: the page's CSP forbids
    # the eval Playwright would use to poll an expression.
    page.wait_for_function("() => window.ginReady !== undefined", timeout=READY_TIMEOUT_MS)
    handle = page.wait_for_function(
        "() => window.__ginReadyValue || (window.ginReady.then(v => { window.__ginReadyValue = v; }), null)",
        timeout=READY_TIMEOUT_MS,
        polling=100,
    )
    return handle.json_value()


def _wait_idle(page, timeout_ms: int = 30_000):
    deadline = time.monotonic() + timeout_ms / 1000
    page.evaluate("window.ginApp.idle()")
    while page.evaluate("window.ginApp.view && !window.ginApp.view.over && window.ginApp.view.to_act === 1"):
        if time.monotonic() > deadline:
            raise AssertionError("the computer did not finish its turn")
        page.evaluate("window.ginApp.idle()")
    return page.evaluate("window.ginApp.view")


@pytest.fixture
def wait_idle():
    return _wait_idle
