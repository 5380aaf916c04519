"""The table that moves (issue 13): kept nodes across renders, FLIP motion with the Web Animations
API (none with reduced motion or speed "instant"), the one-row fan at five sizes, and a recording
of one deal at three sizes into test-artifacts/ (.webm) for a person to watch."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import assert_readable, resize
from test_table import button, settle, setup, ui
from test_table_phone import touch

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
MOVING = {"speed": "normal", "level": "easy", "sort": "melds"}
FAN_SIZES = [(360, 740), (390, 844), (740, 360), (844, 390), (1280, 800)]
# The tests that watch the motion itself (cards in flight, a deal's pace, a recording) are marked
# `alone`: none runs beside another browser test. The others look at the table with reduced
# motion or speed "instant" (no animation, no transition: style.css), or at no motion at all
# (nodes kept, the keyed update, the fan's layout, drags), which no load can change: they run
# beside other browser tests.


def open_moving(page, open_app, size, reduced=False, settings=MOVING):
    """The page at `size`, opened with reduced motion; unless `reduced`, motion as the player has it
    once the first deal has landed (at once: that deal is no part of the tests that open this way;
    the page asks for prefers-reduced-motion at each render). The view."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash="#seed=TEST-0001", settings=settings)
    view = settle(page)
    if not reduced:
        page.wait_for_function("() => !document.getElementById('app').hasAttribute('data-dealing')")
        page.emulate_media(reduced_motion="no-preference")
    return view


def running_animations(page):
    return page.evaluate("document.getAnimations().filter(a => a.playState === 'running').length")


def to_draw(page, view):
    if view["phase"].startswith("upcard"):
        button(page, "Pasar").click()
        view = settle(page)
    assert view["phase"] == "draw", view["phase"]
    return view


# The hand's cards and the stock stay the same nodes across a draw:
# test_nothing_moves_with_reduced_motion_or_instant, which draws with no motion.


@pytest.mark.alone
def test_a_draw_and_a_deal_move(page, open_app):
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(reduced_motion="no-preference")
    open_app(page, hash="#seed=TEST-0001", settings=MOVING)
    # The first deal flies from the stock as the page opens.
    assert running_animations(page) > 10
    view = to_draw(page, settle(page))
    page.wait_for_function("() => document.getAnimations().filter(a => a.playState === 'running').length === 0")
    button(page, "Mazo").click()
    page.wait_for_function("() => window.ginApp.view.phase === 'discard'")
    drawn = page.evaluate("window.ginApp.view.drawn")
    moving = page.evaluate(
        "(c) => document.querySelector(`.hand [data-card='${c}']`).getAnimations().length", drawn
    )
    assert moving >= 1 and running_animations(page) >= 1


# The keyed update by itself (web/table/morph.js), on lists of keyed nodes: which nodes leave, which move.
MORPH = """async ([before, after, extra]) => {
  const { morphChildren } = await import('/table/morph.js');
  const make = (keys) => { const d = document.createElement('div');
    for (const k of keys) { const n = document.createElement(k.startsWith('p:') ? 'p' : 'span');
      if (!k.startsWith('p:')) n.dataset.key = k; n.textContent = k; d.append(n); } return d; };
  const live = make(before);
  document.body.append(live);
  const nodes = new Map([...live.children].map(n => [n.textContent, n]));
  if (extra) { nodes.get(extra).setAttribute('data-flying', ''); nodes.get(extra).setAttribute('data-stray', '1'); }
  const moved = [];
  const watch = new MutationObserver(rs => { for (const r of rs) for (const n of r.removedNodes) moved.push(n.textContent); });
  watch.observe(live, { childList: true });
  morphChildren(live, make(after));
  await Promise.resolve();
  const records = watch.takeRecords();
  for (const r of records) for (const n of r.removedNodes) moved.push(n.textContent);
  watch.disconnect();
  const order = [...live.children].map(n => n.textContent);
  const kept = order.filter(k => nodes.get(k) === live.children[order.indexOf(k)]);
  const flags = extra ? [nodes.get(extra).hasAttribute('data-flying'), nodes.get(extra).hasAttribute('data-stray')] : null;
  live.remove();
  return { order, kept, moved, flags };
}"""


