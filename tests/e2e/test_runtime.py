"""The browser runtime in Chromium: boot, play, autosave and resume, broken or missing storage, offline."""

from __future__ import annotations

import json
import re
import shutil
import time
from types import SimpleNamespace

import pytest
from conftest import SETTINGS_KEY, Server, _wait_idle, _wait_ready, guard_context, serve_again, watch_errors

MATCH_KEY = "gin.match.v1"
ASIDE_KEY = "gin.aside.v1"
SEED_RE = re.compile(r"^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$")


def play_moves(page, wait_idle, count: int) -> dict:
    """Make `count` moves through the table (pass, draw from the stock, discard
    the first card that may go), letting the computer answer."""
    view = wait_idle(page)
    for _ in range(count):
        if view["over"]:
            break
        page.wait_for_selector("#app[data-busy=false]")
        if page.evaluate("window.ginApp.ui.panel") == "deal":
            page.get_by_role("button", name="Siguiente", exact=True).click()
        elif view["phase"].startswith("upcard"):
            page.get_by_role("button", name="Pasar", exact=True).click()
        elif view["phase"] == "draw":
            page.get_by_role("button", name="Mazo", exact=True).click()
        else:
            card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
            page.locator(f'[data-card="{card}"]').click(position={"x": 8, "y": 20})
            page.locator(f'[data-card="{card}"]').click(position={"x": 8, "y": 20})
        view = wait_idle(page)
    return view


def stored(page, key: str):
    return page.evaluate("(key) => localStorage.getItem(key)", key)


def test_page_becomes_ready(page, open_app, wait_idle):
    ready = open_app(page)
    assert SEED_RE.match(ready["seed"]), ready
    view = wait_idle(page)
    assert view["to_act"] == 0 and view["legal"]
    assert page.locator(".seed-value").text_content() == ready["seed"]
    assert page.url.endswith("#seed=" + ready["seed"])
    assert page.get_by_role("button", name="Mazo").is_visible()
    if view["phase"].startswith("upcard"):
        assert page.get_by_role("button", name="Tomar").is_visible()
        assert page.get_by_role("button", name="Pasar").is_visible()
    # Spanish by default for a Spanish browser.
    assert page.evaluate("document.documentElement.lang") == "es"


def test_moves_autosave_and_reload_resume(page, open_app, wait_idle):
    open_app(page)
    before = play_moves(page, wait_idle, 4)
    save = json.loads(stored(page, MATCH_KEY))
    assert save == page.evaluate("window.ginApp.save")
    assert save["actions"], "moves were made, so the save lists actions"

    open_app(page, reload=True)
    after = wait_idle(page)
    assert after == before
    assert json.loads(stored(page, MATCH_KEY)) == save
    assert page.evaluate("window.ginApp.notices") == []


def test_seed_in_url_and_replay(page, open_app, wait_idle, server):
    open_app(page, hash="#seed=k7q2-m9xd")
    first = wait_idle(page)
    assert first["seed"] == "K7Q2-M9XD"
    play_moves(page, wait_idle, 2)
    page.get_by_role("button", name="Menú").click()
    page.get_by_role("button", name="Repetir").click()
    page.get_by_role("button", name="Empezar").click()  # mid-match "Repetir" asks first
    page.wait_for_function("() => window.ginApp.view && window.ginApp.view.events.length <= 2")
    again = wait_idle(page)
    assert again["seed"] == "K7Q2-M9XD"
    assert again == first


