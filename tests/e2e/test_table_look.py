"""A table you can hear, feel and make your own (issue 30): the computer waits for the whole deal
(also for a match opened by a link or replayed), sounds (a spy on the audio sources started: one
for each move shown, none switched off, also after a reload, none while the page is hidden,
shorter when sped up), vibration on a touch phone, the card sizes at every layout (the hand's
corner indices readable), the layout that uses wide and tall screens, the felts and backs (axe-core
on each felt), and the new settings (persisted, checked field by field, exported and imported, in
both languages). Screenshots of every felt, back and size go to test-artifacts/look-*.png."""

from __future__ import annotations

import json

import pytest
from conftest import SETTINGS_KEY, assert_accessible, assert_readable, resize
from test_table import button, settle, shoot, ui
from test_table_more import put_in_storage
from test_table_phone import FLIGHT, tap, tap_on

SEED = "TEST-0001"
# A first hand with two tens, the widest corner index ("10"): TH, TS.
TENS = "TEST-0019"
PHONE = (390, 844)
MOVING = {"speed": "normal", "level": "easy", "sort": "melds"}
# Every layout the issue names: phones in portrait and landscape, a small phone, desktops.
LAYOUTS = [(390, 844), (844, 390), (360, 740), (1280, 800), (1920, 1080)]
FELTS = ["green", "blue", "wine"]
BACKS = ["red", "blue", "black"]


# --- the computer waits for the whole deal --------------------------------------------------------

# When each flight of the motion layer ends and when the computer's move line changes (blank
# included), from the page's first script on; `mark()` starts a new count. A flight that has not
# begun when a move shows was launched by the render that shows it (the upcard the computer takes,
# on its way to its row): it is the move's own, not one in front of it, and is not counted. (Its
# start on the animations' clock, the time of the frame it begins in, can come a few ms before the
# move's performance.now(): on a loaded machine that frame's time is taken before the render runs.)
# Without a frame loop: every flight is taken as the motion layer makes it (Element.animate) and
# noted when it begins (its `ready`: its startTime set, in the frame it begins in), so the page
# draws frames only while something moves, as a player's does.
DEAL_PROBE = """
const flight = FLIGHT_JS;
window.__deal = { ends: [], lines: [] };
window.__dealMark = () => { window.__deal = { ends: [], lines: [] }; };
const live = new Set();  // the flights made and not over
const withMove = new WeakSet();
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const a = animate.apply(this, args);
  if (flight(a)) {
    live.add(a);
    a.ready.then(() => {
      if (!withMove.has(a)) window.__deal.ends.push({ start: a.startTime, end: a.startTime + a.effect.getComputedTiming().endTime });
    }, () => {});
    a.finished.then(() => live.delete(a), () => live.delete(a));
  }
  return a;
};
function note() {
  const line = document.querySelector('.opp-last');
  const text = line ? line.textContent.trim() : '';
  const last = window.__deal.lines.at(-1);
  if (last && last.text === text) return;
  window.__deal.lines.push({ text, at: performance.now() });
  if (text && !(last && last.text)) for (const a of live) if (a.startTime === null) withMove.add(a);
}
new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
""".replace("FLIGHT_JS", FLIGHT)


def first_move_after_the_deal(page) -> tuple[float, float, int]:
    """(when the computer's first move of the new match showed, when the deal's last flight
    ended, how many flights there were), once the move has shown."""
    page.wait_for_function(
        "() => window.__deal.lines.some((l, i) => l.text && i > 0 && !window.__deal.lines[i - 1].text)", timeout=15_000
    )
    deal = page.evaluate("window.__deal")
    lines = deal["lines"]
    first = next(l["at"] for i, l in enumerate(lines) if l["text"] and i > 0 and not lines[i - 1]["text"])
    ends = [e["end"] for e in deal["ends"] if e["start"] < first]  # the flights begun before the move showed
    return first, max(ends, default=0.0), len(ends)


