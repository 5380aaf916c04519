"""The table on a phone (issue 20): taps that always work on touch (a drag never swallows the next
tap, a card in flight is no target), a computer that waits for the animation in front of it and for
a closed menu, stale messages cleared, motion that tells the truth (only the card that moves flies;
a quick double-tap discard flies too), the result panels, the rules page's way back, labels that
say what they do, and the phone layouts (card sizes, a top bar that fits at 320 px)."""

from __future__ import annotations

import time

import pytest
from conftest import PHONE, resize
from test_table import button, settle, ui

SEED = "TEST-0001"
TOUCH_FAST = {"speed": "instant", "level": "easy", "sort": "melds"}
TOUCH_MOVING = {"speed": "normal", "level": "easy", "sort": "melds"}


# --- a touch phone: real touch events through CDP ----------------------------------------------


# `phone` (tests/e2e/conftest.py): a page on a touch phone at 390×844, a returning visitor's.


def touch(page, kind, x=None, y=None):
    points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
    page.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def tap(page, x, y):
    touch(page, "touchStart", x, y)
    touch(page, "touchEnd")


def centre(page, selector):
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def tap_on(page, selector):
    tap(page, *centre(page, selector))


def touch_drag(page, start, end, steps=10):
    (x0, y0), (x1, y1) = start, end
    touch(page, "touchStart", x0, y0)
    for i in range(1, steps + 1):
        touch(page, "touchMove", x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        page.wait_for_timeout(16)
    touch(page, "touchEnd")


def open_phone(page, open_app, settings=TOUCH_FAST, seed=SEED):
    page.emulate_media(reduced_motion="no-preference")
    open_app(page, hash=f"#seed={seed}", settings=settings)
    return settle(page)


def opened_still(page, open_app, settings, seed=SEED):
    """The page opened with reduced motion, so that its first deal (no part of the tests that
    open this way) lands at once instead of flying; then motion as the player has it (the page
    asks for prefers-reduced-motion at each render): the view."""
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={seed}", settings=settings)
    view = settle(page)
    page.wait_for_function("() => !document.getElementById('app').hasAttribute('data-dealing')")
    page.emulate_media(reduced_motion="no-preference")
    return view


def to_draw_by_touch(page, view):
    if view["phase"].startswith("upcard"):
        tap_on(page, '.actions [data-intent="pass"]')
        view = settle(page)
    assert view["phase"] == "draw", view["phase"]
    return view


def strip_of(page, card):
    """A point on the visible strip of a hand card (its left edge)."""
    box = page.locator(f'.hand [data-card="{card}"]').bounding_box()
    return box["x"] + 10, box["y"] + box["height"] / 2


def discardable(view):
    return next(a["card"] for a in view["legal"] if a["type"] == "discard")


def test_a_touch_drag_never_swallows_the_next_tap(phone, open_app):
    page = phone
    view = to_draw_by_touch(page, open_phone(page, open_app))
    for turn in range(3):
        tap_on(page, ".pile.stock")
        view = settle(page)
        assert view["phase"] == "discard", (turn, view["phase"])  # one tap drew
        card = discardable(view)
        pile = centre(page, ".pile.discard-pile .pile-cards")
        if turn == 1:
            # A drag that misses the pile changes nothing, and swallows nothing either.
            x, y = strip_of(page, card)
            touch_drag(page, (x, y), (x + 20, y - 120))
            assert settle(page)["phase"] == "discard"
            tap_on(page, ".topbar .hint-btn")  # one tap on Pista answers
            page.wait_for_function("() => window.ginApp.ui.message && window.ginApp.ui.message.kind === 'hint'")
        touch_drag(page, strip_of(page, card), pile)
        view = settle(page)
        if view["over"] or ui(page)["panel"]:
            break
        assert card not in view["hand"] and view["phase"] == "draw", (turn, view["phase"])


def test_a_touch_tap_on_the_table_takes_no_focus(phone, open_app):
    """Issue 33: a touch player never sees the focus. A tap on a table button focused it (at the
    tap's compatibility mousedown, after the pointerup the move ran on) and the engine's answer let
    it go again: a style pass of its own in the answer's task, 3-6 ms at x4. A tap now takes none:
    Mazo drawn, a card selected, then discarded."""
    page = phone
    view = to_draw_by_touch(page, open_phone(page, open_app))
    page.evaluate("() => { window.__focused = []; document.addEventListener('focusin', (e) => window.__focused.push(e.target.dataset.key || e.target.tagName)); }")
    focused = lambda: page.evaluate("[window.__focused, !document.activeElement.closest('.table')]")
    tap_on(page, ".pile.stock")
    view = settle(page)
    assert view["phase"] == "discard" and focused() == [[], True]
    card = discardable(view)
    tap(page, *strip_of(page, card))
    page.wait_for_function("(card) => window.ginApp.ui.selected === card", arg=card)
    assert focused() == [[], True]
    tap(page, *strip_of(page, card))
    view = settle(page)
    assert card not in view["hand"] and focused() == [[], True]


# --- pacing: the computer waits for the animation in front of it, and for a closed menu --------

# Records, from the page's first script on, when each animation of the motion layer starts and
# ends (its start plus its computed end time) and when the computer's move line changes, both on
# the animations' clock (the document's timeline, which no page.clock fakes). A flight not begun
# yet when a move shows is that move's own (launched by the render that shows it: a card the
# computer takes or discards) and is not recorded: its start, the time of the frame it begins in,
# may come a few ms before the move's time on a loaded machine.
# A flight of the motion layer: a script animation (not a CSS transition or animation) that is
# not drag.js's "held" card.
FLIGHT = "(a) => !(a instanceof CSSTransition) && !(a instanceof CSSAnimation) && a.id !== 'held'"

PACE_PROBE = """
const flight = FLIGHT_JS;
window.__pace = { ends: [], moves: [] };
const seen = new WeakSet();
const withMove = new WeakSet();
function note() {
  const line = document.querySelector('.opp-last');
  const text = line ? line.textContent.trim() : '';
  const last = window.__pace.moves.at(-1);
  if (!text || (last && last.text === text)) return;
  window.__pace.moves.push({ text, at: document.timeline.currentTime });
  for (const a of document.getAnimations()) if (flight(a) && a.startTime === null) withMove.add(a);
}
function look() {
  for (const a of document.getAnimations()) {
    if (!flight(a) || seen.has(a) || withMove.has(a) || a.startTime === null) continue;
    seen.add(a);
    window.__pace.ends.push({ start: a.startTime, end: a.startTime + a.effect.getComputedTiming().endTime });
  }
  note();
  requestAnimationFrame(look);
}
requestAnimationFrame(look);
new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
""".replace("FLIGHT_JS", FLIGHT)


@pytest.mark.alone
def test_the_computer_moves_after_the_deal_has_landed(page, open_app):
    """TEST-0002: the player deals, so the computer decides on the upcard first."""
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.emulate_media(reduced_motion="no-preference")
    page.add_init_script(PACE_PROBE)
    open_app(page, hash="#seed=TEST-0002", settings=TOUCH_MOVING)
    page.wait_for_function("() => window.__pace.moves.length > 0", timeout=15_000)
    pace = page.evaluate("window.__pace")
    first = pace["moves"][0]["at"]
    ends = [e["end"] for e in pace["ends"] if e["start"] < first]  # the flights begun before the move showed
    deal_end = max(ends)
    assert len(ends) >= 21, ends  # twenty cards and the upcard
    assert first >= deal_end, (first, deal_end)
    # ... and not much later: the pause of the normal speed is 450 ms.
    assert first - deal_end < 1200, (first, deal_end)


def open_and_draw(page, open_app, size, reduced: bool, settings):
    """The page at `size`, the upcard passed and a card drawn from the stock (mouse clicks): the view."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    if reduced:
        page.emulate_media(reduced_motion="reduce")
        open_app(page, hash=f"#seed={SEED}", settings=settings)
        view = settle(page)
    else:
        view = opened_still(page, open_app, settings)
    if view["phase"].startswith("upcard"):
        button(page, "Pasar").click()
        settle(page)
    button(page, "Mazo").click()
    return settle(page)


@pytest.mark.alone
def test_an_open_menu_holds_the_computer_until_it_closes(page, open_app):
    view = open_and_draw(page, open_app, PHONE, False, TOUCH_MOVING)
    card = discardable(view)
    actions = len(page.evaluate("window.ginApp.save.actions"))
    page.locator(f'.hand [data-card="{card}"]').dblclick(position={"x": 8, "y": 20})
    button(page, "Menú").click()
    # Until the page is idle: the computer's pause and the flight in front of it over, and its
    # turn left for the menu to close (a computer that went on would be idle only after its draw).
    page.evaluate("() => window.ginApp.idle()")
    held = page.evaluate("window.ginApp.view")
    assert held["to_act"] == 1 and card in held["discard"]
    assert len(page.evaluate("window.ginApp.save.actions")) == actions + 1  # only the discard
    assert page.locator(".opp-last").inner_text().strip() == ""
    closed = page.evaluate("performance.now()")
    button(page, "Volver a la mesa").click()
    view = settle(page)
    assert view["to_act"] == 0 and len(page.evaluate("window.ginApp.save.actions")) >= actions + 3
    assert page.locator(".opp-last").inner_text().strip().startswith("El rival")
    assert page.evaluate("performance.now()") - closed >= 400  # it took its pause after the menu closed


@pytest.mark.alone
def test_wait_for_the_computer_is_cleared_when_it_no_longer_holds(page, open_app):
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    view = opened_still(page, open_app, {**TOUCH_MOVING, "speed": "slow"})
    if view["phase"].startswith("upcard"):
        button(page, "Pasar").click()
        view = settle(page)
    button(page, "Mazo").click()
    view = settle(page)
    page.locator(f'.hand [data-card="{discardable(view)}"]').dblclick(position={"x": 8, "y": 20})
    button(page, "Mazo").click()  # during the computer's turn
    assert page.locator('.messages [data-message="not_your_turn"]').is_visible()
    settle(page)
    assert page.locator('.messages [data-message="not_your_turn"]').count() == 0
    assert ui(page)["message"] is None
    assert page.locator(".messages .prompt").inner_text() == "Roba: toca el mazo o el descarte."


# --- motion that tells the truth ------------------------------------------------------------------


@pytest.mark.alone
def test_a_card_in_flight_is_no_target(phone, open_app):
    """At a deal's start the player's cards fly over the stock: a tap there reaches the stock."""
    page = phone
    page.emulate_media(reduced_motion="no-preference")
    open_app(page, hash=f"#seed={SEED}", settings=TOUCH_MOVING)
    x, y = centre(page, ".pile.stock .pile-cards")
    flying = running_flights(page)
    hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.pile.stock, .hand-card')?.className", [x, y])
    assert flying > 10, flying  # the deal is on its way
    assert "stock" in hit, f"a card in flight took the tap: {hit}"
    tap(page, x, y)
    page.wait_for_timeout(100)
    assert ui(page)["selected"] is None


class Layers:
    """The page's composited layers through CDP's LayerTree: how often each was painted, by the
    DOM node it belongs to (backend node ids)."""

    def __init__(self, page):
        self.page, self.cdp, self.layers = page, page.cdp, []
        self.cdp.on("LayerTree.layerTreeDidChange", lambda e: self.layers.__setitem__(slice(None), e.get("layers") or []))
        self.cdp.send("DOM.getDocument", {"depth": -1})
        self.cdp.send("LayerTree.enable")

    def paints(self) -> dict[int, int]:
        """backend node id -> paint count, once the page has drawn a frame after now."""
        self.layers.clear()
        self.page.evaluate("document.documentElement.style.setProperty('--probe', String(Math.random()))")
        self.page.wait_for_function("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
        deadline = time.monotonic() + 5
        while not self.layers and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)
        return {layer["backendNodeId"]: layer["paintCount"] for layer in self.layers if layer.get("backendNodeId")}

    def node(self, selector: str, pseudo: str | None = None) -> int:
        root = self.cdp.send("DOM.getDocument", {"depth": -1, "pierce": False})["root"]
        found = self.cdp.send("DOM.querySelector", {"nodeId": root["nodeId"], "selector": selector})["nodeId"]
        described = self.cdp.send("DOM.describeNode", {"nodeId": found, "depth": 1})["node"]
        if pseudo:
            return next(p["backendNodeId"] for p in described.get("pseudoElements", []) if p["pseudoType"] == pseudo)
        return described["backendNodeId"]


@pytest.mark.alone
def test_a_draw_paints_neither_the_felt_nor_the_cards_that_stay(phone, open_app):
    """On a phone's CPU a move's frame cannot afford to paint the table again: the felt is painted
    once, and a card drawn moves the hand's other cards (by layout, then their flight) without
    painting any of them again; only what changed is painted (the drawn card, the texts)."""
    page = phone
    view = to_draw_by_touch(page, opened_still(page, open_app, TOUCH_MOVING))
    page.wait_for_function(f"() => !document.getAnimations().filter({FLIGHT}).some(a => a.playState === 'running')")
    layers = Layers(page)
    felt = layers.node("body", "before")
    classes = "() => Object.fromEntries([...document.querySelectorAll('.hand .hand-card')].map(e => [e.dataset.card, e.className]))"
    cards_before = page.evaluate(classes)
    nodes = {card: layers.node(f'.hand [data-card="{card}"]') for card in cards_before}
    before = layers.paints()
    assert felt in before, "the felt is painted with the rest of the page"
    assert all(nodes[c] in before for c in nodes), "the hand's cards are painted with the rest of the page"
    tap_on(page, ".pile.stock")
    view = settle(page)
    assert view["phase"] == "discard"
    page.wait_for_function(f"() => !document.getAnimations().filter({FLIGHT}).some(a => a.playState === 'running')")
    after = layers.paints()
    cards_after = page.evaluate(classes)
    # A card whose look changed (a meld it joined, a mark) is painted again, rightly.
    same = [c for c in cards_before if cards_after.get(c) == cards_before[c]]
    assert len(same) >= 5, (cards_before, cards_after)
    assert after.get(felt) == before[felt], "the draw painted the felt again"
    painted = [c for c in same if after.get(nodes[c]) != before[nodes[c]]]
    assert not painted, f"cards that only moved were painted again: {painted}"
    drawn = next(c for c in cards_after if c not in cards_before)
    assert page.locator(f'.hand [data-card="{drawn}"]').is_visible()


def running_flights(page):
    return page.evaluate(f"() => document.getAnimations().filter({FLIGHT}).filter(a => a.playState === 'running').length")


def moving_cards(page, selector):
    return page.evaluate(
        f"""(s) => [...document.querySelectorAll(s)].filter(e =>
               e.getAnimations().filter({FLIGHT}).some(a => a.playState === 'running' || a.playState === 'pending'))
               .map(e => e.dataset.card || e.dataset.face)""",
        selector,
    )


@pytest.mark.alone
def test_a_quick_double_tap_discard_flies(phone, open_app):
    page = phone
    view = to_draw_by_touch(page, opened_still(page, open_app, TOUCH_MOVING))
    tap_on(page, ".pile.stock")
    view = settle(page)
    page.wait_for_function(f"() => !document.getAnimations().filter({FLIGHT}).some(a => a.playState === 'running')")
    card = discardable(view)
    x, y = strip_of(page, card)
    tap(page, x, y)
    page.wait_for_timeout(80)
    tap(page, x, y)
    page.wait_for_function("(c) => document.querySelector('.discard-pile .card.top')?.dataset.face === c", arg=card)
    assert card in moving_cards(page, ".discard-pile .card.top"), "the discard did not travel"


@pytest.fixture(scope="module")
def pile_draw_save():
    """A match saved just after the player's discard, where the computer (easy) now draws
    from a pile of three or more cards."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "saves"))
    import gin.ai
    import make_saves

    for i in range(1, 300):
        match = make_saves.new(f"PILE-{i:04d}", "traditional")
        while not match.results:
            view = match.view(match.to_act)
            if match.to_act == 1 and view["phase"] == "draw" and len(view["discard"]) >= 3:
                action = gin.ai.choose(view, make_saves.LEVEL)
                if action["type"] == "draw" and action.get("from") == "discard":
                    return match.to_save()
            make_saves.step(match, make_saves.never_knock)
    raise LookupError("no pile draw")


@pytest.mark.alone
def test_the_computer_drawing_from_the_pile_moves_only_that_card(page, open_app, pile_draw_save):
    from test_table_more import MATCH_KEY, put_in_storage

    save = pile_draw_save
    put_in_storage(page, {MATCH_KEY: save})
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.emulate_media(reduced_motion="no-preference")
    page.add_init_script(
        """window.__flights = [];
        const original = Element.prototype.animate;
        Element.prototype.animate = function (frames, options) {
          const a = original.call(this, frames, options);
          if (!(options && options.id === 'held')) window.__flights.push({
            card: this.dataset.card || this.dataset.face || null, where: this.closest('.discard-pile') ? 'pile'
              : this.closest('.opp-known') ? 'known' : this.closest('.hand') ? 'hand' : 'other',
            classes: this.className, at: performance.now() });
          return a;
        };"""
    )
    open_app(page, hash=f"#seed={save['seed']}", settings=TOUCH_MOVING)
    before = page.evaluate("window.ginApp.view")
    assert before["to_act"] == 1 and before["phase"] == "draw"
    top = before["discard"][-1]
    page.evaluate("window.__flights = []")
    page.wait_for_function("(n) => window.ginApp.view.discard.length < n", arg=len(before["discard"]))
    page.wait_for_timeout(50)
    flights = page.evaluate("window.__flights")
    after = page.evaluate("window.ginApp.view")
    assert top in after["opponent"]["known"], after["opponent"]
    assert [f for f in flights if f["where"] == "known"] and all(f["card"] == top for f in flights if f["where"] == "known")
    # The pile's new top was already there, under; nothing flies onto the pile.
    assert not [f for f in flights if f["where"] == "pile"], flights


# --- the result panels, the rules page's way back ------------------------------------------------


def open_finished(page, open_app, size=PHONE):
    from test_table_more import MATCH_KEY, put_in_storage, saved

    save = saved("over-OVER-0001.json")
    put_in_storage(page, {MATCH_KEY: save})
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={save['seed']}", settings={"speed": "instant", "level": "easy"})
    settle(page)
    page.locator(".panel.match").wait_for()
    return save


def restyled(page, act) -> int:
    """Elements Chromium restyles (a DevTools trace) while `act()` runs and the next frame paints."""
    cdp = page.context.new_cdp_session(page)
    events, done = [], []
    cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
    cdp.on("Tracing.tracingComplete", lambda e: done.append(1))
    cdp.send("Tracing.start", {"categories": "devtools.timeline", "transferMode": "ReportEvents"})
    act()
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))")
    cdp.send("Tracing.end")
    deadline = time.monotonic() + 10
    while not done and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    cdp.detach()
    assert done, "the trace never ended"
    return sum(e.get("args", {}).get("elementCount", 0) for e in events if e.get("name") == "UpdateLayoutTree")


