"""What a new player still trips over (issue 35), on a touch phone at 390×844 unless said: notices
that float over the felt and go by themselves, a link in a second tab that asks, Pista that marks
a card without choosing it, a deal that says nothing before it lands, the rival's last moves kept,
the Oklahoma top bar whole, the risk of an advised knock said and priced, and the words."""

from __future__ import annotations

import json

import pytest
from conftest import SETTINGS_KEY, assert_readable, watch_errors
from test_table import button, settle, shoot
from test_table_more import MATCH_KEY, put_in_storage
from test_table_phone import FLIGHT, tap, tap_on

PHONE = (390, 844)
LANDSCAPE = (844, 390)
DESKTOP = (1280, 800)
SIZES = (PHONE, LANDSCAPE, DESKTOP)
SEED = "TEST-0001"
INSTANT = {"speed": "instant", "level": "easy", "sort": "melds", "lang": "es"}

# The player's controls and the cards on the table: what a notice must never move or cover.
CONTROLS = ".topbar .btn, .pile, .hand .hand-card, .actions .btn, .opp-cards, .tutorial-bar .btn, .coach-note .btn"
# What the player reads to play: the hand's labels ("Tu mano", "Sueltas: N") and the prompt.
READ = ".hand-info > *, .messages > *"


# `phone` (tests/e2e/conftest.py): a page on a touch phone at 390×844, a returning visitor's.


def boxes(page, selector):
    return page.eval_on_selector_all(
        selector,
        """els => els.filter(e => e.getClientRects().length).map(e => {
            const r = e.getBoundingClientRect();
            return {name: e.dataset.card || e.dataset.key || e.className, left: r.left, top: r.top, right: r.right, bottom: r.bottom};
        })""",
    )


VISIBLE = "e => e.checkVisibility({visibilityProperty: true})"


def shown_notices(page):
    """The boxes of the notices on the screen (one waiting for room is hidden)."""
    return page.eval_on_selector_all(
        ".notices .notice",
        f"""els => els.filter({VISIBLE}).map(e => {{
            const r = e.getBoundingClientRect();
            return {{name: e.dataset.notice, left: r.left, top: r.top, right: r.right, bottom: r.bottom}};
        }})""",
    )


def overlap(a, b):
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def assert_table_whole(page, where):
    """Every control inside the viewport, the page not taller than the screen, no notice on a control."""
    size = page.viewport_size
    scroll = page.evaluate("document.documentElement.scrollHeight")
    assert scroll <= page.evaluate("innerHeight"), f"{where}: the page is {scroll} px tall on a {size['height']} px screen"
    controls = boxes(page, CONTROLS)
    assert len(controls) > 12, controls
    for c in controls:
        assert c["left"] >= -1 and c["top"] >= -1 and c["right"] <= size["width"] + 1 and c["bottom"] <= size["height"] + 1, f"{where}: {c} outside the screen"
    read = boxes(page, READ)
    for n in shown_notices(page):
        hits = [c["name"] for c in controls + read if overlap(n, c)]
        assert not hits, f"{where}: the notice {n['name']} covers {hits}"
    return controls


def bad_storage(where, fields: dict, broken_match: bool):
    """Bad settings (and a broken match) in storage before the page's scripts run, on the page
    or the whole context `where`."""
    items = {SETTINGS_KEY: {**INSTANT, **fields}}
    put_in_storage(where, items)
    if broken_match:
        where.add_init_script(
            "try { if (!sessionStorage.getItem('test.broken')) { sessionStorage.setItem('test.broken', '1');"
            f" localStorage.setItem({json.dumps(MATCH_KEY)}, '{{not a save'); }} }} catch (e) {{}}"
        )


def open_table(page, open_app, seed=SEED, settings=None):
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={seed}", settings=settings if settings is not None else {})
    return settle(page)