def test_the_computer_waits_for_the_whole_deal(page, open_app):
    """Seeds WAIT-2, -5, -6 and -7 deal the player as dealer, so the computer decides on the upcard
    first: at normal speed at 390×844 its take or pass shows only once every card of the deal has
    landed (the upcard turned, the last flight of the stagger) — when the match is opened by a link
    in the same tab, and when it is replayed from its seed (Repetir) — and not much later."""
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.add_init_script(DEAL_PROBE)
    # TEST-0001's deal as the page opens is no part of it: dealt with reduced motion, it lands at
    # once; the deals looked at fly (the page asks for reduced motion at each render).
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings=MOVING)
    settle(page)
    page.emulate_media(reduced_motion="no-preference")
    for seed in ["WAIT-2", "WAIT-5", "WAIT-6", "WAIT-7"]:
        page.evaluate("window.__dealMark()")
        page.evaluate("(s) => { location.hash = '#seed=' + s; }", seed)
        page.get_by_role("button", name="Abrir la del enlace", exact=True).click()
        first, landed, flights = first_move_after_the_deal(page)
        view = settle(page)
        assert view["seed"] == seed and view["dealer"] == 0, (seed, view["dealer"])
        assert flights >= 21, (seed, flights)  # twenty cards and the upcard flew before its move
        assert first >= landed, (seed, first, landed)
        assert first - landed < 1200, (seed, first, landed)  # its pause at normal speed is 450 ms
    # The same match again from its seed: dealt again, and waited for again.
    button(page, "Menú").click()
    button(page, "Repetir").click()
    page.evaluate("window.__dealMark()")
    button(page, "Empezar").click()
    first, landed, flights = first_move_after_the_deal(page)
    assert flights >= 21 and landed <= first < landed + 1200, (flights, landed, first)


# --- sound --------------------------------------------------------------------------------------------

# A spy on every audio source started (oscillators and buffer sources have a start() each), with
# the length it was given (its stop() time minus its start() time, in the context's seconds); the
# contexts made; and the times the page asked for the media devices' list (what readies the
# browser's audio output before the first gesture: table/sound.js readySound).
SOUND_SPY = """
window.__sound = { starts: [], contexts: 0, readied: 0 };
if (navigator.mediaDevices && navigator.mediaDevices.enumerateDevices) {
  const list = navigator.mediaDevices.enumerateDevices.bind(navigator.mediaDevices);
  navigator.mediaDevices.enumerateDevices = () => { window.__sound.readied++; return list(); };
}
const spy = (proto) => {
  const start = proto.start, stop = proto.stop;
  proto.start = function (when = 0, ...rest) { this.__at = when; window.__sound.starts.push({ kind: this.constructor.name, at: performance.now(), length: null }); this.__entry = window.__sound.starts.at(-1); return start.call(this, when, ...rest); };
  proto.stop = function (when = 0) { if (this.__entry) this.__entry.length = when - this.__at; return stop.call(this, when); };
};
spy(AudioScheduledSourceNode.prototype);
if (AudioBufferSourceNode.prototype.hasOwnProperty('start')) spy(AudioBufferSourceNode.prototype);
for (const name of ['AudioContext', 'webkitAudioContext']) {
  const Made = window[name];
  if (!Made) continue;
  window[name] = class extends Made { constructor(...args) { super(...args); window.__sound.contexts++; } };
}
"""
# Whether the page is hidden, as a test says (document.visibilityState and its event).
HIDDEN_SWITCH = """
window.__hidden = false;
Object.defineProperty(Document.prototype, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible'), configurable: true });
Object.defineProperty(Document.prototype, 'hidden', { get: () => window.__hidden, configurable: true });
window.__hide = (hidden) => { window.__hidden = hidden; document.dispatchEvent(new Event('visibilitychange')); };
"""


def starts(page) -> int:
    return page.evaluate("window.__sound.starts.length")


def wait_more_starts(page, than: int) -> int:
    page.wait_for_function("(n) => window.__sound.starts.length > n", arg=than, timeout=5_000)
    return starts(page)