def test_the_table_under_the_menu_is_held_without_restyling_it(phone, open_app):
    # Issue 33: under a panel or the menu the table is out of the keyboard's and the screen
    # reader's reach, and holding or freeing it restyles none of its elements (`inert` restyled
    # all of them: 357 as the deal result panel showed, frames over 100 ms on a phone at x4).
    open_phone(phone, open_app)
    table = phone.locator(".page *").count()
    assert table > 150 and button(phone, "Mazo").is_visible()
    opened = restyled(phone, lambda: (tap_on(phone, ".menu-btn"), phone.get_by_role("dialog", name="Menú").wait_for()))
    menu = phone.locator(".overlay:not([hidden]) *").count()
    assert opened - menu < table / 2, (opened, menu, table)  # the menu's own, not the table's
    # Held: the screen reader does not see the table's controls, Tab never reaches them.
    assert button(phone, "Mazo").count() == 0 and button(phone, "Menú").count() == 0
    for _ in range(menu):
        phone.keyboard.press("Tab")
        assert phone.evaluate("!document.activeElement.closest('.page')"), phone.evaluate("document.activeElement.outerHTML.slice(0, 200)")
    closed = restyled(phone, lambda: (phone.keyboard.press("Escape"), button(phone, "Mazo").wait_for()))
    assert closed < table / 2, (closed, table)
    assert ui(phone)["menuOpen"] is False and phone.evaluate("document.activeElement.dataset.key") == "menu"


