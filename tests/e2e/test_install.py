"""Install as an app and fullscreen: the web app manifest, the icons build.py draws, Chromium's own
installability check, and the menu's fullscreen toggle that leaves the match as it was."""

from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import re
import struct
import zlib
from pathlib import Path

import pytest
from conftest import CHROMIUM_ARGS, guard_context, watch_errors
from test_runtime import play_moves

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
MATCH_KEY = "gin.match.v1"
PHONE = (390, 844)
DESKTOP = (1280, 800)
FELT_META = re.compile(r'<meta name="theme-color" content="(#[0-9a-f]{6})">')


# --- helpers ---------------------------------------------------------------------


def read_png(data: bytes) -> tuple[int, int, int, list[bytes]]:
    """(width, height, bytes per pixel, rows) of an 8-bit RGB/RGBA PNG without
    filtering, the kind build.py writes; anything else fails the test."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, header = 8, b"", None
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length : at + 12 + length])[0] == zlib.crc32(kind + body)
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, *_ = header
    assert depth == 8 and colour in (2, 6), header
    bpp = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp + 1
    assert len(raw) == stride * height
    rows = [raw[r * stride : (r + 1) * stride] for r in range(height)]
    assert all(row[0] == 0 for row in rows), "unfiltered rows expected"
    return width, height, bpp, [row[1:] for row in rows]


def app_manifest(dist: Path) -> dict:
    return json.loads((dist / "app.webmanifest").read_text())


def wait_for_service_worker(page) -> str:
    """Until the service worker has precached the build and controls the page."""
    return page.evaluate(
        """async () => {
             const registration = await navigator.serviceWorker.ready;
             while (!navigator.serviceWorker.controller) await new Promise(r => setTimeout(r, 50));
             return registration.active.state;
           }"""
    )


def match_as_seen(page) -> dict:
    """The match as the player has it: the table's visible text, the hand as
    drawn, the save in localStorage and the engine's view."""
    return {
        "text": page.locator("#app").inner_text(),
        "hand": page.eval_on_selector_all(".hand .hand-card", "els => els.map(e => e.dataset.card)"),
        "save": page.evaluate("(key) => localStorage.getItem(key)", MATCH_KEY),
        "view": page.evaluate("window.ginApp.view"),
    }


def fullscreen_element(page):
    return page.evaluate("document.fullscreenElement && document.fullscreenElement.tagName")