def open_sounding(page, open_app, settings=None, size=PHONE):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.add_init_script(SOUND_SPY)
    page.add_init_script(HIDDEN_SWITCH)
    # Opened with reduced motion: the first deal (silent, before any gesture) lands at once
    # instead of flying for seconds; then motion as the player has it (asked at each render).
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings=settings or {**MOVING, "speed": "slow"})
    view = settle(page)
    # The deal has landed: a tap while it flies only lands it (issue 35), the menu stays shut.
    page.wait_for_function("() => !document.getElementById('app').hasAttribute('data-dealing')")
    page.emulate_media(reduced_motion="no-preference")
    return view


def to_draw(page, view):
    if view["phase"].startswith("upcard"):
        button(page, "Pasar").click()
        view = settle(page)
    assert view["phase"] == "draw" and view["to_act"] == 0, view["phase"]
    return view


def discard_a_card(page, view) -> str:
    card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
    page.locator(f'.hand [data-card="{card}"]').click(position={"x": 8, "y": 20})
    page.locator(f'.hand [data-card="{card}"]').click(position={"x": 8, "y": 20})
    return card


def test_each_move_sounds_when_it_is_shown_and_only_after_a_gesture(page, open_app):
    """No sound and no audio context before the player's first click (the deal at the page's
    opening is silent: the browsers' autoplay rule); then the player's draw sounds when it is
    shown, the discard too, before the computer answers (its pause at slow speed is 900 ms), and
    the computer's own moves sound when they show. Speed-up shortens every sound."""
    view = open_sounding(page, open_app)
    # The browser's audio output made ready while the page was idle (a browser's first context
    # waited 50-170 ms for it inside the first tap), without a context or a sound before that tap.
    page.wait_for_function("() => window.__sound.readied > 0", timeout=5_000)
    assert page.evaluate("window.__sound") == {"starts": [], "contexts": 0, "readied": 1}
    view = to_draw(page, view)
    before = starts(page)
    button(page, "Mazo").click()
    after_draw = wait_more_starts(page, before)
    drawn = page.evaluate("window.ginApp.view")
    assert drawn["phase"] == "discard" and drawn["to_act"] == 0  # the draw's own sound, nothing else's
    assert page.evaluate("window.__sound.contexts") == 1
    draw_lengths = [s["length"] for s in page.evaluate("window.__sound.starts")[before:after_draw]]
    discard_a_card(page, drawn)
    after_discard = wait_more_starts(page, after_draw)
    # The discard's sound came with the discard shown, not with the computer's answer.
    assert page.evaluate("window.ginApp.view.to_act") == 1 and page.locator(".opp-last").inner_text().strip() == ""
    view = settle(page)
    assert starts(page) > after_discard  # the computer's draw and discard sounded as they showed
    # Acelerar: the next draw's sound is shorter.
    button(page, "Acelerar").click()
    view = settle(page)
    before = starts(page)
    button(page, "Mazo").click()
    fast = wait_more_starts(page, before)
    fast_lengths = [s["length"] for s in page.evaluate("window.__sound.starts")[before:fast]]
    assert len(fast_lengths) == len(draw_lengths) and all(f < 0.8 * n for f, n in zip(fast_lengths, draw_lengths)), (fast_lengths, draw_lengths)


