"""The runtime's transport (issue 36, items 10, 11 and 13): what the engine's worker answers and
says, an engine of another build refused at the handshake, an import file too large to read, two
copies of the game on one origin, and a static host that sends no headers."""

from __future__ import annotations

import http.server
import json
import shutil
import threading
import time
from pathlib import Path

from tools.serve import MIME_TYPES

def wait_until(page, script: str, arg=None, timeout_s: float = 60):
    """Until the async `script` (awaited, unlike wait_for_function's predicate) gives a truthy value;
    returns it."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = page.evaluate(script, arg)
        if value or time.monotonic() > deadline:
            assert value, f"never true: {script}"
            return value
        time.sleep(0.1)


# A second engine's worker in the page (the same URL as the page's own), sent `calls`; every
# message it posts until each call is answered, in order.
_ASK_WORKER = """async (calls) => {
  const worker = new Worker("worker.js", { type: "module" });
  const said = [];
  const answered = new Set();
  await new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error("no answer: " + JSON.stringify(said))), 60000);
    worker.addEventListener("message", (event) => {
      const m = event.data;
      said.push(m.type === "ready" ? { type: "ready" } : m);
      if (m.id !== undefined && m.type === undefined) answered.add(m.id);
      if (answered.size === calls.length) resolve();
    });
    calls.forEach((call, i) => worker.postMessage({ id: i + 1, ...call }));
  });
  worker.terminate();
  return said;
}"""


def test_the_worker_says_busy_and_answers_only_the_bridges_methods_and_a_huge_import_is_refused(page, open_app, tmp_path):
    open_app(page)
    # `quote` is a function of gin.bridge's module (imported there) but not one of its methods;
    # `view` is one (no match in this engine: refused by the bridge itself).
    said = page.evaluate(_ASK_WORKER, [{"method": "quote", "params": {}}, {"method": "view", "params": {}}])
    answers = {m["id"]: m for m in said if "ok" in m}
    assert answers[1]["ok"] is True and answers[1]["result"]["ok"] is False, said
    assert answers[1]["result"]["error"]["code"] == "unknown_method", said
    assert answers[2]["result"]["error"]["code"] == "no_match", said
    # Each call is announced as begun before its answer: the page's watchdog then knows the
    # engine is busy, not dead, however long the call takes (runtime/engine.js).
    order = [(m.get("type"), m.get("id")) for m in said if m.get("id") is not None]
    assert order == [("busy", 1), (None, 1), ("busy", 2), (None, 2)], said

    # An import file larger than any export (an export holds at most what localStorage does)
    # is refused before it is read, with its size.
    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:
        f.truncate(21 * 1024 * 1024)
    page.get_by_role("button", name="Menú").click()
    page.get_by_role("button", name="Estadísticas").click()
    page.locator("input[type=file]").set_input_files(str(huge))
    status = page.locator(".data-status")
    status.filter(has_text="pesa 21 MB").wait_for(timeout=10_000)
    assert "no pasa de 20 MB" in status.inner_text()


def test_an_engine_of_another_build_is_refused_at_the_handshake(page, server):
    """A tab gets an engine of its own build only: a worker.js of another build (here: its id
    changed on the way) is refused, the page says why, and Reintentar reloads the page."""
    page.expect_errors = True  # the failed start is logged

    def other_build(route):
        body = route.fetch().text()
        assert '"id": "' in body
        route.fulfill(body=body.replace('"id": "', '"id": "0ther', 1), headers={"content-type": "text/javascript"})

    page.route("**/worker.js", other_build)
    page.goto(server.url)
    page.locator("#app[data-boot=failed]").wait_for(timeout=60_000)
    assert "versión nueva" in page.locator("#app").inner_text()
    page.unroute("**/worker.js")
    with page.expect_navigation():
        page.locator("[data-intent=retry]").click()
    page.locator("#app[data-boot=ready]").wait_for(timeout=60_000)


def test_two_copies_on_one_origin_keep_their_own_offline_caches(page, make_server, dist, tmp_path):
    """/a/ and /b/ on one origin: a new build of /b/ activates and drops /b/'s old cache only."""
    root = tmp_path / "root"
    for copy in ("a", "b"):
        shutil.copytree(dist, root / copy)
    srv = make_server(root)
    caches = """async () => (await caches.keys()).sort()"""
    for copy in ("a", "b"):
        page.goto(f"{srv.url}{copy}/")
        page.locator("#app[data-boot=ready]").wait_for(timeout=60_000)
        wait_until(
            page,
            """async (scope) => { const r = await navigator.serviceWorker.getRegistration(scope);
                 return Boolean(r && r.active && r.active.state === "activated" && navigator.serviceWorker.controller
                   && (await caches.keys()).some((name) => name.endsWith("@" + scope) && !name.startsWith("gin-staging"))); }""",
            f"/{copy}/",
        )
    version = json.loads((root / "b" / "manifest.json").read_text())["version"]
    before = page.evaluate(caches)
    assert f"gin-{version}@/a/" in before and f"gin-{version}@/b/" in before, before
    # A new build of /b/ only (same files, a new version): it installs, and activates once /b/
    # has no page: this page goes to /a/ (a file of it: what follows reads the origin's service
    # workers and caches, not /a/'s table, which came up above).
    sw = root / "b" / "sw.js"
    sw.write_text(sw.read_text().replace(f'"version": "{version}"', '"version": "next"'))
    page.evaluate("async () => (await navigator.serviceWorker.getRegistration('/b/')).update()")
    page.goto(f"{srv.url}a/app.webmanifest")
    wait_until(
        page,
        """async (old) => { const r = await navigator.serviceWorker.getRegistration("/b/");
             const names = await caches.keys();
             return Boolean(r && r.active && r.active.state === "activated" && !r.waiting && !r.installing
               && names.includes("gin-next@/b/") && !names.includes(old)); }""",
        f"gin-{version}@/b/",
    )
    after = page.evaluate(caches)
    assert f"gin-{version}@/a/" in after, after  # /a/'s offline copy is still there
    assert page.evaluate("async () => Boolean(await caches.match(new URL('index.html', location.href).href))")