def shoot(page, name: str, size: tuple[int, int]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{size[0]}x{size[1]}.png"))


# --- the manifest and the icons ---------------------------------------------------


def test_manifest_names_the_game_in_both_languages_and_is_relative(dist):
    m = app_manifest(dist)
    assert m["lang"] == "es" and m["name"] == "Gin Rummy contra el ordenador" and m["short_name"] == "Gin Rummy"
    assert m["name_localized"]["en"]["value"] == "Gin Rummy against the computer"
    assert m["description_localized"]["en"]["value"].startswith("Gin Rummy against the computer")
    assert m["display"] == "standalone" and m["orientation"] == "any"
    # Relative, so dist/ works from any folder of any host. The id is resolved
    # against the origin alone: it names the game, not the folder.
    assert m["start_url"] == m["scope"] == "./"
    assert m["id"] == "gin-rummy"
    # The felt: the page's theme-color and the table's colour (style.css --felt).
    html = (dist / "index.html").read_text()
    assert m["theme_color"] == FELT_META.search(html).group(1)
    assert re.search(r"--felt:\s*%s;" % re.escape(m["background_color"]), (dist / "style.css").read_text())
    # The page links the manifest and real icons, not "data:,".
    assert '<link rel="manifest" href="app.webmanifest">' in html
    assert 'href="data:,"' not in html
    for href in re.findall(r'<link rel="(?:icon|apple-touch-icon)" href="([^"]+)"', html):
        assert (dist / href).is_file(), href
    # Every file is precached, with the integrity of the bytes served.
    precache = json.loads((dist / "manifest.json").read_text())["files"]
    icons = [i["src"] for i in m["icons"]] + re.findall(r'<link rel="(?:icon|apple-touch-icon)" href="([^"]+)"', html)
    for path in ["app.webmanifest", *icons]:
        assert path in precache, path
        digest = "sha256-" + base64.b64encode(hashlib.sha256((dist / path).read_bytes()).digest()).decode()
        assert precache[path] == digest, path


def test_icons_are_pngs_of_their_sizes_and_the_maskable_art_stays_in_the_safe_zone(dist):
    m = app_manifest(dist)
    purposes = [i.get("purpose", "any") for i in m["icons"]]
    assert purposes.count("maskable") == 1 and "any" in purposes
    assert {i["sizes"] for i in m["icons"] if i.get("purpose", "any") == "any"} >= {"192x192", "512x512"}
    for icon in m["icons"]:
        w, h, bpp, rows = read_png((dist / icon["src"]).read_bytes())
        assert icon["sizes"] == f"{w}x{h}" and icon["type"] == "image/png", icon
        centre = rows[h // 2][(w // 2) * bpp : (w // 2) * bpp + bpp]
        assert not (centre[1] > centre[0] and centre[1] > centre[2]), "a card in the middle, not felt"
        if icon["purpose"] == "maskable":
            # Full bleed (opaque), and outside the circle of radius 40 % that
            # every mask keeps, nothing but felt: green above red and blue.
            assert bpp == 3
            outside = 0
            for y, row in enumerate(rows):
                for x in range(w):
                    if math.hypot(x + 0.5 - w / 2, y + 0.5 - h / 2) <= 0.4 * w:
                        continue
                    r, g, b = row[x * 3 : x * 3 + 3]
                    assert g > r + 15 and g > b + 10, f"({x},{y}) is {r, g, b}, not felt"
                    outside += 1
            assert outside > 0.45 * w * h
        else:
            # A rounded felt tile: transparent corners, opaque inside.
            assert bpp == 4 and rows[0][3] == 0 and centre[3] == 255
    w, h, _, _ = read_png((dist / "icons/apple-touch-icon.png").read_bytes())
    assert (w, h) == (180, 180)


def test_manifest_is_served_as_a_manifest(page, server):
    response = page.request.get(server.url + "app.webmanifest")
    assert response.ok and response.headers["content-type"] == "application/manifest+json"


# --- Chromium's installability check -------------------------------------------------


@pytest.fixture
def profile(playwright_instance, tmp_path):
    """A browser with an ordinary profile on disk: Chromium never offers to
    install an app in an incognito context, which is what new_context() makes.
    The same guards as the `context` and `page` fixtures. The whole browser
    (CHROMIUM_FULL), not the headless shell the other tests run in: the shell
    has no install check (its Page.getInstallabilityErrors answers [] for any
    page, even about:blank)."""
    chromium = os.environ.get("CHROMIUM_FULL") or os.environ["CHROMIUM"]
    ctx = playwright_instance.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium, args=CHROMIUM_ARGS, locale="es-ES"
    )
    guard_context(ctx)
    page = watch_errors(ctx.pages[0] if ctx.pages else ctx.new_page())
    yield ctx, page
    errors, foreign = list(page.errors), list(ctx.foreign)
    ctx.close()
    assert not errors, "\n".join(errors)
    assert not foreign, f"requests to other hosts: {foreign}"


def test_chromium_finds_the_game_installable_from_a_subfolder(profile, open_app, make_server, wait_idle, dist, tmp_path):
    context, page = profile
    # Hosted below the root, as on a static host: everything must resolve
    # relative to the page.
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "gin").symlink_to(dist, target_is_directory=True)
    srv = make_server(tmp_path)
    base = srv.url + "games/gin/"
    open_app(page, url=base)
    wait_idle(page)
    assert wait_for_service_worker(page) == "activated"

    cdp = context.new_cdp_session(page)
    got = cdp.send("Page.getAppManifest")
    assert got["url"] == base + "app.webmanifest"
    assert got["errors"] == [], got["errors"]
    parsed = got["manifest"]  # as Chromium read it, URLs resolved
    assert parsed["name"] == "Gin Rummy contra el ordenador" and parsed["display"] == "kStandalone"
    assert parsed["orientation"] == "ANY" and parsed["themeColor"] == "rgba(20,70,43,1)"
    # start_url and scope are this folder, not the host's root.
    assert parsed["startUrl"] == parsed["scope"] == base
    assert parsed["id"] == srv.url + "gin-rummy"
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors

    # Every icon (manifest and page) decodes in the browser at its stated size.
    m = app_manifest(dist)
    stated = {i["src"]: i["sizes"] for i in m["icons"]}
    stated.update({"icons/favicon-32.png": "32x32", "icons/apple-touch-icon.png": "180x180"})
    linked = page.eval_on_selector_all('link[rel~="icon"], link[rel="apple-touch-icon"]', "els => els.map(e => e.href)")
    assert sorted(linked) == [base + "icons/apple-touch-icon.png", base + "icons/favicon-32.png", base + "icons/icon-192.png"]
    sizes = page.evaluate(
        """async (srcs) => {
             const out = {};
             for (const src of srcs) {
               const img = new Image();
               img.src = src;
               await img.decode();
               out[src] = `${img.naturalWidth}x${img.naturalHeight}`;
             }
             return out;
           }""",
        list(stated),
    )
    assert sizes == stated