# --- 1. notices float over the felt --------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2])
def test_notices_never_move_or_cover_the_table(phone, open_app, count):
    page = phone
    bad_storage(page, {"speed": "ligero"} if count == 1 else {"speed": "ligero", "sort": 7}, broken_match=count == 2)
    open_table(page, open_app)
    expected = ["settings.reset_one"] if count == 1 else ["settings.reset", "storage.broken"]
    page.wait_for_function(f"() => [...document.querySelectorAll('.notices .notice')].some({VISIBLE})")
    with_notices = assert_table_whole(page, f"{count} notice(s)")
    assert page.evaluate("window.ginApp.notices") == expected
    assert_readable(page, f"{count} notice(s)")
    shoot(page, f"notices-{count}", PHONE)
    # Each is shown, over nothing played or read (one with no such room waits for the one
    # before); × tapped, it goes and the table is exactly where it was: nothing moved for them.
    seen = []
    for _ in expected:
        page.wait_for_function(f"() => [...document.querySelectorAll('.notices .notice')].some({VISIBLE})")
        assert_table_whole(page, f"{count} notice(s), after {seen}")
        for n in shown_notices(page):
            seen.append(n["name"])
            tap_on(page, f'[data-key="dismiss:{n["name"]}"]')
        if len(seen) == len(expected):
            break
    assert sorted(seen) == sorted(expected)
    page.wait_for_function("() => !document.querySelector('.notices .notice')")
    assert boxes(page, CONTROLS) == with_notices


def test_notices_fit_in_landscape_and_on_the_desktop(returning, open_app):
    for size in (LANDSCAPE, DESKTOP):
        # A page of the returning visitor for each size, everything it kept wiped after it.
        page = watch_errors(returning.start())
        try:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            bad_storage(page, {"speed": "ligero", "sort": 7}, broken_match=True)
            open_table(page, open_app)
            # The day's match is offered in the table's centre on a wider screen: the notices
            # wait for that room until the offer is answered.
            if page.locator('[data-key="daily-no"]').is_visible():
                page.locator('[data-key="daily-no"]').click()
            page.wait_for_function(f"() => [...document.querySelectorAll('.notices .notice')].some({VISIBLE})")
            assert_table_whole(page, f"two notices at {size}")
            shoot(page, "notices-2", size)
        finally:
            returning.end()
        assert not page.errors, page.errors


def test_an_informational_notice_goes_by_itself_once_read_and_waits_while_held(page, open_app):
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    bad_storage(page, {"speed": "ligero"}, broken_match=False)
    # The page's own clock, so that the notice's seconds pass at once when told (time runs as
    # usual otherwise; the engine's worker has its own clock). Playwright's clock is the
    # context's: the page is a fresh context's (conftest), so no later test meets this clock.
    page.clock.install()
    open_table(page, open_app)
    notice = page.locator(".notices .notice[data-placed]")
    text = "El ajuste «Velocidad» guardado no era válido y ha vuelto a su valor por defecto."
    assert notice.inner_text().startswith(text)
    # Told to a screen reader once, even after more renders.
    button(page, "Menú").click()
    button(page, "Volver a la mesa").click()
    assert page.locator("#announcer p").all_inner_texts().count(text) == 1
    # Held by the pointer, it stays past its time (10.3 s for this one: 6.9 s to read it, a warning's 1.5×).
    notice.hover()
    page.clock.run_for(11_000)
    assert notice.is_visible()
    # Let go, it has the rest of its time (at least 2 s): gone once that has passed.
    page.mouse.move(5, 790)
    page.clock.run_for(1_000)
    assert notice.is_visible()
    page.clock.run_for(10_300)
    page.wait_for_function("() => !document.querySelector('.notices .notice')", timeout=5_000)
    assert page.locator("#announcer p").all_inner_texts().count(text) == 1


# --- 3. Pista marks a card, it does not choose it ------------------------------------------------


