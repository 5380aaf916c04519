"""The table before the engine (issue 33): a reload draws the table last shown (kept beside the
save under gin.shown.v1) while the engine's worker is held back, marks it as waking up, queues a
move asked meanwhile and plays it exactly once when the engine answers; a kept view that disagrees
with the save gives way to the engine's (the queued move refused, visibly); an unreadable or stale
one is ignored; a tab that does not own the match never writes it.

The worker's script is held in the server (GatedServer, tests/e2e/conftest.py) so the engine
cannot answer until the test lets it go; the service worker is blocked so that request always
reaches the server. The tests share one context (`warm`: its HTTP cache kept, which a route would
turn off, so only the module's first load fetches the build; the player's storage wiped after each
test) and start from one played position (`at_draw`: the match played once to the player's draw,
its storage put back in each test's tab before the page's scripts, as a reload finds it)."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from conftest import _WIPE, NO_WAY_OUT, SETTINGS_KEY, GatedServer, _wait_ready, guard_context, watch_errors
from test_table import button, hand_cards, settle, shoot
from test_table_more import put_strings_in_storage

SHOWN_KEY = "gin.shown.v1"
SEED = "WAKE-0001"
SETTINGS = {"speed": "instant", "level": "easy"}
PHONE = (390, 844)
QUEUED = "Se jugará en cuanto el juego despierte."
CHANGED = "La mesa cambió al despertar el juego: esa jugada no se hizo."


WORKER = "/worker.js"


@pytest.fixture(scope="module")
def site(dist):
    """dist/ on a server of this module whose gate holds the engine's worker script."""
    srv = GatedServer()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def warm(browser, site):
    """The module's context: service workers blocked (every load asks `site`), no route (the
    guard records, NO_WAY_OUT keeps other hosts out), so its HTTP cache keeps the build between
    tests. `keeper`, a page on a small file of the origin, wipes the player's storage."""
    c = guard_context(browser.new_context(locale="es-ES", service_workers="block", proxy=NO_WAY_OUT), routed=False)
    c.keeper = c.new_page()
    c.keeper.goto(site.url + "app.webmanifest")
    yield c
    site.release()
    c.close()


@pytest.fixture
def ctx(warm, site):
    """The module's context for one test: afterwards its pages closed, the gate opened and the
    player's storage (local, IndexedDB, cookies) wiped. The pages close before the gate opens: a
    worker script let through to a page about to close started an engine whose IndexedDB open
    the close cut short, and the wipe's IndexedDB calls then never answered. The wipe waits
    until the storage stays empty for a moment: a page just closed may still write (its engine's
    database; a whole run once found one left, after the computer's next step's test)."""
    warm.requests.clear()
    warm.foreign.clear()
    yield warm
    for pg in list(warm.pages):
        if pg is not warm.keeper and not getattr(pg, "keep", False):
            pg.close()
    site.release()
    foreign = list(warm.foreign)
    wiped = warm.keeper.evaluate(_WIPE, {"settle": 150})
    assert not foreign, f"requests to other hosts: {foreign}"
    assert wiped, "the player's storage was not wiped"


@contextlib.contextmanager
def span_of(page, warm):
    """A test's span of a page kept open for several tests: its errors, or a request to another
    host, during the test fail it."""
    warm.foreign.clear()
    seen = len(page.errors)
    yield page
    errors, foreign = page.errors[seen:], list(warm.foreign)
    assert not errors, "\n".join(errors)
    assert not foreign, f"requests to other hosts: {foreign}"


def new_tab(ctx):
    pg = watch_errors(ctx.new_page())
    pg.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    pg.emulate_media(reduced_motion="reduce")
    return pg


@pytest.fixture
def tab(ctx):
    pg = new_tab(ctx)
    yield pg
    assert not pg.errors, "\n".join(pg.errors)


@dataclass(frozen=True)
class Position:
    storage: dict  # the page's localStorage, key -> raw text
    url: str
    view: dict
    hand: list
    scores: tuple
    moves: int


def to_draw(page):
    """The match WAKE-0001 (opened at `page`'s URL) at the player's draw from the stock."""
    view = settle(page)
    for _ in range(4):
        if view["phase"] == "draw" and view["to_act"] == 0:
            return view
        button(page, "Pasar").click()
        view = settle(page)
    raise AssertionError(view["phase"])


@pytest.fixture(scope="module")
def at_draw(warm, site):
    """The match WAKE-0001 played once, in a tab of `warm` as the tests' tabs are, to the player's
    draw from the stock: what the page kept in localStorage and what it showed then."""
    pg = new_tab(warm)
    pg.add_init_script("localStorage.setItem(%s, %s)" % (json.dumps(SETTINGS_KEY), json.dumps(json.dumps(SETTINGS))))
    pg.goto(site.url + f"#seed={SEED}")
    _wait_ready(pg)
    view = to_draw(pg)
    position = Position(
        storage=pg.evaluate("() => Object.fromEntries(Object.entries(localStorage))"),
        url=pg.url,
        view=view,
        hand=hand_cards(pg),
        scores=scores(pg),
        moves=actions(pg),
    )
    assert not pg.errors, "\n".join(pg.errors)
    pg.close()
    assert warm.keeper.evaluate(_WIPE), "the player's storage was not wiped"
    return position