def test_the_match_result_closes_to_the_table_and_the_menu(page, open_app):
    """A finished match's result closes to the table (Escape, or its close button) and opens again;
    the menu, the statistics and the kept matches answer; every screen on the way passes axe-core:
    the match result, the finished table, the statistics, the kept matches, and the viewer of the
    kept match before and after its review (at its first step both times); while that review
    runs, presses of "Paso adelante" all count (presses_during_the_review_all_count)."""
    from conftest import assert_accessible

    open_finished(page, open_app)
    assert_accessible(page, "match result")
    # Escape closes it: the table is there to look at, and the menu answers.
    page.keyboard.press("Escape")
    assert page.locator(".panel.match").count() == 0 and ui(page)["panel"] is None
    assert page.locator(".page").get_attribute("inert") is None
    assert page.locator(".messages .prompt").inner_text() == "Partida terminada."
    again = button(page, "Ver el resultado")
    assert again.is_visible() and page.evaluate("document.activeElement.textContent") == "Ver el resultado"
    again.click()
    assert page.locator(".panel.match").is_visible()
    # The close button does the same.
    button(page, "Ver la mesa").click()
    assert page.locator(".panel.match").count() == 0
    assert_accessible(page, "finished table")
    button(page, "Menú").click()
    button(page, "Estadísticas").click()
    page.get_by_role("dialog", name="Estadísticas").wait_for()
    assert_accessible(page, "statistics")
    # The only match kept is a loss: its line says so (not "Mejor partida", nor the "narrowest" of one).
    assert page.locator('.stat[data-stat="best_match"] dt').inner_text() == "Tu única derrota"
    page.keyboard.press("Escape")
    button(page, "Partidas").click()
    page.get_by_role("dialog", name="Partidas").wait_for()
    assert_accessible(page, "kept matches")
    page.keyboard.press("Escape")
    button(page, "Volver a la mesa").click()
    assert page.locator(".panel.match").count() == 0 and button(page, "Ver el resultado").is_visible()
    # The kept match in the viewer, before and after Difícil's review.
    button(page, "Menú").click()
    button(page, "Partidas").click()
    page.get_by_role("dialog", name="Partidas").get_by_role("listitem").nth(0).get_by_role("button").click()
    page.wait_for_function("() => document.querySelector('.panel.viewer')?.dataset.step === '0'")
    assert_accessible(page, "viewer")
    presses_during_the_review_all_count(page)  # ... until the review is over
    page.keyboard.press("Home")
    assert page.locator(".panel.viewer").get_attribute("data-step") == "0"
    assert_accessible(page, "viewer, reviewed")