def test_the_keyed_update_moves_only_what_moved(page, server):
    """A card thrown from the middle of the hand takes no other card out of the page (a node taken
    out and put back is styled and laid out again and loses the focus: a phone pays for each), a
    card moved to the other end is the one node that moves, and unkeyed nodes still pair by place.
    The module by itself, in a page of the origin that runs no app (nothing of the table is needed)."""
    page.goto(server.url + "app.webmanifest")
    hand = [f"c{i}" for i in range(11)]
    thrown = page.evaluate(MORPH, [hand, hand[:4] + hand[5:], None])
    assert thrown["order"] == hand[:4] + hand[5:] and thrown["kept"] == thrown["order"]
    assert thrown["moved"] == ["c4"], thrown["moved"]  # only the thrown card left the list
    first_to_last = page.evaluate(MORPH, [hand, hand[1:] + hand[:1], None])
    assert first_to_last["order"] == hand[1:] + hand[:1] and first_to_last["kept"] == first_to_last["order"]
    assert first_to_last["moved"] == ["c0"], first_to_last["moved"]
    drawn = page.evaluate(MORPH, [hand[:10], hand[:3] + ["new"] + hand[3:10], None])
    assert drawn["moved"] == [] and drawn["order"] == hand[:3] + ["new"] + hand[3:10]
    mixed = page.evaluate(MORPH, [["p:a", "x", "p:b", "y"], ["p:a", "y", "p:b", "x"], None])
    assert mixed["order"] == ["p:a", "y", "p:b", "x"] and mixed["kept"] == mixed["order"] and len(mixed["moved"]) == 2, mixed
    # The motion layer's mark on a card in flight stays through a render; anything else the
    # render does not write goes.
    assert page.evaluate(MORPH, [hand, hand, "c3"])["flags"] == [True, False]


# Once the drawn card shows (the view in the discard phase): its mark, its pointer-events and
# whether its flight runs; then a click on another card of the hand (a selection, rendered at
# once) and the drawn card's mark and flight after that render, all in the same task.
MID_FLIGHT = """async () => {
  while (window.ginApp.view.phase !== 'discard') await new Promise((r) => requestAnimationFrame(r));
  const drawn = window.ginApp.view.drawn, other = window.ginApp.view.hand.find((c) => c !== drawn);
  const card = document.querySelector(`.hand [data-card='${drawn}']`);
  const flying = () => card.getAnimations().some((a) => a.playState === 'running');
  const seen = { drawn, other, marked: card.getAttribute('data-flying'), pointer: getComputedStyle(card).pointerEvents, flying: flying() };
  document.querySelector(`.hand [data-card='${other}']`).dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }));
  return { ...seen, selected: window.ginApp.ui.selected, after: card.getAttribute('data-flying'), still: flying() };
}"""


@pytest.mark.alone
def test_a_flying_card_is_marked_until_it_lands(page, open_app):
    """The motion layer marks a card in flight (no target; on top, or in the fan's order when
    the card after it slides aside: "fan") for exactly its flight, through a render in the middle
    of it (a selection), and no card stays marked at rest."""
    view = to_draw(page, open_moving(page, open_app, (390, 844)))
    page.wait_for_function("() => document.getAnimations().filter(a => a.playState === 'running').length === 0")
    assert page.locator("[data-flying]").count() == 0
    button(page, "Mazo").click()
    # The draw's flight lasts 280 ms: read in the page, in a frame it flies (four round trips from
    # here outlasted it on a loaded machine: the mark read after the card had landed).
    seen = page.evaluate(MID_FLIGHT)
    drawn, other = seen["drawn"], seen["other"]
    assert seen["flying"] and seen["marked"] in ("", "fan") and seen["pointer"] == "none", seen
    assert seen["selected"] == other and seen["still"], seen  # a render mid-flight (a selection)
    assert seen["after"] == seen["marked"], ("a render in the middle of the flight took its mark", seen)
    card = page.locator(f'.hand [data-card="{drawn}"]')
    assert ui(page)["selected"] == other
    page.wait_for_function("() => document.getAnimations().filter(a => a.playState === 'running').length === 0")
    page.wait_for_function("() => document.querySelectorAll('[data-flying]').length === 0")
    assert card.evaluate("(el) => getComputedStyle(el).pointerEvents") == "auto"
    assert view["phase"] == "draw"


# Once the card drawn (`thrown` null), or the card thrown, shows where it goes: the hand's cards
# in flight, those marked as in flight, the moved card's flight and style; each flight then held
# where it is (a tap's round trip from the test outlasts a slide), and a point on a sliding card's
# own strip (the next card of the fan covers the rest), with the card a tap there finds.
SLIDES = """async (thrown) => {
  const view = () => window.ginApp.view;
  const at = () => thrown ? document.querySelector(`.discard-pile [data-face='${thrown}']`)
    : view().phase === 'discard' && document.querySelector(`.hand [data-card='${view().drawn}']`);
  while (!at()) await new Promise((r) => requestAnimationFrame(r));
  const flight = (n) => n.getAnimations().find((a) => a.id === 'motion' && a.playState === 'running');
  const cards = [...document.querySelectorAll('.hand .hand-card')];
  const card = at(), flies = Boolean(flight(card)), flights = [...cards, card].map(flight).filter(Boolean);
  const slid = cards.filter((n) => n !== card && flight(n));
  for (const a of flights) a.pause();
  const rest = cards.filter((n) => n !== card), i = Math.max(0, Math.min(rest.indexOf(slid[slid.length >> 1]), rest.length - 2));
  const r = rest[i].getBoundingClientRect(), next = rest[i + 1].getBoundingClientRect();
  const x = (r.left + Math.min(r.right, next.left)) / 2, y = r.top + r.height * 0.75;
  const hit = document.elementFromPoint(x, y);
  return { moved: thrown || view().drawn, slid: slid.map((n) => n.dataset.card), target: rest[i].dataset.card, x, y,
    hit: hit && hit.closest('.hand-card') ? hit.closest('.hand-card').dataset.card : null,
    marked: [...document.querySelectorAll('[data-flying]')].map((n) => n.dataset.card || n.dataset.face),
    flies,
    slidStyle: [...new Set(slid.map((n) => `${getComputedStyle(n).zIndex} ${getComputedStyle(n).pointerEvents}`))],
    movedStyle: `${getComputedStyle(card).zIndex} ${getComputedStyle(card).pointerEvents}` };
}"""
RESUME = "() => { for (const a of document.getAnimations()) if (a.id === 'motion' && a.playState === 'paused') a.play(); }"
LANDED = "() => !document.querySelector('[data-flying]') && !document.getAnimations().some(a => a.playState === 'running')"