def open_at(page, at, site, storage=None):
    """The page opened on the position `at` (its storage put back, or `storage`), as a reload of
    its tab opens it; returns the view once the engine is up and it is the player's move."""
    put_strings_in_storage(page, at.storage if storage is None else storage)
    page.goto(at.url)
    _wait_ready(page)
    return settle(page)


# What the element under `sel` overlaps among the table's visible parts (cards, piles, labels,
# buttons, texts), and whether it is inside the viewport.
COVERED = """(sel) => {
  const mark = document.querySelector(sel).getBoundingClientRect();
  const hits = [];
  for (const e of document.querySelectorAll('.page button, .page .card, .page .meld-label, .page span, .page p, .page h2')) {
    if (e.closest(sel) || e.contains(document.querySelector(sel))) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    if (r.left < mark.right && mark.left < r.right && r.top < mark.bottom && mark.top < r.bottom)
      hits.push(`${e.tagName}.${e.className} ${Math.round(r.top)}-${Math.round(r.bottom)}`);
  }
  const inside = mark.top >= 0 && mark.left >= 0 && mark.bottom <= innerHeight && mark.right <= innerWidth;
  return {hits, inside, mark: [Math.round(mark.left), Math.round(mark.top), Math.round(mark.right), Math.round(mark.bottom)]};
}"""


def stored(page, key=SHOWN_KEY):
    raw = page.evaluate("(k) => localStorage.getItem(k)", key)
    return json.loads(raw) if raw is not None else None


def actions(page):
    return len(page.evaluate("window.ginApp.save")["actions"])


def scores(page):
    return page.locator(".score-human").inner_text(), page.locator(".score-computer").inner_text()


def open_held(page, at, site, storage=None):
    """The page opened on the position `at` (its storage put back, or `storage`: as a reload of
    its tab finds it) with the engine's worker script held in the server until `release`."""
    put_strings_in_storage(page, at.storage if storage is None else storage)
    site.hold(WORKER)
    page.goto(at.url)
    site.wait_asked(WORKER)


def release(page, site):
    """Let the worker's script through; the page then boots and opens the match."""
    site.release(WORKER)
    _wait_ready(page)
    return settle(page)


def test_a_reload_draws_the_saved_table_at_once_and_plays_a_queued_draw_once(tab, site, at_draw):
    view, hand, points, moves = at_draw.view, at_draw.hand, at_draw.scores, at_draw.moves
    kept = json.loads(at_draw.storage[SHOWN_KEY])  # kept by the page that played to the draw
    assert kept["seed"] == SEED and kept["actions"] == moves and kept["view"]["hand"] == view["hand"]

    open_held(tab, at_draw, site)
    tab.locator("#app[data-waking=true] .table").wait_for()
    # The same table as before the reload, the engine not up: the saved hand and scores, marked.
    assert tab.locator("#app").get_attribute("data-boot") != "ready"
    assert hand_cards(tab) == hand
    assert scores(tab) == points
    assert tab.get_by_role("status").filter(has_text="Despertando el juego…").count() == 1
    for size in ((844, 390), (1280, 800), PHONE):
        tab.set_viewport_size({"width": size[0], "height": size[1]})
        shoot(tab, "waking", size)
        # The mark covers nothing played: no card of the hand (its meld marks included), no label.
        covered = tab.evaluate(COVERED, ".waking-mark")
        assert covered["inside"] and not covered["hits"], (size, covered)
    # Selecting works at once; a draw is queued (said so), a second tap queues nothing more.
    card = hand[0]
    tab.locator(f'.hand [data-card="{card}"]').click(position={"x": 8, "y": 20})
    assert tab.locator(f'.hand [data-card="{card}"]').get_attribute("aria-pressed") == "true"
    button(tab, "Mazo").click()
    assert QUEUED in tab.locator(".messages").inner_text()
    button(tab, "Mazo").click()
    assert tab.evaluate("window.ginApp.ui.waking") is True

    view = release(tab, site)
    # Played exactly once, on the engine's match: one more action, the drawn card in hand.
    assert actions(tab) == moves + 1
    assert tab.evaluate("window.ginApp.save")["actions"][-1] == {"type": "draw", "from": "stock"}
    assert view["phase"] == "discard" and len(view["hand"]) == 11 and set(hand) < set(view["hand"])
    assert tab.locator("#app").get_attribute("data-waking") == "false"
    assert tab.locator(".waking-mark").count() == 0
    assert QUEUED not in tab.locator(".messages").inner_text()
    assert stored(tab)["actions"] == moves + 1  # the view kept beside the new save


# When the player's hand first appears (a saved table's, drawn by the page), and the frame after it.
HAND_CLOCK = """() => new MutationObserver((_, observer) => {
  if (!document.querySelector('.hand .hand-card')) return;
  observer.disconnect();
  window.__handAt = performance.now();
  requestAnimationFrame(() => { window.__handFrame = performance.now(); });
}).observe(document, {childList: true, subtree: true})"""
# When the page first constructs a Worker (boot.js's or the controller's).
WORKER_CLOCK = """() => { const Native = window.Worker; window.Worker = class extends Native {
  constructor(...args) { if (window.__workerAt === undefined) window.__workerAt = performance.now(); super(...args); }
}; }"""