def back_to_the_table_from_the_rules_page(page):
    """From the rules page (open, over the menu): "Volver a la mesa" goes to the table; "Volver al
    menú" and Escape one step back, to the menu (left open). test_the_table_and_its_dialogs_pass_axe
    comes through here."""
    button(page, "Volver a la mesa").click()
    assert ui(page)["panel"] is None and not ui(page)["menuOpen"]
    assert page.locator(".page").get_attribute("inert") is None and button(page, "Mazo").is_visible()
    # One step back instead: "Volver al menú", and Escape.
    button(page, "Menú").click()
    button(page, "Cómo se juega").click()
    button(page, "Volver al menú").click()
    assert ui(page)["menuOpen"] and ui(page)["panel"] is None
    button(page, "Cómo se juega").click()
    page.keyboard.press("Escape")
    assert ui(page)["menuOpen"] and ui(page)["panel"] is None


# --- the viewer: presses during Difícil's review all count ----------------------------------------


def presses_during_the_review_all_count(page):
    """In the viewer just opened at its first step, while Difícil's review runs: each press of
    "Paso adelante" counts, one held across an update of the review's progress too (the button is
    not rebuilt under the press). test_the_match_result_closes_to_the_table_and_the_menu comes
    through here."""
    viewer = page.locator(".panel.viewer")
    assert viewer.get_attribute("data-step") == "0"
    page.wait_for_function("() => document.querySelector('.panel.viewer .review-status')", timeout=30_000)
    status = "() => document.querySelector('.panel.viewer .review-status')?.textContent || 'done'"
    presses = spanning = 0
    while page.evaluate(f"({status})()") != "done" and presses < 30:
        before = page.evaluate(f"({status})()")
        box = viewer.locator('[data-key="forward"]').bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        try:  # held across one update of the review's progress (at most a second and a half)
            page.wait_for_function(f"(s) => ({status})() !== s", arg=before, timeout=1500)
            spanning += 1
        except Exception:
            pass
        page.mouse.up()
        presses += 1
    assert spanning >= 1, "the review ended before a press could span one of its updates"
    page.wait_for_function("() => document.querySelector('.panel.viewer').dataset.reviewed === 'true'", timeout=60_000)
    assert viewer.get_attribute("data-step") == str(presses), f"presses during the review: {presses} made ({spanning} across an update), step {viewer.get_attribute('data-step')} shown"


