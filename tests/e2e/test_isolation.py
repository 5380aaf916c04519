"""The returning visitor's kept tab (tests/e2e/conftest.py): a test gets the tab the test before
it had, and nothing that test did reaches it. Each pair runs in order on one worker: the first
test leaves its marks, the second looks for them."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.xdist_group("isolation")

LEFT = {}  # what the first test of a pair saw, for the second


def counts(returning):
    return dict(returning.tabs)


def test_a_test_leaves_its_marks_on_the_tab(page, open_app, returning):
    open_app(page, settings={"speed": "instant", "level": "easy"})
    page.set_viewport_size({"width": 500, "height": 600})
    page.emulate_media(color_scheme="dark", reduced_motion="reduce", media="print")
    page.add_init_script("window.__leftBehind = 1")
    page.evaluate("""async () => {
        localStorage.setItem("left.behind", "1");
        sessionStorage.setItem("left.behind", "1");
        document.cookie = "left=1; path=/";
        for (let i = 0; i < 3; i++) history.pushState(null, "", "#left" + i);
        await new Promise((ok) => { const q = indexedDB.open("left-behind"); q.onsuccess = () => { q.result.close(); ok(); }; });
    }""")
    page.mouse.move(300, 300)
    page.expect_errors = True  # a mark on Playwright's page object
    LEFT["tab"], LEFT["tabs"] = page, counts(returning)


def test_the_next_test_finds_none_of_them(page, open_app, returning):
    assert LEFT, "runs after test_a_test_leaves_its_marks_on_the_tab"
    kept = counts(returning)["kept"] > LEFT["tabs"]["kept"]
    assert kept and page is LEFT["tab"], "the tab of the test before was not kept: nothing checked here"
    assert not hasattr(page, "expect_errors")
    open_app(page, settings={"speed": "instant", "level": "normal"})
    # The settings seeded now, not by the init script of the test before.
    assert json.loads(page.evaluate("localStorage.getItem('gin.settings.v1')"))["level"] == "normal"
    found = page.evaluate("""async () => ({
        size: [innerWidth, innerHeight],
        dark: matchMedia("(prefers-color-scheme: dark)").matches,
        reduce: matchMedia("(prefers-reduced-motion: reduce)").matches,
        print: matchMedia("print").matches,
        script: window.__leftBehind,
        local: localStorage.getItem("left.behind"),
        session: sessionStorage.length,
        cookie: document.cookie,
        history: history.length,
        databases: (await indexedDB.databases()).map((d) => d.name),
        hovered: document.querySelectorAll(":hover").length,
    })""")
    fresh = {"size": [1280, 720], "dark": False, "reduce": False, "print": False, "script": None, "local": None,
             "session": 0, "cookie": "", "history": 2, "databases": [], "hovered": 0}
    assert {k: v for k, v in found.items() if v != fresh[k]} == {}, found


def test_a_test_listens_on_the_tab(page, open_app, returning):
    open_app(page)
    page.on("dialog", lambda dialog: dialog.accept())  # cannot be taken off for it: a new tab next
    LEFT["listening"], LEFT["tabs2"] = page, counts(returning)


def test_after_a_listener_the_next_test_has_a_new_tab(page, open_app, returning):
    assert "listening" in LEFT, "runs after test_a_test_listens_on_the_tab"
    assert page is not LEFT["listening"] and counts(returning)["new"] == LEFT["tabs2"]["new"] + 1
    assert "dialog" not in page._impl_obj._events or not page._impl_obj._events["dialog"]


def test_a_change_nothing_recorded_is_seen_on_the_tab(page, open_app, returning):
    open_app(page)
    # The viewport set past the fixture's record of it: only the check of how the tab looks
    # after the wipe (its viewport is not a new tab's) can tell.
    page._gin_own["set_viewport_size"]({"width": 700, "height": 500})
    LEFT["unseen"], LEFT["tabs3"] = page, counts(returning)


def test_after_an_unrecorded_change_the_next_test_has_a_new_tab(page, open_app, returning):
    assert "unseen" in LEFT, "runs after test_a_change_nothing_recorded_is_seen_on_the_tab"
    assert page is not LEFT["unseen"] and counts(returning)["new"] == LEFT["tabs3"]["new"] + 1
    open_app(page)
    assert page.evaluate("[innerWidth, innerHeight]") == [1280, 720]


def test_the_check_of_the_caches_sees_a_changed_header(page, returning):
    """The wipe's digest of Cache Storage changes when one entry's headers do (and comes back
    with them): a test that changed the build's cache leaves for a new context."""
    from conftest import _WIPE

    page.goto(returning.server.url + "app.webmanifest")  # a page of the origin, no app on it
    assert page.evaluate(_WIPE)["caches"] == returning.caches
    entry = """async (header) => {
        const [name] = (await caches.keys()).filter((n) => n.startsWith("gin-"));
        const cache = await caches.open(name), url = new URL("app.webmanifest", location).href;
        const old = await cache.match(url), headers = new Headers(old.headers);
        if (header) headers.set("x-changed", "1"); else headers.delete("x-changed");
        await cache.put(url, new Response(await old.blob(), { status: old.status, headers }));
    }"""
    page.evaluate(entry, True)
    assert page.evaluate(_WIPE)["caches"] != returning.caches
    page.evaluate(entry, False)
    assert page.evaluate(_WIPE)["caches"] == returning.caches