@pytest.mark.alone
def test_cards_that_only_slide_along_the_hand_fly_unmarked_and_take_a_tap(page, open_app):
    """Issue 33: the mark of a card in flight (on top, no target) went on every card of the hand
    that slid along it to make room for a card drawn or to close a thrown card's gap, and off again
    as each landed: each time the whole hand styled again, on a phone at x4 the longest part of the
    move's frames. Sorted by suit, a draw and a discard move no card of the hand by more than a
    slide: the cards that slide still fly, unmarked (in their place in the fan, and a tap on one
    reaches it); the card drawn, and the card thrown onto the pile, fly marked as before."""
    to_draw(page, open_moving(page, open_app, (390, 844), settings={**MOVING, "sort": "suit"}))
    page.wait_for_function(LANDED)
    button(page, "Mazo").click()
    seen = page.evaluate(SLIDES, None)
    # Every card of the hand in flight in the fan's order (no z-index): the card drawn goes under
    # its right-hand neighbours as they slide, as when they were marked too.
    assert seen["flies"] and seen["marked"] == [seen["moved"]] and seen["movedStyle"] == "auto none", seen
    assert len(seen["slid"]) >= 5 and seen["slidStyle"] == ["auto auto"], seen
    # A tap on a sliding card (held mid-slide) reaches it: the card is chosen.
    assert seen["target"] in seen["slid"] and seen["hit"] == seen["target"], seen
    page.mouse.click(seen["x"], seen["y"])
    page.wait_for_function("(c) => window.ginApp.ui.selected === c", arg=seen["target"])
    page.evaluate(RESUME)
    page.wait_for_function(LANDED)
    # A card thrown from the middle of the hand: the cards after it close the gap, unmarked.
    hand = page.evaluate("[...document.querySelectorAll('.hand .hand-card')].map((n) => n.dataset.card)")
    thrown = hand[3]
    page.locator(f'.hand [data-card="{thrown}"]').dblclick(position={"x": 8, "y": 20})
    seen = page.evaluate(SLIDES, thrown)
    assert seen["flies"] and seen["marked"] == [thrown] and seen["movedStyle"] == "5 none", seen
    assert len(seen["slid"]) >= 5 and seen["slidStyle"] == ["auto auto"], seen
    page.evaluate(RESUME)
    page.wait_for_function(LANDED)
    assert settle(page)["phase"] == "draw"


class TestNothingMoves:
    """One table at 390x844 (tests/e2e/conftest.py SharedTable), TEST-0001 opened at speed
    "normal" with reduced motion; then the same page with motion as the player has it and speed
    "instant" chosen in the menu (the drawn card of the case before discarded, at that speed)."""

    @pytest.mark.parametrize("how", ["reduced-motion", "instant"])
    def test_nothing_moves_with_reduced_motion_or_instant(self, shared_table, open_app, how):
        """A draw moves nothing, and the hand's cards and the stock stay the same nodes across it."""
        page = shared_table.get("still", lambda page: open_moving(page, open_app, (390, 844), reduced=True))
        view = settle(page)
        if how == "instant":
            button(page, "Menú").click()
            page.select_option("#menu-speed", "instant")
            button(page, "Volver a la mesa").click()
            page.emulate_media(reduced_motion="no-preference")
            assert page.evaluate("window.ginApp.settings.speed") == "instant"
            if view["phase"] == "discard":
                card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
                page.locator(f'.hand [data-card="{card}"]').dblclick(position={"x": 8, "y": 20})
                view = settle(page)
        else:
            assert page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
        nothing_moves_in_a_draw(page, to_draw(page, view))


def nothing_moves_in_a_draw(page, view):
    assert running_animations(page) == 0
    card = view["hand"][0]
    handle = page.locator(f'.hand [data-card="{card}"]').element_handle()
    stock = page.locator(".pile.stock").element_handle()
    button(page, "Mazo").click()
    after = settle(page)
    assert page.evaluate("document.getAnimations().length") == 0
    assert len(after["hand"]) == 11
    assert handle.evaluate("(el) => el.isConnected"), "the card's node was replaced by the draw"
    assert handle.evaluate("(el, c) => el === document.querySelector(`.hand [data-card='${c}']`)", card)
    assert stock.evaluate("(el) => el.isConnected && el === document.querySelector('.pile.stock')"), "the stock's node was replaced"