def to_own_discard(page, view):
    """Pass the upcard (touch) and draw from the stock until it is the player's discard."""
    for _ in range(6):
        if view["phase"] == "discard" and view["to_act"] == 0:
            return view
        tap_on(page, '.actions [data-intent="pass"]' if view["phase"].startswith("upcard") else ".pile.stock")
        view = settle(page)
    raise AssertionError(view["phase"])


def hint_card(page):
    page.wait_for_function("() => window.ginApp.ui.message && window.ginApp.ui.message.kind === 'hint'")
    target = page.evaluate("window.ginApp.ui.hintTarget")
    assert target and target.startswith("card:"), target
    return target[5:]


def test_after_pista_one_tap_on_the_card_selects_it_and_does_not_discard(phone, open_app):
    page = phone
    view = to_own_discard(page, open_table(page, open_app, settings=INSTANT))
    tap_on(page, ".topbar .hint-btn")
    card = hint_card(page)
    cards = page.locator(f'.hand [data-card="{card}"]')
    assert page.evaluate("window.ginApp.ui.selected") is None
    assert cards.get_attribute("aria-pressed") == "false" and "hinted" in cards.get_attribute("class")
    box = cards.bounding_box()
    tap(page, box["x"] + 10, box["y"] + box["height"] / 2)
    after = settle(page)
    assert after["phase"] == "discard" and card in after["hand"] and after["hand"] == view["hand"]
    assert page.evaluate("window.ginApp.ui.selected") == card and cards.get_attribute("aria-pressed") == "true"
    assert page.locator(".messages").inner_text().startswith("Pista:")  # the hint is still there to read
    assert_table_whole(page, "after Pista")
    for size in SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        shoot(page, "after-pista", size)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    # The second tap discards it (the deal may even end on the computer's answer).
    played = page.evaluate("window.ginApp.save.actions.length")
    box = cards.bounding_box()
    tap(page, box["x"] + 10, box["y"] + box["height"] / 2)
    settle(page)
    assert page.evaluate("n => window.ginApp.save.actions[n]", played) == {"type": "discard", "card": card}


def test_after_pista_by_keyboard_the_focus_is_on_the_card(page, open_app):
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    view = open_table(page, open_app, settings=INSTANT)
    page.keyboard.press("p" if view["phase"].startswith("upcard") else "m")
    view = settle(page)
    if view["phase"] == "draw":
        page.keyboard.press("m")
        view = settle(page)
    assert view["phase"] == "discard"
    page.keyboard.press("h")
    card = hint_card(page)
    page.wait_for_function("c => document.activeElement && document.activeElement.dataset.card === c", arg=card)
    page.keyboard.press("Enter")
    assert settle(page)["hand"] == view["hand"] and page.evaluate("window.ginApp.ui.selected") == card
    page.keyboard.press("Enter")
    assert card not in settle(page)["hand"]


# --- 4. a deal tells nothing before it lands; a tap lands it --------------------------------------

MOVING = {"speed": "slow", "level": "easy", "sort": "melds", "lang": "es"}
# Every frame while a card of the deal is in the air: what the deal would tell before it lands
# (Tomar, Pasar, the upcard's name, the deadwood) is not on the screen. The frame loop runs while
# a flight the motion layer made (Element.animate) is not over, from the frame it is made in: the
# page draws frames only while something moves, as a player's does.
LANDING_PROBE = """
window.__landing = { on: false, flyingFrames: 0, told: [] };
const flight = FLIGHT_JS;
const seen = (sel) => { const n = document.querySelector(sel); return Boolean(n && n.checkVisibility({visibilityProperty: true})); };
const live = new Set();  // the flights made and not over
let looking = false;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const a = animate.apply(this, args);
  if (flight(a)) {
    live.add(a);
    a.finished.then(() => live.delete(a), () => live.delete(a));
    if (!looking) { looking = true; requestAnimationFrame(look); }
  }
  return a;
};
function look() {
  const l = window.__landing;
  if (l.on && document.getAnimations().filter(flight).some(a => a.playState === 'running')) {
    l.flyingFrames++;
    const told = ['[data-key="act:take"]', '[data-key="act:pass"]', '#pile-top', '.deadwood-count'].filter(seen);
    if (told.length) l.told.push([...told, ...document.getAnimations().filter(flight).filter(a => a.playState === 'running').map(a => (a.effect.target.dataset.card || a.effect.target.dataset.face || a.effect.target.className) + ' ' + a.currentTime + '/' + a.effect.getComputedTiming().endTime + ' ' + a.id), performance.now()]);
  }
  // On while a flight is not over (it has landed in this frame at the latest: a last look next frame).
  if (live.size) requestAnimationFrame(look);
  else looking = false;
}
""".replace("FLIGHT_JS", FLIGHT)
NO_FLIGHT = f"() => !document.getAnimations().filter({FLIGHT}).some(a => a.playState === 'running')"
LANDED = "() => !document.getElementById('app').hasAttribute('data-dealing')"


