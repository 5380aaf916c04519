"""Fixtures for end-to-end tests: dist/ served by build.py, headless Chromium, a guard on every request.

Fixtures (reuse them in tests/e2e/test_*.py):
  server        session-wide `build.py serve` of dist/ on a free port (.url, .port, .stop())
  make_server   make_server(directory=None): a private server (its own origin, so its own
                service worker), of dist/ or of another directory
  browser       session-wide Chromium (CHROMIUM env var)
  context       a fresh browser context with the request guard; fails the test if any
                request goes to a host other than 127.0.0.1 (context.requests lists all)
  page          a page; page errors and console errors are collected (page.errors) and
                fail the test. In the fresh `context` (a first visit) when the test asks for
                `context` or `make_server` or is marked `first_visit`; otherwise in the
                worker's `returning` context (a repeat visit: the service worker in control,
                the build in its cache; the player's storage wiped between tests), with the
                same request guard
  returning     session-wide ReturningVisitor: the warm context `page` uses
  phone         a page on a touch phone (390×844, has_touch, is_mobile) with `.cdp`, a DevTools
                session for real touch events: a page of `returning_phone`, this worker's
                returning visitor of that kind (wiped between tests as `returning` is)
  shared_table  a class's SharedTable: one page of the returning visitor kept for the tests of a
                class that look at one table at several sizes (`.get(key, opener)`; `resize`)
  shared_phone_table  the same on the touch phone (`phone`'s kind of page, with `.cdp`)
  open_app      open_app(page, url=None, hash="", settings={"speed": "instant"}) navigates
                and waits for window.ginReady; returns its value
  wait_idle     wait_idle(page): until queued engine calls and computer turns are done
  readable      readable(page, where=""): assert_readable below, as a fixture
  turns         (autouse through _take_turns) under pytest-xdist, browser tests of different
                workers run side by side, and a test marked `alone` runs with no other
                browser test of the suite beside it (it measures pace or motion)

Helpers (import from conftest):
  GatedServer()  dist/ served from a thread of this process whose gate holds the requests for a
                path until the test lets them go (hold, wait_asked, release): a held request
                without a route, so a context keeps its HTTP cache (see the class)
  guard_context(ctx, routed=True), NO_WAY_OUT  the request guard; routed=False with
                browser.new_context(proxy=NO_WAY_OUT) for a context whose HTTP cache is wanted
  assert_readable(page, where="")  what the player and a screen reader meet on the screen
                (visible text, accessible names, titles, options) reads as the page's
                language: no "[object", "undefined", "NaN", raw text key, unfilled {slot}
                or text of the other language
  i18n_dictionaries()  {"es": {key: text}, "en": {...}} read from web/text/i18n.js
  assert_accessible(page, where="")  axe-core (web/node_modules, a devDependency the build
                never ships) on the screen as it is: no serious or critical violation of the
                WCAG 2.x A/AA rules (contrast included, text on the felt measured against the
                felt's lightest colour); returns the violations of lesser impact
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import inspect
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tools.testenv import CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
ALLOWED_HOSTS = {"127.0.0.1"}
READY_TIMEOUT_MS = 60_000
SETTINGS_KEY = "gin.settings.v1"


class Server:
    """`python3 build.py serve --no-build` on a free port (or on `port`), as a child process."""

    def __init__(self, directory: Path | None = None, port: int = 0) -> None:
        where = ["--dir", str(directory)] if directory else ["--no-build"]
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "build.py"), "serve", *where, "--quiet", "--port", str(port)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        if "http://" not in line:
            self.proc.kill()
            raise RuntimeError(f"build.py serve did not start on port {port or 'any'}: {line!r} {self.proc.stderr.read()}")
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


# --- taking turns with the other xdist workers ------------------------------------------------


class Turns:
    """A readers-writer lock between the suite's xdist workers, over two files in `folder`:
    browser tests share the machine with each other; a test marked `alone` (it measures the
    page's pace or its animations) has it to itself. Writers first: once an `alone` test
    waits, no other browser test starts before it has run."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.gate = (folder / "gate").open("a")
        self.room = (folder / "room").open("a")

    @contextlib.contextmanager
    def shared(self):
        fcntl.flock(self.gate, fcntl.LOCK_EX)
        fcntl.flock(self.room, fcntl.LOCK_SH)
        fcntl.flock(self.gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(self.room, fcntl.LOCK_UN)

    @contextlib.contextmanager
    def alone(self):
        fcntl.flock(self.gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(self.room, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self.room, fcntl.LOCK_UN)
        finally:
            fcntl.flock(self.gate, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def turns():
    """The run's Turns, or None when one process runs the suite (-n 0)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    return Turns(Path(tempfile.gettempdir()) / f"gin-e2e-turns-{run}") if run else None


@pytest.fixture(autouse=True)
def _take_turns(request, turns):
    if turns is None:
        yield
        return
    with turns.alone() if request.node.get_closest_marker("alone") else turns.shared():
        yield


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


def guard_context(ctx, routed: bool = True):
    """Record every URL ``ctx`` requests (``ctx.requests``, in order) and refuse
    those to other hosts (kept in ``ctx.foreign`` for the test to fail on).

    The refusal is a route, and in Chromium any route turns the context's HTTP cache off.
    ``routed=False`` only records: for a context made with ``NO_WAY_OUT`` (its other
    hosts go to a proxy that is not there), whose HTTP cache is wanted."""
    ctx.requests = []
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
    # Only what may be foreign is routed: a local request goes on inside Playwright's driver
    # instead of waiting for this process to answer it (a round trip each, ~200 per boot).
    if routed:
        ctx.route(_MAYBE_FOREIGN, guard)
    return ctx


# browser.new_context(proxy=NO_WAY_OUT): every host but 127.0.0.1 is asked through a proxy on
# the discard port, where nothing answers (net::ERR_PROXY_CONNECTION_FAILED); with
# guard_context(ctx, routed=False) such a request is still recorded in ctx.foreign.
NO_WAY_OUT = {"server": "http://127.0.0.1:9", "bypass": "127.0.0.1"}


# Every http(s)/ws(s) URL whose host is not 127.0.0.1 (the guard's _is_foreign decides).
_MAYBE_FOREIGN = re.compile(r"^(?!(?:https?|wss?)://127\.0\.0\.1[:/])(?:https?|wss?):", re.IGNORECASE)


def watch_errors(pg):
    """Collect the page's uncaught errors and console errors in ``pg.errors``."""
    pg.errors = []
    pg.on("pageerror", lambda exc: pg.errors.append(f"pageerror: {exc}"))
    pg.on("console", lambda msg: pg.errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    return pg


@pytest.fixture
def context(browser):
    ctx = guard_context(browser.new_context(locale="es-ES"))
    yield ctx
    foreign = list(ctx.foreign)
    ctx.close()
    assert not foreign, f"requests to other hosts: {foreign}"


def _page_errors(pg) -> None:
    errors = [e for e in pg.errors if not getattr(pg, "expect_errors", False)]
    assert not errors, "\n".join(errors)


@pytest.fixture
def page(request):
    """A page of a fresh context (the `context` fixture) when the test asks for that context,
    for a server of its own (`make_server`) or is marked `first_visit`; otherwise a new page of
    this worker's returning visitor (`returning`), whose boot is a repeat visit's."""
    if _wants_a_fresh_context(request):
        pg = watch_errors(request.getfixturevalue("context").new_page())
        yield pg
        _page_errors(pg)
        return
    with _tab_of(request.getfixturevalue("returning")) as pg:
        yield pg


@contextlib.contextmanager
def _tab_of(visitor):
    """A new page of `visitor` (a ReturningVisitor) whose errors fail the test; the visitor's
    end (its pages closed, the storage wiped) after the test."""
    pg = watch_errors(visitor.start())
    try:
        yield pg
    finally:
        visitor.end()
    _page_errors(pg)


def _wants_a_fresh_context(request) -> bool:
    """The test asks for the context or a server of its own, is marked `first_visit`, routes
    requests itself (a service worker in control answers a page's requests before any route), or
    sets Playwright's clock (page.clock is the context's: it would stay in every later page of the
    warm context, its time moved on, performance.now() and the timers faked: a later test read
    the computer's move 44 s after the deal had landed, on the animations' own clock)."""
    names = request.fixturenames
    if "context" in names or "make_server" in names or request.node.get_closest_marker("first_visit"):
        return True
    try:
        source = inspect.getsource(request.function)
    except (OSError, TypeError):
        return True
    return ".route(" in source or ".clock." in source


# --- the returning visitor: one warm context per worker ---------------------------------------
#
# A new context is a first visit: no service worker, an empty Cache Storage, so every boot
# fetches and decodes the snapshot and, once playable, the service worker precaches the whole
# build (every file fetched and hashed) while the test runs. A test that is not about the first
# visit gets a page of a context that has made its first visit once: the service worker in
# control and the build in its cache, so the page boots as a player's second visit does.
# Between two tests everything the page keeps for the player is wiped (local and session
# storage, IndexedDB, cookies); the service worker's registration and Cache Storage stay, and
# are checked unchanged after each test (a test that changed them leaves for a new context).


class ReturningVisitor:
    """A context (with the request guard; `options` for browser.new_context) on `server` that
    has made its first visit."""

    def __init__(self, browser, server, **options) -> None:
        self.browser, self.server = browser, server
        self.options = {"locale": "es-ES", **options}
        self.context = None
        self.keeper = None  # the context's page that wipes (see _wipe)
        self.caches = None

    def _first_visit(self) -> None:
        ctx = guard_context(self.browser.new_context(**self.options))
        pg = ctx.new_page()
        pg.goto(self.server.url)
        _wait_ready(pg)
        snapshot = json.loads((DIST / "manifest.json").read_text())["snapshot"]["raw_url"].rsplit("/", 1)[-1]
        assert pg.evaluate(_SNAPSHOT_CACHED, snapshot), "the service worker did not cache the build within 120 s"
        pg.close()
        self.context = ctx
        self.caches = self._wipe()
        assert self.caches and not ctx.foreign, (self.caches, ctx.foreign)

    def start(self):
        if self.context is None:
            self._first_visit()
        self.context.requests.clear()
        self.context.foreign.clear()
        pg = self.context.new_page()
        pg.route = _no_route  # a route the service worker would bypass: say so, not pass by luck
        return pg

    def end(self) -> None:
        """Close the test's pages, wipe what they kept; a changed service worker cache or a
        request to another host ends this context (the next test makes a new first visit)."""
        ctx = self.context
        for pg in list(ctx.pages):
            if pg is not self.keeper:
                pg.close()
        foreign = list(ctx.foreign)
        # Another origin visited (a server the test started): its service worker and storage
        # are neither wiped nor checked, and its port may come back.
        elsewhere = any(urlsplit(u).scheme in ("http", "https") and urlsplit(u).port != self.server.port for u in ctx.requests)
        try:
            same = self._wipe() == self.caches
        except Exception:
            same = False
        if not same or foreign or elsewhere:
            self.close()
        assert not foreign, f"requests to other hosts: {foreign}"

    def _wipe(self) -> str | None:
        """Wipe the player's storage of the origin; a digest of its Cache Storage (every cache's
        entries, URL and headers), or None if something is left. The wipe runs in a page of the origin
        that stays open between tests (the keeper, on a small file, no script of the app's):
        a new page and its navigation for every wipe cost more than the wipe itself."""
        if self.keeper is None or self.keeper.is_closed():
            self.keeper = self.context.new_page()
            self.keeper.goto(self.server.url + "app.webmanifest")  # a small file: any page of the origin
        return self.keeper.evaluate(_WIPE)

    def close(self) -> None:
        if self.context is not None:
            self.context.close()
            self.context = None
            self.keeper = None


class SharedTable:
    """A page of this worker's returning visitor kept open for the tests of
    one class, which look at the same table at several sizes: the first test opens it
    (`get(key, opener)`: `opener(page)` boots it and brings it to that table), the next ones find
    it as it was left and only resize it, instead of booting the page again for each size. A test
    that fails or asks for another `key` gets a new page; the page's errors fail the test they
    happen in (`shared_table`)."""

    def __init__(self, visitor) -> None:
        self.visitor = visitor
        self.page = self.key = None

    def get(self, key, opener):
        if self.page is not None and (key != self.key or self.page.is_closed()):
            self.close()
        if self.page is None:
            self.page, self.key = watch_errors(self.visitor.start()), key
            opener(self.page)
        return self.page

    def close(self) -> None:
        """Its pages closed and the player's storage wiped (the visitor's end)."""
        if self.page is not None:
            self.page = self.key = None
            self.visitor.end()


@pytest.fixture(scope="class")
def _shared_table(returning):
    shared = SharedTable(returning)
    yield shared
    shared.close()


@pytest.fixture
def shared_table(_shared_table, request):
    """The class's SharedTable; its page's errors fail this test, and after a failure the next
    test of the class opens a new page."""
    yield from lent(_shared_table, request)


def lent(shared, request):
    """`shared` for one test (a fixture's body): its page's errors fail the test, and after a
    failure the page is closed, so the next test opens a new one."""
    failed = request.session.testsfailed
    yield shared
    page = shared.page
    errors = list(page.errors) if page is not None else []
    if errors or request.session.testsfailed != failed:
        shared.close()
    assert not errors, "\n".join(errors)


def resize(page, size):
    """The shared page at `size`, once the page has had its resize (the notices placed again)."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h", arg=list(size))


def _no_route(*args, **kwargs):
    raise AssertionError("page.route() on the returning visitor's page, whose service worker answers before any "
                         "route: mark the test first_visit (tests/e2e/conftest.py)")


# Wipes the player's storage of the page's origin (local storage, IndexedDB, cookies; the
# session storage is the page's own); then the SHA-256 of Cache Storage, every cache's entries
# (URL and headers; a digest, not ~100 entries sent to Python after every test), or null if
# something is still left after 30 s, or if the wipe has not ended by then (a storage call that
# never answers: Playwright's evaluate waits for ever, and a whole suite hung on one once).
# A page closed just before may still write after the wipe has begun (its save at pagehide,
# from its own process; its engine's database, opened as the page closed; a cache it was
# filling): the wipe is done again until nothing is left (and the caches read whole), and with
# `settle` (ms) until nothing is left that long after.
# A deletion another connection blocks waits for it to close. Nothing runs after the 30 s: a
# wipe left running would clear the next test's storage.
_WIPE = """async (options) => {
  const settle = (options && options.settle) || 0;
  const end = performance.now() + 30000;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const left = async () => localStorage.length || document.cookie || (await indexedDB.databases()).length;
  const wipe = async () => {
    localStorage.clear();
    for (const cookie of document.cookie.split(";")) {
      if (cookie.trim()) document.cookie = cookie.split("=")[0].trim() + "=; max-age=0; path=/";
    }
    for (const { name } of await indexedDB.databases()) {
      await new Promise((ok, no) => {
        const q = indexedDB.deleteDatabase(name);
        q.onsuccess = ok; q.onerror = () => no(q.error);
      });
    }
  };
  const digest = async () => {
    const out = {};
    for (const name of (await caches.keys()).sort()) {
      const cache = await caches.open(name);
      // Both in the cache's order (its request-response list): one call each, not a match per entry.
      const [requests, responses] = await Promise.all([cache.keys(), cache.matchAll()]);
      if (requests.length !== responses.length) return null;
      out[name] = requests.map((request, i) => [request.url, [...responses[i].headers].map((h) => h.join(": ")).sort()])
        .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));  // by URL: an entry put back as it was is the same
    }
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(out)));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  };
  const run = async () => {
    while (performance.now() < end) {
      await wipe();
      if (!(await left()) && !(settle && (await sleep(settle), await left()))) {
        const sum = await digest(); // null while a cache is being written
        if (sum !== null) return sum;
      }
      await sleep(100);
    }
    return null;
  };
  return Promise.race([run(), sleep(30000).then(() => null)]);
}"""
# Until the service worker controls the page and has the snapshot in its cache (its install,
# the whole build's precache, is over by then); false after 120 s.
_SNAPSHOT_CACHED = """async (name) => {
    const end = performance.now() + 120000;
    while (performance.now() < end) {
      if (navigator.serviceWorker.controller) {
        for (const key of await caches.keys()) {
          const urls = (await (await caches.open(key)).keys()).map((r) => r.url);
          if (urls.some((u) => u.endsWith("/snapshot/" + name))) return true;
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }"""


@pytest.fixture(scope="session")
def returning(browser, server, dist):
    """This worker's ReturningVisitor (its first visit made on first use)."""
    visitor = ReturningVisitor(browser, server)
    yield visitor
    visitor.close()


PHONE = (390, 844)


@pytest.fixture(scope="session")
def returning_phone(browser, server, dist):
    """This worker's ReturningVisitor on a touch phone (390×844, touch, mobile)."""
    visitor = ReturningVisitor(browser, server, viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True, is_mobile=True)
    yield visitor
    visitor.close()


@pytest.fixture
def phone(returning_phone):
    """A page on a touch phone at 390×844 (touch and mobile: a context of its own kind), a
    returning visitor's as `page` is, with `.cdp` (a DevTools session, for real touch events);
    errors fail the test, as with `page`."""
    with _tab_of(returning_phone) as pg:
        pg.cdp = returning_phone.context.new_cdp_session(pg)
        yield pg


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


# Waits in the page (one round trip): the engine idle and not the computer's turn; false once
# `limit` ms have passed.
_IDLE = """async (limit) => {
  const end = performance.now() + limit;
  for (;;) {
    await window.ginApp.idle();
    const view = window.ginApp.view;
    if (!(view && !view.over && view.to_act === 1)) return true;
    if (performance.now() > end) return false;
    await new Promise((r) => setTimeout(r, 16));
  }
}"""


def _wait_idle(page, timeout_ms: int = 30_000):
    if not page.evaluate(_IDLE, timeout_ms):
        raise AssertionError("the computer did not finish its turn")
    return page.evaluate("window.ginApp.view")


@pytest.fixture
def wait_idle():
    return _wait_idle


# --- what the player reads ------------------------------------------------------------------

I18N = ROOT / "web" / "text" / "i18n.js"
_ENTRY = re.compile(r'^\s*"?([\w.]+)"?: "((?:[^"\\]|\\.)*)",$', re.M)
_BROKEN = ("[object", "undefined", "NaN")


@functools.cache
def i18n_dictionaries() -> dict[str, dict[str, str]]:
    """{lang: {key: text}} read from web/text/i18n.js."""
    source = I18N.read_text()
    es_at, en_at = source.index("\n  es: {"), source.index("\n  en: {")
    return {"es": dict(_ENTRY.findall(source[es_at:en_at])), "en": dict(_ENTRY.findall(source[en_at:]))}


@functools.cache
def _foreign_pieces(lang: str) -> tuple[str, ...]:
    """Pieces (4+ characters) of the other language's texts that never occur in this one's."""
    dicts = i18n_dictionaries()
    other = "en" if lang == "es" else "es"
    own = "\n".join(dicts[lang].values())
    pieces = set()
    for text in dicts[other].values():
        for piece in re.split(r"\{\w+\}", text):
            piece = piece.strip(" .:,;·()¿?¡!…\u2013\u2212-")
            if len(piece) >= 4 and piece not in own:
                pieces.add(piece)
    return tuple(sorted(pieces))


def screen_words(page) -> str:
    """All text a player or a screen reader meets: visible text, names, titles, options."""
    return page.evaluate(
        """() => [document.title, document.body.innerText,
            ...[...document.querySelectorAll('[aria-label], [title], option')]
                .map(e => [e.getAttribute('aria-label'), e.getAttribute('title'),
                           e.tagName === 'OPTION' ? e.textContent : null])
                .flat().filter(Boolean)].join('\\n')"""
    )


@functools.cache
def _foreign_pattern(lang: str) -> re.Pattern:
    """Any of _foreign_pieces(lang) as a word of its own: one regular expression, so a check
    is one pass over the screen's text (a search per piece took ~50 ms of every settle)."""
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, _foreign_pieces(lang))) + r")(?!\w)")


def assert_readable(page, where: str = "") -> str:
    """The screen reads as finished text of the page's language; returns that text."""
    lang = page.evaluate("document.documentElement.lang")
    assert lang in ("es", "en"), lang
    text = screen_words(page)
    for bad in _BROKEN:
        assert bad not in text, f"{where}: {bad!r} on the screen: {text!r}"
    slot = re.search(r"\{\w+\}", text)
    assert not slot, f"{where}: unfilled {slot.group()} on the screen"
    dicts = i18n_dictionaries()
    keys = set(dicts["es"]) | set(dicts["en"])
    raw = {k for k in re.findall(r"(?<![\w.])[a-z_]+\.[\w.]+(?![\w])", text) if k in keys}
    assert not raw, f"{where}: raw text keys on the screen: {raw}"
    if _foreign_pattern(lang).search(text):  # one pass; then which piece, for the message
        for piece in _foreign_pieces(lang):
            if re.search(r"(?<!\w)" + re.escape(piece) + r"(?!\w)", text):
                raise AssertionError(f"{where}: {piece!r} (not {lang}) on the {lang} screen: {text!r}")
    return text


@pytest.fixture
def readable():
    return assert_readable


# --- accessibility: axe-core ----------------------------------------------------------------

AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# The felt is a radial gradient, which axe cannot measure text against (it reports such text
# as "incomplete"): for the check the page's background is its lightest colour, the worst
# case for the light text on it. Cards and panels keep their own backgrounds.
_FELT_FOR_AXE = """() => { const felt = getComputedStyle(document.documentElement).getPropertyValue('--felt-light').trim();
  const body = document.body, old = body.style.background; body.style.background = felt; return old; }"""


def assert_accessible(page, where: str = ""):
    """No serious or critical axe-core violation on the screen as it is now."""
    if not AXE.exists():
        pytest.fail("web/node_modules/axe-core is missing: run the tests through `python3 build.py test`")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Injected by evaluate (CDP), not a <script>: the page's CSP allows only its own files.
        page.evaluate(AXE.read_text())
    old = page.evaluate(_FELT_FOR_AXE)
    try:
        found = page.evaluate(
            """async (tags) => {
                const r = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
                return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 6).map(n => `${n.target.join(' ')}: ${n.any.concat(n.all).map(c => c.message).join('; ')}`) }));
            }""",
            AXE_TAGS,
        )
    finally:
        page.evaluate("(old) => { document.body.style.background = old; }", old)
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, f"{where}: accessibility violations:\n" + "\n".join(
        f"  {v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in bad
    )
    return found


def boot_then_failure(context, page, server, on_boot) -> None:
    """The page on its boot screen (the wasm held back): on_boot() looks at it; then the wasm
    is refused and the page waits on its error screen."""
    held = []
    context.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(server.url)
    page.wait_for_selector("#app[data-boot]:not([data-boot=start])", timeout=30_000)
    on_boot()
    for route in held:
        route.fulfill(status=404, body="gone")
    context.unroute("**/pyodide.asm.wasm")
    context.route("**/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body="gone"))
    page.wait_for_selector("#app[data-boot=failed]", timeout=60_000)


# --- a server with a gate: requests held in the server, not by a route ------------------------


class GatedServer:
    """dist/ served from a thread of this process (tools/serve.py's handler, its headers), whose
    `gate` can hold the requests for a path until the test lets them go. A held request waits in
    the server, so the browser needs no route (in Chromium a route turns the HTTP cache off: every
    load would fetch and compile the whole runtime again). Holding works on what reaches the
    server: a context that blocks service workers (no-cache: every load asks the server again).

      hold(path)        from now on, requests for `path` ("/worker.js") wait in the server
      wait_asked(path)  until a request for `path` waits at the gate (AssertionError after 30 s)
      release(path)     let them through (and the later ones); release() lets everything go"""

    def __init__(self, directory: Path | None = None) -> None:
        import threading

        from tools import serve

        self._cond = threading.Condition()
        self._held: set[str] = set()
        self._waiting: dict[str, int] = {}
        gate = self

        class Handler(serve.Handler):
            quiet = True

            def send_head(self):
                gate._enter(urlsplit(self.path).path)
                return super().send_head()

        self.httpd = serve.Server(("127.0.0.1", 0), lambda *a, **k: Handler(*a, directory=str(directory or DIST), **k))
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def _enter(self, path: str) -> None:
        with self._cond:
            if path not in self._held:
                return
            self._waiting[path] = self._waiting.get(path, 0) + 1
            self._cond.notify_all()
            self._cond.wait_for(lambda: path not in self._held, timeout=120)
            self._waiting[path] -= 1

    def hold(self, path: str) -> None:
        with self._cond:
            self._held.add(path)

    def wait_asked(self, path: str, timeout_s: float = 30) -> None:
        with self._cond:
            if not self._cond.wait_for(lambda: self._waiting.get(path, 0) > 0, timeout=timeout_s):
                raise AssertionError(f"no request for {path} reached the server within {timeout_s} s")

    def release(self, path: str | None = None) -> None:
        with self._cond:
            if path is None:
                self._held.clear()
            else:
                self._held.discard(path)
            self._cond.notify_all()

    def stop(self) -> None:
        self.release()
        self.httpd.shutdown()
        self.httpd.server_close()


def serve_again(srv: Server, directory: Path | None = None) -> Server:
    """`srv`, stopped (a test took its shared first visit offline), started again on its port,
    of `directory` (None: dist/, as `Server`): the same origin, so the service worker and the
    caches a context keeps for it are its again. For a module's shared first visit whose later
    tests need its server."""
    again = Server(directory, port=srv.port)
    assert again.url == srv.url, (again.url, srv.url)
    return again


class SharedPhoneTable(SharedTable):
    """A SharedTable on the touch phone (this worker's `returning_phone`): its page has `.cdp`, a
    DevTools session for real touch events, as `phone`'s has."""

    def get(self, key, opener):
        def opened(page):
            page.cdp = self.visitor.context.new_cdp_session(page)
            opener(page)

        return super().get(key, opened)


@pytest.fixture(scope="class")
def _shared_phone_table(returning_phone):
    shared = SharedPhoneTable(returning_phone)
    yield shared
    shared.close()


@pytest.fixture
def shared_phone_table(_shared_phone_table, request):
    """`shared_table` on the touch phone at 390×844 (`phone`'s kind of page, with `.cdp`): one page
    kept for the tests of a class that go on from the table the one before left; its page's
    errors fail the test they happen in, and after a failure the next test opens a new page."""
    yield from lent(_shared_phone_table, request)