def test_corrupt_save_is_kept_aside(page, open_app, wait_idle, server):
    page.goto(server.url + "app.webmanifest")  # a page of the origin, to write its storage
    for broken in ("{not json", json.dumps({"format": "not-a-gin-save", "actions": [42]})):
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [MATCH_KEY, broken])
        open_app(page)  # no seed in the URL: the save decides
        view = wait_idle(page)
        assert json.loads(stored(page, ASIDE_KEY))[-1]["raw"] == broken  # kept aside, the first too
        assert "storage.broken" in page.evaluate("window.ginApp.notices")
        assert page.locator(".notices .notice[data-notice='storage.broken']").is_visible()
        assert view["legal"] and not view["over"]
        assert json.loads(stored(page, MATCH_KEY))["seed"] == view["seed"]
    # A second corruption does not lose the first: both are in the slots.
    kept = [slot["raw"] for slot in json.loads(stored(page, ASIDE_KEY))]
    assert kept[-2:] == ["{not json", json.dumps({"format": "not-a-gin-save", "actions": [42]})]
    # Estadísticas lists them by what they were; a slot named like an inherited property
    # ("constructor") is "datos", not a function's source.
    slots = json.loads(stored(page, ASIDE_KEY)) + [{"key": "constructor", "at": 0, "raw": "x"}]
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [ASIDE_KEY, json.dumps(slots)])
    page.get_by_role("button", name="Menú", exact=True).click()
    page.get_by_role("button", name="Estadísticas", exact=True).click()
    items = page.locator(".aside-list li").all_inner_texts()
    assert len(items) == len(slots)
    assert "partida en curso" in items[-2] and "datos" in items[-1], items
    assert not any("function" in i or "native code" in i for i in items), items


def test_without_local_storage_the_game_still_plays(page, open_app, wait_idle):
    # Without storage the settings are the defaults (speed normal): every move animated, which is
    # not what this test looks at; with reduced motion nothing moves (table/motion.js).
    page.emulate_media(reduced_motion="reduce")
    page.add_init_script(
        """Object.defineProperty(window, "localStorage", {
             configurable: true,
             get() { throw new DOMException("blocked", "SecurityError"); },
           });"""
    )
    open_app(page)
    assert page.evaluate("window.ginApp.notices") == ["storage.unavailable"]
    assert page.locator(".notices .notice[data-notice='storage.unavailable']").is_visible()
    view = play_moves(page, wait_idle, 3)
    assert view["events"] or view["deal_number"] > 1


def test_full_storage_is_reported(page, open_app, wait_idle):
    page.add_init_script(
        """const realSetItem = Storage.prototype.setItem;
           Storage.prototype.setItem = function (key, value) {
             if (key === "gin.match.v1") throw new DOMException("full", "QuotaExceededError");
             return realSetItem.call(this, key, value);
           };"""
    )
    open_app(page)
    play_moves(page, wait_idle, 1)
    assert "storage.full" in page.evaluate("window.ginApp.notices")