class TestTheFan:
    """One table (the upcard passed, a card drawn: eleven cards in the hand), opened at the first
    size and resized to each of the others (tests/e2e/conftest.py SharedTable)."""

    @pytest.mark.parametrize("size", FAN_SIZES, ids=[f"{w}x{h}" for w, h in FAN_SIZES])
    def test_the_fan_fits_in_one_row(self, shared_table, open_app, size):
        page = shared_table.get("fan", eleven_cards(open_app, size))
        page.mouse.move(0, 0)  # where a new page's mouse is: off the hand
        resize(page, size)
        fan_fits_in_one_row(page, settle(page), size)

    @pytest.mark.parametrize("size", FAN_SIZES, ids=[f"{w}x{h}" for w, h in FAN_SIZES])
    def test_a_court_cards_letter_and_suit_both_show_in_its_frame(self, shared_table, open_app, size):
        """A jack, queen or king in the hand shows its letter over its suit, both inside its
        framed middle, the suit at least a fifth of the card's width tall (the table's piles'
        area once shared the face's class name: its gap, 8 px or 16 px on a landscape phone,
        squeezed the suit to 1-11 px)."""
        page = shared_table.get("fan", eleven_cards(open_app, size))
        resize(page, size)
        courts = page.locator(".hand .hand-card.court").evaluate_all(
            """els => els.map(e => { const box = (n) => n.getBoundingClientRect();
                  const frame = e.querySelector('.face .court'), pip = frame.querySelector('.pip'),
                        letter = frame.querySelector('.court-letter');
                  const [c, f, p, l] = [box(e), box(frame), box(pip), box(letter)];
                  return {card: e.dataset.card, width: c.width, frame: [f.top, f.bottom, f.left, f.right],
                          pip: [p.top, p.bottom, p.left, p.right], letter: [l.top, l.bottom],
                          text: getComputedStyle(letter, '::before').content}; })"""
        )
        assert courts, "the shared table's hand holds no court card: pick another seed"
        for c in courts:
            top, bottom, left, right = c["frame"]
            p_top, p_bottom, p_left, p_right = c["pip"]
            assert c["text"].strip('"') == c["card"][0], c
            assert p_bottom - p_top >= 0.2 * c["width"], (size, c)
            assert top - 0.5 <= c["letter"][0] and c["letter"][1] <= p_top + 0.5, (size, c)  # the letter above its suit
            assert top - 0.5 <= p_top and p_bottom <= bottom + 0.5 and left <= p_left and p_right <= right, (size, c)


def eleven_cards(open_app, size, settings=MOVING):
    """A shared table (TestTheFan's, TestTheHandMakesRoom's): the upcard passed, a card drawn."""

    def opener(page):
        to_draw(page, open_moving(page, open_app, size, reduced=True, settings=settings))
        button(page, "Mazo").click()

    return opener


def fan_fits_in_one_row(page, view, size):
    assert len(view["hand"]) == 11
    width, height = size
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.evaluate("document.scrollingElement.scrollHeight") <= height
    cards = page.locator(".hand .hand-card").evaluate_all(
        """els => els.map(e => { const r = e.getBoundingClientRect();
              return {card: e.dataset.card, name: e.getAttribute('aria-label'),
                      left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"""
    )
    # One row: every card at the same height.
    assert len({round(c["top"]) for c in cards}) == 1, cards
    for i, c in enumerate(cards):
        assert c["left"] >= 0 and c["right"] <= width and c["bottom"] <= height, c
        assert c["name"] and c["name"].startswith(c["card"][0] if c["card"][0].isdigit() else ""), c
        # A strip of the full height at least 28 px wide, and a tap there reaches this card.
        visible = (cards[i + 1]["left"] if i + 1 < len(cards) else c["right"]) - c["left"]
        assert visible >= 28, (size, c, visible)
        x, y = c["left"] + min(visible, 28) / 2, (c["top"] + c["bottom"]) / 2
        page.mouse.move(x, y)  # hovering (a mouse moving along the fan) keeps every strip reachable
        hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.hand-card')?.dataset.card", [x, y])
        assert hit == c["card"], (size, c["card"], hit)
    # Melds are never split: each meld's cards are next to each other.
    order = [c["card"] for c in cards]
    for meld in view["arrangement"]["melds"]:
        where = sorted(order.index(c) for c in meld)
        assert where == list(range(where[0], where[0] + len(meld))), (meld, order)
    # Each meld's coloured bar ends where the next group's first card begins
    # (never running on under a card of another group).
    bars = page.locator(".hand .hand-card").evaluate_all(
        """els => els.map(e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e, '::after');
              return s.content === 'none' ? null : r.right - parseFloat(s.right); })"""
    )
    melded = [i for i, b in enumerate(bars) if b is not None]
    assert len(melded) == sum(len(m) for m in view["arrangement"]["melds"])
    for i in melded:
        if i + 1 < len(cards) and (i + 1 not in melded or order[i + 1] not in next(
                m for m in view["arrangement"]["melds"] if order[i] in m)):
            assert bars[i] <= cards[i + 1]["left"] + 0.5, (size, order[i], bars[i], cards[i + 1]["left"])


