"""The cross-engine set: the same player's path in Chromium, Firefox (Gecko) and WebKit.

Per engine, one browser and one page walk through: the first visit (normal
boot) on ``#seed=10049`` dealing CPython's hand, a whole deal through the
visible controls at exactly 390×844, a drag to the pile, a reload that shows the
saved table while the engine wakes, an offline reload mid-deal with the server
stopped (the snapshot boot, the view and the selection unchanged; every test
after it runs offline), the fullscreen control, the sheets' scrollbars, the card
font, and the table's sound and its mute. No console warning or error, from the page or its workers, is allowed
after any step, and every screen is saved to test-artifacts/engines-<engine>-*.png.

Firefox and WebKit come from Debian (build.py test installs them and passes
their paths, see engine_drivers.py); a missing one fails here, never skips.
Run one engine alone: ``python3 build.py test tests/e2e/test_engines.py -k webkit``.
"""

from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path

import pytest
from conftest import ROOT, Server, assert_readable, i18n_dictionaries
from engine_drivers import Engine, EngineError, Firefox, WebKit

ARTIFACTS = ROOT / "test-artifacts"
PHONE = (390, 844)
SEED = "10049"  # its first deal: pass, two draws and discards, the computer knocks (15 turns took 12345)
SETTINGS = {"speed": "instant"}
# Pyodide's first boot in Firefox and WebKit on a loaded 2-core machine takes
# tens of seconds; the snapshot boot a few.
READY_TIMEOUT_S = 180
TIMES: dict[str, dict[str, float]] = {}
T = i18n_dictionaries()["es"]


# --------------------------------------------------------------------------- Chromium