# The page's scripts (by path) whose fetch began before the player's hand was on screen.
SCRIPTS_BEFORE_HAND = """async () => {
  const hand = await window.ginHand;
  const scripts = performance.getEntriesByType('resource')
    .filter((e) => e.startTime <= hand.at && /\\.m?js$/.test(new URL(e.name).pathname))
    .map((e) => new URL(e.name).pathname.slice(1));
  return { waking: hand.waking, scripts: [...new Set(scripts)].sort() };
}"""


class HeldTab:
    """One tab for the two tests that look at a saved table's page before its engine, opened on
    at_draw with the engine's script held and HAND_CLOCK, WORKER_CLOCK in it before its scripts:
    the first reads what it recorded while held, the second releases it and closes it (once up,
    the page owns the match, which no other test's tab may meet). `get()` opens it (again, if it
    was closed); `ctx` leaves it open (`keep`)."""

    def __init__(self, warm, site, at) -> None:
        self.warm, self.site, self.at = warm, site, at
        self.page = None

    def get(self):
        if self.page is None or self.page.is_closed():
            self.page = new_tab(self.warm)
            self.page.keep = True
            self.page.add_init_script(f"({HAND_CLOCK})(); ({WORKER_CLOCK})();")
            open_held(self.page, self.at, self.site)
        return self.page

    def close(self) -> None:
        """The page closed and the player's storage it wrote wiped."""
        self.site.release(WORKER)
        if self.page is not None and not self.page.is_closed():
            self.page.close()
            assert self.warm.keeper.evaluate(_WIPE), "the player's storage was not wiped"


@pytest.fixture(scope="module")
def _held_tab(warm, site, at_draw):
    held = HeldTab(warm, site, at_draw)
    yield held
    held.close()


@pytest.fixture
def held_tab(_held_tab, warm):
    """The module's HeldTab; its page's errors during the test, or a request to another host,
    fail the test."""
    with span_of(_held_tab.get(), warm):
        yield _held_tab


def test_the_saved_table_is_drawn_from_the_pages_two_scripts(held_tab):
    # On a slow phone each of the page's ~70 modules, fetched in ~5 import waves, cost a request
    # and a compile: the saved hand waited 2.3 s for them at CPU x4. The build serves each entry
    # file with its imports inside (tools/dist.py BUNDLED): nothing else is fetched before the hand.
    seen = held_tab.get().evaluate(SCRIPTS_BEFORE_HAND)
    assert seen == {"waking": True, "scripts": ["app.js", "boot.js"]}




def test_the_engines_worker_starts_once_the_saved_table_is_on_screen(held_tab, site, at_draw):
    # On a slow phone the page and the worker share one core: a worker started first (by boot.js)
    # delayed the saved hand by seconds. With a saved table it starts after the hand's frame.
    tab = held_tab.get()
    assert hand_cards(tab) == at_draw.hand  # drawn before the worker's script was even asked for
    assert tab.evaluate("window.ginEarlyWorker") is None
    release(tab, site)
    hand_at, frame, started = tab.evaluate("[window.__handAt, window.__handFrame, window.__workerAt]")
    held_tab.close()
    assert hand_at < frame <= started


# What the page holds at its first rendering opportunity (the requestAnimationFrame before the
# first paint): the saved hand, or the page's HTML frame of the table before its deal.
FIRST_FRAME = """() => requestAnimationFrame(() => {
  window.__firstFrame = { hand: document.querySelectorAll('.hand .hand-card').length,
                          frame: document.querySelectorAll('.boot .frame').length };
})"""


def test_a_reload_with_a_saved_table_paints_it_first_never_the_pages_frame(tab, site, at_draw):
    # At CPU x4 every frame is paid for by the whole browser's quarter of a core: the HTML's frame,
    # painted while app.js loaded, cost its raster and its frame (~0.2 s) before the saved hand.
    # app.js is render-blocking: the first paint is the saved table. Here app.js is held until
    # either a frame is drawn without it (the old page) or a while has passed with none.
    hand = at_draw.hand
    tab.add_init_script(f"({FIRST_FRAME})()")
    put_strings_in_storage(tab, at_draw.storage)
    site.hold("/app.js")
    site.hold(WORKER)
    tab.goto(at_draw.url, wait_until="commit")
    site.wait_asked("/app.js")
    try:
        tab.wait_for_function("() => window.__firstFrame !== undefined", timeout=1500, polling=50)
    except PlaywrightTimeout:  # no frame while app.js is held: what is wanted
        pass
    site.release("/app.js")
    tab.wait_for_function("() => window.__firstFrame !== undefined")
    assert tab.evaluate("window.__firstFrame") == {"hand": len(hand), "frame": 0}
    assert hand_cards(tab) == hand
    release(tab, site)