# --- a recording of one deal (Playwright's video, with the ffmpeg build.py provides) -----------


def _frames_and_seconds(path: Path) -> tuple[int, float]:
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
         "-show_entries", "stream=nb_read_frames:format=duration", "-of", "json", str(path)],
        capture_output=True, text=True, check=True,
    ).stdout
    info = json.loads(out)
    return int(info["streams"][0]["nb_read_frames"]), float(info["format"]["duration"])


RECORDED = [(390, 844), (844, 390), (1280, 800)]
NO_MOTION = "() => document.getAnimations().filter(a => a.playState === 'running').length === 0"


@pytest.mark.alone
class TestRecordOneDeal:
    """One page of the returning visitor (tests/e2e/conftest.py SharedTable), booted once at the
    first size, with TEST-0001 at slow speed; at each size the same deal dealt again (Repetir) and
    filmed with the page's screencast from the deal to the computer's answer to the player's first
    discard, each move waited for until its cards lie still, into test-artifacts/deal-<size>.webm.
    (A context recording its pages filmed a cold boot of its own first, for every size.)"""

    @pytest.mark.parametrize("size", RECORDED, ids=[f"{w}x{h}" for w, h in RECORDED])
    def test_record_one_deal(self, shared_table, open_app, size):
        if not Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", "/nonexistent")).is_dir():
            pytest.fail("no ffmpeg for Playwright's video: run the tests through `python3 build.py test`")

        def opened(page):
            open_moving(page, open_app, size, settings={**MOVING, "speed": "slow"})

        page = shared_table.get("record", opened)
        resize(page, size)
        # The phones filmed at their size; the desktop at 800x500, Playwright's own size for it (the
        # viewport scaled to fit 800x800): each frame is encoded twice (JPEG, then VP9), and 1280x800
        # cost ~2.5 CPU-s more for the same deal.
        frame = {"width": size[0], "height": size[1]} if size[0] <= 844 else {"width": 800, "height": round(size[1] * 800 / size[0])}
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"deal-{size[0]}x{size[1]}.webm"
        button(page, "Menú").click()
        button(page, "Repetir").click()
        page.screencast.start(path=str(path), size=frame)
        try:
            button(page, "Empezar").click()
            page.wait_for_function("() => document.getElementById('app').hasAttribute('data-dealing')")  # dealt anew: it flies
            view = settle(page)  # the deal has landed
            page.wait_for_function(NO_MOTION)
            if view["phase"].startswith("upcard"):
                button(page, "Pasar").click()
                view = settle(page)
                page.wait_for_function(NO_MOTION)
            button(page, "Mazo").click()
            view = settle(page)
            page.wait_for_function(NO_MOTION)  # the draw, melds re-forming
            card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
            page.locator(f'.hand [data-card="{card}"]').dblclick(position={"x": 8, "y": 20})
            settle(page)  # the discard, the computer's draw and discard
            page.wait_for_function(NO_MOTION)
        finally:
            page.screencast.stop()  # writes the video
        frames, seconds = _frames_and_seconds(path)
        assert seconds > 5 and frames > 100, (frames, seconds)


class TestDragOntoThePile:
    """One table (tests/e2e/conftest.py SharedTable) opened at the first size; at each size the
    player draws from the stock and drags a card of the hand: away from the pile, then onto it."""

    @pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
    def test_drag_a_card_onto_the_pile_discards_it(self, shared_table, open_app, size):
        # Still cards (drag.js: reduced motion or speed "instant", one and the same): "instant"
        # takes the computer's pauses out too, no part of it.
        page = shared_table.get("drag", lambda page: open_moving(page, open_app, size, reduced=True, settings={**MOVING, "speed": "instant"}))
        resize(page, size)
        drag_onto_the_pile(page, to_draw(page, settle(page)))


def drag_onto_the_pile(page, view):
    button(page, "Mazo").click()
    view = settle(page)
    card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
    box = page.locator(f'.hand [data-card="{card}"]').bounding_box()
    pile = page.locator(".pile.discard-pile .pile-cards").bounding_box()
    # A drag that ends away from the pile changes nothing.
    page.mouse.move(box["x"] + 10, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 10, box["y"] - 60, steps=4)
    page.mouse.up()
    assert settle(page) == view and ui(page)["selected"] is None
    page.mouse.move(box["x"] + 10, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=8)
    page.mouse.up()
    after = settle(page)
    assert card not in after["hand"]
    assert card in after["discard"] or after["history"]