# --- labels that say what they do ----------------------------------------------------------------


def test_labels_say_what_they_do(page, open_app):
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings=TOUCH_FAST)
    view = settle(page)
    assert view["phase"].startswith("upcard")
    upcard = view["discard"][-1]
    button(page, "Tomar").click()
    view = settle(page)
    # The ✕ on the card just taken from the pile leaves its rank readable.
    card = page.locator(f'.hand [data-card="{upcard}"]')
    badge = card.locator(".taken-badge").bounding_box()
    rank = card.locator(".corner.tl .rank").bounding_box()
    overlap = not (badge["x"] >= rank["x"] + rank["width"] or badge["x"] + badge["width"] <= rank["x"]
                   or badge["y"] >= rank["y"] + rank["height"] or badge["y"] + badge["height"] <= rank["y"])
    assert not overlap, (badge, rank)
    card_now = card.bounding_box()
    assert badge["x"] >= card_now["x"] and badge["x"] + badge["width"] <= card_now["x"] + 28 + 1
    # "Descartar" only when there is something to discard.
    assert button(page, "Descartar").count() == 1
    page.locator(f'.hand [data-card="{discardable(view)}"]').dblclick(position={"x": 8, "y": 20})
    view = settle(page)
    assert view["phase"] == "draw" and button(page, "Descartar").count() == 0
    assert page.locator(".actions .btn").count() == 0