# --- fullscreen ----------------------------------------------------------------------


def test_fullscreen_in_and_out_keeps_the_match(page, open_app, wait_idle):
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    open_app(page, hash="#seed=TEST-0001", settings={"speed": "instant", "level": "easy"})
    play_moves(page, wait_idle, 5)
    assert page.evaluate("document.fullscreenEnabled") is True
    before = match_as_seen(page)
    assert json.loads(before["save"])["actions"], "mid-match: moves were made"

    enter = page.get_by_role("button", name="Pantalla completa", exact=True)
    leave = page.get_by_role("button", name="Salir de pantalla completa", exact=True)
    page.get_by_role("button", name="Menú", exact=True).click()
    assert enter.is_visible() and leave.count() == 0
    shoot(page, "menu-fullscreen", PHONE)

    enter.click()
    page.wait_for_function("() => document.fullscreenElement === document.documentElement")
    leave.wait_for()
    assert enter.count() == 0
    assert page.evaluate("window.ginApp.ui.menuOpen") is True

    leave.click()
    page.wait_for_function("() => document.fullscreenElement === null")
    enter.wait_for()
    assert leave.count() == 0

    # Leaving without the button relabels it too. A browser leaves on Escape
    # or a system gesture; headless Chromium hands Escape to the page but has
    # no fullscreen UI to leave, so the test exits the way the browser would,
    # outside any click of ours.
    enter.click()
    leave.wait_for()
    page.evaluate("document.exitFullscreen()")
    page.wait_for_function("() => document.fullscreenElement === null")
    enter.wait_for()
    assert fullscreen_element(page) is None

    page.get_by_role("button", name="Volver a la mesa", exact=True).click()
    wait_idle(page)
    assert match_as_seen(page) == before


def test_fullscreen_button_speaks_english_and_hides_without_the_api(page, open_app):
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    open_app(page, settings={"speed": "instant", "lang": "en"})
    page.get_by_role("button", name="Menu", exact=True).click()
    full = page.get_by_role("button", name="Full screen", exact=True)
    assert full.is_visible()
    shoot(page, "menu-fullscreen-en", DESKTOP)
    full.click()
    page.get_by_role("button", name="Exit full screen", exact=True).wait_for()
    page.get_by_role("button", name="Exit full screen", exact=True).click()
    full.wait_for()

    # A browser without the API (or a frame that forbids it): no button at all. The menu asks
    # the document each time it is drawn (table/fullscreen.js), so this page, its API taken
    # away, stands for such a browser: the menu drawn again has no button.
    page.get_by_role("button", name="Back to the table", exact=True).click()
    page.evaluate("Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false })")
    page.get_by_role("button", name="Menu", exact=True).click()
    assert page.get_by_role("button", name="New match", exact=True).is_visible()
    assert page.get_by_role("button", name="Full screen", exact=True).count() == 0