class _PlainHandler(http.server.SimpleHTTPRequestHandler):
    """A static host that sends no header of its own (no CSP): only the types."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def log_message(self, format, *args):  # noqa: A002
        pass


def test_a_static_host_without_headers_keeps_the_pages_policy(context, page, open_app, dist):
    """A host of its own (another origin): in a fresh context (the `context` fixture), not the
    returning visitor's, which a visit to another origin ends (tests/e2e/conftest.py: the next
    test of the worker would make its first visit again)."""
    handler = lambda *a, **kw: _PlainHandler(*a, directory=str(dist), **kw)  # noqa: E731
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        ready = open_app(page, url=f"http://127.0.0.1:{httpd.server_address[1]}/")
        assert ready["timings"]["boot"]
        page.expect_errors = True  # the refused inline script is logged
        blocked = page.evaluate(
            """() => new Promise((resolve) => {
                 document.addEventListener("securitypolicyviolation", (e) => resolve(e.violatedDirective), { once: true });
                 const s = document.createElement("script");
                 s.textContent = "window.__inlineRan = true";
                 document.head.append(s);
                 setTimeout(() => resolve(window.__inlineRan ? "ran" : "nothing"), 2000);
               })"""
        )
        assert blocked.startswith("script-src"), blocked
        assert page.evaluate("() => window.__inlineRan === undefined")
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_staged_copy_is_hashed_not_taken_at_its_headers_word(context, page, open_app, make_server, dist):
    """A first visit stages what its worker fetched for the service worker's precache. A staged
    response carrying the build's integrity in its header, over other bytes, is not precached:
    the service worker hashes what was staged itself (issue 36, item 13)."""
    path = "pyodide/pyodide-lock.json"
    integrity = json.loads((dist / "manifest.json").read_text())["files"][path]
    real = (dist / path).read_bytes()
    forged = real + b"\n\n"  # still the lock file Pyodide reads, but not the build's bytes
    answered = []

    def forge(route):
        if answered:  # the service worker's own fetch: the file as built
            route.fallback()
            return
        answered.append(route.request.url)
        route.fulfill(body=forged, headers={"content-type": "application/json", "x-gin-integrity": integrity})

    context.route("**/" + path, forge)
    srv = make_server()
    open_app(page, url=srv.url)
    assert answered, "the engine's worker fetched the lock file"
    kept = wait_until(
        page,
        """async (path) => {
             await navigator.serviceWorker.ready;
             for (const name of await caches.keys()) {
               if (name.startsWith("gin-staging")) continue;
               const hit = await (await caches.open(name)).match(new URL(path, location.href).href);
               if (hit) return (await hit.arrayBuffer()).byteLength;
             }
             return null;
           }""",
        path,
    )
    assert kept == len(real), (kept, len(real), len(forged))


def _longer_than_any_match() -> dict:
    """A save that replays (void deals, one after another) with one action more than a match
    may list (gin.match.MAX_ACTIONS)."""
    import random
    import sys

    from gin.match import MAX_ACTIONS, Match
    from gin.rules import Rules

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from notation import greedy

    m = Match.new(seed="LONG-0001", rules=Rules.profile("traditional"))
    rng = random.Random(2)
    while len(m.actions) <= MAX_ACTIONS:
        m.apply(greedy(m, rng, knock=False))
    save = m.to_save()
    save["actions"] = save["actions"][: MAX_ACTIONS + 1]
    return save


def test_a_stored_save_longer_than_any_match_is_set_aside_and_the_page_comes_up(page, open_app, wait_idle):
    """Issue 36, item 10: a kept save too long for a match (crafted, or grown by a bug) is refused
    at once (too_long) instead of keeping the engine busy, set aside, told, and a new match starts."""
    from test_table_more import put_in_storage

    save = _longer_than_any_match()
    put_in_storage(page, {"gin.match.v1": save})
    ready = open_app(page)
    view = wait_idle(page)
    assert ready["seed"] != save["seed"] and view["legal"], ready
    assert "storage.broken" in page.evaluate("window.ginApp.notices")
    kept = json.loads(page.evaluate("() => localStorage.getItem('gin.aside.v1')"))
    assert any(json.loads(slot["raw"]).get("seed") == save["seed"] for slot in kept)