def test_english_keys_are_english_letters(page, open_app):
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings={**TOUCH_FAST, "lang": "en"})
    view = settle(page)
    keys = {b: button(page, b).get_attribute("aria-keyshortcuts") for b in ("Stock", "Discard pile", "Hint", "Take", "Pass")}
    assert keys == {"Stock": "S", "Discard pile": "P", "Hint": "H", "Take": "T", "Pass": "X"}
    page.keyboard.press("x")  # pass
    view = settle(page)
    assert view["phase"] == "draw"
    page.keyboard.press("s")  # the stock
    view = settle(page)
    assert view["phase"] == "discard" and len(view["hand"]) == 11
    # Spanish keeps its letters.
    button(page, "Menu").click()
    page.select_option("#menu-lang", "es")
    button(page, "Volver a la mesa").click()
    assert button(page, "Mazo").get_attribute("aria-keyshortcuts") == "M"
    assert button(page, "Descarte").get_attribute("aria-keyshortcuts") == "D"


# --- the phone layouts --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def high_scores_save():
    """A custom match to 250 saved at the player's draw with both scores at 100 or more."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "saves"))
    import gin
    import make_saves
    from gin.rules import Rules

    for i in range(1, 50):
        match = gin.Match.new(seed=f"HIGH-{i:04d}", rules=Rules.profile("custom", target=250))
        match.meta["level"] = make_saves.LEVEL
        while not match.over:
            view = match.view(0)
            if match.to_act == 0 and view["phase"] == "draw" and min(view["scores"]) >= 100:
                return match.to_save()
            make_saves.step(match, make_saves.least_deadwood)
    raise LookupError("no match with two three-digit scores")


def boxes(page, selector):
    return page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return {name: e.className, l: r.left, t: r.top, r: r.right, b: r.bottom}; })"
    )


class TestTheTopBar:
    """The match with three-digit scores opened once (tests/e2e/conftest.py SharedTable) in the
    first test's language and looked at in turn at each width; the other language chosen in the
    menu, as a player does."""

    @pytest.mark.parametrize("width", [320, 360, 390])
    @pytest.mark.parametrize("lang", ["en", "es"])
    def test_the_top_bar_fits_with_three_digit_scores(self, shared_table, open_app, high_scores_save, lang, width):
        def opened(page):
            from test_table_more import MATCH_KEY, put_in_storage

            put_in_storage(page, {MATCH_KEY: high_scores_save})
            page.set_viewport_size({"width": width, "height": 700})
            page.emulate_media(reduced_motion="reduce")
            open_app(page, hash=f"#seed={high_scores_save['seed']}", settings={**TOUCH_FAST, "lang": lang})

        page = shared_table.get("scores", opened)
        if page.evaluate("document.documentElement.lang") != lang:
            button(page, "Menu" if lang == "es" else "Menú").click()
            page.select_option("#menu-lang", lang)
            button(page, "Volver a la mesa" if lang == "es" else "Back to the table").click()
            assert page.evaluate("[document.documentElement.lang, window.ginApp.settings.lang]") == [lang, lang]
        resize(page, (width, 700))
        top_bar_fits(page, settle(page), lang, width)


def top_bar_fits(page, view, lang, width):
    assert min(view["scores"]) >= 100
    parts = boxes(page, ".topbar > .btn, .topbar .score, .topbar .match-info")
    assert len(parts) == 6, parts
    for p in parts:
        assert p["l"] >= 0 and p["r"] <= width, p
    for i, a in enumerate(parts):
        for b in parts[i + 1:]:
            apart = a["r"] <= b["l"] + 0.5 or b["r"] <= a["l"] + 0.5 or a["b"] <= b["t"] + 0.5 or b["b"] <= a["t"] + 0.5
            assert apart, (width, lang, a, b)
    # Each score shows whole: its label and its three digits.
    for score in page.locator(".topbar .score").all():
        assert score.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width


HAND_SIZES = {(390, 844): 72, (360, 740): 64}


class TestThePhoneLayout:
    """One table (the upcard passed, a card drawn) opened at the first size and resized to each of
    the others (tests/e2e/conftest.py SharedTable)."""

    @pytest.mark.parametrize("size", [(390, 844), (360, 740), (844, 390), (740, 360)], ids=lambda s: f"{s[0]}x{s[1]}")
    def test_the_phone_layout_uses_the_screen(self, shared_table, open_app, size):
        page = shared_table.get("drawn", lambda page: open_and_draw(page, open_app, size, True, TOUCH_FAST))
        resize(page, size)
        uses_the_screen(page, settle(page), size)


def uses_the_screen(page, view, size):
    assert len(view["hand"]) == 11
    cards = boxes(page, ".hand .hand-card")
    width = cards[0]["r"] - cards[0]["l"]
    assert len({round(c["t"]) for c in cards}) == 1  # one row
    strips = [b["l"] - a["l"] for a, b in zip(cards, cards[1:])]
    assert min(strips) >= 28, strips
    assert cards[0]["l"] >= 0 and cards[-1]["r"] <= size[0]
    assert page.evaluate("document.scrollingElement.scrollHeight") <= size[1]
    if size in HAND_SIZES:
        assert width >= HAND_SIZES[size], (size, width)
        # The free felt goes to the piles and the computer's hand.
        pile = boxes(page, ".pile.stock .pile-cards")[0]
        backs = boxes(page, ".opp-backs")[0]
        assert pile["r"] - pile["l"] >= 80 and backs["r"] - backs["l"] >= 0.5 * size[0], (pile, backs)
    else:
        # Landscape: the hand spreads over the width.
        assert cards[-1]["r"] - cards[0]["l"] >= 0.85 * size[0], (size, cards[0], cards[-1])
        assert width >= 60, width


# --- the deal result: layoffs marked once, in the meld they joined ---------------------------------


@pytest.fixture(scope="module")
def layoff_save():
    """A match saved just before the computer's knock, after which the player lays off."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "saves"))
    import make_saves

    def human(view):
        return make_saves.least_deadwood(view, knock=False)

    for i in range(1, 300):
        match = make_saves.new(f"LAID-{i:04d}", "traditional")
        before = None
        while not match.results:
            before = match.to_save() if match.to_act == 1 else before
            make_saves.step(match, human)
        result = match.results[-1]
        last = match.view(0)["history"][-1]
        if last["knocker"] == 1 and last["layoffs"] and last["kind"] == "knock" and before:
            return before, last
    raise LookupError("no layoff")