def deal_again(page):
    """Menú → Repetir → Empezar: the same seed dealt again, cards flying (the player decides first)."""
    page.wait_for_function(NO_FLIGHT)  # the last move's cards down: only the deal's fly from here
    button(page, "Menú").click()
    button(page, "Repetir").click()
    page.evaluate("window.__landing.on = true")
    button(page, "Empezar").click()
    page.wait_for_function("() => document.getElementById('app').hasAttribute('data-dealing')")


def opened_still(page, open_app, settings):
    """The page opened with reduced motion, so that its first deal (nothing of it is looked at)
    lands at once instead of flying for 3.8 s; then motion as the player has it, for the deals the
    test looks at (the page asks for reduced motion at each render)."""
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings=settings)
    view = settle(page)
    page.wait_for_function(LANDED)
    page.emulate_media(reduced_motion="no-preference")
    return view


def landing_table(open_app):
    """TestTheDealLands' page: the landing probe, then the page opened still at slow speed."""

    def opened(page):
        page.add_init_script(LANDING_PROBE)
        opened_still(page, open_app, MOVING)

    return opened


class TestTheDealLands:
    """On a touch phone: one page (tests/e2e/conftest.py shared_phone_table) opened by the first
    test; the next one deals again on the table the one before left (each deal is dealt anew:
    deal_again)."""

    def test_the_deal_shows_tomar_and_the_upcard_only_once_landed_and_a_tap_lands_it(self, shared_phone_table, open_app):
        page = shared_phone_table.get("landing", landing_table(open_app))
        tap_on(page, '.actions [data-intent="pass"]')
        view = settle(page)
        if view["phase"] == "draw":
            tap_on(page, ".pile.stock")
            settle(page)
        # Dealt again: nothing told while the cards fly, all of it once they are down.
        deal_again(page)
        shoot(page, "mid-deal", PHONE)
        page.set_viewport_size({"width": LANDSCAPE[0], "height": LANDSCAPE[1]})  # turned mid-deal: still nothing told
        shoot(page, "mid-deal", LANDSCAPE)
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        page.wait_for_function("() => document.querySelector('[data-key=\"act:take\"]')?.checkVisibility({visibilityProperty: true})", timeout=15_000)
        assert page.evaluate(NO_FLIGHT)
        landing = page.evaluate("window.__landing")
        assert landing["flyingFrames"] > 10 and landing["told"] == [], landing
        upcard = page.evaluate("window.ginApp.view.discard.at(-1)")
        assert page.locator("#pile-top").is_visible() and page.locator("#pile-top").inner_text().startswith("Arriba: ")
        assert_readable(page, "landed deal")
        # A tap while it lands only lands it, at once: nothing is played or chosen.
        page.evaluate("window.__landing = { on: false, flyingFrames: 0, told: [] }")
        tap_on(page, '.actions [data-intent="pass"]')  # a move, or the same deal again is not dealt anew
        settle(page)
        deal_again(page)
        played = page.evaluate("window.ginApp.save.actions.length")
        page.wait_for_timeout(300)  # a few cards in the air (the slow deal takes 3.8 s)
        tap_on(page, ".pile.stock")
        page.wait_for_function(NO_FLIGHT, timeout=600)
        assert page.evaluate(LANDED)
        assert button(page, "Tomar").is_visible() and button(page, "Pasar").is_visible()
        view = settle(page)
        assert view["phase"].startswith("upcard") and view["discard"] == [upcard]
        assert page.evaluate("window.ginApp.save.actions.length") == played and page.evaluate("window.ginApp.ui.message") is None
        assert page.evaluate("window.__landing.told") == []

    def test_a_tap_on_menu_while_the_deal_lands_lands_it_and_opens_the_menu(self, shared_phone_table, open_app):
        page = shared_phone_table.get("landing", landing_table(open_app))
        deal_again(page)
        page.wait_for_timeout(300)  # a few cards in the air (the slow deal takes 3.8 s)
        assert not page.evaluate(LANDED)
        played = page.evaluate("window.ginApp.save.actions.length")
        tap_on(page, '.topbar [data-key="menu"]')
        page.wait_for_function(NO_FLIGHT, timeout=600)
        assert page.evaluate(LANDED)
        page.get_by_role("dialog", name="Menú").wait_for(timeout=2_000)
        assert page.evaluate("document.getElementById('app').dataset.menu") == "true"
        assert page.evaluate("window.ginApp.save.actions.length") == played
        shoot(page, "menu-over-landed-deal", PHONE)


