"""The guided first deal (issue 24): offered on a first visit, run from start
to end by following its bar, skippable at every step from the rules page
with the player's match kept as it was, and never in the statistics.

The page's "first visit" is what its storage says (play/tutorial.js firstVisit:
no settings, no match, no guide flag, no seed in the address), not the
browser's: the worker's returning visitor (`page`, `phone`: tests/e2e/conftest.py),
its storage wiped between tests, is one, so no test here needs a fresh context."""

from __future__ import annotations

import json

import pytest

from conftest import SETTINGS_KEY, assert_accessible, assert_readable
from test_coach import PHONE
from test_table import button, settle, shoot

GUIDE = "GUIA-0130"
FLAG = "gin.tutorial.v1"
RECORDS = ("gin.records.v2", "gin.finished.v1", "gin.cleared.v2")
# The guided deal's steps when followed: the upcard, the forced stock draw
# after both passed, then discards, draws and the knock (the first test plays them).
STEPS = 9


def bar(page):
    return page.locator('[data-key="tutorial-bar"]')


def storage(page, key):
    return page.evaluate("k => localStorage.getItem(k)", key)


def follow_step(page, n: int, on_pick=None) -> str:
    """Wait for guided step n, play the move its bar marks; the step's kind. When the move is a
    card to discard, on_pick() (if given) looks at the page once the card is picked."""
    page.wait_for_function("n => { const b = document.querySelector('[data-key=tutorial-bar]'); return b && b.dataset.step === String(n) && b.dataset.kind; }", arg=n)
    kind = bar(page).get_attribute("data-kind")
    text = bar(page).inner_text()
    assert "Pista:" in text, text
    target = page.evaluate("window.ginApp.ui.hintTarget")
    clicks = {"take": "Tomar", "pass": "Pasar", "stock": "Mazo", "discard": "Descarte", "knock": "Cerrar", "gin": "Gin"}
    if target in clicks:
        button(page, clicks[target]).click()
        if target in ("knock", "gin"):
            button(page, "Confirmar").click()
    else:
        assert target.startswith("card:"), target
        # Marked, not chosen: the player picks it, then discards it.
        page.locator(f'.hand [data-card="{target[5:]}"]').click(position={"x": 8, "y": 20})
        if on_pick:
            on_pick()
        button(page, "Descartar").click()
    settle(page)
    return kind


def test_a_first_visit_is_offered_the_guided_deal_which_fits_every_screen_runs_to_its_end_and_counts_nowhere(phone, open_app):
    """The offer and each step of the guided deal fit every screen (FIT_SIZES: no scrolling, the
    bar over no control); the deal runs to its end by following the bar, and counts nowhere."""
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})  # the small phone the bar was found on
    page.emulate_media(reduced_motion="reduce")
    open_app(page, settings={})  # a first visit: nothing stored, no seed in the address
    settle(page)
    assert_fits(page, "tutorial-offer", "tutorial-offer", shots=True)  # its shot at PHONE included; left there
    offer = page.get_by_role("region", name="Partida guiada")
    assert "¿Es tu primera vez?" in offer.inner_text()
    assert_readable(page, "tutorial offer")
    assert_accessible(page, "tutorial offer")
    # Its answer looks like the page's other primary buttons, not like "Ahora no".
    backgrounds = dict(offer.locator(".btn").evaluate_all("els => els.map(e => [e.textContent, getComputedStyle(e).backgroundColor])"))
    assert backgrounds["Partida guiada"] != backgrounds["Ahora no"], backgrounds
    offer.get_by_role("button", name="Partida guiada", exact=True).click()
    view = settle(page)

    def fits_picked():
        # The card picked: the longest prompt ("Has elegido …: descártala con …") under the piles.
        assert page.locator(".messages").inner_text().startswith("Has elegido")
        assert_fits(page, "tutorial-bar", "tutorial-picked", shots=True)

    kinds = []
    for n in range(1, 20):
        if page.evaluate("window.ginApp.ui.panel") == "deal":
            break
        assert page.evaluate("window.ginApp.view.seed") == GUIDE
        assert GUIDE not in page.evaluate("location.hash")  # a reload leaves the guided deal
        page.wait_for_function("n => document.querySelector('[data-key=tutorial-bar]')?.dataset.step === String(n)", arg=n)
        assert_fits(page, "tutorial-bar", f"tutorial-step{n}", shots=n in (1, 3))  # the first step, and the longest text
        if n == 2:
            assert_readable(page, "tutorial step")
            shoot(page, "tutorial-step", (PHONE["width"], PHONE["height"]))
            page.set_viewport_size({"width": 844, "height": 390})
            shoot(page, "tutorial-step", (844, 390))
            page.set_viewport_size(PHONE)
        kinds.append(follow_step(page, n, on_pick=fits_picked if n == 3 else None))
    # Each idea once: the upcard, a pile draw completing a meld, a safe discard, a knock.
    for idea in ("upcard", "pile_meld", "safe", "knock"):
        assert kinds.count(idea) == 1, kinds
    assert kinds[0] == "upcard" and kinds[-1] == "knock" and len(kinds) == STEPS
    result = page.evaluate("window.ginApp.ui.result")
    assert result["knocker"] == 0 and result["winner"] == 0
    panel = page.get_by_role("dialog", name="Mano 1", exact=False)
    assert panel.locator(".coach-summary").count() == 1  # the coach is on in the guided deal
    shoot(page, "tutorial-result", (PHONE["width"], PHONE["height"]))
    page.set_viewport_size({"width": 844, "height": 390})
    shoot(page, "tutorial-result", (844, 390))
    page.set_viewport_size(PHONE)
    button(page, "Siguiente").click()
    view = settle(page)
    assert view["seed"] != GUIDE and view["deal_number"] == 1 and view["history"] == []
    assert bar(page).count() == 0
    assert page.locator(".notices").get_by_text("Partida guiada terminada").count() == 1
    assert storage(page, FLAG) == "done"
    for key in RECORDS:
        assert storage(page, key) in (None, "[]"), key  # never counted
    saved = json.loads(storage(page, "gin.match.v1"))
    assert saved["seed"] == view["seed"]
    # Nor in the coach's chart.
    button(page, "Menú").click()
    button(page, "Estadísticas").click()
    chart = page.locator(".coach-chart")
    assert chart.get_attribute("data-matches") == "0"
    assert "Enciende el Entrenador en el menú" in chart.inner_text()
    assert storage(page, "gin.coach.v1") is None
    shoot(page, "coach-chart-empty", (PHONE["width"], PHONE["height"]))
    open_app(page, settings={}, reload=True)
    settle(page)
    assert page.get_by_role("region", name="Partida guiada").count() == 0  # never offered again


