"""The returning visitor's check between tests (tests/e2e/conftest.py): a test that changed the
build's Cache Storage leaves for a new context, seen by the wipe's digest of every entry."""

from __future__ import annotations

from conftest import _WIPE


def test_the_check_of_the_caches_sees_a_changed_header(page, returning):
    """The wipe's digest of Cache Storage changes when one entry's headers do (and comes back
    with them)."""
    page.goto(returning.server.url + "app.webmanifest")  # a page of the origin, no app on it
    assert page.evaluate(_WIPE) == returning.caches
    entry = """async (header) => {
        const [name] = (await caches.keys()).filter((n) => n.startsWith("gin-"));
        const cache = await caches.open(name), url = new URL("app.webmanifest", location).href;
        const old = await cache.match(url), headers = new Headers(old.headers);
        if (header) headers.set("x-changed", "1"); else headers.delete("x-changed");
        await cache.put(url, new Response(await old.blob(), { status: old.status, headers }));
    }"""
    page.evaluate(entry, True)
    assert page.evaluate(_WIPE) != returning.caches
    page.evaluate(entry, False)
    assert page.evaluate(_WIPE) == returning.caches