def test_a_key_lands_the_deal_and_does_nothing_else(page, open_app):
    page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
    page.add_init_script(LANDING_PROBE)
    view = opened_still(page, open_app, MOVING)
    page.keyboard.press("p")
    if settle(page)["phase"] == "draw":
        page.keyboard.press("m")
        settle(page)
    deal_again(page)
    shoot(page, "mid-deal", DESKTOP)
    page.wait_for_timeout(300)
    page.keyboard.press("t")  # Tomar's key: it is not on the screen yet, so it only lands the deal
    page.wait_for_function(NO_FLIGHT, timeout=600)
    view = settle(page)
    assert view["phase"].startswith("upcard") and page.evaluate("window.ginApp.save.actions.length") == 0
    assert page.evaluate("window.__landing.told") == []


# --- 2. a link opened in a new tab asks -----------------------------------------------------------


def test_a_link_opened_in_a_second_tab_asks_and_keeps_the_other_tabs_match(phone, open_app):
    first = phone
    open_table(first, open_app, seed="LINK-0101", settings=INSTANT)
    other = watch_errors(first.context.new_page())
    other.emulate_media(reduced_motion="reduce")
    open_app(other, hash="#seed=LINK-0102", settings=INSTANT)
    ask = other.get_by_role("dialog", name="Otra partida")
    ask.wait_for()
    text = ask.inner_text()
    assert "LINK-0101" in text and "LINK-0102" in text and "otra pestaña" in text, text
    # The other tab plays its match: this one cannot drop it, only leave it be.
    assert other.get_by_role("button", name="Abrir y descartar la mía").count() == 0
    assert_readable(other, "link asked in a second tab")
    shoot(other, "link-second-tab", PHONE)
    other.get_by_role("button", name="Seguir con la mía").click()
    other.get_by_role("dialog", name="Partida abierta en otra pestaña").wait_for()
    assert other.evaluate("window.ginApp.view.seed") == "LINK-0101"
    # The first tab still plays it, as it was.
    # (The day's offer, a dialog of its own that asks nothing of this, may be there.)
    assert first.evaluate("window.ginApp.view.seed") == "LINK-0101" and first.locator('[role=dialog]:not([data-key="daily-offer"])').count() == 0
    assert not other.errors, other.errors
    other.close()


# --- 5. the rival's last moves stay readable --------------------------------------------------------