def test_a_saved_table_that_disagrees_with_the_save_gives_way_to_the_engines(tab, site, at_draw):
    hand, points, moves = at_draw.hand, at_draw.scores, at_draw.moves
    kept = json.loads(at_draw.storage[SHOWN_KEY])
    kept["view"]["scores"] = [77, 66]  # readable, of this save, but not what the engine says

    open_held(tab, at_draw, site, {**at_draw.storage, SHOWN_KEY: json.dumps(kept)})
    tab.locator("#app[data-waking=true] .table").wait_for()
    assert scores(tab) == ("77", "66")
    button(tab, "Mazo").click()
    assert QUEUED in tab.locator(".messages").inner_text()

    view = release(tab, site)
    assert scores(tab) == points and hand_cards(tab) == hand
    assert actions(tab) == moves and view["phase"] == "draw"  # the queued draw was not played
    assert CHANGED in tab.locator(".messages").inner_text()
    assert stored(tab)["view"]["scores"] == view["scores"]  # rewritten from the engine's view


# Before the page's scripts: buttons made (document.createElement) once `__made` is set to 0, and
# their number at the end of the task in which the engine's first answer takes the saved table's
# place (data-waking turns false), before the computer's move that follows after its pause; and
# the boot screen's progress bars made since the page opened.
BUILT_PROBE = r"""(() => {
  const make = Document.prototype.createElement;
  window.__made = null;
  window.__bootScreens = 0;
  Document.prototype.createElement = function (tag, ...rest) {
    const name = String(tag).toLowerCase();
    if (window.__made !== null && name === 'button') window.__made++;
    if (name === 'progress') window.__bootScreens++;
    return make.call(this, tag, ...rest);
  };
  new MutationObserver(() => {
    const app = document.getElementById('app');
    if (window.__made === null || window.__byAnswer !== undefined || !app || app.dataset.waking !== 'false') return;
    window.__byAnswer = null;
    setTimeout(() => {
      // What the answer's task left, read at its end (the computer's turn that follows, at
      // speed "normal", may change the hand before a test's next round trip).
      window.__atAnswer = {
        hand: [...document.querySelectorAll('.hand .hand-card')].map((e) => e.dataset.card),
        firstKept: Boolean(window.__first && window.__first.isConnected),
        waking: window.ginApp.ui.waking,
        boot: app.dataset.boot,
        marks: document.querySelectorAll('.waking-mark').length,
      };
      window.__byAnswer = window.__made;
    }, 0);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-waking'] });
})();"""


def test_the_engines_first_answer_takes_over_the_saved_table_without_building_it_again(tab, site, before_computer_ends_deal):
    # The saved table was built again at each stage of the engine's boot (a task of 30-40 ms of a
    # phone's CPU at x4 each), then twice more in the engine's first answer (its view, then the
    # computer's turn marking the table busy), for a table that had not changed. Now the boot's
    # stages only mark the page, and the answer's task builds the table once.
    from gin import bridge
    from test_table_more import MATCH_KEY

    save = before_computer_ends_deal
    view = json.loads(bridge.load(json.dumps({"save": save})))["view"]  # what the engine will say
    shown = {"version": 1, "seed": str(save["seed"]), "actions": len(save["actions"]), "view": view}
    tab.add_init_script(BUILT_PROBE)
    put_strings_in_storage(tab, {MATCH_KEY: json.dumps(save), SHOWN_KEY: json.dumps(shown), SETTINGS_KEY: json.dumps({"speed": "normal", "level": "easy"})})
    site.hold(WORKER)
    tab.goto(site.url + f"#seed={save['seed']}")
    site.wait_asked(WORKER)
    tab.locator("#app[data-waking=true] .table").wait_for()
    hand = hand_cards(tab)
    one_table = tab.locator(".page button").count()  # the buttons one build of this table makes, at most
    tab.evaluate("window.__first = document.querySelector('.hand .hand-card'); window.__made = 0")
    site.release(WORKER)
    tab.wait_for_function("() => typeof window.__byAnswer === 'number'", timeout=60_000)
    made, at = tab.evaluate("[window.__byAnswer, window.__atAnswer]")
    # The engine's table is the saved one, on the same nodes (the keyed update kept them).
    assert at["waking"] is False and at["boot"] == "ready", at
    assert at["hand"] == hand and at["firstKept"], (at, hand)
    assert at["marks"] == 0, at
    # Built once at most from the release to the end of the answer's task: 13 buttons, where the
    # old page made 52 (four builds: two stages of the boot, the answer's view, the busy mark).
    assert made <= one_table, (made, one_table)
    # Nor was the boot screen built first, in the task that drew the saved table (a phone's first
    # frame paid for both).
    assert tab.evaluate("window.__bootScreens") == 0


@pytest.mark.parametrize("spoil", ["unreadable", "stale"])
def test_an_unreadable_or_stale_saved_table_is_ignored(tab, site, at_draw, spoil):
    hand, moves = at_draw.hand, at_draw.moves
    if spoil == "unreadable":
        text = '{"version": 1, "seed": "WAKE-0001", "act'
    else:  # the view of an earlier position of the same match
        kept = json.loads(at_draw.storage[SHOWN_KEY])
        kept["actions"] = moves - 1
        text = json.dumps(kept)

    open_held(tab, at_draw, site, {**at_draw.storage, SHOWN_KEY: text})
    tab.locator("#app .boot").wait_for()
    assert tab.locator(".table").count() == 0 and tab.locator("#app").get_attribute("data-waking") != "true"
    view = release(tab, site)
    assert hand_cards(tab) == hand and actions(tab) == moves and view["phase"] == "draw"
    assert stored(tab)["actions"] == moves  # written again, readable, by the tab that plays