def open_stored_deal_result(page, open_app, save):
    """The phone page on a stored match whose deal result is pending: that panel."""
    from test_table_more import MATCH_KEY, put_in_storage

    put_in_storage(page, {MATCH_KEY: save})
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={save['seed']}", settings=TOUCH_FAST)
    settle(page)
    panel = page.locator(".panel.deal")
    panel.wait_for()
    return panel


def test_layoffs_are_marked_once_in_the_meld_they_joined(page, open_app, layoff_save):
    """A layoff shows once, in the knocker's meld it joined, ringed and marked "+"; that deal result,
    then the next deal, pass axe-core."""
    from conftest import assert_accessible

    save, result = layoff_save
    panel = open_stored_deal_result(page, open_app, save)
    laid = [lay["card"] for lay in result["layoffs"]]
    for card in laid:
        shown = panel.locator(f'[data-face="{card}"]')
        assert shown.count() == 1, card  # once
        node = panel.locator(f'.hand-summary.seat-1 .meld-row .card.laid[data-face="{card}"]')
        assert node.count() == 1, card  # in the knocker's meld
        assert node.get_attribute("aria-label").endswith(", añadida")
        ring = node.evaluate("e => getComputedStyle(e).boxShadow")
        assert "rgb(184, 82, 0)" in ring, ring  # the layoff ring is not covered by the mini card's shadow
        assert node.evaluate("e => getComputedStyle(e, '::after').content") == '"+"'
    names = panel.locator(".hand-summary.seat-0 .laid-names")
    assert names.get_attribute("data-cards") == " ".join(laid)
    assert_accessible(page, "deal result with layoffs")
    button(page, "Siguiente").click()
    settle(page)
    assert_accessible(page, "the next deal")