def test_sound_switched_off_stays_silent_also_after_a_reload(page, open_app):
    """Sonido off in the menu: a whole turn (the player's draw and discard, the computer's moves)
    starts no audio source; after a reload it is still off and still silent; the table's mute turns
    it on again in one tap, and the next move sounds."""
    view = open_sounding(page, open_app, settings={**MOVING, "speed": "fast"})
    button(page, "Menú").click()
    switch = page.get_by_role("checkbox", name="Sonido", exact=True)
    assert switch.is_checked()
    switch.uncheck()
    assert page.evaluate("window.ginApp.settings.sound") is False
    button(page, "Volver a la mesa").click()
    mute = page.locator('[data-key="sound-toggle"]')
    assert mute.get_attribute("aria-pressed") == "false" and mute.get_attribute("aria-label") == "Sonido"
    view = to_draw(page, view)
    button(page, "Mazo").click()
    view = settle(page)
    discard_a_card(page, view)
    view = settle(page)
    assert starts(page) == 0
    page.reload()
    page.wait_for_function("() => window.ginApp && window.ginApp.view && document.querySelector('.hand .hand-card')")
    view = settle(page)
    assert page.evaluate("window.ginApp.settings.sound") is False
    assert view["phase"] == "draw"
    button(page, "Mazo").click()
    discard_a_card(page, settle(page))
    view = settle(page)
    assert starts(page) == 0 and page.evaluate("window.__sound.contexts") == 0  # not even made, this time
    assert page.evaluate("window.__sound.readied") == 0  # nor its audio output readied
    shoot(page, "look-muted", PHONE)
    # One tap on the table's mute: on again, and the next move sounds.
    mute = page.locator('[data-key="sound-toggle"]')
    mute.click()
    assert mute.get_attribute("aria-pressed") == "true" and page.evaluate("window.ginApp.settings.sound") is True
    assert json.loads(page.evaluate(f"localStorage.getItem({json.dumps(SETTINGS_KEY)})"))["sound"] is True
    page.wait_for_function("() => window.__sound.contexts === 1", timeout=2_000)  # made in that very tap
    view = to_draw(page, view)
    button(page, "Mazo").click()
    wait_more_starts(page, 0)
    # ... and one more tap mutes it again.
    mute.click()
    assert mute.get_attribute("aria-pressed") == "false" and page.evaluate("window.ginApp.settings.sound") is False


def test_nothing_sounds_while_the_page_is_hidden(page, open_app):
    view = open_sounding(page, open_app, settings={**MOVING, "speed": "fast"})
    view = to_draw(page, view)
    button(page, "Mazo").click()
    view = settle(page)
    heard = starts(page)
    assert heard > 0
    page.evaluate("window.__hide(true)")
    discard_a_card(page, view)
    view = settle(page)  # the discard and the computer's whole turn, hidden
    assert starts(page) == heard
    page.evaluate("window.__hide(false)")
    button(page, "Mazo").click()
    wait_more_starts(page, heard)


# --- vibration ----------------------------------------------------------------------------------------

VIBRATE_SPY = """
window.__pulses = [];
Navigator.prototype.vibrate = function (pattern) { window.__pulses.push(pattern); return true; };
"""


@pytest.fixture
def vibrating_phone(phone):
    """test_table_phone's touch phone at 390×844, with a spy on navigator.vibrate."""
    phone.add_init_script(VIBRATE_SPY)
    return phone


def pulses(page):
    return page.evaluate("window.__pulses")


def test_a_tapped_draw_vibrates_and_vibracion_off_stops_it(vibrating_phone, open_app):
    page = vibrating_phone
    open_app(page, hash=f"#seed={SEED}", settings={"speed": "instant", "level": "easy"})
    view = settle(page)
    if view["phase"].startswith("upcard"):
        tap_on(page, 'button[data-intent="pass"]')
        view = settle(page)
    assert pulses(page) == []  # a pass, and the computer's moves, never vibrate
    tap_on(page, ".pile.stock")
    view = settle(page)
    assert view["phase"] == "discard" and pulses(page) == [18]
    card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
    tap(page, *strip(page, card))
    tap(page, *strip(page, card))
    view = settle(page)
    assert pulses(page) == [18, 24]  # the discard, then nothing for the computer's turn
    # The switch is in the menu of a touch phone; off, a draw is still.
    tap_on(page, 'button[data-intent="openMenu"]')
    switch = page.get_by_role("checkbox", name="Vibración", exact=True)
    assert switch.is_checked()
    switch.scroll_into_view_if_needed()
    tap_on(page, "#menu-vibration")
    assert page.evaluate("window.ginApp.settings.vibration") is False
    page.locator('button[data-intent="closeMenu"]').scroll_into_view_if_needed()
    tap_on(page, 'button[data-intent="closeMenu"]')
    tap_on(page, ".pile.stock")
    view = settle(page)
    assert view["phase"] == "discard" and pulses(page) == [18, 24]