def test_a_tab_that_does_not_own_the_match_never_writes_the_saved_table(ctx, tab, open_app, site, at_draw):
    open_at(tab, at_draw, site)
    moves = actions(tab)
    assert moves == at_draw.moves
    kept = stored(tab)
    kept["view"]["scores"] = [5, 5]  # a mark only this test wrote
    marked = json.dumps(kept)
    tab.evaluate("([k, v]) => localStorage.setItem(k, v)", [SHOWN_KEY, marked])

    other = watch_errors(ctx.new_page())
    open_app(other, url=site.url)  # the saved match, which the first tab plays
    other.get_by_role("dialog", name="Partida abierta en otra pestaña").wait_for()
    assert tab.evaluate("(k) => localStorage.getItem(k)", SHOWN_KEY) == marked
    # The tab that plays it writes it at its next move.
    button(tab, "Mazo").click()
    settle(tab)
    assert stored(tab)["actions"] == moves + 1 and stored(tab)["view"]["scores"] != [5, 5]
    assert not other.errors, "\n".join(other.errors)
    other.close()


def test_a_first_visit_shows_the_tables_frame_from_the_first_paint(browser, tab, server, site):
    # Before any script runs (here: none at all), the page's HTML is the table before its deal.
    bare = browser.new_context(java_script_enabled=False, viewport={"width": PHONE[0], "height": PHONE[1]})
    try:
        still = bare.new_page()
        still.goto(server.url)
        assert still.locator(".frame-hand .card.empty").count() == 10
        assert still.locator(".frame-opp .card.empty").count() == 10
        assert still.locator(".frame-piles .card.back").is_visible()
        assert all(still.locator(".frame-hand .card").nth(i).is_visible() for i in range(10))
    finally:
        bare.close()
    # The page drawn by its script while the engine is held: the same frame, with the stage.
    site.hold(WORKER)
    tab.goto(site.url)
    site.wait_asked(WORKER)
    tab.locator(".boot .stage").wait_for()
    assert tab.locator(".boot .frame-hand .card.empty").count() == 10
    assert tab.locator(".boot .frame-piles .card.back").is_visible()
    box = tab.locator(".frame-hand").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0] + 1 and box["y"] + box["height"] <= PHONE[1] + 1
    for size in (PHONE, (844, 390), (1280, 800)):
        tab.set_viewport_size({"width": size[0], "height": size[1]})
        shoot(tab, "first-frame", size)
    tab.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    view = release(tab, site)
    assert len(view["hand"]) == 10 and len(hand_cards(tab)) == 10
    assert tab.locator(".frame").count() == 0


# Before the page's scripts: each deal result panel put in #app before any deal has ended (the
# page's warm-up), in order: whether it was hidden then (not under a tap, out of the accessibility
# tree), how many cards it had, and whether it was still in the page when its task ended (the
# observer runs after it); and how many went.
WARM_PROBE = r"""(() => {
  const w = window.__warm = { added: [], removed: 0, dealEnded: false };
  new MutationObserver((records) => {
    const app = window.ginApp;
    if (app && app.ui.panel) w.dealEnded = true;
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType !== 1 || !n.matches('.overlay[data-key="panel:deal"]') || w.dealEnded) continue;
        w.added.push({
          hidden: !n.contains(document.elementFromPoint(innerWidth / 2, innerHeight / 2)) && n.getAttribute('aria-hidden') === 'true',
          cards: n.querySelectorAll('[data-face]').length,
          stayed: n.isConnected,
        });
      }
      for (const n of r.removedNodes) if (n.nodeType === 1 && n.matches('.overlay[data-key="panel:deal"]') && !w.dealEnded) w.removed++;
    }
  }).observe(document, { subtree: true, childList: true });
})();"""


def test_the_page_lays_a_deal_result_panel_out_hidden_at_idle_moments_before_the_first_deal_ends(ctx, site):
    # Issue 33: the first deal result panel a page lays out pays for its script's first run and
    # its first layout; the page pays for them at idle moments once the table is up, with a
    # made-up panel it lays out hidden and takes away (it never did: the menu's overlay, always in
    # the page, counted as a panel already open). Its first layout, at once, was a phone's frame
    # of 63-127 ms at x4: its words are laid out first, a part at a time, each at an idle moment
    # of its own, then the whole panel with its cards.
    from test_table_more import put_in_storage

    page = new_tab(ctx)
    put_in_storage(page, {SETTINGS_KEY: {"speed": "fast", "level": "easy"}})
    page.add_init_script(WARM_PROBE)
    page.emulate_media(reduced_motion="no-preference")
    page.goto(site.url + "#seed=WARM-0001")
    _wait_ready(page)
    page.wait_for_function("() => window.__warm.added.some(a => a.cards > 0)", timeout=15_000)
    w = page.evaluate("window.__warm")
    *words, whole = w["added"]
    assert len(words) > 1 and w["removed"] == len(words) + 1 and not w["dealEnded"], w
    assert all(a["cards"] == 0 for a in words) and whole["cards"] > 0, w
    assert all(a["hidden"] and not a["stayed"] for a in w["added"]), w
    assert page.locator(".overlay[data-key='panel:deal']").count() == 0 and page.evaluate("window.ginApp.ui.panel") is None
    assert button(page, "Mazo").is_visible()