# --- contrast and the rest of WCAG AA: axe-core on every screen ---------------------------------


def test_the_table_and_its_dialogs_pass_axe(page, open_app):
    """The table and its dialogs pass axe-core; on the way, the rules page leads back to the table
    or to the menu (back_to_the_table_from_the_rules_page)."""
    from conftest import assert_accessible

    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings=TOUCH_FAST)
    view = settle(page)
    assert_accessible(page, "table, upcard decision")
    button(page, "Pasar").click()
    settle(page)
    button(page, "Mazo").click()
    view = settle(page)
    page.locator(f'.hand [data-card="{discardable(view)}"]').click(position={"x": 8, "y": 20})
    assert_accessible(page, "table, a card picked")
    button(page, "Pista").click()
    settle(page)
    assert_accessible(page, "table, a hint")
    button(page, "Menú").click()
    assert_accessible(page, "menu")
    button(page, "Cómo se juega").click()
    assert_accessible(page, "rules page")
    back_to_the_table_from_the_rules_page(page)  # ... and back to the menu
    button(page, "Nueva partida").click()
    assert_accessible(page, "new match confirmation")
    button(page, "Cancelar").click()
    button(page, "Menú").click()
    page.select_option("#menu-lang", "en")
    button(page, "Back to the table").click()
    assert_accessible(page, "English table")


# A deal result (with layoffs) and the next deal: test_layoffs_are_marked_once_in_the_meld_they_joined.


# The match result, the finished table, the statistics, the kept matches and the viewer:
# test_the_match_result_closes_to_the_table_and_the_menu passes each through axe on its way.


def test_the_knock_panel_passes_axe(page, open_app):
    from conftest import assert_accessible
    from test_table_more import MATCH_KEY, put_in_storage, saved

    put_in_storage(page, {MATCH_KEY: saved("big-gin-BIGG-0009.json")})
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash="#seed=BIGG-0009", settings=TOUCH_FAST)
    settle(page)
    button(page, "Gin").click()
    assert_accessible(page, "knock panel")
    page.get_by_role("dialog").get_by_role("button", name="2 de tréboles").click()
    assert_accessible(page, "knock panel, an edit that loses the gin")


def test_the_boot_and_error_screens_pass_axe(context, page, server):
    from conftest import assert_accessible, boot_then_failure

    page.expect_errors = True  # the refused wasm is logged
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    boot_then_failure(context, page, server, lambda: assert_accessible(page, "boot screen"))
    assert_accessible(page, "error screen")