def strip(page, card):
    box = page.locator(f'.hand [data-card="{card}"]').bounding_box()
    return box["x"] + 8, box["y"] + 20


# No vibration switch without a touch screen: test_every_felt_and_back_reads_well looks at the menu
# of a page without one.


# --- card size and the layout that uses the screen -------------------------------------------------------

MEASURE = """() => {
  const cards = [...document.querySelectorAll('.hand .hand-card')];
  const rects = cards.map(c => c.getBoundingClientRect());
  const index = cards.map(c => c.querySelector('.corner.tl .rank').getBoundingClientRect());
  const width = (s) => { const e = document.querySelector(s); return e ? e.getBoundingClientRect().width : null; };
  return {
    n: cards.length, hand: rects[0].width, rank: parseFloat(getComputedStyle(cards[0].querySelector('.rank')).fontSize),
    // How far each card's corner index reaches under the next card (negative: clear of it).
    covered: Math.max(...cards.slice(0, -1).map((c, i) => index[i].right - rects[i + 1].left)),
    overlap: Math.max(...cards.slice(0, -1).map((c, i) => rects[i].right - rects[i + 1].left)),
    pile: width('.pile.stock .pile-cards'), opp: width('.opp-backs .card'),
    scrolls: document.documentElement.scrollHeight > innerHeight || document.documentElement.scrollWidth > innerWidth,
  };
}"""


def choose(page, select, value):
    """Open the menu, pick `value` in its select `#menu-<select>`, close the menu."""
    button(page, "Menú").click()
    page.select_option(f"#menu-{select}", value)
    button(page, "Volver a la mesa").click()


def measure_both(page, size, tag):
    """(normal, large): the table measured and shot in the card size it has, then in the other one,
    chosen in the menu (and left so: the next size starts from it, one visit to the menu each)."""
    first = page.evaluate("window.ginApp.settings.cardSize")
    seen = {first: page.evaluate(MEASURE)}
    shoot(page, f"look-{first}-{tag}", size)
    other = "large" if first == "normal" else "normal"
    choose(page, "cardSize", other)
    assert page.evaluate("document.documentElement.dataset.cardSize") == other
    seen[other] = page.evaluate(MEASURE)
    shoot(page, f"look-{other}-{tag}", size)
    return seen["normal"], seen["large"]


class TestGrande:
    """Grande makes the hand's cards at least 15 % wider and their corner index larger, with ten
    cards and with eleven, at every layout, and nothing scrolls; every corner index stays clear of
    the next card (a phone in portrait fans tighter instead). The computer's cards grow too, and so
    do the piles except in a phone's landscape, whose height has no room for both. One table, opened
    once and resized to every layout (tests/e2e/conftest.py SharedTable): ten cards, then the card
    drawn from the stock makes eleven; each size is measured in the card size the one before left,
    then in the other."""

    @pytest.mark.parametrize("size", LAYOUTS, ids=lambda s: f"{s[0]}x{s[1]}")
    @pytest.mark.parametrize("count", [10, 11])
    def test_grande_cards_are_wider_with_bigger_readable_indices_at_every_layout(self, shared_table, open_app, count, size):
        def opened(page):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.emulate_media(reduced_motion="reduce")
            open_app(page, hash=f"#seed={TENS}", settings={"speed": "instant", "level": "easy", "sort": "rank"})
            view = to_draw(page, settle(page))
            if page.locator('[data-key="daily-offer"]').count():  # the day's offer takes the felt's room on a phone: answered first
                page.locator('[data-key="daily-no"]').click()
            assert sum(card[0] == "T" for card in view["hand"]) >= 2

        page = shared_table.get(TENS, opened)
        if len(page.evaluate("window.ginApp.view.hand")) > count:  # eleven already (a test run after those of eleven)
            shared_table.close()
            page = shared_table.get(TENS, opened)
        if len(page.evaluate("window.ginApp.view.hand")) < count:
            button(page, "Mazo").click()
        resize(page, size)
        settle(page)
        normal, large = measure_both(page, size, f"{count}cards")
        assert normal["n"] == large["n"] == count
        where = (size, count, normal, large)
        assert large["hand"] >= 1.15 * normal["hand"], where
        assert large["rank"] > normal["rank"], where
        assert large["opp"] >= 1.15 * normal["opp"], where
        landscape_phone = size[0] > size[1] and size[1] <= 500
        assert large["pile"] >= (normal["pile"] if landscape_phone else 1.15 * normal["pile"]), where
        for shown in (normal, large):
            assert shown["covered"] <= 0, where
            assert not shown["scrolls"], where