# Before the page's scripts: a frame counter; the frame whose task last changed the discard pile's
# top (a discard rendered); and, for each request of the computer's next step sent to the engine's
# worker, the frame of its task and that last change's.
STEP_PROBE = r"""(() => {
  const p = window.__steps = { frame: 0, shown: null, asked: [] };
  const tick = () => { p.frame++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  new MutationObserver(() => { p.shown = p.frame; }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-top'] });
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.method === 'computer_step') p.asked.push({ frame: p.frame, shown: p.shown });
    return post.call(this, message, ...rest);
  };
})();"""


def test_the_computers_next_step_is_asked_once_the_discard_before_it_is_painted(tab, site, at_draw):
    # Issue 33: the render of the player's discard is a phone's whole frame at x4, and the request
    # of the computer's first step was posted in that same task (the engine's call, its watchdog,
    # the message). It goes in a later task, once that frame is painted: the pause before the
    # computer's move covers it.
    tab.add_init_script(STEP_PROBE)
    open_at(tab, at_draw, site)
    button(tab, "Mazo").click()
    view = settle(tab)
    dd = view["discard_deadwood"]
    card = min((a["card"] for a in view["legal"] if a["type"] == "discard"), key=lambda c: (dd.get(c, 99), c))
    hand = tab.locator(f'.hand [data-card="{card}"]')
    hand.click(position={"x": 8, "y": 20})
    hand.click(position={"x": 8, "y": 20})
    after = settle(tab)
    assert after["to_act"] == 0 and actions(tab) > at_draw.moves + 2  # the computer has played
    steps = tab.evaluate("window.__steps")
    assert steps["asked"] and steps["asked"][0]["shown"] is not None, steps
    assert all(a["frame"] > a["shown"] for a in steps["asked"] if a["shown"] is not None), steps