class Chromium(Engine):
    """The same interface over Playwright, for the set's Chromium leg."""

    name = "chromium"

    def __init__(self, browser, width: int, height: int) -> None:
        self.context = browser.new_context(locale="es-ES", viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self._cdp = None  # a DevTools session for screenshots, made at the first
        self._logs: list[str] = []

        def keep(msg) -> None:
            if msg.type in ("warning", "error"):
                self._logs.append(f"{msg.type}: {msg.text}")

        self.page.on("console", keep)  # the workers' messages come here too
        self.page.on("pageerror", lambda exc: self._logs.append(f"pageerror: {exc}"))

    def seed_storage(self, origin: str, key: str, value: str) -> None:
        # Before any page script (Chromium would also ask an image page for
        # /favicon.ico, a 404 in the console).
        self.page.add_init_script(f"if (!localStorage.getItem({json.dumps(key)})) localStorage.setItem({json.dumps(key)}, {json.dumps(value)});")

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def reload(self) -> None:
        self.page.reload()

    def _call(self, source: str, args_json: str):
        value = self.page.evaluate(f"async (json) => JSON.stringify(await ({source})(...JSON.parse(json)))", args_json)
        return json.loads(value) if value is not None else None

    def actions(self, pointer: list[dict]) -> None:
        mouse = self.page.mouse
        for step in pointer:
            if step["type"] == "pointerMove":
                mouse.move(step["x"], step["y"])
            elif step["type"] == "pointerDown":
                mouse.down()
            elif step["type"] == "pointerUp":
                mouse.up()

    def screenshot(self, path: Path) -> None:
        # As test_table.shoot: through DevTools with the encoder's fast setting (the same pixels,
        # a third of page.screenshot()'s CPU), the fonts awaited first.
        if self._cdp is None:
            self._cdp = self.context.new_cdp_session(self.page)
        self.page.evaluate("() => document.fonts.ready.then(() => null)")
        shot = self._cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        path.write_bytes(base64.b64decode(shot["data"]))

    def viewport(self, width: int, height: int) -> None:
        self.page.set_viewport_size({"width": width, "height": height})

    def console(self) -> list[str]:
        self.page.wait_for_timeout(50)  # let Playwright deliver the events it holds
        out, self._logs[:] = list(self._logs), []
        return out

    def close(self) -> None:
        self.context.close()


def _tool(var: str, package: str) -> str:
    path = os.environ.get(var)
    if not path:
        pytest.fail(f"{var} is not set: Debian's {package} is missing (python3 build.py test installs it as root)")
    return path


def launch(name: str, request) -> Engine:
    if name == "chromium":
        return Chromium(request.getfixturevalue("browser"), *PHONE)
    if name == "firefox":
        return Firefox(_tool("GIN_FIREFOX", "firefox-esr"), *PHONE)
    return WebKit(
        _tool("GIN_WEBKIT_DRIVER", "webkit2gtk-driver"),
        _tool("GIN_XVFB", "xvfb"),
        _tool("GIN_WEBKIT_PYTHON", "gir1.2-webkit2-4.1"),
        *PHONE,
    )


# Until the engine's queue is empty and it is not the computer's turn; the view then.
IDLE = """async () => {
     for (;;) {
       await window.ginApp.idle();
       const v = window.ginApp.view;
       if (!v || v.over || v.to_act !== 1) return v;
       await new Promise(r => setTimeout(r, 20));
     }
   }"""


class Visit:
    """One engine on a private server (its own origin, so its own service worker)."""

    def __init__(self, engine: Engine, server: Server) -> None:
        self.engine, self.server = engine, server

    def shot(self, screen: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.engine.screenshot(ARTIFACTS / f"engines-{self.engine.name}-{screen}.png")

    def ready(self, timeout_s: float = READY_TIMEOUT_S) -> dict:
        return self.engine.wait(
            "() => window.ginReady && (window.__ready || (window.ginReady.then(v => { window.__ready = v; }), null))",
            timeout_s=timeout_s,
            what="window.ginReady",
        )

    def idle(self) -> dict:
        """Until the engine's queue is empty and it is not the computer's turn."""
        return self.engine.call(IDLE)

    def ui(self) -> dict:
        return self.engine.call("() => window.ginApp.ui")

    def settled(self) -> tuple[dict, dict]:
        """idle(), and the page's ui state read in the same round trip: (view, ui)."""
        view, ui = self.engine.call(f"async () => [await ({IDLE})(), window.ginApp.ui]")
        return view, ui

    def press(self, intent: str, text_key: str) -> None:
        """Tap the visible button of `intent`, which must read its Spanish text."""
        selector = f'button[data-intent="{intent}"]'
        x, y, label = self.engine.center_and_text(selector)
        assert label == T[text_key], (intent, label)
        self.engine.tap(selector, at=(x, y))


@pytest.fixture(scope="module", params=["chromium", "firefox", "webkit"])
def visit(request, dist):
    server = Server()
    TIMES[request.param] = {"start": time.monotonic()}
    engine = launch(request.param, request)
    try:
        engine.seed_storage(server.url, "gin.settings.v1", json.dumps(SETTINGS))
        yield Visit(engine, server)
    finally:
        engine.close()
        server.stop()
    TIMES[request.param]["set_s"] = round(time.monotonic() - TIMES[request.param]["start"], 1)
    print(f"\n{request.param}: {json.dumps({k: v for k, v in TIMES[request.param].items() if k != 'start'})}")


@pytest.fixture(autouse=True)
def quiet_console(visit):
    """No console warning or error (page or workers) during the test."""
    visit.engine.console()
    yield
    messages = visit.engine.console()
    assert not messages, f"{visit.engine.name} console:\n" + "\n".join(messages)


def cpython_first_turn(settings: dict) -> dict:
    """The seeded match in CPython up to the player's first decision."""
    from gin import bridge

    params = {"seed": SEED, "profile": settings["profile"], "options": {}, "level": settings["level"]}
    answer = json.loads(bridge.new_match(json.dumps(params)))
    while answer["ok"] and answer["view"]["to_act"] == 1:
        answer = json.loads(bridge.computer_step("{}"))
    assert answer["ok"], answer
    return answer["view"]


def test_first_visit_boots_and_deals_cpythons_seeded_hand(visit):
    engine = visit.engine
    start = time.monotonic()
    engine.goto(visit.server.url + "#seed=" + SEED)
    ready = visit.ready()
    TIMES[engine.name]["first_visit_s"] = round(time.monotonic() - start, 1)
    TIMES[engine.name]["first_boot"] = ready["timings"]["boot"]
    # A first visit fetches the snapshot beside the wasm and boots from it
    # (its memory XORed back with the wasm's data segments), the stdlib zip
    # left for after playable.
    assert ready["timings"]["boot"] == "snapshot", ready["timings"]
    assert ready["timings"]["snapshot_source"] == "network", ready["timings"]
    assert ready["timings"]["stdlib"] == "deferred", ready["timings"]
    assert engine.call("() => [innerWidth, innerHeight]") == list(PHONE)
    view = visit.idle()
    assert view["seed"] == SEED
    settings = engine.call("() => window.ginApp.settings")
    assert view == cpython_first_turn(settings)
    # The hand on the screen is the engine's hand, in Spanish.
    shown = engine.call("() => [...document.querySelectorAll('.hand [data-card]')].map(e => e.dataset.card)")
    assert sorted(shown) == sorted(view["hand"])
    visit.shot("first-visit")


def test_a_whole_deal_through_the_visible_controls(visit):
    engine = visit.engine
    view, ui = visit.settled()
    turns = 0
    while ui["panel"] != "deal":
        assert turns < 60, "the deal did not end"
        turns += 1
        if view["phase"].startswith("upcard"):
            visit.press("pass", "btn.pass")
        elif view["phase"] == "draw":
            engine.tap('button[data-intent="drawStock"]')
        else:
            card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
            engine.tap(f'.hand [data-card="{card}"]')
            assert visit.ui()["selected"] == card
            visit.press("discardSelected", "btn.discard")
        view, ui = visit.settled()
    text = assert_readable_engine(engine, "deal result")
    assert T["btn.next"] in text
    visit.shot("deal-result")
    visit.press("next", "btn.next")
    view, ui = visit.settled()
    assert ui["panel"] is None and len(view["hand"]) == 10
    visit.shot("second-deal")


def assert_readable_engine(engine: Engine, where: str) -> str:
    """conftest.assert_readable over this engine (it reads through page.evaluate)."""

    def evaluate(source: str):  # a function, or an expression as Playwright takes it
        return engine.call(source if source.lstrip().startswith("()") else f"() => ({source})")

    class Page:
        pass

    Page.evaluate = staticmethod(evaluate)

    return assert_readable(Page, where)


def to_discard(visit) -> dict:
    """Play on (pass, draw from the stock) until it is the player's discard."""
    view = visit.idle()
    for _ in range(4):
        if view["phase"] == "discard" and view["to_act"] == 0:
            return view
        if view["phase"].startswith("upcard"):
            visit.press("pass", "btn.pass")
        else:
            visit.engine.tap('button[data-intent="drawStock"]')
        view = visit.idle()
    raise AssertionError(f"never the player's discard: {view['phase']}")


def test_a_card_dragged_onto_the_pile_is_discarded(visit):
    view = to_discard(visit)
    card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
    visit.engine.drag(f'.hand [data-card="{card}"]', ".pile.discard-pile .pile-cards")
    after = visit.idle()
    assert card not in after["hand"]
    # The player's discard is the card dropped (the computer may have taken it since).
    assert {"seat": 0, "type": "discard", "card": card} in after["events"], after["events"][-4:]
    visit.shot("after-drag")


# Issue 33 in every engine: the table before the engine. These drivers cannot hold the worker's
# request back (and the service worker answers it by itself), so the page's own test hook holds
# the engine: with this sessionStorage key set as the page opens, the worker of a page that draws a
# saved table starts only when the test calls window.ginReleaseEngine() (web/data/keys.js,
# HOLD_ENGINE_KEY; web/play/controller.js, heldByTest).
HOLD_ENGINE_KEY = "gin.test.holdEngine"
TABLE_NOW = """() => ({
  boot: document.getElementById('app').dataset.boot,
  waking: document.getElementById('app').dataset.waking,
  hand: [...document.querySelectorAll('.hand .hand-card')].map(e => e.dataset.card),
  scores: ['.score-human', '.score-computer'].map(q => (document.querySelector(q) || {}).textContent),
  status: [...document.querySelectorAll('[role=status]')].map(e => e.textContent.trim()),
  messages: (document.querySelector('.messages') || {}).textContent || '',
  marks: document.querySelectorAll('.waking-mark').length,
  held: typeof window.ginReleaseEngine === 'function',
})"""


def to_draw(visit) -> dict:
    """Play on (pass, discard a card, close a deal's result) until it is the player's draw."""
    engine = visit.engine
    view = visit.idle()
    for _ in range(8):
        if visit.ui()["panel"] == "deal":
            visit.press("next", "btn.next")
        elif view["phase"] == "draw" and view["to_act"] == 0:
            return view
        elif view["phase"].startswith("upcard"):
            visit.press("pass", "btn.pass")
        else:
            # The card selected already (a tap on it again would throw it), else the first one.
            card = visit.ui()["selected"] or next(a["card"] for a in view["legal"] if a["type"] == "discard")
            if visit.ui()["selected"] != card:
                engine.tap(f'.hand [data-card="{card}"]')
            visit.press("discardSelected", "btn.discard")
        view = visit.idle()
    raise AssertionError(f"never the player's draw: {view['phase']}")


def test_a_reload_shows_the_saved_table_while_the_engine_wakes_and_plays_a_queued_draw_once(visit):
    engine = visit.engine
    view = to_draw(visit)
    before = engine.call(TABLE_NOW)
    moves = engine.call("() => window.ginApp.save.actions.length")
    # The view kept beside the save is this table's.
    engine.wait("(n) => { const s = JSON.parse(localStorage.getItem('gin.shown.v1') || 'null'); return s && s.actions === n; }", moves, what="gin.shown.v1")
    wait_snapshot_cached(visit)  # a returning player's reload: the service worker in control, the build kept
    engine.call("(k) => sessionStorage.setItem(k, '1')", HOLD_ENGINE_KEY)
    engine.reload()
    waking = engine.wait(f"() => {{ const t = ({TABLE_NOW})(); return t.waking === 'true' && t.hand.length && t; }}", timeout_s=60, what="the saved table")
    # The same hand (same cards, same order) and scores, marked as waking; the engine not up.
    assert waking["held"] and waking["boot"] != "ready", waking
    assert waking["hand"] == before["hand"] and waking["scores"] == before["scores"], (before, waking)
    assert T["waking.mark"] in waking["status"] and waking["marks"] == 1, waking
    visit.shot("waking")
    # A tap on the stock is queued (said so); a second one queues nothing more.
    engine.tap('button[data-intent="drawStock"]')
    assert T["waking.queued"] in engine.call(TABLE_NOW)["messages"]
    engine.tap('button[data-intent="drawStock"]')
    still = engine.call(TABLE_NOW)
    assert still["waking"] == "true" and still["held"] and still["hand"] == before["hand"], still
    engine.call("() => window.ginReleaseEngine()")
    ready = visit.ready()
    TIMES[engine.name]["reload_boot"] = ready["timings"]["boot"]
    assert ready["timings"]["boot"] == "snapshot", ("online reload", ready["timings"])
    after = visit.idle()
    # Played exactly once, on the engine's match.
    save = engine.call("() => window.ginApp.save")
    assert len(save["actions"]) == moves + 1 and save["actions"][-1] == {"type": "draw", "from": "stock"}, save["actions"][-3:]
    assert after["phase"] == "discard" and len(after["hand"]) == 11 and set(view["hand"]) < set(after["hand"]), after
    woke = engine.call(TABLE_NOW)
    assert woke["waking"] == "false" and woke["marks"] == 0 and T["waking.queued"] not in woke["messages"], woke
    visit.shot("woken")


def wait_snapshot_cached(visit) -> None:
    # The service worker keeps it decoded, under the manifest's raw_url.
    name = Path(json.loads((ROOT / "dist" / "manifest.json").read_text())["snapshot"]["raw_url"]).name
    visit.engine.wait(
        """async (name) => {
             for (const key of await caches.keys()) {
               const urls = (await (await caches.open(key)).keys()).map(r => r.url);
               if (urls.some(u => u.endsWith("/snapshot/" + name))) return true;
             }
             return false;
           }""",
        name,
        timeout_s=120,
        what="the snapshot in the service worker's cache",
    )
    if visit.engine.name == "webkit":
        # WebKit keeps it in the session's own folder, never in the user's ~/.cache, where a
        # later run on the same port would find it (engine_drivers.WebKit).
        kept = list((visit.engine.tmp / "cache").rglob("CacheStorage"))
        assert kept, f"no Cache Storage under {visit.engine.tmp / 'cache'}"


def test_offline_reload_mid_deal_boots_from_the_snapshot_and_keeps_the_view(visit):
    """With the server stopped (the tests after this one run offline), a reload mid-deal boots
    from the snapshot the service worker keeps, on the same match, the selected card still
    selected. (An online reload is test_a_reload_shows_the_saved_table_while_the_engine_wakes...)"""
    engine = visit.engine
    view = to_discard(visit)
    card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
    engine.tap(f'.hand [data-card="{card}"]')
    assert visit.ui()["selected"] == card
    wait_snapshot_cached(visit)
    visit.server.stop()
    start = time.monotonic()
    engine.reload()
    ready = visit.ready()
    TIMES[engine.name]["offline_s"] = round(time.monotonic() - start, 1)
    TIMES[engine.name]["offline_boot"] = ready["timings"]["boot"]
    assert ready["timings"]["boot"] == "snapshot", ("offline reload", ready["timings"])
    assert visit.idle() == view, "offline reload: the match not kept"
    assert visit.ui()["selected"] == card, "offline reload: the selection not kept"
    assert engine.call("(c) => document.querySelector(`.hand [data-card='${c}']`).getAttribute('aria-pressed')", card) == "true", "offline reload: the selected card not shown selected"
    visit.shot("offline")


def test_the_fullscreen_control_enters_or_says_it_cannot(visit):
    engine = visit.engine
    visit.press("openMenu", "btn.menu")
    engine.center('button[data-intent="fullscreen"]')
    visit.press("fullscreen", "menu.fullscreen_enter")
    # Either the engine goes fullscreen (the label changes) or the menu says it refused.
    outcome = engine.wait(
        """(leave, refused) => {
             const label = document.querySelector('button[data-intent="fullscreen"]').textContent;
             const note = [...document.querySelectorAll('[role=status]')].some(e => e.textContent === refused);
             if (document.fullscreenElement && label === leave) return "fullscreen";
             return note ? "refused" : null;
           }""",
        T["menu.fullscreen_leave"],
        T["menu.fullscreen_refused"],
        timeout_s=10,
        what="fullscreen or its refusal said",
    )
    TIMES[engine.name]["fullscreen"] = outcome
    visit.shot("menu-fullscreen")
    if outcome == "fullscreen":
        visit.press("fullscreen", "menu.fullscreen_leave")
        engine.wait("() => !document.fullscreenElement", what="fullscreen left")
    visit.press("closeMenu", "btn.back")


MENU_LAYOUT = """() => {
    const panel = document.querySelector('.panel.menu');
    const style = getComputedStyle(panel);
    const borders = parseFloat(style.borderLeftWidth) + parseFloat(style.borderRightWidth);
    return {gutter: panel.offsetWidth - panel.clientWidth - borders, scrolls: panel.scrollHeight > panel.clientHeight};
  }"""


def test_a_dialog_that_starts_to_scroll_keeps_its_lines(visit):
    """A scrollbar that takes room must not narrow the menu and rewrap it: the
    room it takes (the gutter) is the same before the menu scrolls and after.
    (The page behind may get a scrollbar of its own at that height, which
    narrows the whole overlay: so the gutter is compared, not the width.)"""
    engine = visit.engine
    visit.press("openMenu", "btn.menu")
    engine.viewport(PHONE[0], 1400)  # tall enough for the whole menu (its Mesa group included)
    try:
        tall = engine.wait(f"() => {{ const m = ({MENU_LAYOUT})(); return !m.scrolls && m; }}", timeout_s=10, what="the menu whole")
    finally:
        engine.viewport(*PHONE)
    assert not tall["scrolls"], tall
    engine.viewport(PHONE[0], 480)
    try:
        short = engine.wait(f"() => {{ const m = ({MENU_LAYOUT})(); return m.scrolls && m; }}", timeout_s=10, what="the menu scrolling")
        visit.shot("menu-scrolling")
    finally:
        engine.viewport(*PHONE)
    TIMES[engine.name]["scrollbar_px"] = short["gutter"]
    if engine.name == "firefox":  # classic scrollbars (engine_drivers.Firefox.PREFS): the case that rewrapped
        assert short["gutter"] > 0, short
    assert short["gutter"] == tall["gutter"], (tall, short)
    visit.press("closeMenu", "btn.back")


CARD_FONT_WIDTHS: dict[str, float] = {}


def test_the_cards_are_drawn_in_the_shipped_font(visit):
    """The ranks resolve to the page's own font, loaded from our origin, and
    its glyphs measure the same in every engine of the run."""
    engine = visit.engine
    font = engine.wait(
        """async () => {
             await document.fonts.ready;
             const rank = document.querySelector('.hand .corner .rank');
             const family = getComputedStyle(rank).fontFamily;
             const face = [...document.fonts].find(f => f.family.replace(/"/g, '') === 'Gin Card');
             if (!face || face.status !== 'loaded') return null;
             const ctx = document.createElement('canvas').getContext('2d');
             ctx.font = '700 100px "Gin Card"';
             const width = ctx.measureText('10JQKA').width;
             ctx.font = '700 100px monospace';
             return {family, width, check: document.fonts.check('700 20px "Gin Card"'), other: ctx.measureText('10JQKA').width};
           }""",
        timeout_s=15,
        what="the card font loaded",
    )
    assert font["family"].replace('"', "").startswith("Gin Card,"), font
    assert font["check"] and font["width"] != font["other"], font
    CARD_FONT_WIDTHS[engine.name] = font["width"]
    TIMES[engine.name]["card_font_width"] = round(font["width"], 2)
    widths = list(CARD_FONT_WIDTHS.values())
    assert max(widths) - min(widths) < 0.01 * max(widths), CARD_FONT_WIDTHS


# Counts the audio sources the page starts (oscillators and buffer sources each have a start()).
SOUND_SPY = """() => {
    if (window.__soundStarts !== undefined) return true;
    window.__soundStarts = 0;
    for (const proto of [AudioScheduledSourceNode.prototype, AudioBufferSourceNode.prototype]) {
      if (!Object.prototype.hasOwnProperty.call(proto, 'start')) continue;
      const start = proto.start;
      proto.start = function (...args) { window.__soundStarts++; return start.apply(this, args); };
    }
    return true;
  }"""


def select_to_discard(visit, view) -> None:
    """A card selected for the discard button: the one a reload kept selected (a tap on it would
    be the second tap of a discard), else one tapped now."""
    if visit.engine.call("() => window.ginApp.ui.selected"):
        return
    card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
    visit.engine.tap(f'.hand [data-card="{card}"]')


def test_the_table_sounds_and_its_mute_silences_it(visit):
    """Sound is on by default: the player's discard and the computer's turn start audio sources
    (Web Audio, made at the first tap); one tap on the table's mute and a whole turn starts none;
    one more tap and the next move sounds again. No console warning about audio either."""
    engine = visit.engine
    engine.call(SOUND_SPY)
    mute = '[data-key="sound-toggle"]'
    assert engine.call("(s) => document.querySelector(s).getAttribute('aria-pressed')", mute) == "true"
    view = to_discard(visit)
    select_to_discard(visit, view)
    visit.press("discardSelected", "btn.discard")
    visit.idle()
    heard = engine.call("() => window.__soundStarts")
    assert heard > 0, engine.name
    engine.tap(mute)
    assert engine.call("(s) => document.querySelector(s).getAttribute('aria-pressed')", mute) == "false"
    view = to_discard(visit)  # a draw from the stock
    select_to_discard(visit, view)
    visit.press("discardSelected", "btn.discard")
    visit.idle()
    assert engine.call("() => window.__soundStarts") == heard, engine.name
    visit.shot("muted")
    engine.tap(mute)
    assert engine.call("(s) => document.querySelector(s).getAttribute('aria-pressed')", mute) == "true"
    to_discard(visit)
    engine.wait("(n) => window.__soundStarts > n", heard, timeout_s=10, what="the draw's sound")