# --- the "manual" sort: the player's own order (drag within the hand, Alt+arrows) -------------

MANUAL = {**MOVING, "speed": "instant", "sort": "manual"}


def hand_names(page):
    return page.locator(".hand .hand-card").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")


def hand_cards(page):
    return page.locator(".hand .hand-card").evaluate_all("els => els.map(e => e.dataset.card)")


def drag_card(page, card, to_x, to_y):
    box = page.locator(f'.hand [data-card="{card}"]').bounding_box()
    page.mouse.move(box["x"] + 8, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(to_x, to_y, steps=8)
    page.mouse.up()


def the_sort_menu_offers_manual(page):
    """The menu's sort offers "A mano" and shows it chosen (the menu closed again after)."""
    button(page, "Menú").click()
    select = page.get_by_label("Orden de la mano")
    assert select.input_value() == "manual"
    assert "A mano (arrastra las cartas)" in select.locator("option").all_inner_texts()
    button(page, "Volver a la mesa").click()


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_dragging_within_the_hand_reorders_it_and_the_order_survives(page, open_app, size):
    """The sort menu offers "A mano"; in it a card dragged along the hand goes where it is let go,
    and the order survives a reload, Alt+arrows and the next draw."""
    view = open_moving(page, open_app, size, reduced=True, settings=MANUAL)
    the_sort_menu_offers_manual(page)
    view = to_draw(page, view)
    button(page, "Mazo").click()
    view = settle(page)
    before, names = hand_cards(page), hand_names(page)
    assert len(before) == 11 and all(names)
    # Until the first move the hand is in the melds order: melds shown as groups.
    assert page.locator(".hand .meld-first").count() == len(view["arrangement"]["melds"])
    # Drag the first card past the last one: it goes to the right end.
    last = page.locator(f'.hand [data-card="{before[-1]}"]').bounding_box()
    drag_card(page, before[0], last["x"] + last["width"] - 4, last["y"] + last["height"] / 2)
    settle(page)
    moved = names[1:] + names[:1]
    assert hand_names(page) == moved
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"manual-moved-{size[0]}x{size[1]}.png"))
    assert settle(page)["hand"] == view["hand"]  # only the display changed
    # A meld split by the move is no longer shown as a group (no kind label for it).
    split = [m for m in view["arrangement"]["melds"] if before[0] in m and len(m) >= 3]
    assert page.locator(".hand .meld-first").count() == len(view["arrangement"]["melds"]) - len(split)
    # Tap-to-select still works in this sort.
    page.locator(f'.hand [data-card="{before[3]}"]').click(position={"x": 8, "y": 20})
    assert ui(page)["selected"] == before[3]
    # The order is kept over a reload.
    open_app(page, reload=True)
    settle(page)
    assert hand_names(page) == moved
    # Alt+Left moves the focused card one place left and keeps the focus on it.
    mover = page.locator(f'.hand [data-card="{before[0]}"]')
    assert mover.get_attribute("aria-keyshortcuts") == "Alt+ArrowLeft Alt+ArrowRight"
    mover.focus()
    page.keyboard.press("Alt+ArrowLeft")
    assert hand_names(page) == moved[:9] + [moved[10], moved[9]]
    assert page.evaluate("document.activeElement.dataset.card") == before[0]
    # After a discard and the computer's turn, a drawn card goes to the right end.
    keep = hand_cards(page)
    card = next(a["card"] for a in settle(page)["legal"] if a["type"] == "discard" and a["card"] != before[0])
    page.locator(f'.hand [data-card="{card}"]').dblclick(position={"x": 8, "y": 20})
    view = to_draw(page, settle(page))
    button(page, "Mazo").click()
    view = settle(page)
    drawn = view["drawn"]
    if drawn:
        assert hand_cards(page) == [c for c in keep if c != card] + [drawn]


def lefts(page):
    return page.locator(".hand .hand-card").evaluate_all("els => els.map(e => e.getBoundingClientRect().left)")


class TestTheHandMakesRoom:
    """One table in the manual sort (tests/e2e/conftest.py SharedTable), the upcard passed and a
    card drawn (eleven cards), opened at the first size; at each size a card is held along the
    hand and let go there (the order it leaves is where the next size starts from)."""

    @pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
    def test_the_hand_makes_room_while_a_card_is_dragged_along_it(self, shared_table, open_app, size):
        page = shared_table.get("room", eleven_cards(open_app, size, MANUAL))
        page.mouse.move(0, 0)  # where a new page's mouse is: off the hand
        resize(page, size)
        hand_makes_room(page, size)