def test_wide_and_tall_screens_are_used(page, open_app):
    """Desktops: eleven cards side by side without overlap, and on a bigger screen bigger cards,
    piles and computer's cards. A phone in portrait gives the felt between the hands to bigger
    piles and a bigger computer's hand than a short one, and nothing scrolls."""
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size({"width": 1280, "height": 800})
    open_app(page, hash=f"#seed={SEED}", settings={"speed": "instant", "level": "easy", "sort": "melds"})
    to_draw(page, settle(page))
    button(page, "Mazo").click()
    settle(page)
    seen = {}
    for size in [(1280, 800), (1920, 1080), (390, 844), (360, 740)]:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h", arg=list(size))
        seen[size] = page.evaluate(MEASURE)
        shoot(page, "look-screen", size)
        assert seen[size]["n"] == 11 and not seen[size]["scrolls"], (size, seen[size])
    for size in [(1280, 800), (1920, 1080)]:
        assert seen[size]["overlap"] <= 0, (size, seen[size])  # spread, not fanned
    wide, desk = seen[(1920, 1080)], seen[(1280, 800)]
    assert wide["hand"] > 1.3 * desk["hand"] and wide["pile"] > 1.3 * desk["pile"] and wide["opp"] > 1.3 * desk["opp"], seen
    tall, short = seen[(390, 844)], seen[(360, 740)]
    assert tall["pile"] >= 100 and tall["pile"] > short["pile"] and tall["opp"] > short["opp"], seen


# --- felts and backs ----------------------------------------------------------------------------------------