def test_boot_failure_is_reported_and_retry_works(context, page, server):
    page.expect_errors = True
    context.route("**/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(server.url)
    page.wait_for_selector("#app[data-boot=failed]", timeout=60_000)
    assert page.get_by_role("alert").is_visible()
    context.unroute("**/pyodide.asm.wasm")
    page.get_by_role("button", name="Reintentar").click()
    page.wait_for_selector("#app[data-boot=ready]", timeout=60_000)
    assert SEED_RE.match(page.evaluate("window.ginReady.then(v => v.seed)"))


@pytest.fixture(scope="module")
def first_visit(browser, dist, tmp_path_factory):
    """A first visit (a fresh context with the request guard) on a server of its own, of a copy
    of dist/ (`.site`: test_new_build_replaces_the_cache changes it), two moves played:
    test_no_request_leaves_the_machine looks at what it requested, test_offline_reload_reaches_ready
    then stops its server; `.online()` starts it again on its port (the same origin) and puts the
    context online. The page's errors fail the test."""
    site = tmp_path_factory.mktemp("first-visit") / "site"
    shutil.copytree(dist, site)
    shared = SimpleNamespace(site=site, server=Server(site))
    ctx = guard_context(browser.new_context(locale="es-ES"))
    page = watch_errors(ctx.new_page())

    def online() -> None:
        if shared.server.proc.poll() is not None:
            ctx.set_offline(False)
            shared.server = serve_again(shared.server, site)

    try:
        # (about:blank has no localStorage: test_new_build_replaces_the_cache goes there)
        page.add_init_script("try { localStorage.setItem(%s, %s); } catch (e) {}" % (json.dumps(SETTINGS_KEY), json.dumps(json.dumps({"speed": "instant"}))))
        page.goto(shared.server.url)
        _wait_ready(page)
        before = play_moves(page, _wait_idle, 2)
        assert not page.errors, "\n".join(page.errors)
        shared.__dict__.update(context=ctx, page=page, before=before, online=online)
        yield shared
    finally:
        foreign = list(ctx.foreign)
        ctx.close()
        shared.server.stop()
    assert not foreign, f"requests to other hosts: {foreign}"


def test_offline_reload_reaches_ready(first_visit):
    page, context = first_visit.page, first_visit.context
    # The service worker has precached the build and controls the page.
    assert page.evaluate(
        """async () => {
             const registration = await navigator.serviceWorker.ready;
             while (!navigator.serviceWorker.controller) await new Promise(r => setTimeout(r, 50));
             return registration.active.state;
           }"""
    ) == "activated"
    first_visit.server.stop()
    context.set_offline(True)
    page.reload()
    _wait_ready(page)
    assert _wait_idle(page) == first_visit.before
    urls = [u for u in context.requests if "pyodide.asm.wasm" in u]
    assert urls, "the page loaded Pyodide's WebAssembly"
    assert not page.errors, "\n".join(page.errors)


def test_new_build_replaces_the_cache(first_visit, open_app):
    """The old build is `first_visit`'s (a copy of dist/, changed below; its server started again
    if the offline test stopped it), on its page."""
    first_visit.online()
    site, srv, page = first_visit.site, first_visit.server, first_visit.page
    open_app(page, url=srv.url)
    # Once active, the build's worker has moved what the first boot fetched
    # (the staging cache) into its own cache and deleted the staging one, and
    # has claimed the page: a page of the old build.
    old = page.evaluate(
        """async () => {
             await navigator.serviceWorker.ready;
             for (let i = 0; i < 100 && ((await caches.keys()).length > 1 || !navigator.serviceWorker.controller); i++) {
               await new Promise(r => setTimeout(r, 50));
             }
             return caches.keys();
           }"""
    )
    assert page.evaluate("() => Boolean(navigator.serviceWorker.controller)"), "the page is not the old build's"
    assert len(old) == 1 and old[0].startswith("gin-") and old[0].endswith("@/") and not old[0].startswith("gin-staging"), old
    # A new build: same files, a new version, so a new service worker script.
    sw = (site / "sw.js").read_text()
    version = json.loads((site / "manifest.json").read_text())["version"]
    (site / "sw.js").write_text(sw.replace(f'"version": "{version}"', '"version": "next"'))
    # The new worker installs, then waits while a page uses the old build.
    assert page.evaluate(
        """async () => {
             const registration = await navigator.serviceWorker.getRegistration();
             await registration.update();
             for (let i = 0; i < 600 && !registration.waiting; i++) await new Promise(r => setTimeout(r, 50));
             return Boolean(registration.waiting) && (await caches.keys()).length === 2;
           }"""
    )
    # Once the page has gone, it activates and deletes the old cache.
    keys = None
    for _ in range(20):
        page.goto("about:blank")
        time.sleep(0.3)
        open_app(page, url=srv.url)
        keys = page.evaluate(
            """async () => {
                 const registration = await navigator.serviceWorker.getRegistration();
                 for (let i = 0; i < 100; i++) {
                   const keys = await caches.keys();
                   if (keys.length === 1 && keys[0] === "gin-next@/" && registration.active
                       && registration.active.state === "activated" && !registration.installing
                       && !registration.waiting) return keys;
                   await new Promise(r => setTimeout(r, 50));
                 }
                 return caches.keys();
               }"""
        )
        if keys == ["gin-next@/"]:
            break
    assert keys == ["gin-next@/"]
    assert not page.errors, "\n".join(page.errors)


def test_no_request_leaves_the_machine(first_visit):
    context = first_visit.context
    assert context.requests
    assert context.foreign == []
    assert all(u.startswith("http://127.0.0.1:") for u in context.requests if u.startswith("http"))
    assert not first_visit.page.errors, "\n".join(first_visit.page.errors)