def hand_makes_room(page, size):
    assert len(settle(page)["hand"]) == 11
    cards, start = hand_cards(page), lefts(page)
    box = page.locator(f'.hand [data-card="{cards[1]}"]').bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 8, y)
    page.mouse.down()
    # Held past the middle of the sixth card: the third to the sixth slide one place left
    # into the gap, the first and those after the sixth stay; nothing is dropped yet.
    target = start[5] + (start[6] - start[5]) / 2 + box["width"] / 2 - 2
    page.mouse.move(target, y, steps=8)
    held = lefts(page)
    for i in range(2, 6):
        assert abs(held[i] - start[i - 1]) < 1.5, (i, held[i], start[i - 1])
    for i in [0, *range(6, len(cards))]:
        assert abs(held[i] - start[i]) < 1.5, (i, held[i], start[i])
    assert hand_cards(page) == cards
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"manual-room-{size[0]}x{size[1]}.png"))
    # Taken well above the hand (not onto the pile), the others go back to their places.
    page.mouse.move(target, y - 260, steps=4)
    back = lefts(page)
    assert all(abs(back[i] - start[i]) < 1.5 for i in range(len(cards)) if i != 1), (back, start)
    # Back over the same place and let go: the card goes there, and the others are
    # already where the new order puts them (nothing slides back a card's step; a meld
    # group the new order forms may open its 6 px gap, --fan-gap).
    page.mouse.move(target, y, steps=4)
    waiting = lefts(page)
    page.mouse.up()
    settle(page)
    moved = cards[:1] + cards[2:6] + cards[1:2] + cards[6:]
    assert hand_cards(page) == moved
    after = dict(zip(hand_cards(page), lefts(page)))
    for i, card in enumerate(cards):
        if card != cards[1]:
            assert abs(after[card] - waiting[i]) < 7.5, (card, after[card], waiting[i])
    assert page.locator(".hand .hand-card[style*='translate']").count() == 0


@pytest.mark.alone
def test_a_card_dropped_on_the_pile_flies_from_the_drop_point(page, open_app):
    view = to_draw(page, open_moving(page, open_app, (390, 844), settings={**MOVING, "speed": "slow"}))
    page.wait_for_function("() => document.getAnimations().filter(a => a.playState === 'running').length === 0")
    button(page, "Mazo").click()
    view = settle(page)
    page.wait_for_function("() => document.getAnimations().filter(a => a.playState === 'running').length === 0")
    card = next(a["card"] for a in view["legal"] if a["type"] == "discard")
    box = page.locator(f'.hand [data-card="{card}"]').bounding_box()
    pile = page.locator(".pile.discard-pile")
    shadow = "(el) => getComputedStyle(el).boxShadow"
    page.mouse.move(box["x"] + 8, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 8, box["y"] - 40, steps=4)
    # The pile lights up as a drop target while the card is over it, not elsewhere.
    assert pile.evaluate(shadow) == "none" and pile.get_attribute("data-drop") is None
    p = pile.locator(".pile-cards").bounding_box()
    px, py = p["x"] + p["width"] / 2, p["y"] + p["height"] / 2
    page.mouse.move(px, py, steps=6)
    assert pile.evaluate(shadow) != "none" and pile.get_attribute("data-drop") == ""
    page.mouse.move(px, p["y"] + p["height"] + 120, steps=3)
    assert pile.evaluate(shadow) == "none"
    page.mouse.move(p["x"] + 6, p["y"] + 6, steps=3)  # near a corner: the card lies off the pile
    # Sample where the card is drawn from the drop until it lies on the pile.
    page.evaluate(
        """(card) => { window.__trail = []; const tick = () => {
             const n = document.querySelector(`.table [data-card='${card}'], .table [data-face='${card}']`);
             const r = n && n.getBoundingClientRect();
             window.__trail.push(r ? [r.left, r.top] : null);
             if (window.__trail.length < 60) requestAnimationFrame(tick); }; tick(); }""",
        card,
    )
    page.mouse.up()
    page.wait_for_function("() => window.__trail.length >= 60")
    trail = [xy for xy in page.evaluate("window.__trail") if xy is not None]
    end = trail[-1]
    away = [((x - end[0]) ** 2 + (y - end[1]) ** 2) ** 0.5 for x, y in trail]
    # It starts where it was let go, travels there in several steps, and never back towards the hand.
    assert away[0] > 20 and trail[0][1] < box["y"] - 100, trail
    assert len({round(a) for a in away}) >= 4, trail
    assert all(b <= a + 2 for a, b in zip(away, away[1:])), trail
    # Discarded: out of the hand (the computer's turn that follows, at slow speed, is no part of it).
    page.wait_for_function("(c) => !window.ginApp.view.hand.includes(c)", arg=card)
    assert_readable(page, "the card dropped on the pile")


def test_a_touch_drag_reorders_the_hand(phone, open_app):
    page = phone
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash="#seed=TEST-0001", settings=MANUAL)
    to_draw(page, settle(page))
    before = hand_names(page)
    cards = hand_cards(page)
    first = page.locator(f'.hand [data-card="{cards[0]}"]').bounding_box()
    last = page.locator(f'.hand [data-card="{cards[-1]}"]').bounding_box()
    y = first["y"] + first["height"] / 2
    touch(page, "touchStart", first["x"] + 8, y)
    for i in range(1, 9):
        touch(page, "touchMove", first["x"] + 8 + (last["x"] + last["width"] - 4 - first["x"] - 8) * i / 8, y)
    touch(page, "touchEnd")
    settle(page)
    assert hand_names(page) == before[1:] + before[:1]
    assert ui(page)["selected"] is None  # a drag is not a tap