def test_every_felt_and_back_reads_well(page, open_app):
    """Each felt with each back, in Spanish and at two sizes: axe-core finds no contrast (or other
    serious) violation on the table and in the open menu, measured against that felt's lightest
    colour; the four-colour deck stays; a screenshot of each for a person to look at. (The page has
    no touch screen: its menu has no vibration switch.)"""
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings={"speed": "instant", "level": "easy", "fourColour": True})
    settle(page)
    lightest = set()
    for felt, back in [(f, b) for f in FELTS for b in BACKS]:
        button(page, "Menú").click()
        page.select_option("#menu-felt", felt)
        page.select_option("#menu-back", back)
        assert page.evaluate("[document.documentElement.dataset.felt, document.documentElement.dataset.back]") == [felt, back]
        # A page without a touch screen: Sonido in the menu, no switch for a vibration it cannot make.
        assert page.get_by_role("checkbox", name="Sonido", exact=True).is_visible(), "no touch screen: no Sonido in the menu"
        assert page.locator("#menu-vibration").count() == 0, "no touch screen, yet a Vibración switch in the menu"
        assert_accessible(page, f"menu, felt {felt}, back {back}")
        button(page, "Volver a la mesa").click()
        lightest.add(page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--felt-light').trim()"))
        assert_accessible(page, f"table, felt {felt}, back {back}")
        assert "four-colour" in page.locator("#app").get_attribute("class")
        shoot(page, f"look-{felt}-{back}", PHONE)
    assert len(lightest) == len(FELTS)  # axe measured each felt against its own lightest colour
    for felt in FELTS:
        # The felt and Grande in one visit to the menu, then the table looked at in each size.
        button(page, "Menú").click()
        page.select_option("#menu-felt", felt)
        page.select_option("#menu-cardSize", "large")
        button(page, "Volver a la mesa").click()
        for size in [(1280, 800), (844, 390)]:
            resize(page, size)
            assert page.evaluate("[document.documentElement.dataset.felt, document.documentElement.dataset.cardSize]") == [felt, "large"]
            assert_accessible(page, f"table, felt {felt}, large, {size}")
            shoot(page, f"look-{felt}-large", size)


# --- the settings -------------------------------------------------------------------------------------------


def test_the_new_settings_persist_are_checked_and_travel_in_the_export(page, open_app, tmp_path):
    """Sound, vibration, card size, back and felt: kept across a reload; a stored value that is not
    one of theirs falls back to its default with the notice, the others kept; Exportar writes
    them and Importar applies a file's (only the values the menu offers); both languages."""
    bad = {"speed": "instant", "level": "easy", "sound": "loud", "vibration": False, "cardSize": "huge", "back": "blue", "felt": "purple"}
    put_in_storage(page, {SETTINGS_KEY: bad})
    page.set_viewport_size({"width": 1280, "height": 800})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash=f"#seed={SEED}", settings={})
    settle(page)
    settings = page.evaluate("window.ginApp.settings")
    assert (settings["sound"], settings["vibration"], settings["cardSize"], settings["back"], settings["felt"]) == (True, False, "normal", "blue", "green")
    assert "settings.reset" in page.evaluate("window.ginApp.notices")
    # Chosen in the menu, kept across a reload.
    choose(page, "felt", "wine")
    choose(page, "cardSize", "large")
    page.reload()
    page.wait_for_function("() => window.ginApp && window.ginApp.view")
    settle(page)
    assert page.evaluate("[document.documentElement.dataset.felt, document.documentElement.dataset.cardSize]") == ["wine", "large"]
    # Export: the file carries them.
    button(page, "Menú").click()
    button(page, "Estadísticas").click()
    dialog = page.get_by_role("dialog", name="Estadísticas")
    with page.expect_download() as info:
        dialog.get_by_role("button", name="Exportar", exact=True).click()
    path = tmp_path / "export.json"
    info.value.save_as(path)
    data = json.loads(path.read_text())
    assert {k: data["settings"][k] for k in ("sound", "vibration", "cardSize", "back", "felt")} == {
        "sound": True, "vibration": False, "cardSize": "large", "back": "blue", "felt": "wine"}
    # Import: a file's values the menu offers are applied, one it does not offer is left.
    data["settings"].update({"sound": False, "cardSize": "normal", "back": "black", "felt": "sparkly", "vibration": True})
    data["matches"], data["records"] = [], []
    path.write_text(json.dumps(data))
    with page.expect_file_chooser() as chooser:
        dialog.get_by_role("button", name="Importar", exact=True).click()
    chooser.value.set_files(str(path))
    page.wait_for_function("() => window.ginApp.settings.back === 'black'")
    settings = page.evaluate("window.ginApp.settings")
    assert (settings["sound"], settings["vibration"], settings["cardSize"], settings["back"], settings["felt"]) == (False, True, "normal", "black", "wine")
    # Both languages.
    page.keyboard.press("Escape")  # the sheet closes back to the menu
    assert ui(page)["menuOpen"]
    page.select_option("#menu-lang", "en")
    menu = page.get_by_role("dialog", name="Menu")
    for name in ["Sound", "Card size", "Card back", "Felt"]:
        assert menu.get_by_label(name, exact=True).count() == 1, name
    assert [o.inner_text() for o in page.locator("#menu-cardSize option").all()] == ["Normal", "Large"]
    assert [o.inner_text() for o in page.locator("#menu-felt option").all()] == ["Green", "Blue", "Burgundy"]
    assert_readable(page, "menu in English")
    page.select_option("#menu-lang", "es")
    assert [o.inner_text() for o in page.locator("#menu-back option").all()] == ["Rombos rojos", "Ondas azules", "Negro y oro"]
    assert_readable(page, "menu in Spanish")
    shoot(page, "look-menu", (1280, 800))