@pytest.fixture(scope="module")
def before_computer_ends_deal():
    """A match saved just before the computer's moves that end its first deal."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "saves"))
    import make_saves

    def human(view):
        return make_saves.least_deadwood(view, knock=False)

    for i in range(1, 200):
        match = make_saves.new(f"DEAL-{i:04d}", "traditional")
        before = None
        while not match.results:
            before = match.to_save() if match.to_act == 1 else None
            make_saves.step(match, human)
        if before and match.view(0)["history"][-1]["knocker"] == 1:
            return before
    raise LookupError("no deal ended by the computer")


# Before the page's scripts: a frame counter, and the frame of the first change of the page made
# once the state says "deal" and of the first with the deal result panel in it.
DEAL_END_PROBE = r"""(() => {
  const p = window.__dealEnd = { frame: 0, stateFrame: null, panelFrame: null, panelWithState: null };
  const tick = () => { p.frame++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  new MutationObserver(() => {
    const app = window.ginApp;
    if (!app || p.panelFrame !== null) return;
    const panel = document.querySelector('.panel.deal') !== null;
    if (app.ui.panel === 'deal' && p.stateFrame === null) { p.stateFrame = p.frame; p.panelWithState = panel; }
    if (panel) p.panelFrame = p.frame;
  }).observe(document, { subtree: true, childList: true });
})();"""


@pytest.fixture(scope="module")
def deal_end(warm, site, before_computer_ends_deal):
    """One page for the four tests of the deal's end (the last closes the panel, so it comes
    last): the match saved just before the computer's moves that end its first deal, opened at
    fast speed with motion, the probes (DEAL_END_PROBE, PANEL_STAGES_PROBE, CLOSE_PROBE) in the page before
    its scripts; the deal result panel shown once the computer's move has ended the deal, and
    the restyles made inside its showing (`reveal_restyles`: a DevTools trace from the page's
    start). `ctx` leaves it open (`keep`)."""
    from test_table_more import MATCH_KEY, put_in_storage

    save = before_computer_ends_deal
    page = new_tab(warm)
    page.keep = True
    put_in_storage(page, {MATCH_KEY: save, SETTINGS_KEY: {"speed": "fast", "level": "easy"}})
    page.add_init_script(DEAL_END_PROBE)
    page.add_init_script(PANEL_STAGES_PROBE)
    page.add_init_script(REVIEW_WORKER_PROBE)
    page.add_init_script(CLOSE_PROBE)
    page.emulate_media(reduced_motion="no-preference")
    # A DevTools trace from the page's start to the panel shown: the restyles made while it shows.
    cdp = page.context.new_cdp_session(page)
    events, done = [], []
    cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
    cdp.on("Tracing.tracingComplete", lambda e: done.append(1))
    cdp.send("Tracing.start", {"categories": "devtools.timeline,disabled-by-default-devtools.timeline.stack", "transferMode": "ReportEvents"})
    page.goto(site.url + f"#seed={save['seed']}")
    _wait_ready(page)
    page.wait_for_function("() => document.querySelector('.overlay[data-key=\"panel:deal\"]:not([data-building])')", timeout=30_000)
    cdp.send("Tracing.end")
    for _ in range(500):
        if done:
            break
        page.wait_for_timeout(20)
    cdp.detach()
    assert done, "the trace never ended"

    def by_reveal(e):
        data = e.get("args", {}).get("beginData", {}) or {}
        return any(f.get("functionName") == "revealPanel" for f in data.get("stackTrace") or [])

    page.reveal_restyles = [e.get("args", {}).get("elementCount", 0) for e in events if e.get("name") == "UpdateLayoutTree" and by_reveal(e)]
    yield page
    page.close()
    assert warm.keeper.evaluate(_WIPE), "the player's storage was not wiped"


@pytest.fixture
def at_deal_end(deal_end, warm):
    """deal_end's page and its deal result panel; its errors, or a request to another host
    during the test, fail the test."""
    with span_of(deal_end, warm):
        yield deal_end, deal_end.locator(".panel.deal")


def test_the_deal_result_panel_is_built_after_the_frame_that_ends_the_deal(at_deal_end):
    tab, panel = at_deal_end
    probe = tab.evaluate("window.__dealEnd")
    # The render that ends the deal shows the table without the panel; the panel comes in a later frame.
    assert probe["stateFrame"] is not None and probe["panelWithState"] is False, probe
    assert probe["panelFrame"] > probe["stateFrame"], probe
    assert panel.get_by_role("button", name="Siguiente").is_visible()
    tab.evaluate("window.ginApp.idle()")
    assert tab.evaluate("document.activeElement.dataset.intent") == "next"  # the focus the panel asked for


def test_the_deal_result_panel_shows_without_restyling_its_parts(at_deal_end):
    # Issue 33: the panel laid out hidden was `visibility: hidden`, an inherited property, so
    # showing it restyled each of its ~160 elements in the showing's frame (20 ms of a phone's
    # frame at x4). Hidden by a property its parts do not inherit, showing it restyles the
    # overlay alone, and what the focus given to "Siguiente" restyles (the restyles made inside
    # the showing's script, from the fixture's trace).
    tab, panel = at_deal_end
    shown = tab.reveal_restyles
    parts = tab.locator(".overlay[data-key='panel:deal'] *").count()
    assert shown, "no restyle inside the showing of the panel was traced"
    assert parts > 100 and sum(shown) < parts / 4, (shown, parts)
    assert panel.get_by_role("button", name="Siguiente").is_visible()


# Before the page's scripts: each extra engine's worker (Difícil with your cards, runtime's
# REVIEW_ROLE) as it is started, with whether the deal result panel was on screen then.
REVIEW_WORKER_PROBE = r"""(() => {
  const Base = window.Worker;
  const started = window.__reviewWorkers = [];
  window.Worker = class extends Base {
    constructor(url, options) {
      super(url, options);
      if (options && options.name === 'gin-review')
        started.push({ panelShown: document.querySelector('.overlay[data-key="panel:deal"]:not([data-building])') !== null });
    }
  };
})();"""


def test_the_extra_engine_for_the_deals_replay_starts_once_the_deal_result_panel_is_shown(at_deal_end):
    # Issue 33: the computer's move that ends the deal draws the next deal's table in its frame
    # (the longest of a deal's end at x4); the extra engine that replays the deal with Difícil
    # in the player's seat started its worker in that same task (~15 % of its script). It starts
    # at an idle moment once the panel is shown: the replay takes seconds anyway.
    tab, panel = at_deal_end
    tab.wait_for_function("() => window.__reviewWorkers.length > 0", timeout=10_000)
    started = tab.evaluate("window.__reviewWorkers")
    assert started == [{"panelShown": True}], started
    assert panel.get_by_role("button", name="Siguiente").is_visible()


# Before the page's scripts: the frame of the first render with the deal result in the state, the
# frame the result panel is put in the page (and whether it is hidden then), and the frame it
# shows, with what that change did inside the panel (a node added or removed is a build) and how
# many of its cards were in flight by then (the showdown).
PANEL_STAGES_PROBE = r"""(() => {
  // Hidden: not under a tap at the screen's centre (where a panel shows), out of the
  // accessibility tree.
  const hiddenPanel = (overlay) => !overlay.contains(document.elementFromPoint(innerWidth / 2, innerHeight / 2))
    && (overlay.getAttribute('aria-hidden') === 'true' || getComputedStyle(overlay).visibility === 'hidden');
  window.__hiddenPanel = hiddenPanel;
  const p = window.__stages = { frame: 0, stateFrame: null, inserted: null, insertedHidden: null, shown: null, builtWhenShown: null, flyingWhenShown: null };
  const tick = () => { p.frame++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  new MutationObserver((records) => {
    const app = window.ginApp;
    if (app && app.ui.panel === 'deal' && p.stateFrame === null) p.stateFrame = p.frame;
    const overlay = document.querySelector('.overlay[data-key="panel:deal"]');
    if (!overlay || p.shown !== null) return;
    if (p.inserted === null) {
      p.inserted = p.frame;
      p.insertedHidden = hiddenPanel(overlay);
    }
    if (!overlay.hasAttribute('data-building')) {
      p.shown = p.frame;
      p.builtWhenShown = records.some(r => r.type === 'childList' && overlay.contains(r.target) && (r.addedNodes.length || r.removedNodes.length));
      p.flyingWhenShown = overlay.querySelectorAll('[data-flying]').length;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-building'] });
})();"""


# Before the page's scripts: what the tap on "Siguiente" did in its own task (from its pointerup to
# the end of its click's capture, the intent's task on a phone or a desktop): the nodes it put in
# #app or took out of it (the page built again, the panel taken out; the live region's line that
# tells the new deal is not the page's), whether the deal result panel was out of sight and out
# of the accessibility tree by then, and where the focus was; then, at each of the next frames
# until the deal flies, whether the table showed under the panel's veil (as while the panel was
# up) or with every card of the deal in flight (from the stock): a card drawn where it lands a
# frame before it is dealt would flash.
CLOSE_PROBE = r"""(() => {
  const c = window.__close = { tap: null, frames: [] };
  let during = null;
  const observer = new MutationObserver((records) => { if (during) during.push(...records); });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  const centre = () => document.elementFromPoint(innerWidth / 2, innerHeight / 2);
  const veiled = () => { const o = centre(); return Boolean(o && o.matches('.overlay[data-key="panel:deal"]')); };
  const still = () => document.querySelectorAll('.table .hand .hand-card:not([data-flying]), .table .opp-backs .card:not([data-flying])').length;
  const frame = () => {
    const f = { veiled: veiled(), still: still() };
    c.frames.push(f);
    if (f.veiled || f.still) requestAnimationFrame(frame);
  };
  addEventListener('pointerup', (e) => { if (e.target.closest && e.target.closest('.panel.deal [data-intent="next"]')) during = []; }, true);
  const ended = () => {
    if (!during) return;
    const records = during.concat(observer.takeRecords());
    during = null;
    const app = document.getElementById('app');
    const panel = document.querySelector('.panel.deal');
    const overlay = panel && panel.closest('.overlay');
    c.tap = {
      built: records.filter((r) => app.contains(r.target)).reduce((n, r) => n + r.addedNodes.length + r.removedNodes.length, 0),
      panelGone: !panel || (!panel.contains(centre()) && overlay.getAttribute('aria-hidden') === 'true'),
      focus: document.activeElement === document.body ? null : document.activeElement.dataset.key || null,
    };
    requestAnimationFrame(frame);
  };
  // The page swallows its tap's own click in the capture phase (table/input.js): this one is
  // registered first on the document, after the page's on the window.
  document.addEventListener('click', ended, true);
  addEventListener('click', ended, true);
  addEventListener('pointerup', () => setTimeout(ended, 0));
})();"""


def test_the_deal_result_panel_is_laid_out_hidden_before_it_shows_and_the_next_deal_is_dealt_after(at_deal_end):
    # A phone at a quarter of its CPU paid the panel's build, its layout and the showdown in one
    # frame: the panel is put in the page hidden (laid out in that frame), then shown in a later
    # frame as it is (nothing built then), its showdown starting as it shows.
    tab, panel = at_deal_end
    tab.evaluate("window.ginApp.idle()")
    p = tab.evaluate("window.__stages")
    assert p["stateFrame"] is not None and p["inserted"] > p["stateFrame"], p
    assert p["insertedHidden"] is True and p["shown"] > p["inserted"], p
    assert p["builtWhenShown"] is False and p["flyingWhenShown"] > 0, p
    assert tab.evaluate("document.activeElement.dataset.intent") == "next"
    # The next deal was not dealt under the panel: it flies from the stock once the panel closes.
    tab.wait_for_function("() => !document.querySelector('[data-flying]')")
    panel.get_by_role("button", name="Siguiente").click()
    # Cards of the new hand in flight (at fast speed on a loaded machine the first may have landed
    # before this look; on the old page none flew).
    tab.wait_for_function("() => document.querySelectorAll('.table .hand [data-flying]').length > 0 && document.getElementById('app').hasAttribute('data-dealing')", polling="raf", timeout=5_000)
    # Issue 33: the tap's own task only closes the panel over the next deal's table (drawn under
    # it already), its deal flying from the next frame: nothing built or taken out of the page in
    # that task (the whole page built again there was half of a frame of 150-330 ms at x4). In
    # that task the panel has gone out of sight; the focus is where the next deal asks for it.
    tap = tab.evaluate("window.__close.tap")
    assert tap is not None, "the tap on Siguiente was not seen"
    assert tap["built"] == 0 and tap["panelGone"] is True, tap
    # Every frame from the tap until the deal flies: the table under the veil, or dealt.
    tab.wait_for_function("() => window.__close.frames.length && !window.__close.frames.at(-1).veiled && !window.__close.frames.at(-1).still")
    frames = tab.evaluate("window.__close.frames")
    assert all(f["veiled"] or f["still"] == 0 for f in frames) and len(frames) <= 4, frames
    # The focus the tap gave is the next deal's (Tomar: the deal then hides it while it lands, as
    # before), and the panel is taken out of the page a moment later.
    view = tab.evaluate("window.ginApp.view")
    wanted = None if view["to_act"] != 0 else "act:take" if view["phase"].startswith("upcard") else "stock"
    assert tap["focus"] == wanted, (tap, view["phase"])
    tab.evaluate("window.ginApp.idle()")
    assert tab.locator(".overlay[data-key='panel:deal']").count() == 0