# Before the page's scripts: each face a render clones (table/card-faces.js builds a card's face
# once and clones it), named by its card.
FACES_PROBE = r"""(() => {
  const clone = Node.prototype.cloneNode;
  window.__faces = [];
  Node.prototype.cloneNode = function (...args) {
    if (this.nodeType === 1 && this.classList.contains('face')) window.__faces.push(this.dataset.static);
    return clone.apply(this, args);
  };
})();"""

MARK_HAND = "() => { window.__faces = []; document.querySelectorAll('.hand .hand-card').forEach((n) => { n.__was = n.dataset.card; }); }"
# The hand as shown: each card's name, whether it is the node it was (MARK_HAND), whether its face
# is whole (two corners with their rank and suit, a middle) and what it shows besides its face
# (its attributes but the renderer's own bookkeeping and the tab stop, which input.js moves on the
# live cards, its badges).
HAND_NOW = """() => [...document.querySelectorAll('.hand .hand-card')].map((n) => ({
  card: n.dataset.card, kept: n.__was === n.dataset.card,
  whole: n.querySelectorAll(':scope > .face > .corner > .rank[data-rank]').length === 2
    && n.querySelectorAll(':scope > .face > .corner > svg.suit').length === 2 && !!n.querySelector(':scope > .face > .middle svg'),
  shows: [...n.attributes].filter((a) => !['data-static', 'data-flying', 'tabindex'].includes(a.name)).map((a) => `${a.name}=${a.value}`).sort().join('|')
    + [...n.querySelectorAll(':scope > .badge')].map((b) => `${b.className}:${b.textContent}:${b.dataset.text || ''}`).join('|') }))"""


def hand_faces_built(page, hand):
    return sorted(c for c in page.evaluate("window.__faces") if c in hand)


def test_a_move_builds_only_the_hand_cards_it_changes(page, open_app):
    """Issue 33: each render built every card of the hand again (its button, its face cloned) and
    the keyed update compared each with its live node: on a phone, a good part of a move's script.
    A card that shows the same as before is now taken as it is: a draw builds the card drawn and
    those it changed (a meld, the first card's tab stop), a selection the cards it changes; the
    hand still shows each card whole, in the view's order, on the nodes it had; a selection builds
    none of the piles' cards either. With the keyboard,
    a discarded card's place goes to its neighbour (the focus)."""
    page.add_init_script(FACES_PROBE)
    to_draw(page, setup(page, open_app, (390, 844)))
    before = {c["card"]: c["shows"] for c in page.evaluate(HAND_NOW)}
    page.evaluate(MARK_HAND)
    button(page, "Mazo").click()
    view = settle(page)
    drawn = view["drawn"]
    hand = page.evaluate(HAND_NOW)
    assert sorted(c["card"] for c in hand) == sorted(view["hand"]) and all(c["whole"] for c in hand), hand
    assert all(c["kept"] for c in hand if c["card"] != drawn), hand
    changed = sorted(c["card"] for c in hand if c["card"] == drawn or c["shows"] != before[c["card"]])
    assert len(changed) < len(hand) and hand_faces_built(page, view["hand"]) == changed, changed
    # A selection: the cards it changes (the one selected; the tab stop moves to it).
    card = next(c["card"] for c in hand if c["card"] != drawn)
    page.evaluate(MARK_HAND)
    page.locator(f'.hand [data-card="{card}"]').click(position={"x": 8, "y": 20})
    assert ui(page)["selected"] == card
    assert page.locator(f'.hand [data-card="{card}"]').get_attribute("aria-pressed") == "true"
    now = page.evaluate(HAND_NOW)
    assert [c["card"] for c in now] == [c["card"] for c in hand] and all(c["kept"] and c["whole"] for c in now), now
    changed = sorted(b["card"] for a, b in zip(hand, now) if a["shows"] != b["shows"])
    assert card in changed and len(changed) <= 2 and hand_faces_built(page, view["hand"]) == changed, changed
    # Nor the piles, whose cards it does not change (nor any other face: the rival's are kept too).
    assert sorted(page.evaluate("window.__faces")) == changed, page.evaluate("window.__faces")
    # The keyboard: the selected card thrown, its neighbour takes the focus.
    page.locator(f'.hand [data-card="{card}"]').focus()
    at = [c["card"] for c in now].index(card)
    page.keyboard.press(" ")
    view = settle(page)
    assert card not in view["hand"]
    left = [c["card"] for c in page.evaluate(HAND_NOW)]
    assert page.evaluate("document.activeElement.dataset.card") == left[min(at, len(left) - 1)]