def test_the_guided_deal_can_be_skipped_at_every_step_and_leaves_the_players_match(page, open_app):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.emulate_media(reduced_motion="reduce")
    open_app(page, hash="#seed=TEST-0001", settings={"speed": "instant", "level": "normal"})
    view = settle(page)
    assert page.get_by_role("region", name="Partida guiada").count() == 0  # not a first visit
    button(page, "Pasar" if view["phase"].startswith("upcard") else "Mazo").click()
    settle(page)
    before = page.evaluate("window.ginApp.save")
    stored = storage(page, "gin.match.v1")
    records = {key: storage(page, key) for key in RECORDS}
    steps = STEPS
    for k in range(steps):
        button(page, "Menú").click()
        button(page, "Cómo se juega").click()
        page.get_by_role("dialog", name="Cómo se juega").get_by_role("button", name="Partida guiada").click()
        settle(page)
        assert page.evaluate("window.ginApp.view.seed") == GUIDE
        for n in range(1, k + 1):
            follow_step(page, n)
        page.wait_for_function("n => document.querySelector('[data-key=tutorial-bar]')?.dataset.step === String(n)", arg=k + 1)
        if k == 3:
            assert_readable(page, "tutorial bar, desktop")
            shoot(page, "tutorial-step", (1280, 800))
        bar(page).get_by_role("button", name="Saltar la guía").click()
        view = settle(page)
        assert bar(page).count() == 0, k
        assert view["seed"] == "TEST-0001" and page.evaluate("window.ginApp.save") == before, k
        assert storage(page, "gin.match.v1") == stored, k
        assert {key: storage(page, key) for key in RECORDS} == records, k
        assert storage(page, FLAG) == "skipped"
    assert "TEST-0001" in page.evaluate("location.hash")
    stored_settings = json.loads(storage(page, SETTINGS_KEY))
    assert stored_settings.get("coach") in (None, False)  # the guide's coach is not the player's setting


# The player's controls and cards: what the guided deal's bar must never cover.
CONTROLS = ".topbar .btn, .pile, .hand .hand-card, .actions .btn, .opp-cards, .hand-info > *, .messages > *"


def covered(page, key):
    """The player's controls and cards (CONTROLS) that the element `data-key=key` lies over."""
    return page.evaluate(
        """([key, sel]) => {
            const b = document.querySelector(`[data-key=${key}]`).getBoundingClientRect();
            return [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length).filter(e => {
                const r = e.getBoundingClientRect();
                return r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom;
            }).map(e => e.dataset.key || e.dataset.card || e.className);
        }""",
        [key, CONTROLS],
    )


# Where the bar must fit: the small phone it was found on, both phones turned sideways, a
# desktop, and last the usual phone, the size the first test plays at (assert_fits leaves the
# page there: no resize back).
FIT_SIZES = ((360, 740), (844, 390), (740, 360), (1280, 800), (390, 844))


def assert_fits(page, bar_key, where, shots=False):
    """At each of FIT_SIZES: the page no bigger than the screen, and the bar over no control; the
    page is left at the last, the phone (PHONE) the first test plays at."""
    for size in FIT_SIZES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        if shots:
            shoot(page, where, size)
        (tall, wide), screen = page.evaluate("[[document.documentElement.scrollHeight, document.documentElement.scrollWidth], [innerHeight, innerWidth]]")
        assert tall <= screen[0] and wide <= screen[1], f"{where} at {size}: the page is {wide}×{tall} px on a {screen[1]}×{screen[0]} px screen"
        hits = covered(page, bar_key)
        assert not hits, f"{where} at {size}: the bar covers {hits}"