def test_the_rivals_turn_stays_until_the_players_move_and_after_a_reload(phone, open_app):
    page = phone
    view = to_own_discard(page, open_table(page, open_app, settings=INSTANT))
    card = view["hand"][0]  # drawn from the stock: any card may go
    cards = page.locator(f'.hand [data-card="{card}"]')
    for _ in range(2):  # a tap selects, the second discards
        box = cards.bounding_box()
        tap(page, box["x"] + 10, box["y"] + box["height"] / 2)
    view = settle(page)
    assert view["phase"] == "draw" and view["to_act"] == 0, view["phase"]  # TEST-0001 goes on
    # Its draw and its discard, both, in one line: not the discard alone after 0.4 s.
    line = page.locator(".opp-last").inner_text()
    assert line.startswith("El rival ") and " y descarta " in line and view["discard"][-1] != card, line
    assert_table_whole(page, "the rival's turn")
    shoot(page, "rival-turn", PHONE)
    open_app(page, reload=True)
    settle(page)
    assert page.locator(".opp-last").inner_text() == line
    # The player's move: the line has told its story.
    tap_on(page, ".pile.stock")
    settle(page)
    assert page.locator(".opp-last").inner_text().strip() == ""


# --- 6. the Oklahoma top bar whole -------------------------------------------------------------------

OKLA_SEED = "OKLA-0011"  # its first upcard, the 4♠, sets the limit: "Cierras con 4 o menos"


def assert_match_line_whole(page, where):
    """Every part of the match line (limit, target, variant, deal) on the screen, none cut."""
    parts = page.eval_on_selector_all(
        ".topbar .match-info .mi",
        """els => els.map(e => {
            const r = e.getBoundingClientRect(), line = e.parentElement.getBoundingClientRect();
            return {text: e.textContent, whole: e.scrollWidth <= e.clientWidth + 1 && r.left >= line.left - 1 && r.right <= line.right + 1
                    && r.top >= line.top - 1 && r.bottom <= line.bottom + 1 && r.right <= innerWidth, width: r.width};
        })""",
    )
    assert [p["text"].lstrip(" ·") for p in parts][-1] == "Mano 1", parts
    assert all(p["whole"] and p["width"] > 0 for p in parts), f"{where}: {parts}"
    line = page.eval_on_selector(".topbar .match-info", "e => [e.scrollWidth, e.clientWidth]")
    assert line[0] <= line[1] + 1, f"{where}: the match line overflows {line}"


def test_the_oklahoma_top_bar_is_whole_at_390_and_360(phone, open_app):
    page = phone
    open_table(page, open_app, seed=f"{OKLA_SEED}&rules=oklahoma", settings=INSTANT)
    assert page.locator(".topbar .deal-limit").inner_text() == "Cierras con 4 o menos"
    assert_match_line_whole(page, "390")
    assert_table_whole(page, "oklahoma 390")
    shoot(page, "oklahoma-topbar", PHONE)
    page.set_viewport_size({"width": 360, "height": 780})
    assert_match_line_whole(page, "360")
    assert_table_whole(page, "oklahoma 360")
    shoot(page, "oklahoma-topbar", (360, 780))
    for size in (LANDSCAPE, DESKTOP):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        assert_match_line_whole(page, str(size))
        shoot(page, "oklahoma-topbar", size)


# --- 8. the words say what happens ----------------------------------------------------------------


def test_a_new_match_says_the_one_left_is_kept_and_keeps_it(phone, open_app):
    page = phone
    open_table(page, open_app, settings=INSTANT)
    tap_on(page, ".topbar .menu-btn")
    button(page, "Nueva partida").click()
    text = page.locator(".panel").inner_text()
    assert "se guarda sin terminar" in text and "se perderá" not in text, text
    page.locator('[data-intent="confirmNew"]').click()
    page.wait_for_function("(seed) => window.ginApp.view.seed !== seed", arg=SEED)
    settle(page)
    button(page, "Menú").click()
    button(page, "Partidas").click()
    page.get_by_role("button", name=f"Seguir la partida {SEED}").wait_for()
